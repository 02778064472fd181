package transferrecord

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// AuctionOf is the OpenAPI Auction of a stored intent: its market terms, with the floor of its
// quote; nil for a transfer or an intent stored before market terms existed.
func AuctionOf(spec v1alpha1.TransferIntentSpec) *intent.Auction {
	a, q := spec.Auction, spec.Quote
	if a == nil || q == nil {
		return nil
	}
	out := &intent.Auction{
		Type: a.Type, StartAmountOut: a.StartAmountOut, MinAmountOut: q.MinAmountOut,
		DecayStartAt: a.DecayStartAt.UTC(), DecayEndAt: a.DecayEndAt.UTC(),
		ExclusiveFiller: a.ExclusiveFiller, ExclusivityOverrideBps: int(a.ExclusivityOverrideBps),
		Quotes: int(a.Quotes), FillersAsked: int(a.FillersAsked),
	}
	if d := a.ExclusivityDeadline; d != nil {
		t := d.UTC()
		out.ExclusivityDeadline = &t
	}
	return out
}

// improvementBps is how far a fill's amount (base units) is above the intent's order's
// minAmountOut (ImprovementBps); nil when the order does not read back from the intent's
// transaction, and when the fill is below the floor (the contract refuses such a fill, so the
// status does not describe this order's fill).
func improvementBps(obj *v1alpha1.TransferIntent, amountOut string) *int64 {
	tx := obj.Spec.Tx
	filled, ok := new(big.Int).SetString(amountOut, 10)
	if tx == nil || !ok {
		return nil
	}
	order, err := settlement.OrderOfOpenData(common.FromHex(tx.Data))
	if err != nil {
		return nil
	}
	v, ok := ImprovementBps(order.MinAmountOut, filled)
	if !ok {
		return nil
	}
	return &v
}

// ImprovementBps is how far amountOut is above the floor minAmountOut, in basis points rounded
// down (never flattering the filler): the figure a fill's record shows (Fill.ImprovementBps) and
// the market benchmark reports of winning quotes. False without a positive floor, below it, or
// beyond an int64.
func ImprovementBps(minAmountOut, amountOut *big.Int) (int64, bool) {
	if minAmountOut == nil || minAmountOut.Sign() <= 0 || amountOut == nil || amountOut.Cmp(minAmountOut) < 0 {
		return 0, false
	}
	bps := new(big.Int).Sub(amountOut, minAmountOut)
	bps.Mul(bps, big.NewInt(intent.BpsDenominator))
	bps.Quo(bps, minAmountOut) // rounds down: bps is not negative here
	if !bps.IsInt64() {
		return 0, false
	}
	return bps.Int64(), true
}
