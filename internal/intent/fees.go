package intent

import (
	"fmt"
	"math/big"
)

// BpsDenominator is 100%: fees are in basis points of the notional.
const BpsDenominator = 10_000

// StepFee is the fee the operator charges for one kind of step, in basis points of the notional.
// The protocol fee goes to the operator, the solver fee to whoever fills the order.
type StepFee struct {
	ProtocolBps uint32
	SolverBps   uint32
}

// FeeSchedule is the operator's fee configuration, one StepFee per step kind.
type FeeSchedule struct {
	Transfer StepFee
	Swap     StepFee
	Bridge   StepFee
}

// DefaultFeeSchedule is the fee schedule unless flags change it: a plain transfer is free (the user
// pays gas only); a swap pays 0.30% to the protocol and 0.05% to the solver, in line with common
// DEX aggregator pricing; a bridge pays 0.10% + 0.10%, the solver's share covering the capital it
// fronts on the destination chain.
func DefaultFeeSchedule() FeeSchedule {
	return FeeSchedule{
		Transfer: StepFee{ProtocolBps: 0, SolverBps: 0},
		Swap:     StepFee{ProtocolBps: 30, SolverBps: 5},
		Bridge:   StepFee{ProtocolBps: 10, SolverBps: 10},
	}
}

// Validate refuses a schedule where any fee exceeds 100% or the costliest path (swap + bridge)
// would charge 100% or more: such a schedule is a configuration mistake, not a price.
func (f FeeSchedule) Validate() error {
	steps := []struct {
		name string
		fee  StepFee
	}{{"transfer", f.Transfer}, {"swap", f.Swap}, {"bridge", f.Bridge}}
	for _, s := range steps {
		if s.fee.ProtocolBps > BpsDenominator || s.fee.SolverBps > BpsDenominator {
			return fmt.Errorf("%s fees %d+%d bps: each must be at most %d", s.name, s.fee.ProtocolBps, s.fee.SolverBps, BpsDenominator)
		}
	}
	for _, path := range [][]Step{{StepTransfer}, {StepSwap, StepBridge}} {
		if sum := f.For(path); sum.ProtocolBps+sum.SolverBps >= BpsDenominator {
			return fmt.Errorf("%v fees %d+%d bps must total below %d", path, sum.ProtocolBps, sum.SolverBps, BpsDenominator)
		}
	}
	return nil
}

// ValidateShare refuses a fee share (Config.FeeShareBps) above 100%, or at or below the basis
// points of the costliest path: every amount of that path would then be under its minimum.
func (f FeeSchedule) ValidateShare(shareBps uint32) error {
	if shareBps > BpsDenominator {
		return fmt.Errorf("fee share %d bps: at most %d", shareBps, BpsDenominator)
	}
	for _, path := range [][]Step{{StepSwap}, {StepBridge}, {StepSwap, StepBridge}} {
		if sum := f.For(path); shareBps <= sum.ProtocolBps+sum.SolverBps {
			return fmt.Errorf("fee share %d bps must exceed the %v fees %d+%d bps", shareBps, path, sum.ProtocolBps, sum.SolverBps)
		}
	}
	return nil
}

// For sums the fees of every step of a path: a swap+bridge pays both.
func (f FeeSchedule) For(path []Step) StepFee {
	var sum StepFee
	for _, s := range path {
		fee := f.step(s)
		sum.ProtocolBps += fee.ProtocolBps
		sum.SolverBps += fee.SolverBps
	}
	return sum
}

func (f FeeSchedule) step(s Step) StepFee {
	switch s {
	case StepSwap:
		return f.Swap
	case StepBridge:
		return f.Bridge
	default:
		return f.Transfer
	}
}

// Fees is SimulationResult.estimatedFees.
type Fees struct {
	GasUSD         string `json:"gasUsd"`
	ProtocolFeeBps uint32 `json:"protocolFeeBps"`
	SolverFeeBps   uint32 `json:"solverFeeBps"`
	// IntegratorFeeBps is the Account's integrator fee (the quote's integratorFee), which
	// totalUsd counts; absent without one.
	IntegratorFeeBps uint32 `json:"integratorFeeBps,omitempty"`
	TotalUSD         string `json:"totalUsd"`
}

// FeeInputs are the exact quantities a fee estimate is made of. A nil price means unknown.
type FeeInputs struct {
	GasUnits       uint64
	GasPriceWei    *big.Int
	NativePriceUSD *big.Rat
	NativeDecimals int32
	// Amount is in the token's base units.
	Amount        *big.Int
	TokenDecimals int32
	TokenPriceUSD *big.Rat
	Bps           StepFee
	// IntegratorBps is the integrator fee's basis points: in totalUsd, not in the route's
	// minimum (MinAmount), which is the service's own fees' bound.
	IntegratorBps uint32
}

