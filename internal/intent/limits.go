package intent

import (
	"fmt"
	"math/big"
)

// Limits are the least and the most amount a swap or bridge route accepts, in display units of
// the asset given up (like the request's amount): SimulationResult.limits, and the details of a
// refused amount.
type Limits struct {
	// MinAmount is where the fees (gas, protocol and solver) would take the service's fee share of
	// the amount (all of it by default): a smaller amount is refused.
	MinAmount string `json:"minAmount"`
	// MaxAmount is the most one order may give up, as the token's fillers declare it in the
	// TokenDefinition's spec.limits.maxAmount; absent when none is declared.
	MaxAmount string `json:"maxAmount,omitempty"`
	// Symbol is the asset's symbol.
	Symbol string `json:"symbol"`
}

// Limits are the plan's route limits in display units; nil for a transfer.
func (p Plan) Limits() *Limits {
	if p.MinAmountIn == nil {
		return nil
	}
	l := &Limits{MinAmount: FormatAmount(p.MinAmountIn, p.TokenIn.Decimals), Symbol: p.TokenIn.Symbol}
	if p.MaxAmountIn != nil {
		l.MaxAmount = FormatAmount(p.MaxAmountIn, p.TokenIn.Decimals)
	}
	return l
}

// checkLimits refuses an amount outside the route's limits with 422 validation-failed on the
// amount, as a short balance is refused: the request is well-formed, its amount is not one the
// route takes. The details carry the limits (minAmount, maxAmount when declared), the symbol and
// the requested amount, in display units.
func (s *Service) checkLimits(plan Plan) error {
	if plan.MinAmountIn == nil || (plan.TradeType == TradeExactOutput && plan.MinAmountOut == nil) {
		return nil
	}
	limits := plan.Limits()
	requested := FormatAmount(plan.Amount, plan.TokenIn.Decimals)
	what := "amount"
	if plan.TradeType == TradeExactOutput {
		what = "the exact output's escrow" // the request's amount is the output
	}
	var p *Problem
	switch {
	case plan.Amount.Cmp(plan.MinAmountIn) < 0:
		p = validationFailed("amount", "%s %s %s is below this route's minimum of %s %s: the fees (gas, protocol and solver) would take more than %s of it",
			what, requested, limits.Symbol, limits.MinAmount, limits.Symbol, shareText(s.feeShare))
	case plan.MaxAmountIn != nil && plan.Amount.Cmp(plan.MaxAmountIn) > 0:
		p = validationFailed("amount", "%s %s %s is above this route's maximum of %s %s, the most its fillers declare they fill",
			what, requested, limits.Symbol, limits.MaxAmount, limits.Symbol)
	default:
		return nil
	}
	p.Details = map[string]any{"minAmount": limits.MinAmount, "symbol": limits.Symbol, "requested": requested}
	if limits.MaxAmount != "" {
		p.Details["maxAmount"] = limits.MaxAmount
	}
	return p
}

// shareText is a share in basis points as a percentage: "all" for 100%.
func shareText(bps uint32) string {
	if bps == BpsDenominator {
		return "all"
	}
	return FormatAmount(big.NewInt(int64(bps)), 2) + "%"
}

// keepFirmMinimum keeps the simulated route minimum on a create that keeps the simulation's fees:
// the amount the simulation accepted stays accepted while its quote holds. The maximum is always
// the current declaration (a filler that lowered it would not fill the larger order).
func keepFirmMinimum(plan *Plan, q SimulatedQuote) error {
	if q.MinAmountIn == "" || plan.MinAmountIn == nil {
		return nil
	}
	minimum, ok := new(big.Int).SetString(q.MinAmountIn, 10)
	if !ok {
		return fmt.Errorf("simulation %s holds a malformed minAmountIn %q", q.ID, q.MinAmountIn)
	}
	plan.MinAmountIn = minimum
	return nil
}

// checkMaxAmountIn refuses an exact output whose escrow (the input quoted, slippage included, or
// the winning filler's ask) is above the request's maxAmountIn: 422 validation-failed on
// maxAmountIn, with the escrow required and the bound in display units of the input token.
func checkMaxAmountIn(plan Plan, p Parsed, r resolved) error {
	if plan.TradeType != TradeExactOutput || p.MaxAmountIn == "" {
		return nil
	}
	most, err := ParseAmount(p.MaxAmountIn, r.tokenIn.Decimals)
	if err != nil {
		return validationFailed("maxAmountIn", "maxAmountIn %q for %s (%d decimals): %v", p.MaxAmountIn, r.tokenIn.Symbol, r.tokenIn.Decimals, err)
	}
	if plan.MinAmountOut == nil || plan.Amount.Cmp(most) <= 0 {
		return nil // an order without a quote is valid:false already
	}
	required := FormatAmount(plan.Amount, r.tokenIn.Decimals)
	pr := validationFailed("maxAmountIn", "the exact output of %s %s needs an escrow of %s %s, above maxAmountIn %s %s",
		FormatAmount(plan.MinAmountOut, r.tokenOut.Decimals), r.tokenOut.Symbol, required, r.tokenIn.Symbol, p.MaxAmountIn, r.tokenIn.Symbol)
	pr.Details = map[string]any{"required": required, "maxAmountIn": FormatAmount(most, r.tokenIn.Decimals), "symbol": r.tokenIn.Symbol}
	return pr
}
