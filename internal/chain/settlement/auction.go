package settlement

import (
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// The contract's price rules (contracts/src/lib/DutchDecayLib.sol and ExclusivityLib.sol) in Go,
// for the reference filler and the service, which must know what a fill will owe before sending
// it. TestOwedAgreesWithTheContract compares Owed with the contract's amountOwed around every
// boundary.

// bps is 100 %, in basis points.
var bps = big.NewInt(10_000)

// ErrExclusive is a fill by another filler before the exclusivity deadline of an order that
// allows no override: the contract refuses it (NoExclusiveOverride).
var ErrExclusive = errors.New("the order is exclusive to another filler until its exclusivity deadline")

// Decayed is the output o requires at time at (unix seconds): its start amount until decayStart,
// falling linearly to minAmountOut at decayEnd, rounded up (the fall rounded down), as
// DutchDecayLib computes it.
func Decayed(o Order, at uint64) *big.Int {
	o = Plain(o)
	if at >= o.DecayEnd {
		return new(big.Int).Set(o.MinAmountOut)
	}
	if at <= o.DecayStart {
		return new(big.Int).Set(o.StartAmountOut)
	}
	fall := new(big.Int).Sub(o.StartAmountOut, o.MinAmountOut)
	fall.Mul(fall, new(big.Int).SetUint64(at-o.DecayStart))
	fall.Quo(fall, new(big.Int).SetUint64(o.DecayEnd-o.DecayStart))
	return fall.Sub(o.StartAmountOut, fall)
}

// Owed is what a fill of o sent by filler in a block at time at must pay the recipient: the
// decayed amount, raised by the exclusivity override (rounded up) for any filler but the exclusive
// one until the exclusivity deadline, as ExclusivityLib computes it. ErrExclusive when the order
// allows no override.
func Owed(o Order, filler common.Address, at uint64) (*big.Int, error) {
	o = Plain(o)
	amount := Decayed(o, at)
	if HasFillingRights(o, filler, at) {
		return amount, nil
	}
	if o.ExclusivityOverrideBps.Sign() == 0 {
		return nil, ErrExclusive
	}
	raised := amount.Mul(amount, new(big.Int).Add(bps, o.ExclusivityOverrideBps))
	return ceilDiv(raised, bps), nil
}

// HasFillingRights reports whether filler has the right to fill o at time at at the decayed amount: the
// order has no exclusive filler, its exclusivity has ended, or filler is the exclusive one.
func HasFillingRights(o Order, filler common.Address, at uint64) bool {
	return o.ExclusiveFiller == (common.Address{}) || at > o.ExclusivityDeadline || filler == o.ExclusiveFiller
}

func ceilDiv(x, y *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(x, y, new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}