// ComputeFees prices an intent:
//
//	gasUsd   = gasUnits x gasPriceWei x nativePriceUsd / 10^nativeDecimals
//	totalUsd = gasUsd + notional x (protocolBps + solverBps + integratorBps) / 10000
//	notional = amount / 10^tokenDecimals x tokenPriceUsd
//
// Everything is exact (big.Rat); each figure is rounded once by FormatUSD, so totalUsd is the
// rounded exact total, not the sum of two rounded parts. An unknown native price counts gas as 0
// and an unknown token price counts the percentage fees as 0; the simulation warns about both.
func ComputeFees(in FeeInputs) Fees {
	gas := gasUSD(in)
	total := new(big.Rat).Add(gas, percentageFeeUSD(in))
	return Fees{
		GasUSD:           FormatUSD(gas),
		ProtocolFeeBps:   in.Bps.ProtocolBps,
		SolverFeeBps:     in.Bps.SolverBps,
		IntegratorFeeBps: in.IntegratorBps,
		TotalUSD:         FormatUSD(total),
	}
}

func gasUSD(in FeeInputs) *big.Rat {
	if in.NativePriceUSD == nil || in.GasPriceWei == nil {
		return new(big.Rat)
	}
	wei := new(big.Int).Mul(new(big.Int).SetUint64(in.GasUnits), in.GasPriceWei)
	return inUnits(wei, in.NativeDecimals, in.NativePriceUSD)
}

func percentageFeeUSD(in FeeInputs) *big.Rat {
	if in.TokenPriceUSD == nil || in.Amount == nil {
		return new(big.Rat)
	}
	notional := inUnits(in.Amount, in.TokenDecimals, in.TokenPriceUSD)
	bps := new(big.Rat).SetFrac64(int64(in.Bps.ProtocolBps)+int64(in.Bps.SolverBps)+int64(in.IntegratorBps), BpsDenominator)
	return notional.Mul(notional, bps)
}

// inUnits values base units at a display-unit price: base / 10^decimals x price.
func inUnits(base *big.Int, decimals int32, price *big.Rat) *big.Rat {
	v := new(big.Rat).SetFrac(base, pow10(int(max(decimals, 0))))
	return v.Mul(v, price)
}

// MinAmount is the least amount, in the token's base units, whose fees take at most shareBps of
// it (the route's limits.minAmount):
//
//	fees(amount) = gas + amount x (protocolBps + solverBps) / 10000  <=  amount x shareBps / 10000
//	amount      >= gas x 10000 / (shareBps - protocolBps - solverBps), rounded up, at least 1
//
// with gas valued in the token by GasInToken: the same gas units, gas price and USD prices
// ComputeFees prices (in.Amount is not used). shareBps must exceed the path's basis points
// (NewService refuses a configuration where it does not).
func MinAmount(in FeeInputs, gasToken bool, shareBps uint32) *big.Int {
	room := int64(shareBps) - int64(in.Bps.ProtocolBps) - int64(in.Bps.SolverBps)
	if room <= 0 {
		panic(fmt.Sprintf("intent: fee share %d bps does not exceed the path's %d+%d bps", shareBps, in.Bps.ProtocolBps, in.Bps.SolverBps))
	}
	least := GasInToken(in, gasToken)
	least.Mul(least, big.NewRat(BpsDenominator, room))
	minimum := ceil(least)
	if minimum.Sign() <= 0 {
		minimum.SetInt64(1)
	}
	return minimum
}

// FeeShareBps is the share of in.Amount its fees take, in basis points (exact), with gas valued in
// the token by GasInToken; nil when the amount is zero or unknown. MinAmount is the least amount
// where it is at most the declared share.
func FeeShareBps(in FeeInputs, gasToken bool) *big.Rat {
	if in.Amount == nil || in.Amount.Sign() <= 0 {
		return nil
	}
	share := GasInToken(in, gasToken)
	share.Quo(share, new(big.Rat).SetInt(in.Amount))
	share.Mul(share, big.NewRat(BpsDenominator, 1))
	return share.Add(share, big.NewRat(int64(in.Bps.ProtocolBps)+int64(in.Bps.SolverBps), 1))
}

// GasInToken is the gas of the intent in base units of the token given up: the wei itself when the
// token is the chain's gas token (gasToken: exact, no price needed), otherwise gasUsd (as
// ComputeFees computes it) at the token's USD price. Gas it cannot value (no gas price, no USD
// price of either side) is 0, as ComputeFees counts it.
func GasInToken(in FeeInputs, gasToken bool) *big.Rat {
	if gasToken {
		if in.GasPriceWei == nil {
			return new(big.Rat)
		}
		wei := new(big.Int).Mul(new(big.Int).SetUint64(in.GasUnits), in.GasPriceWei)
		return new(big.Rat).SetFrac(new(big.Int).Mul(wei, pow10(int(max(in.TokenDecimals, 0)))), pow10(int(max(in.NativeDecimals, 0))))
	}
	if in.TokenPriceUSD == nil || in.TokenPriceUSD.Sign() <= 0 {
		return new(big.Rat)
	}
	gas := gasUSD(in)
	gas.Quo(gas, in.TokenPriceUSD)
	return gas.Mul(gas, new(big.Rat).SetInt(pow10(int(max(in.TokenDecimals, 0)))))
}

// ceil rounds a non-negative rational up to an integer.
func ceil(r *big.Rat) *big.Int {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}
