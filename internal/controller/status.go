package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// writer is what every reconciler needs to write to the API server: the client, the event
// recorder and the clock.
type writer struct {
	client.Client
	// Recorder emits Kubernetes events about the objects.
	Recorder events.EventRecorder
	// Clock is the time source of conditions and expiry; clock.RealClock{} when nil.
	Clock clock.PassiveClock
	// project marks the read-model projection of a kind (see the package comment): it runs on
	// every replica, publishes into the read models and writes nothing to the API server. It is
	// fixed when the controller is built, never asked of the leader election at run time.
	project bool
	// published, for a projection, records what it has handled (readiness waits on it).
	published *Published
}

func (w *writer) now() metav1.Time {
	if w.Clock == nil {
		return metav1.Now()
	}
	return metav1.NewTime(w.Clock.Now())
}

// warningReasons says which Ready=False reasons are failures (Warning) rather than states a person
// chose or expects (Normal).
var warningReasons = map[string]bool{
	v1alpha1.ReasonInvalidSpec:   true,
	v1alpha1.ReasonUnknownChain:  true,
	v1alpha1.ReasonConflict:      true,
	v1alpha1.ReasonSecretMissing: true,
	v1alpha1.ReasonOwnerMissing:  true,
	// The operator acts: give the Filler's Account a filler key, or name another Account.
	v1alpha1.ReasonAccountNotFiller: true,
	// The filler's operator acts: it won orders and did not fill them.
	v1alpha1.ReasonFading: true,
	// The operator acts: raise the limit or delete an endpoint.
	v1alpha1.ReasonEndpointLimitExceeded: true,
	// The operator acts: raise the Account's maxApiKeys or delete a key.
	v1alpha1.ReasonKeyLimitExceeded: true,
}

// outcome collects what one reconcile decided about an object's status and writes it once, in a
// deferred finish, so that every return path records the same truth. Nothing is written to the
// object's status before finish: reconcilers record decisions (setReady, setNotReady, update) and may
// patch the object's metadata in between.
type outcome struct {
	w      *writer
	obj    client.Object
	status *v1alpha1.CommonStatus
	// optimisticLock makes the status patch fail on a stale object, for kinds whose status other
	// writers change too.
	optimisticLock bool
	// warningsOnly emits the Warning events alone (see reconcileSteps.warningsOnly).
	warningsOnly bool

	readySet bool
	ready    metav1.Condition
	updates  []func()
	events   []queuedEvent
	// written run once the status patch succeeded (or found nothing to write).
	written []func()
}

// queuedEvent is an event about a status change, emitted once the change is recorded.
type queuedEvent struct {
	eventType, reason, action, note string
}

// object is every kind the controllers reconcile.
type object interface {
	client.Object
	GetCommonStatus() *v1alpha1.CommonStatus
}

// reconcileSteps are what a kind adds to the reconcile every kind shares.
type reconcileSteps struct {
	// withdraw removes the object from its read model (nil: the kind has none).
	withdraw func()
	// validate checks the spec read into the object.
	validate func() field.ErrorList
	// optimisticLock makes the status patch fail on a stale object, for kinds whose status other
	// writers change too.
	optimisticLock bool
	// warningsOnly: Warning events alone (failures an operator acts on, such as an invalid
	// spec), for kinds created by the thousand: a Normal event per TransferIntent's transition
	// was a write of the API server per intent, and an hour of events in etcd at the event TTL
	// (docs/decisions.md, "An intent costs the API server three writes").
	warningsOnly bool
	// publish is the kind's own work on a valid spec: publishing it into its read model and
	// deciding its Ready condition.
	publish func(o *outcome) (ctrl.Result, error)
}

// reconcile is the reconcile every kind shares, written once: read the object (withdrawing it from
// its read model when it is gone or being deleted), defer the one status patch, refuse an invalid
// spec as InvalidSpec, and run the kind's own steps in between.
func (w *writer) reconcile(ctx context.Context, req ctrl.Request, obj object, steps reconcileSteps) (_ ctrl.Result, retErr error) {
	withdraw := steps.withdraw
	if withdraw == nil {
		withdraw = func() {}
	}
	o, err := w.open(ctx, req, obj, withdraw)
	if o == nil || err != nil {
		return ctrl.Result{}, err
	}
	o.optimisticLock = steps.optimisticLock
	o.warningsOnly = steps.warningsOnly
	defer func() { retErr = o.finish(ctx, retErr) }()
	if !o.valid(steps.validate(), withdraw) {
		return ctrl.Result{}, nil
	}
	return steps.publish(o)
}

