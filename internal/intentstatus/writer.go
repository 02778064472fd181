// Package intentstatus is the one owner of a TransferIntent's status. Every lifecycle transition,
// whoever reports it (the TransferIntent controller's expiry, the chain watcher's blocks
// and receipts, a client's reported transaction), is applied here, through the domain's pure
// intent.Transition, and sets the status fields and conditions in one style:
//
//   - Expire and Observe change an object in memory (a new intent's pending is implied, never
//     written); the controller calls them inside its
//     one deferred status patch per reconcile;
//   - Writer applies an Observation with an optimistic lock, for the writers that are not
//     reconcilers (the chain watcher, the submission endpoint), and records an Event for bad
//     news alone (a revert, a drop, a refund).
//
// The CRD's CEL rule on status.phase mirrors the same table; a test holds the two together.
package intentstatus

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=transferintents/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Writer records what was learnt about intents' transactions in their status (Observe), with an
// optimistic lock so that it never overwrites a phase it read stale, and a Warning event for
// the transitions an operator may act on. The watcher and the submission endpoint share it.
type Writer struct {
	// Client reads from the cache and writes.
	Client client.Client
	// APIReader reads from the API server, after a conflict showed the cache stale.
	APIReader client.Reader
	// Events receives a Warning event per revert, drop or refund; nil emits none. The other
	// transitions record none: an Event per intent is a write of the API server each, and the
	// status, the archive, the webhook events and tis_chain_watch_transitions_total already
	// tell them (docs/decisions.md, "An intent costs the API server three writes").
	Events events.EventRecorder
	// Written, when set, learns each write at once, ahead of the watch (the watcher's index).
	Written func(*v1alpha1.TransferIntent)
	// Clock stamps status.updatedAt; clock.RealClock{} when nil.
	Clock clock.PassiveClock
}

// errStale: the intent kept changing under the writer.
var errStale = errors.New("the intent changed while it was written")

// Apply records obs on the intent key. It returns the intent as written (or as found, when obs
// changes nothing or its event does not apply to the intent's phase any more: another writer got
// there first), and whether it changed it.
func (w *Writer) Apply(ctx context.Context, key client.ObjectKey, obs Observation) (*v1alpha1.TransferIntent, bool, error) {
	ti, from, changed, err := w.Change(ctx, key, func(ti *v1alpha1.TransferIntent, now metav1.Time) bool { return Observe(ti, obs, now) })
	if changed {
		w.event(ti, from, obs)
	}
	return ti, changed, err
}

// Change applies change (Sign, Cancel, or an Observe) to the intent key with the optimistic lock,
// retrying on a conflict with a fresh read; it returns the intent as written (or as found, when
// change refused it or changed nothing), its phase before, and whether it wrote. It emits no event:
// the intent's Transaction condition tells what happened.
func (w *Writer) Change(ctx context.Context, key client.ObjectKey, change func(*v1alpha1.TransferIntent, metav1.Time) bool) (*v1alpha1.TransferIntent, v1alpha1.IntentPhase, bool, error) {
	var reader client.Reader = w.Client
	for range 3 {
		ti := &v1alpha1.TransferIntent{}
		if err := reader.Get(ctx, key, ti); err != nil {
			return nil, "", false, err
		}
		before := ti.DeepCopy()
		if !change(ti, w.Now()) || equality.Semantic.DeepEqual(before.Status, ti.Status) {
			return ti, Phase(before), false, nil
		}
		err := w.Client.Status().Patch(ctx, ti, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
		if apierrors.IsConflict(err) {
			reader = w.APIReader
			continue
		}
		if err != nil {
			return nil, "", false, fmt.Errorf("writing the status of %s: %w", key.Name, err)
		}
		if w.Written != nil {
			w.Written(ti)
		}
		return ti, Phase(before), true, nil
	}
	return nil, "", false, errStale
}

// event notes bad news on the intent (a revert, a drop, a refund) as a Warning.
func (w *Writer) event(ti *v1alpha1.TransferIntent, from v1alpha1.IntentPhase, obs Observation) {
	if w.Events == nil || !isBadNews(obs.Reason) {
		return
	}
	action := "Follow"
	if obs.Event != "" {
		action = string(obs.Event)
	}
	w.Events.Eventf(ti, nil, corev1.EventTypeWarning, obs.Reason, action, "%s -> %s: %s", from, ti.Status.Phase, obs.Message)
}

// Now is the time the writer stamps: its Clock's, or the real one.
func (w *Writer) Now() metav1.Time {
	if w.Clock == nil {
		return metav1.Now()
	}
	return metav1.NewTime(w.Clock.Now())
}
