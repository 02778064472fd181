package transferrecord

import (
	"math"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// RefundState is where the refund of an order's escrow stands (OpenAPI RefundState).
type RefundState string

// The refund states, as the API names them.
const (
	// RefundWaiting: the deadline passed unfilled; the contract accepts the refund from availableAt.
	RefundWaiting RefundState = "waiting"
	// RefundAvailable: the contract accepts the refund now; transaction is ready to send.
	RefundAvailable RefundState = "available"
	// RefundSent: a refund of the order is on chain (hash), not final yet.
	RefundSent RefundState = "sent"
	// RefundFinal: the refund is final: the escrow is back with its user, the intent failed.
	RefundFinal RefundState = "final"
)

// RefundGas is the gas limit of the refund transaction the record offers. Measured on the dev
// chains (every fork active): refund(order) of an ERC-20 uses 70,647 gas when the user still holds
// some of the token and 164,588 when the payout makes a zero balance non-zero (a new storage slot,
// priced high there; TestTheRecordsRefundRefundsTheEscrowOnChain). The limit keeps half as much
// again above the costlier case, for tokens whose transfer costs more and a contract user's
// receive. A limit above the gas used costs nothing (only used gas is paid), one below it reverts
// and moves nothing. It is a figure, not the node's estimate: the record is read on every GET and
// in every webhook, and estimating there would put a node call on each.
const RefundGas = 300_000

// Refund is the OpenAPI Refund of a swap or bridge whose escrow its user can take back, or took.
type Refund struct {
	State RefundState `json:"state"`
	// AvailableAt is when the contract accepts the refund (deadline + refundDelay); absent when
	// the guardian allowed it earlier or the delay is not known.
	AvailableAt string `json:"availableAt,omitempty"`
	// Transaction is the refund call, ready to send (available only).
	Transaction *v1alpha1.TransactionPayload `json:"transaction,omitempty"`
	// Hash is the refund transaction (sent and final).
	Hash string `json:"hash,omitempty"`
}

// StoredOrder is the order the intent's transaction opens (intent.OpenedOrder), when its
// transaction is one; the refund is built from it or not at all.
func StoredOrder(ti *v1alpha1.TransferIntent) (settlement.Order, bool) {
	if ti.Spec.Tx == nil {
		return settlement.Order{}, false
	}
	return intent.OpenedOrder(ti.Spec.Tx.To, ti.Spec.Tx.Data, ti.Spec.Tx.ChainID, ti.Spec.OrderID)
}

// refundOf is the refund block of a swap or bridge, decided at read time from what the service
// already holds: the order (its deadline), the status (its failure, a fill, a refund, the
// guardian's allowance) and the origin chain's row (the contract's refund delay and its
// allow-all flag), so that a refund becoming available writes nothing to the API server.
// nil when there is nothing to refund or to report: not an order, not opened, filled, or ended
// otherwise.
func refundOf(obj *v1alpha1.TransferIntent, failure *Failure, origin registry.Chain, now time.Time) *Refund {
	st := &obj.Status
	switch {
	case failure != nil && failure.Code == v1alpha1.FailureRefunded && st.RefundHash != "":
		return &Refund{State: RefundFinal, Hash: st.RefundHash}
	case st.Phase != v1alpha1.IntentPhaseSubmitted || st.Fill != nil:
		// A recorded fill paid the recipient: the escrow is the filler's, even while the
		// contract would still accept a refund.
		return nil
	case st.RefundHash != "":
		return &Refund{State: RefundSent, Hash: st.RefundHash}
	}
	order, ok := StoredOrder(obj)
	if !ok || order.Deadline > math.MaxInt64 {
		return nil
	}
	var terms *registry.RefundTerms
	if origin.Refund != nil && origin.Refund.Contract == order.OriginSettler.Hex() {
		terms = origin.Refund // the terms of the contract that holds this escrow, not another
	}
	out, open := refundWindow(st.RefundAllowed, terms, time.Unix(int64(order.Deadline), 0), now) //nolint:gosec // bounded above
	if !open {
		return out
	}
	data, err := settlement.RefundData(order)
	if err != nil {
		return nil
	}
	out.State = RefundAvailable
	out.Transaction = &v1alpha1.TransactionPayload{
		To: order.OriginSettler.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: obj.Spec.Tx.ChainID, Gas: RefundGas,
	}
	return out
}

// refundWindow says whether the contract accepts the refund of an opened, unfilled order at now,
// as its refund does: allowed by the guardian (this order, or every order of the contract), or
// block.timestamp > deadline + refundDelay. Not open, it is the waiting block once the deadline
// passed (availableAt when the delay is known), nil before: the order may still be filled.
func refundWindow(allowed bool, terms *registry.RefundTerms, deadline, now time.Time) (*Refund, bool) {
	out := &Refund{State: RefundWaiting}
	if allowed || (terms != nil && terms.AllAllowed) {
		return out, true
	}
	if !now.After(deadline) {
		return nil, false
	}
	if terms == nil {
		return out, false // the delay of this order's contract is not known: no date to give
	}
	opens := deadline.Add(terms.Delay).Add(time.Second)
	out.AvailableAt = formatRecordTime(opens)
	return out, !now.Before(opens)
}