// open is the opening every Reconcile shares. It reads the object into obj and, when the object is
// gone or being deleted, withdraws it from its read model (the models are in memory, so no
// finalizer is needed) and returns a nil outcome: nothing more to do. Otherwise it returns the
// outcome whose deferred finish writes the status once.
func (w *writer) open(ctx context.Context, req ctrl.Request, obj object, withdraw func()) (*outcome, error) {
	if err := w.Get(ctx, req.NamespacedName, obj); err != nil {
		if apierrors.IsNotFound(err) {
			withdraw()
			return nil, nil
		}
		return nil, err
	}
	if !obj.GetDeletionTimestamp().IsZero() {
		withdraw()
		return nil, nil
	}
	return &outcome{w: w, obj: obj, status: obj.GetCommonStatus()}, nil
}

// valid records a spec that breaks a rule as Ready=False InvalidSpec (terminal: not retried) and
// withdraws the object; it reports whether the spec passed.
func (o *outcome) valid(errs field.ErrorList, withdraw func()) bool {
	if len(errs) == 0 {
		return true
	}
	withdraw()
	o.setNotReady(v1alpha1.ReasonInvalidSpec, "%s", errs.ToAggregate())
	return false
}

// setReady decides Ready=True with reason.
func (o *outcome) setReady(reason, format string, args ...any) {
	o.readySet = true
	o.ready = metav1.Condition{Type: v1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: reason,
		Message: fmt.Sprintf(format, args...)}
}

// setNotReady decides Ready=False with reason.
func (o *outcome) setNotReady(reason, format string, args ...any) {
	o.readySet = true
	o.ready = metav1.Condition{Type: v1alpha1.ConditionReady, Status: metav1.ConditionFalse, Reason: reason,
		Message: fmt.Sprintf(format, args...)}
}

// update records a change of the object's status, applied in finish.
func (o *outcome) update(fn func()) { o.updates = append(o.updates, fn) }

// event records an event about a status change, emitted in finish after the status patch (so a
// failed patch, retried, does not repeat it), by the reconciler that writes.
func (o *outcome) event(eventType, reason, action, format string, args ...any) {
	o.events = append(o.events, queuedEvent{eventType, reason, action, fmt.Sprintf(format, args...)})
}

// afterWrite runs fn once finish has recorded the status (a metric of what was written), not
// when the patch failed and the reconcile is retried.
func (o *outcome) afterWrite(fn func()) { o.written = append(o.written, fn) }

// finish applies the decisions, emits an event when the Ready condition changed and patches the
// status when it changed. A transient reconcile error (retErr) leaves the Ready condition as it
// was unless the reconcile decided it before failing.
func (o *outcome) finish(ctx context.Context, retErr error) error {
	before := o.obj.DeepCopyObject().(client.Object)
	for _, fn := range o.updates {
		fn()
	}
	var changed *metav1.Condition
	if o.readySet {
		prev := meta.FindStatusCondition(o.status.Conditions, v1alpha1.ConditionReady)
		if prev == nil || prev.Status != o.ready.Status || prev.Reason != o.ready.Reason || prev.Message != o.ready.Message {
			changed = &o.ready
		}
		cond := o.ready
		cond.ObservedGeneration = o.obj.GetGeneration()
		cond.LastTransitionTime = o.w.now()
		meta.SetStatusCondition(&o.status.Conditions, cond)
		setProgressConditions(&o.status.Conditions, cond)
		o.status.ObservedGeneration = o.obj.GetGeneration()
	}
	if o.w.project {
		return retErr // decided for the read model only; the leader's reconciler writes it
	}
	if !equality.Semantic.DeepEqual(before, o.obj) {
		patch := client.MergeFrom(before)
		if o.optimisticLock {
			patch = client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})
		}
		err := o.w.Status().Patch(ctx, o.obj, patch)
		if apierrors.IsNotFound(err) {
			return retErr // deleted since it was read: no status to record, nothing happened
		}
		if err != nil {
			if retErr != nil {
				return fmt.Errorf("%w; patching status: %w", retErr, err)
			}
			return fmt.Errorf("patching status: %w", err)
		}
	}
	for _, fn := range o.written {
		fn()
	}
	// Events follow the patch so that a failed patch, retried, does not repeat them.
	if changed != nil {
		eventType := corev1.EventTypeNormal
		if changed.Status != metav1.ConditionTrue && warningReasons[changed.Reason] {
			eventType = corev1.EventTypeWarning
		}
		o.emit(queuedEvent{eventType, changed.Reason, "Reconcile", changed.Message})
	}
	for _, e := range o.events {
		o.emit(e)
	}
	return retErr
}

// emit records e, unless the kind records Warnings only and e is not one.
func (o *outcome) emit(e queuedEvent) {
	if o.w.Recorder == nil || (o.warningsOnly && e.eventType != corev1.EventTypeWarning) {
		return
	}
	o.w.Recorder.Eventf(o.obj, nil, e.eventType, e.reason, e.action, "%s", e.note)
}
