package intent

import (
	"fmt"
	"math/big"
	"strings"
)

// Slippage tolerance of an order's minimum output, in basis points of the quoted output.
const (
	// DefaultSlippageBps is 0.5%, the default of the common swap interfaces (Uniswap's among
	// them) for pairs that are not stable against each other.
	DefaultSlippageBps = 50
	// MaxSlippageBps refuses tolerances that amount to "any price": 10%.
	MaxSlippageBps = 1000
)

// Quote is what a swap or bridge order promises the recipient, in display units of tokenOut.
type Quote struct {
	// AmountOut is the quoted output: the input at the tokens' USD prices (one for one between
	// tokens of the same symbol), less the protocol and solver fees.
	AmountOut string `json:"amountOut"`
	// MinAmountOut is AmountOut less the slippage tolerance, rounded down: the least the order
	// lets a filler deliver. The settlement contract enforces it.
	MinAmountOut string `json:"minAmountOut"`
	// SlippageBps is the tolerance applied, the request's or DefaultSlippageBps.
	SlippageBps int `json:"slippageBps"`
	// GasOnArrival is the native token delivered with the output and its cost, which AmountOut
	// already has taken off; nil when the request asked for none.
	GasOnArrival *GasOnArrivalQuote `json:"gasOnArrival,omitempty"`
	// IntegratorFee is the Account's integrator fee the order carries, apart from the service's
	// fees (estimatedFees), which AmountOut already has taken off; nil without one.
	IntegratorFee *IntegratorFeeQuote `json:"integratorFee,omitempty"`
	// TradeType is the request's: exactInput, or exactOutput (AmountOut and MinAmountOut are
	// then the exact amount the recipient receives, and AmountIn the input quoted for it).
	TradeType TradeType `json:"tradeType,omitempty"`
	// AmountIn is what the order escrows, in display units of the input token: the request's
	// amount for an exact input; for an exact output the input needed raised by the slippage
	// tolerance, or the winning filler's ask. The user gives up exactly this.
	AmountIn string `json:"amountIn,omitempty"`
}

// quoteOrder fills the plan's output amounts. A transfer delivers exactly its amount. An order
// converts through the USD prices, unless both tokens have the same symbol (the same asset on two
// chains, or wrapped and native ETH named alike): then one for one, rescaled to the output's
// decimals. A pair it cannot price leaves the plan without a minimum and records why.
func quoteOrder(plan *Plan, r resolved, fee StepFee, slippageBps int) {
	plan.SlippageBps = slippageBps
	if plan.Type == TypeTransfer {
		plan.AmountOut, plan.MinAmountOut = plan.Amount, plan.Amount
		return
	}
	if !r.hasTokenOut {
		return // no route: checkRoute has refused the bridge
	}
	if plan.TradeType == TradeExactOutput {
		quoteExactOutput(plan, r, fee, slippageBps)
		return
	}
	rate, err := conversionRate(r.tokenIn, r.tokenOut)
	if err != nil {
		plan.Errors = append(plan.Errors, err.Error())
		return
	}
	// The percentage fees, the service's and the integrator's, are of the whole amount
	// (estimatedFees says so); the gas on arrival is bought from what they leave, and the rest is
	// converted.
	out := new(big.Rat).Mul(new(big.Rat).SetInt(plan.Amount), big.NewRat(int64(BpsDenominator-fee.ProtocolBps-fee.SolverBps), BpsDenominator))
	if f := plan.IntegratorFee; f != nil {
		// The integrator's fee is its share of the whole amount, which the filler is not paid.
		out.Sub(out, new(big.Rat).SetInt(f.Amount))
	}
	if plan.NativeDrop != nil {
		cost, err := GasOnArrivalCost(r.toNative, r.tokenIn, plan.NativeDrop)
		if err != nil {
			plan.Errors = append(plan.Errors, err.Error())
			return
		}
		plan.GasOnArrivalCost = cost
		if out.Sub(out, new(big.Rat).SetInt(cost)); out.Sign() <= 0 {
			plan.Errors = append(plan.Errors, fmt.Sprintf("amount %s %s is too small to pay the gas on arrival: %s %s costs %s %s",
				FormatAmount(plan.Amount, r.tokenIn.Decimals), r.tokenIn.Symbol, FormatAmount(plan.NativeDrop, r.to.NativeDecimals),
				r.to.NativeSymbol, FormatAmount(cost, r.tokenIn.Decimals), r.tokenIn.Symbol))
			return
		}
	}
	out.Mul(out, rate)
	plan.AmountOut = floor(out)
	minimum := out.Mul(out, big.NewRat(int64(BpsDenominator-slippageBps), BpsDenominator))
	plan.MinAmountOut = floor(minimum)
	if plan.MinAmountOut.Sign() == 0 {
		plan.Errors = append(plan.Errors, fmt.Sprintf("amount %s %s is too small: the minimum output rounds to 0 %s",
			FormatAmount(plan.Amount, r.tokenIn.Decimals), r.tokenIn.Symbol, r.tokenOut.Symbol))
	}
}

