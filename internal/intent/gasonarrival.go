package intent

import (
	"fmt"
	"math/big"
)

// Gas on arrival (issue 45): a swap or bridge may ask for an amount of the destination chain's
// native token to arrive with its output, so that a recipient who holds none can spend what it
// received. The order carries it as its nativeDropAmount, which the settlement contract makes the
// filler pay to the recipient with the fill (msg.value). The user pays for it out of the output:
// the amount given up stays the request's amount, and the quote's amountOut is the output of the
// amount less the percentage fees and less the drop's cost, valued in the input token at the
// prices the quote converts with (docs/decisions.md, "Gas on arrival").

// GasOnArrivalQuote is the quote's gas on arrival line.
type GasOnArrivalQuote struct {
	// Amount is what arrives, in display units of the destination chain's native token (Symbol).
	Amount string `json:"amount"`
	Symbol string `json:"symbol"`
	// Cost is what it costs, in display units of the input token (CostSymbol), rounded up.
	Cost       string `json:"cost"`
	CostSymbol string `json:"costSymbol"`
}

// checkGasOnArrival parses the request's gas on arrival into base units of the destination
// chain's native token and checks it against the chain's bound: nil when the request has none.
// Every refusal is 422 validation-failed: a transfer (it has no order to carry a drop: a native
// transfer sends native token itself), a destination chain whose Chain sets no maxGasOnArrival,
// an amount that is zero, finer than the native token's decimals, or above the bound.
func (r resolved) checkGasOnArrival(p Parsed) (*big.Int, error) {
	if p.GasOnArrival == "" {
		return nil, nil
	}
	if p.Type() == TypeTransfer {
		return nil, validationFailed("gasOnArrival", "gasOnArrival is for swaps and bridges, whose filler delivers it with the output; "+
			"a transfer on one chain has no filler (send %s to the recipient as its own transfer)", r.to.NativeSymbol)
	}
	limit := r.to.MaxGasOnArrival
	if limit == nil {
		p := validationFailed("gasOnArrival", "gas on arrival is not offered on %s (its Chain sets no maxGasOnArrival)", r.to.ID)
		p.Details = map[string]any{"chainId": r.to.ID}
		return nil, p
	}
	drop, err := ParseAmount(p.GasOnArrival, r.to.NativeDecimals)
	if err != nil {
		return nil, validationFailed("gasOnArrival.amount", "gasOnArrival.amount %q of %s (%d decimals): %v",
			p.GasOnArrival, r.to.NativeSymbol, r.to.NativeDecimals, err)
	}
	if drop.Cmp(limit) > 0 {
		most := FormatAmount(limit, r.to.NativeDecimals)
		p := validationFailed("gasOnArrival.amount", "gasOnArrival.amount %s %s is above the most %s offers, %s %s",
			p.GasOnArrival, r.to.NativeSymbol, r.to.ID, most, r.to.NativeSymbol)
		p.Details = map[string]any{"maxGasOnArrival": most, "symbol": r.to.NativeSymbol, "chainId": r.to.ID}
		return nil, p
	}
	return drop, nil
}

// GasOnArrivalCost is the cost of drop (base units of the destination chain's native token) in
// base units of the input token, rounded up so that the filler who pays the drop is never short:
// drop x conversionRate(destination native, input token), the rate the quote converts the
// input with. The user is never charged more than the quote shows: amountOut is computed from
// this rounded cost, and the quote shows it.
func GasOnArrivalCost(native, in token, drop *big.Int) (*big.Int, error) {
	rate, err := conversionRate(native, in)
	if err != nil {
		return nil, fmt.Errorf("no price for the gas on arrival: %s and %s need USD prices to value %s in %s",
			native.Symbol, in.Symbol, native.Symbol, in.Symbol)
	}
	return ceil(rate.Mul(rate, new(big.Rat).SetInt(drop))), nil
}

// gasOnArrivalQuote is the plan's gas on arrival line; nil without one.
func (p Plan) gasOnArrivalQuote() *GasOnArrivalQuote {
	if p.NativeDrop == nil || p.GasOnArrivalCost == nil {
		return nil
	}
	return &GasOnArrivalQuote{
		Amount: FormatAmount(p.NativeDrop, p.ToChain.NativeDecimals), Symbol: p.ToChain.NativeSymbol,
		Cost: FormatAmount(p.GasOnArrivalCost, p.TokenIn.Decimals), CostSymbol: p.TokenIn.Symbol,
	}
}
