package intent

import (
	"context"
	"fmt"
	"math/big"
)

// price fills GasUnits and Fees, checks known balances, and adds the warnings of each step.
func (s *Service) price(ctx context.Context, r resolved, plan *Plan, callData []byte) error {
	gasPrice, err := s.gasPrice(ctx, r, plan)
	if err != nil {
		return err
	}
	if plan.GasUnits, err = s.gasUnits(ctx, r, plan, callData); err != nil {
		return err
	}
	var gasWei *big.Int
	if gasPrice != nil {
		gasWei = new(big.Int).Mul(new(big.Int).SetUint64(plan.GasUnits), gasPrice)
	}
	if err := s.checkBalances(ctx, r, plan, gasWei); err != nil {
		return err
	}
	plan.Fees = s.computeFees(r, plan, gasPrice)
	return nil
}

// gasPrice asks chain data first and falls back to the chain's default: a node outage degrades
// the quote, it does not fail the simulation.
func (s *Service) gasPrice(ctx context.Context, r resolved, plan *Plan) (*big.Int, error) {
	price, err := s.chainData.GasPrice(ctx, r.from)
	if err == nil && price != nil {
		return price, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if r.from.DefaultGasPriceWei != nil {
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("gas price of %s unavailable (%v): using the chain's default", r.from.ID, err))
		return r.from.DefaultGasPriceWei, nil
	}
	plan.Warnings = append(plan.Warnings, fmt.Sprintf("gas price of %s unknown: gasUsd counts gas as 0", r.from.ID))
	return nil, nil
}

// gasUnits prefers a chain estimate of the actual tx; otherwise the per-step defaults. A failed
// estimate is a warning: on a live node it often means the tx would revert (missing allowance).
func (s *Service) gasUnits(ctx context.Context, r resolved, plan *Plan, callData []byte) (uint64, error) {
	if plan.Tx != nil {
		units, known, err := s.chainData.EstimateGas(ctx, r.from, r.fromAddr, *plan.Tx)
		switch {
		case err != nil && ctx.Err() != nil:
			return 0, ctx.Err()
		case err != nil:
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("gas estimation failed (%v): using default gas units", err))
		case known:
			return units, nil
		}
	}
	if plan.Type == TypeTransfer && !r.tokenIn.native {
		callData = nil // an ERC-20 transfer does not carry it (addReasons refuses the pair)
	}
	return DefaultGasUnits(plan.ResolvedPath, r.tokenIn.native, callData), nil
}

// balanceNeed is what the holder must hold of one token.
type balanceNeed struct {
	tok   token
	need  *big.Int
	field string
}

// checkBalances refuses with 422 when a known balance is short (the contract lists insufficient
// funds as validation-failed). The amount and, for the native token, the gas are both needed.
func (s *Service) checkBalances(ctx context.Context, r resolved, plan *Plan, gasWei *big.Int) error {
	needs := balanceNeeds(r, plan.Amount, gasWei)
	verified := true
	for _, n := range needs {
		bal, known, err := s.chainData.Balance(ctx, r.from, n.tok.Token, r.fromAddr)
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil || !known || bal == nil {
			verified = false
			continue
		}
		if bal.Cmp(n.need) < 0 {
			return validationFailed(n.field, "insufficient balance: %s holds %s %s, the intent needs %s %s",
				r.fromAddr.Hex(), FormatAmount(bal, n.tok.Decimals), n.tok.Symbol, FormatAmount(n.need, n.tok.Decimals), n.tok.Symbol)
		}
	}
	if !verified {
		plan.Warnings = append(plan.Warnings, WarningBalanceNotVerified)
	}
	return nil
}

func balanceNeeds(r resolved, amount, gasWei *big.Int) []balanceNeed {
	if r.tokenIn.native {
		need := new(big.Int).Set(amount)
		if gasWei != nil {
			need.Add(need, gasWei)
		}
		return []balanceNeed{{tok: r.tokenIn, need: need, field: "amount"}}
	}
	needs := []balanceNeed{{tok: r.tokenIn, need: amount, field: "amount"}}
	if gasWei != nil && gasWei.Sign() > 0 {
		needs = append(needs, balanceNeed{tok: nativeToken(r.from), need: gasWei, field: "from"})
	}
	return needs
}

// computeFees warns about each unknown price it had to count as zero. The token price only
// matters when the path charges a percentage.
func (s *Service) computeFees(r resolved, plan *Plan, gasPrice *big.Int) Fees {
	bps := s.fees.For(plan.ResolvedPath)
	in := FeeInputs{
		GasUnits: plan.GasUnits, GasPriceWei: gasPrice, NativeDecimals: r.from.NativeDecimals,
		Amount: plan.Amount, TokenDecimals: r.tokenIn.Decimals, Bps: bps,
	}
	var err error
	if in.NativePriceUSD, err = ParseDecimal(r.from.NativeTokenPriceUSD); err != nil {
		in.NativePriceUSD = nil
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("%s has no USD price for %s: gasUsd counts gas as 0", r.from.ID, r.from.NativeSymbol))
	}
	if in.TokenPriceUSD, err = ParseDecimal(r.tokenIn.PriceUSD); err != nil {
		in.TokenPriceUSD = nil
		if bps.ProtocolBps+bps.SolverBps > 0 {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("%s has no USD price: totalUsd excludes the %d bps of protocol and solver fees",
				r.tokenIn.Symbol, bps.ProtocolBps+bps.SolverBps))
		}
	}
	return ComputeFees(in)
}
