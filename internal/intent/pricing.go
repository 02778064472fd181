package intent

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// price reads the chain once (balances, fees, the estimate of the transaction), then fills
// GasUnits and Fees, checks the balances it learnt, and adds the warnings of each step.
func (s *Service) price(ctx context.Context, r resolved, plan *Plan, p Parsed) error {
	callData := p.CallData
	needs := balanceNeeds(r, plan.Gasless != nil, amountField(p))
	assets := pricedAssets(r, s.fees.For(plan.ResolvedPath))
	q := ChainQuery{Holder: r.fromAddr, Tx: plan.Tx, Amount: plan.Amount, Kind: plan.Type, Feeds: feedAddresses(assets)}
	for _, n := range needs {
		q.Tokens = append(q.Tokens, n.tok.Token)
	}
	// An order pulls an ERC-20 with transferFrom: the settlement contract needs an allowance, or
	// Permit2 does for a gasless order. The user sends no transaction of a gasless order, so
	// there is none to estimate: the filler's openFor gas is the default of its steps.
	if plan.Type != TypeTransfer && !r.tokenIn.native && plan.Tx != nil {
		q.Allowance = &AllowanceQuery{Token: r.tokenIn.Token, Spender: common.HexToAddress(plan.Tx.To)}
	}
	if plan.Gasless != nil {
		q.Allowance.Spender, q.Tx = plan.Gasless.Permit2, nil
	}
	if plan.Type != TypeTransfer && plan.Tx != nil {
		settler := common.HexToAddress(plan.Tx.To)
		q.Contract = &settler
	}
	state, err := s.chainData.Read(ctx, r.from, q)
	readErr := err
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// A node outage degrades the quote to the static defaults; it does not fail the request.
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("%s (%v): gas and balances are the chain's defaults", WarningChainUnavailable, err))
		state = ChainState{}
	}
	if state.ContractMissing {
		// open() on an address without code succeeds and does nothing: the value sent is lost.
		plan.Errors = append(plan.Errors, fmt.Sprintf("the settlement contract %s of %s holds no code: an order sent there would lose its funds (is the Chain's settlementAddress right, and the contract deployed?)",
			plan.Tx.To, r.from.ID))
	}
	gasPrice := s.gasPrice(r, plan, state, err == nil)
	plan.GasUnits = s.gasUnits(r, plan, state, callData)
	var gasWei *big.Int
	if gasPrice != nil {
		gasWei = new(big.Int).Mul(new(big.Int).SetUint64(plan.GasUnits), gasPrice)
	}
	if err := checkBalances(r, plan, state, needs, gasWei); err != nil {
		return err
	}
	if q.Allowance != nil && state.Allowance != nil {
		plan.allowanceKnown = true
		if state.Allowance.Cmp(plan.Amount) < 0 {
			if plan.Approval, err = approval(r, plan, q.Allowance.Spender, state.Allowance); err != nil {
				return err
			}
		}
	}
	in := s.feeInputs(r, *plan, gasPrice, s.prices(plan, assets, state, readErr))
	plan.Fees = s.computeFees(r, plan, in)
	if plan.Type != TypeTransfer {
		plan.MinAmountIn = MinAmount(in, r.tokenIn.native, s.feeShare)
		plan.MaxAmountIn = r.tokenIn.MaxAmount
		if !r.tokenIn.native && in.TokenPriceUSD == nil && gasPrice != nil && in.NativePriceUSD != nil {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("%s has no USD price: limits.minAmount leaves gas out", r.tokenIn.Symbol))
		}
	}
	return nil
}

// gasPrice is the chain's answer, else the chain's default.
func (s *Service) gasPrice(r resolved, plan *Plan, state ChainState, answered bool) *big.Int {
	switch {
	case state.GasPrice != nil:
		return state.GasPrice
	case r.from.DefaultGasPriceWei != nil:
		if answered {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("gas price of %s unavailable: using the chain's default", r.from.ID))
		}
		return r.from.DefaultGasPriceWei
	}
	plan.Warnings = append(plan.Warnings, fmt.Sprintf("gas price of %s unknown: gasUsd counts gas as 0", r.from.ID))
	return nil
}

// gasUnits prefers the chain's estimate of the actual tx; otherwise the per-step defaults. A
// refused estimate is a warning: on a live node it often means the tx would revert (a missing
// allowance, say).
func (s *Service) gasUnits(r resolved, plan *Plan, state ChainState, callData []byte) uint64 {
	switch {
	case state.EstimateError != nil:
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("gas estimation failed (%v): using default gas units", state.EstimateError))
	case state.GasUnits > 0:
		if plan.Tx != nil {
			plan.Tx.Gas = state.GasUnits
		}
		return state.GasUnits
	}
	if plan.Type == TypeTransfer && !r.tokenIn.native {
		callData = nil // an ERC-20 transfer does not carry it (addReasons refuses the pair)
	}
	return DefaultGasUnits(plan.ResolvedPath, r.tokenIn.native, callData)
}

// balanceNeed is a token the holder must hold, and the request field that names it.
type balanceNeed struct {
	tok   token
	field string
	// amount: the need is the order's input (plan.Amount), besides any gas.
	amount bool
}

// amountField is the request field that sets what the user gives up: amount, or for an exact
// output with a maxAmountIn, maxAmountIn (the amount is then the output).
func amountField(p Parsed) string {
	if p.ExactOutput && p.MaxAmountIn != "" && p.Type() != TypeTransfer {
		return "maxAmountIn"
	}
	return "amount"
}

