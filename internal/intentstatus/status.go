package intentstatus

import (
	"fmt"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// Phase is the intent's phase; an intent whose status was never written is in its initial phase
// (a new intent's pending, or a gasless one's unsigned, is implied, not written).
func Phase(ti *v1alpha1.TransferIntent) v1alpha1.IntentPhase {
	return ti.Phase()
}

// IndexByPhase is the index function of the cache's v1alpha1.PhaseField index: the written
// status.phase, as the API server's field selector of the same name sees it (empty for a new
// intent, whose phase is implied). Lists of finished intents (the retention sweep, the
// archiver's backlog) read it instead of scanning every cached intent.
func IndexByPhase(obj client.Object) []string {
	ti, ok := obj.(*v1alpha1.TransferIntent)
	if !ok || ti.Status.Phase == "" {
		return nil
	}
	return []string{string(ti.Status.Phase)}
}

// PhaseEnteredAt is when the intent entered its phase: every transition stamps status.updatedAt
// (transition below); without one (a new intent, pending by implication, or a status written by
// hand) the phase dates from the intent's creation.
func PhaseEnteredAt(ti *v1alpha1.TransferIntent) time.Time {
	if ti.Status.UpdatedAt != nil {
		return ti.Status.UpdatedAt.Time
	}
	return ti.CreationTimestamp.Time
}

// Expire moves an intent that was never submitted to expired (a cancelling one to cancelled) at
// now. Whether its time has come is the caller's decision (the controller's, which also waits for
// a lagging watcher); the error says the phase does not take the event.
func Expire(ti *v1alpha1.TransferIntent, now metav1.Time) error {
	if !transition(ti, Phase(ti), intent.EventExpire, now) {
		return fmt.Errorf("%w: expire on %s", intent.ErrIllegalTransition, Phase(ti))
	}
	return nil
}

// Sign records a gasless intent's accepted signature (checked by the caller against the chain)
// and makes it signed, offered to fillers; false when its phase does not take a signature.
func Sign(ti *v1alpha1.TransferIntent, signature string, now metav1.Time) bool {
	if ti.Spec.Gasless == nil || !transition(ti, Phase(ti), intent.EventSign, now) {
		return false
	}
	ti.Status.Signature = signature
	meta.SetStatusCondition(&ti.Status.Conditions, metav1.Condition{
		Type: v1alpha1.ConditionTransaction, Status: metav1.ConditionTrue, Reason: v1alpha1.ReasonSigned,
		Message:            "the user's signature was checked on the origin chain; the order is offered to fillers until " + ti.Spec.Gasless.OpenDeadline.UTC().Format(time.RFC3339),
		ObservedGeneration: ti.Generation, LastTransitionTime: now,
	})
	return true
}

// Cancel withdraws a gasless intent its user cancelled: cancelled when it was never offered,
// cancelling when fillers may hold its signature; false when its phase does not take a cancel.
func Cancel(ti *v1alpha1.TransferIntent, now metav1.Time) bool {
	return CancelWithReason("")(ti, now)
}

// CancelWithReason is Cancel that keeps the reason the user gave ("" for none; the API bounds it)
// in the status and quotes it in the Transaction condition.
func CancelWithReason(reason string) func(*v1alpha1.TransferIntent, metav1.Time) bool {
	return func(ti *v1alpha1.TransferIntent, now metav1.Time) bool {
		if ti.Spec.Gasless == nil || !transition(ti, Phase(ti), intent.EventCancel, now) {
			return false
		}
		ti.Status.CancelledAt, ti.Status.CancelReason = &now, reason
		setCancelled(ti, reason, now)
		return true
	}
}

// EndHardCancelled ends a cancelling intent as cancelled now, rather than at its open deadline,
// because its user's hard cancel is final: the chain watcher read, at a final block, the order's
// Permit2 nonce spent and the order not opened, so no filler can ever open it (message says so).
// It is the expire transition (cancelling -> cancelled), the one the CRD's rule already allows,
// taken early; false for any other phase: a signed intent is still offered, and one opened
// meanwhile (submitted) is the chain's to end.
func EndHardCancelled(message string) func(*v1alpha1.TransferIntent, metav1.Time) bool {
	return func(ti *v1alpha1.TransferIntent, now metav1.Time) bool {
		phase := Phase(ti)
		if ti.Spec.Gasless == nil || phase != v1alpha1.IntentPhaseCancelling || !transition(ti, phase, intent.EventExpire, now) {
			return false
		}
		meta.SetStatusCondition(&ti.Status.Conditions, metav1.Condition{
			Type: v1alpha1.ConditionTransaction, Status: metav1.ConditionFalse, Reason: v1alpha1.ReasonHardCancelled,
			Message: message, ObservedGeneration: ti.Generation, LastTransitionTime: now,
		})
		return true
	}
}

// setCancelled sets the Transaction condition of a cancel.
func setCancelled(ti *v1alpha1.TransferIntent, reason string, now metav1.Time) {
	msg := "cancelled by its user before it was signed"
	if ti.Status.Phase == v1alpha1.IntentPhaseCancelling {
		msg = "cancelled by its user and no longer offered; a filler that read it can still open it until " +
			ti.Spec.Gasless.OpenDeadline.UTC().Format(time.RFC3339) + ", unless the user sends the hard cancel first (the intent then ends cancelled once that is final)"
	}
	if reason != "" {
		msg += " (reason: " + strconv.Quote(reason) + ")"
	}
	meta.SetStatusCondition(&ti.Status.Conditions, metav1.Condition{
		Type: v1alpha1.ConditionTransaction, Status: metav1.ConditionFalse, Reason: v1alpha1.ReasonCancelled,
		Message: msg, ObservedGeneration: ti.Generation, LastTransitionTime: now,
	})
}

// Observation is one thing learnt about an intent's transaction.
type Observation struct {
	// Event is the lifecycle event it amounts to; "" for news that changes no phase (the
	// transaction moved to another block).
	Event intent.Event
	// Hash, Block and BlockHash locate the transaction (Block 0: not in a block yet).
	Hash      common.Hash
	Block     uint64
	BlockHash common.Hash
	// Reason and Message become the Transaction condition; Message also notes the event.
	Reason  string
	Message string
	// Failure is why the intent failed, with Event fail (the API's failure.code); the status
	// keeps it with the failed phase.
	Failure v1alpha1.FailureCode
	// FailureError is the error the transaction reverted with (decoded from its revert data), with
	// Event fail; nil when the node did not give it.
	FailureError *v1alpha1.RevertError
	// Order news (swaps and bridges) is about the settlement contract, not the origin
	// transaction: when Order is set, Hash, Block and BlockHash are ignored and the intent's own
	// transaction fields stay as they are.
	Order *OrderNews
}

// OrderNews is what the settlement contract's events said about an order.
type OrderNews struct {
	// Fill, when set, replaces the recorded fill; ClearFill removes it (its block left the chain).
	Fill      *v1alpha1.FillStatus
	ClearFill bool
	// RefundHash is the refund transaction; ClearRefund removes the recorded one (final, it did
	// not refund the order).
	RefundHash  common.Hash
	ClearRefund bool
	// RefundAllowed: the guardian allowed the order's refund before its deadline and delay.
	RefundAllowed bool
}

// Observe changes ti's status by obs at now; false when obs does not apply to it: its phase does
// not take the event, or obs is about another transaction than the one followed.
func Observe(ti *v1alpha1.TransferIntent, obs Observation, now metav1.Time) bool {
	if obs.Order != nil {
		return observeOrder(ti, obs, now)
	}
	phase := Phase(ti)
	hash := obs.Hash.Hex()
	if obs.Event != intent.EventSubmit && (phase != v1alpha1.IntentPhaseSubmitted || ti.Status.Hash != hash) {
		return false
	}
	if !transition(ti, phase, eventFor(ti, obs.Event), now) {
		return false
	}
	recordFailure(ti, obs)
	switch {
	case obs.Event == intent.EventDrop:
		ti.Status.Hash, ti.Status.BlockNumber, ti.Status.BlockHash = "", 0, ""
	case obs.Block > 0:
		ti.Status.Hash = hash
		ti.Status.BlockNumber, ti.Status.BlockHash = int64(obs.Block), obs.BlockHash.Hex() //nolint:gosec // block numbers are far below 2^63
	default:
		ti.Status.Hash, ti.Status.BlockNumber, ti.Status.BlockHash = hash, 0, ""
	}
	if obs.Reason == v1alpha1.ReasonOpened {
		meta.SetStatusCondition(&ti.Status.Conditions, metav1.Condition{
			Type: v1alpha1.ConditionOrderOpened, Status: metav1.ConditionTrue, Reason: obs.Reason, Message: obs.Message,
			ObservedGeneration: ti.Generation, LastTransitionTime: now,
		})
		if ti.Status.Fill != nil {
			return true // the Transaction condition keeps the news of the fill
		}
	}
	setTransactionCondition(ti, obs, now)
	return true
}

// eventFor is the event an observation amounts to for ti: a dropped Open of a gasless order
// offers the order again (unopen), or, when its user had cancelled it, makes it cancelling again
// (unopen-cancelled), where a transaction intent waits for its user (drop).
func eventFor(ti *v1alpha1.TransferIntent, ev intent.Event) intent.Event {
	if ev == intent.EventDrop && ti.Spec.Gasless != nil {
		if ti.Status.CancelledAt != nil {
			return intent.EventUnopenCancelled
		}
		return intent.EventUnopen
	}
	return ev
}

// transition moves ti's phase by ev through the lifecycle's pure Transition (no event: no
// move); false when the phase does not take the event.
func transition(ti *v1alpha1.TransferIntent, phase v1alpha1.IntentPhase, ev intent.Event, now metav1.Time) bool {
	if ev == "" {
		return true
	}
	next, err := intent.Transition(intent.Status(phase), ev)
	if err != nil {
		return false
	}
	ti.Status.Phase, ti.Status.UpdatedAt = v1alpha1.IntentPhase(next), &now
	return true
}

// recordFailure keeps obs's failure code with the failed phase it explains, and with no other
// (the CRD refuses a code on another phase; failed is terminal, so no code is ever left behind).
func recordFailure(ti *v1alpha1.TransferIntent, obs Observation) {
	if ti.Status.Phase == v1alpha1.IntentPhaseFailed {
		ti.Status.FailureCode, ti.Status.FailureError = obs.Failure, obs.FailureError
	}
}

// observeOrder records order news. The orderId names the intent, so no transaction hash is
// compared; a terminal intent takes no news.
func observeOrder(ti *v1alpha1.TransferIntent, obs Observation, now metav1.Time) bool {
	phase := Phase(ti)
	if intent.Finished(phase) {
		return false
	}
	if !transition(ti, phase, obs.Event, now) {
		return false
	}
	recordFailure(ti, obs)
	if obs.Order.RefundAllowed {
		ti.Status.RefundAllowed = true
	}
	switch {
	case obs.Order.Fill != nil:
		ti.Status.Fill = obs.Order.Fill.DeepCopy()
	case obs.Order.ClearFill:
		ti.Status.Fill = nil
	}
	switch {
	case obs.Order.RefundHash != (common.Hash{}):
		ti.Status.RefundHash = obs.Order.RefundHash.Hex()
	case obs.Order.ClearRefund:
		ti.Status.RefundHash = ""
	}
	setTransactionCondition(ti, obs, now)
	return true
}

// setTransactionCondition records obs as the Transaction condition: False for the reasons that
// report a transaction that did not do its work.
func setTransactionCondition(ti *v1alpha1.TransferIntent, obs Observation, now metav1.Time) {
	status := metav1.ConditionTrue
	if isBadNews(obs.Reason) {
		status = metav1.ConditionFalse
	}
	meta.SetStatusCondition(&ti.Status.Conditions, metav1.Condition{
		Type: v1alpha1.ConditionTransaction, Status: status, Reason: obs.Reason, Message: obs.Message,
		ObservedGeneration: ti.Generation, LastTransitionTime: now,
	})
}

func isBadNews(reason string) bool {
	switch reason {
	case v1alpha1.ReasonReverted, v1alpha1.ReasonDropped, v1alpha1.ReasonRefundIncluded, v1alpha1.ReasonRefunded:
		return true
	}
	return false
}
