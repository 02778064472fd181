package watcher

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// OrderRef is a swap or bridge intent that is not final yet, as the settlement contract's events
// are matched to it: by orderId, which commits to every field of the order.
type OrderRef struct {
	Name    string
	OrderID common.Hash
	// Origin and Dest are the numeric chain ids where the order is opened and filled (equal for
	// a swap).
	Origin, Dest uint64
	Phase        v1alpha1.IntentPhase
	// OpenFinal says the open transaction is final on the origin chain: a fill is confirmed only
	// then.
	OpenFinal bool
	// Domain is the origin settlement contract, which an attestation of the fill is for: the
	// contract the intent's transaction calls, where its Opened and Refunded events come from.
	Domain settlement.Domain
	// DestSettler is the order's destinationSettler: only its Filled events fill the order.
	DestSettler common.Address
	// Fill is the recorded fill, if any.
	Fill *FillRef
	// Refund is the refund transaction seen on the origin chain, not final yet (zero: none).
	Refund common.Hash
	// RefundAllowed: the guardian's allowRefund of the order is recorded.
	RefundAllowed bool
}

// FillRef is a recorded fill.
type FillRef struct {
	Hash      common.Hash
	Block     uint64
	BlockHash common.Hash
	Filler    common.Address
	AmountOut *big.Int
}

// IsBridge reports whether the fill happens on another chain, so that the escrow is released on
// the attester's word rather than by the fill itself.
func (o OrderRef) IsBridge() bool { return o.Origin != o.Dest }

// orderRefOf is the intent's OrderRef, when it is an order still to be settled.
func orderRefOf(ti *v1alpha1.TransferIntent, phase v1alpha1.IntentPhase) (*OrderRef, bool) {
	if ti.Spec.Type == v1alpha1.IntentTypeTransfer || ti.Spec.Tx == nil || !common.IsHexAddress(ti.Spec.Tx.To) {
		return nil, false
	}
	if intent.Finished(phase) {
		return nil, false
	}
	dest, err := caip.ParseChainID(ti.Spec.ToChain)
	if err != nil {
		return nil, false
	}
	destID, ok := dest.EIP155()
	if !ok {
		return nil, false
	}
	order, ok := intent.OpenedOrder(ti.Spec.Tx.To, ti.Spec.Tx.Data, ti.Spec.Tx.ChainID, ti.Spec.OrderID)
	if !ok || !order.DestinationChainId.IsUint64() || order.DestinationChainId.Uint64() != destID {
		return nil, false
	}
	origin := uint64(ti.Spec.Tx.ChainID) //nolint:gosec // validated positive by the CRD
	ref := &OrderRef{
		Name: ti.Name, OrderID: common.HexToHash(ti.Spec.OrderID), Origin: origin, Dest: destID, Phase: phase, OpenFinal: openFinal(ti),
		Domain:      settlement.Domain{ChainID: new(big.Int).SetUint64(origin), Contract: common.HexToAddress(ti.Spec.Tx.To)},
		DestSettler: order.DestinationSettler, RefundAllowed: ti.Status.RefundAllowed,
	}
	if ti.Status.RefundHash != "" {
		ref.Refund = common.HexToHash(ti.Status.RefundHash)
	}
	if f := ti.Status.Fill; f != nil {
		amount, ok := new(big.Int).SetString(f.AmountOut, 10)
		if !ok {
			amount = new(big.Int)
		}
		ref.Fill = &FillRef{
			Hash: common.HexToHash(f.Hash), Block: uint64(f.BlockNumber), BlockHash: common.HexToHash(f.BlockHash), //nolint:gosec // validated non-negative by the CRD
			Filler: common.HexToAddress(f.Filler), AmountOut: amount,
		}
	}
	return ref, true
}

// placeOrderLocked indexes the intent by orderId when it is an order still to be settled, and
// returns its OrderRef (nil when it is none).
func (x *Index) placeOrderLocked(ti *v1alpha1.TransferIntent, phase v1alpha1.IntentPhase) *OrderRef {
	ref, ok := orderRefOf(ti, phase)
	if !ok {
		return nil
	}
	x.orders[ref.OrderID] = ref
	x.orderOf[ti.Name] = ref.OrderID
	return ref
}

func (x *Index) removeOrderLocked(name string) {
	if id, ok := x.orderOf[name]; ok {
		delete(x.orderOf, name)
		if ref := x.orders[id]; ref != nil && ref.Name == name {
			delete(x.orders, id)
		}
	}
}

// Order is the order intent with the orderId, if one is still to be settled.
func (x *Index) Order(id common.Hash) (OrderRef, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ref := x.orders[id]
	if ref == nil {
		return OrderRef{}, false
	}
	return *ref, true
}

// Refunds are the orders with a refund seen on the chain (their origin), waiting for it to be
// final.
func (x *Index) Refunds(chainID uint64) []OrderRef {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []OrderRef
	for _, ref := range x.orders {
		if ref.Refund != (common.Hash{}) && ref.Origin == chainID {
			out = append(out, *ref)
		}
	}
	return out
}

// Fills are the orders with a recorded fill on the chain, waiting for it to be final.
func (x *Index) Fills(chainID uint64) []OrderRef {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []OrderRef
	for _, ref := range x.orders {
		if ref.Fill != nil && ref.Dest == chainID {
			out = append(out, *ref)
		}
	}
	return out
}