// balanceNeeds are the asset and, when the asset is an ERC-20, the native token that pays gas
// (unless a filler pays it: gasless). field names the request's field of the amount given up.
func balanceNeeds(r resolved, gasless bool, field string) []balanceNeed {
	needs := []balanceNeed{{tok: r.tokenIn, field: field, amount: true}}
	if !r.tokenIn.native && !gasless {
		needs = append(needs, balanceNeed{tok: nativeToken(r.from), field: "from"})
	}
	return needs
}

// checkBalances refuses with 422 when a known balance is short (the contract lists insufficient
// funds as validation-failed): the amount of the asset and the gas in the native token, both from
// the native balance when the asset is native.
func checkBalances(r resolved, plan *Plan, state ChainState, needs []balanceNeed, gasWei *big.Int) error {
	verified := true
	for _, n := range needs {
		need := new(big.Int)
		if n.tok.native && gasWei != nil {
			need.Set(gasWei)
		}
		if n.amount {
			need.Add(need, plan.Amount)
		}
		bal := state.Balances[n.tok.Address]
		if bal == nil {
			verified = false
			continue
		}
		if bal.Cmp(need) < 0 {
			return insufficientFunds(r, n, bal, need)
		}
	}
	if !verified {
		plan.Warnings = append(plan.Warnings, WarningBalanceNotVerified)
	}
	return nil
}

// insufficientFunds is the 422 of a short balance, with the amounts in display units.
func insufficientFunds(r resolved, n balanceNeed, available, required *big.Int) error {
	p := validationFailed(n.field, "insufficient balance: %s holds %s %s, the intent needs %s %s",
		r.fromAddr.Hex(), FormatAmount(available, n.tok.Decimals), n.tok.Symbol, FormatAmount(required, n.tok.Decimals), n.tok.Symbol)
	p.Details = map[string]any{
		"asset":     n.tok.Address,
		"symbol":    n.tok.Symbol,
		"required":  FormatAmount(required, n.tok.Decimals),
		"available": FormatAmount(available, n.tok.Decimals),
	}
	return p
}

// usdPrices are the prices the fees use, nil when unknown.
type usdPrices struct {
	native, token *big.Rat
}

// prices decides the price of each asset the fees need (feed or typed) and lists them on the plan.
func (s *Service) prices(plan *Plan, assets []pricedAsset, state ChainState, readErr error) usdPrices {
	now := s.clock.Now()
	plan.Prices = []Price{}
	var out usdPrices
	for _, a := range assets {
		usd, p := usdPrice(plan, a, state, readErr, now)
		if p != nil {
			plan.Prices = append(plan.Prices, *p)
		}
		if !s.typedPricesLive {
			requireFeeds(plan, a, p)
		}
		if a.gas {
			out.native = usd
		}
		if a.notional {
			out.token = usd
		}
	}
	return out
}

// feeInputs are what the plan's fees, and its route's minimum amount, are computed from.
func (s *Service) feeInputs(r resolved, plan Plan, gasPrice *big.Int, prices usdPrices) FeeInputs {
	return FeeInputs{
		GasUnits: plan.GasUnits, GasPriceWei: gasPrice, NativeDecimals: r.from.NativeDecimals,
		Amount: plan.Amount, TokenDecimals: r.tokenIn.Decimals, Bps: s.fees.For(plan.ResolvedPath),
		NativePriceUSD: prices.native, TokenPriceUSD: prices.token, IntegratorBps: plan.integratorFeeBps(),
	}
}

// computeFees warns about each unknown price it had to count as zero. The token price only
// matters when the path charges a percentage.
func (s *Service) computeFees(r resolved, plan *Plan, in FeeInputs) Fees {
	bps := in.Bps
	if in.NativePriceUSD == nil {
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("%s has no USD price for %s: gasUsd counts gas as 0", r.from.ID, r.from.NativeSymbol))
	}
	if in.TokenPriceUSD == nil && bps.ProtocolBps+bps.SolverBps+in.IntegratorBps > 0 {
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("%s has no USD price: totalUsd excludes the %d bps of protocol, solver and integrator fees",
			r.tokenIn.Symbol, bps.ProtocolBps+bps.SolverBps+in.IntegratorBps))
	}
	return ComputeFees(in)
}

// approval is the approve transaction that lifts the holder's allowance toward spender to the
// order's amount: exactly, no unlimited approvals on the user's behalf, except of Permit2 for a
// gasless order (OneTime). Permit2 is meant to be approved so, once per token: each order's
// signature then says what it may pull, and nothing else can pull through it.
func approval(r resolved, plan *Plan, spender common.Address, current *big.Int) (*Approval, error) {
	approve := plan.Amount
	if plan.Gasless != nil {
		approve = maxUint256
	}
	data, err := ERC20ApproveData(spender, approve)
	if err != nil {
		return nil, err
	}
	return &Approval{
		OneTime:   plan.Gasless != nil,
		Token:     r.tokenIn.Address,
		Spender:   spender.Hex(),
		Amount:    FormatAmount(plan.Amount, r.tokenIn.Decimals),
		Allowance: FormatAmount(current, r.tokenIn.Decimals),
		Tx:        Tx{To: r.tokenIn.addr.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: plan.Tx.ChainID},
	}, nil
}
