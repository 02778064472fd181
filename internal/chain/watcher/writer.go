package watcher

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=transferintents/status;chains/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// EventReporter names the watcher in the events it emits.
const EventReporter = "transfer-intent-chain-watcher"

// Writer records what was learnt about intents' transactions in their status, through the
// lifecycle's pure Transition function, with an optimistic lock so that it never overwrites a
// phase it read stale, and emits an event per transition. The watcher and the submission
// endpoint share it.
type Writer struct {
	// Client reads from the cache and writes.
	Client client.Client
	// Live reads from the API server, after a conflict showed the cache stale.
	Live client.Reader
	// Events receives an event per transition; nil emits none.
	Events events.EventRecorder
	// Index, when set, learns each write at once, ahead of the watch.
	Index *Index
	// Clock stamps status.updatedAt; clock.RealClock{} when nil.
	Clock clock.PassiveClock
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
	// RefundHash is the refund transaction.
	RefundHash common.Hash
}

// errStale: the intent kept changing under the writer.
var errStale = errors.New("the intent changed while it was written")

// Apply records obs on the intent key. It returns the intent as written (or as found, when obs
// changes nothing or its event does not apply to the intent's phase any more: another writer got
// there first), and whether it changed it.
func (w *Writer) Apply(ctx context.Context, key client.ObjectKey, obs Observation) (*v1alpha1.TransferIntent, bool, error) {
	var reader client.Reader = w.Client
	for range 3 {
		ti := &v1alpha1.TransferIntent{}
		if err := reader.Get(ctx, key, ti); err != nil {
			return nil, false, err
		}
		before := ti.DeepCopy()
		if !w.apply(ti, obs) || equality.Semantic.DeepEqual(before.Status, ti.Status) {
			return ti, false, nil
		}
		err := w.Client.Status().Patch(ctx, ti, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
		if apierrors.IsConflict(err) {
			reader = w.Live
			continue
		}
		if err != nil {
			return nil, false, fmt.Errorf("writing the status of %s: %w", key.Name, err)
		}
		if w.Index != nil {
			w.Index.Upsert(ti)
		}
		w.event(ti, before.Status.Phase, obs)
		return ti, true, nil
	}
	return nil, false, errStale
}

// apply changes ti's status by obs; false when obs does not apply to it: its phase does not take
// the event, or obs is about another transaction than the one followed.
func (w *Writer) apply(ti *v1alpha1.TransferIntent, obs Observation) bool {
	if obs.Order != nil {
		return w.applyOrder(ti, obs)
	}
	phase := phaseOf(ti)
	hash := obs.Hash.Hex()
	if obs.Event != intent.EventSubmit && (phase != v1alpha1.IntentPhaseSubmitted || ti.Status.Hash != hash) {
		return false
	}
	now := w.now()
	if !transition(ti, phase, obs.Event, now) {
		return false
	}
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

// applyOrder records order news. The orderId names the intent, so no transaction hash is
// compared; a terminal intent takes no news.
func (w *Writer) applyOrder(ti *v1alpha1.TransferIntent, obs Observation) bool {
	phase := phaseOf(ti)
	if intent.Status(phase).IsTerminal() {
		return false
	}
	now := w.now()
	if !transition(ti, phase, obs.Event, now) {
		return false
	}
	switch {
	case obs.Order.Fill != nil:
		ti.Status.Fill = obs.Order.Fill.DeepCopy()
	case obs.Order.ClearFill:
		ti.Status.Fill = nil
	}
	if obs.Order.RefundHash != (common.Hash{}) {
		ti.Status.RefundHash = obs.Order.RefundHash.Hex()
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
	return reason == v1alpha1.ReasonReverted || reason == v1alpha1.ReasonDropped || reason == v1alpha1.ReasonRefunded
}

// event notes the change on the intent: Warning for a revert or a drop.
func (w *Writer) event(ti *v1alpha1.TransferIntent, from v1alpha1.IntentPhase, obs Observation) {
	if w.Events == nil {
		return
	}
	eventType := corev1.EventTypeNormal
	if isBadNews(obs.Reason) {
		eventType = corev1.EventTypeWarning
	}
	action := "Follow"
	if obs.Event != "" {
		action = string(obs.Event)
	}
	w.Events.Eventf(ti, nil, eventType, obs.Reason, action, "%s -> %s: %s", phaseOrPending(from), ti.Status.Phase, obs.Message)
}

func phaseOrPending(p v1alpha1.IntentPhase) v1alpha1.IntentPhase {
	if p == "" {
		return v1alpha1.IntentPhasePending
	}
	return p
}

func (w *Writer) now() metav1.Time {
	if w.Clock == nil {
		return metav1.Now()
	}
	return metav1.NewTime(w.Clock.Now())
}

// RecordProgress writes the watcher's progress on the Chain object name: the last block whose
// transactions were matched. Only the watcher writes status.watch, so a plain merge patch of that
// field cannot undo another writer's change.
func (w *Writer) RecordProgress(ctx context.Context, key client.ObjectKey, b Header) error {
	var chain v1alpha1.Chain
	if err := w.Client.Get(ctx, key, &chain); err != nil {
		return client.IgnoreNotFound(err)
	}
	before := chain.DeepCopy()
	chain.Status.Watch = &v1alpha1.ChainWatchStatus{
		ProcessedBlock:     int64(b.Number), //nolint:gosec // block numbers are far below 2^63
		ProcessedBlockHash: b.Hash.Hex(),
		ProcessedBlockTime: metav1.NewTime(b.Time),
		UpdatedAt:          w.now(),
	}
	if err := w.Client.Status().Patch(ctx, &chain, client.MergeFrom(before)); err != nil {
		return fmt.Errorf("recording the watch progress of Chain %s: %w", key.Name, err)
	}
	return nil
}