// quoteExactOutput is quoteOrder inverted, for an exact output (plan.AmountOut, set by Prepare):
// the input needed is the least whose forward quote delivers the output, the percentage fees
// and the gas on arrival's cost included,
//
//	needed = ceil((amountOut / rate + gasOnArrivalCost) / (1 - (protocol + solver) bps)),
//
// rounded up, so that the recipient never receives less than asked and a filler pricing at the
// feeds is never short. The slippage tolerance applies to the input: the order escrows needed
// raised by slippageBps (rounded up), so that a filler can still fill when the price moves by that
// much. The output does not move: amountOut = minAmountOut = the exact amount. plan.Amount is the
// escrow, which every later step (the order, the balance, the allowance, the limits, the fees)
// reads as the order's input.
func quoteExactOutput(plan *Plan, r resolved, fee StepFee, slippageBps int) {
	exact := plan.AmountOut
	plan.Amount = new(big.Int) // an order that cannot be priced escrows nothing
	rate, err := conversionRate(r.tokenIn, r.tokenOut)
	if err != nil {
		plan.Errors = append(plan.Errors, err.Error())
		return
	}
	gross := new(big.Rat).Quo(new(big.Rat).SetInt(exact), rate)
	if plan.NativeDrop != nil {
		cost, err := GasOnArrivalCost(r.toNative, r.tokenIn, plan.NativeDrop)
		if err != nil {
			plan.Errors = append(plan.Errors, err.Error())
			return
		}
		plan.GasOnArrivalCost = cost
		gross.Add(gross, new(big.Rat).SetInt(cost))
	}
	needed := ceil(gross.Mul(gross, big.NewRat(BpsDenominator, int64(BpsDenominator-fee.ProtocolBps-fee.SolverBps))))
	plan.AmountInQuoted = needed
	plan.Amount = EscrowOf(needed, slippageBps)
	plan.MinAmountOut = new(big.Int).Set(exact)
}

// EscrowOf is what an exact output's order escrows for the input needed: needed raised by the
// slippage tolerance, rounded up.
func EscrowOf(needed *big.Int, slippageBps int) *big.Int {
	return ceil(new(big.Rat).SetFrac(new(big.Int).Mul(needed, big.NewInt(int64(BpsDenominator+slippageBps))), big.NewInt(BpsDenominator)))
}

// conversionRate is base units of tokenOut per base unit of tokenIn.
func conversionRate(in, out token) (*big.Rat, error) {
	scale := new(big.Rat).SetFrac(pow10(int(out.Decimals)), pow10(int(in.Decimals)))
	if strings.EqualFold(in.Symbol, out.Symbol) {
		return scale, nil
	}
	priceIn, errIn := ParseDecimal(in.PriceUSD)
	priceOut, errOut := ParseDecimal(out.PriceUSD)
	if errIn != nil || errOut != nil || priceIn.Sign() == 0 || priceOut.Sign() == 0 {
		return nil, fmt.Errorf("no quote from %s to %s: both tokens need a USD price to set the order's minimum output", in.Symbol, out.Symbol)
	}
	rate := new(big.Rat).Quo(priceIn, priceOut)
	return rate.Mul(rate, scale), nil
}

// floor rounds a non-negative rational down to an integer.
func floor(r *big.Rat) *big.Int {
	return new(big.Int).Quo(r.Num(), r.Denom())
}

// Quote is what the plan's order promises, in display units of the output token: the quote of a
// simulation and of a created intent; nil for a transfer or an order it could not price.
func (p Plan) Quote() *Quote {
	tokenOut := p.tokenOut
	if p.Type == TypeTransfer || p.MinAmountOut == nil {
		return nil
	}
	return &Quote{
		AmountOut:     FormatAmount(p.AmountOut, tokenOut.Decimals),
		MinAmountOut:  FormatAmount(p.MinAmountOut, tokenOut.Decimals),
		SlippageBps:   p.SlippageBps,
		GasOnArrival:  p.gasOnArrivalQuote(),
		IntegratorFee: p.integratorFeeQuote(),
		TradeType:     p.tradeType(),
		AmountIn:      FormatAmount(p.Amount, p.TokenIn.Decimals),
	}
}

// tradeType is the plan's trade type, exactInput when unset.
func (p Plan) tradeType() TradeType {
	if p.TradeType == "" {
		return TradeExactInput
	}
	return p.TradeType
}
