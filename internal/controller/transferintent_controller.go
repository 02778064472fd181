package controller

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/fieldrule"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
)

// DefaultIntentRetention is how long a terminal intent is kept before it is deleted.
const DefaultIntentRetention = 30 * 24 * time.Hour

// DefaultExpiryGrace bounds how long an expiry waits for a lagging chain watcher.
const DefaultExpiryGrace = 2 * time.Minute

// intentWorkers is how many intents are reconciled at once. A reconcile is mostly a wait for one
// write to the API server, so one worker wrote about 60 to 90 new intents' status a second while the
// API created 400: after a minute of creates the last status came minutes late. Distinct
// intents are independent; controller-runtime never runs one key twice at once.
const intentWorkers = 4

// watcherWait is how often an expiry that waits for the chain watcher looks again.
const watcherWait = 2 * time.Second

// TransferIntentReconciler applies the intent lifecycle (docs/decisions.md) through the pure
// intent.Transition function: a new intent starts pending; a pending intent expires at
// spec.expiresAt; a terminal intent (confirmed, failed, expired) is deleted Retention after it
// became terminal. Time is waited for with RequeueAfter, never by polling; a retention's wait
// starts in its last hour (retentionSweep). The labels mirror the account, type and phase so
// that lists and `kubectl get -l` filter server-side, and the Ready condition says whether the
// intent is active or terminal.
type TransferIntentReconciler struct {
	writer
	// Retention is how long a terminal intent is kept; DefaultIntentRetention when zero.
	Retention time.Duration
	// ExpiryGrace is how long past its expiry a pending intent on a watched chain waits for the
	// chain watcher to have matched the blocks up to its expiry (a transaction mined just before
	// the deadline makes it submitted, not expired); DefaultExpiryGrace when zero.
	ExpiryGrace time.Duration
	// RetentionHorizon is how long before its deletion a terminal intent waits on the work queue
	// (see retentionSweep); DefaultRetentionHorizon when zero.
	RetentionHorizon time.Duration
	// Metrics counts the expiries written; nil counts nothing.
	Metrics *IntentMetrics

	requeue enqueuer
}

// ValidateTransferIntentSpec mirrors the CRD rules of a TransferIntent's spec that the
// reconciler depends on.
func ValidateTransferIntentSpec(spec *v1alpha1.TransferIntentSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := fieldrule.String{Required: true, Pattern: intentIDPattern}.Validate(p.Child("id"), spec.ID)
	errs = append(errs, fieldrule.LocalObjectReference(p.Child("accountRef"), spec.AccountRef)...)
	errs = append(errs, fieldrule.Environment(p.Child("environment"), spec.Environment)...)
	errs = append(errs, validateIntentType(p.Child("type"), spec.Type)...)
	if len(spec.ResolvedPath) > 4 {
		errs = append(errs, field.TooMany(p.Child("resolvedPath"), len(spec.ResolvedPath), 4))
	}
	for i, step := range spec.ResolvedPath {
		errs = append(errs, validateIntentType(p.Child("resolvedPath").Index(i), step)...)
	}
	errs = append(errs, validateChainID(p.Child("fromChain"), spec.FromChain)...)
	errs = append(errs, validateChainID(p.Child("toChain"), spec.ToChain)...)
	errs = append(errs, fieldrule.String{Required: true, Pattern: orderIDPattern}.Validate(p.Child("orderId"), spec.OrderID)...)
	errs = append(errs, fieldrule.String{Pattern: keyHashPattern}.Validate(p.Child("idempotencyKeyHash"), spec.IdempotencyKeyHash)...)
	errs = append(errs, fieldrule.String{Pattern: keyHashPattern}.Validate(p.Child("requestHash"), spec.RequestHash)...)
	if g := spec.Gasless; g != nil {
		errs = append(errs, fieldrule.String{Required: true, Pattern: hexAddressPattern}.Validate(p.Child("gasless", "permit2"), g.Permit2)...)
		errs = append(errs, fieldrule.String{Required: true, Pattern: uint256DecimalPattern}.Validate(p.Child("gasless", "nonce"), g.Nonce)...)
	}
	return errs
}

func validateIntentType(path *field.Path, t v1alpha1.IntentType) field.ErrorList {
	switch t {
	case v1alpha1.IntentTypeTransfer, v1alpha1.IntentTypeSwap, v1alpha1.IntentTypeBridge:
		return nil
	case "":
		return field.ErrorList{field.Required(path, "")}
	default:
		return field.ErrorList{field.NotSupported(path, t, []v1alpha1.IntentType{
			v1alpha1.IntentTypeTransfer, v1alpha1.IntentTypeSwap, v1alpha1.IntentTypeBridge})}
	}
}

// Reconcile brings one intent's lifecycle and bookkeeping up to date.
func (r *TransferIntentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ti v1alpha1.TransferIntent
	return r.reconcile(ctx, req, &ti, reconcileSteps{
		validate: func() field.ErrorList { return ValidateTransferIntentSpec(&ti.Spec) },
		// The API and, later, the chain watcher write the status too: never overwrite a phase read stale.
		optimisticLock: true,
		warningsOnly:   true,
		publish:        func(o *outcome) (ctrl.Result, error) { return r.publish(ctx, req, &ti, o) },
	})
}

// publish is the TransferIntent's own part of a reconcile, on a valid spec; the shared opening and
// closing (reconcile) surround it.
func (r *TransferIntentReconciler) publish(ctx context.Context, req ctrl.Request, ti *v1alpha1.TransferIntent, o *outcome) (ctrl.Result, error) {
	now := r.now()
	phase, since := intentstatus.Phase(ti), intentstatus.PhaseEnteredAt(ti)
	waitForWatcher := false
	if intent.Takes(phase, intent.EventExpire) && !now.Before(&ti.Spec.ExpiresAt) {
		if waitForWatcher = r.watcherBehind(ctx, ti, now); !waitForWatcher {
			// The phase takes expire (checked above); the status is written with the others.
			o.update(func() { _ = intentstatus.Expire(ti, now) })
			next, _ := intent.Transition(intent.Status(phase), intent.EventExpire)
			phase, since = v1alpha1.IntentPhase(next), now.Time
			// Counted, not recorded as an Event: the status, the archive and the transfer.expired
			// webhook event keep the intent's history (docs/decisions.md).
			o.afterWrite(func() { r.Metrics.expired(phase) })
		}
	}
	if err := r.ensureLabels(ctx, ti); err != nil {
		return ctrl.Result{}, err
	}
	if waitForWatcher {
		o.setReady(v1alpha1.ReasonActive, "the intent is %s past its expiry at %s, until the chain watcher has read the blocks up to then",
			phase, ti.Spec.ExpiresAt.UTC().Format(time.RFC3339))
		return ctrl.Result{RequeueAfter: watcherWait}, nil
	}

	if !intent.Finished(phase) {
		if !intent.Takes(phase, intent.EventExpire) {
			o.setReady(v1alpha1.ReasonActive, "the intent is %s", phase)
			return ctrl.Result{}, nil
		}
		if !impliedPending(ti) {
			o.setReady(v1alpha1.ReasonActive, "the intent is %s until %s", phase, ti.Spec.ExpiresAt.UTC().Format(time.RFC3339))
		}
		return ctrl.Result{RequeueAfter: ti.Spec.ExpiresAt.Sub(now.Time)}, nil
	}
	deleteAt := since.Add(r.retention())
	if !now.Time.Before(deleteAt) {
		// No Event: it would outlive the intent it is about by its hour in etcd.
		log.FromContext(ctx).V(1).Info("deleting an intent past its retention", "phase", phase,
			"since", since.UTC().Format(time.RFC3339), "retention", r.retention().String())
		err := r.Delete(ctx, ti, client.Preconditions{UID: &ti.UID})
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	why := ""
	if c := meta.FindStatusCondition(ti.Status.Conditions, v1alpha1.ConditionTransaction); c != nil {
		why = " (" + c.Message + ")"
	}
	o.setReady(v1alpha1.ReasonTerminal, "the intent is %s%s; it is deleted at %s", phase, why, deleteAt.UTC().Format(time.RFC3339))
	if wait := deleteAt.Sub(now.Time); wait <= r.horizon() {
		return ctrl.Result{RequeueAfter: max(wait, time.Second)}, nil
	}
	return ctrl.Result{}, nil // the retention sweep brings it back within the horizon
}

// watcherBehind reports whether the intent's chain is followed by the chain watcher and its
// recorded progress has not reached the intent's expiry yet, within the expiry grace: expiring now
// could expire an intent whose transaction is in a block the watcher has not read.
func (r *TransferIntentReconciler) watcherBehind(ctx context.Context, ti *v1alpha1.TransferIntent, now metav1.Time) bool {
	grace := r.ExpiryGrace
	if grace <= 0 {
		grace = DefaultExpiryGrace
	}
	if !now.Time.Before(ti.Spec.ExpiresAt.Add(grace)) {
		return false
	}
	var chains v1alpha1.ChainList
	if err := r.List(ctx, &chains, client.InNamespace(ti.Namespace), client.MatchingFields{ChainIDField: ti.Spec.FromChain}); err != nil {
		return false
	}
	for _, c := range chains.Items {
		if w := c.Status.Watch; c.Spec.RPC != nil && w != nil && w.ProcessedBlockTime.Before(&ti.Spec.ExpiresAt) {
			return true
		}
	}
	return false
}

func (r *TransferIntentReconciler) horizon() time.Duration {
	if r.RetentionHorizon <= 0 {
		return DefaultRetentionHorizon
	}
	return r.RetentionHorizon
}

func (r *TransferIntentReconciler) retention() time.Duration {
	if r.Retention <= 0 {
		return DefaultIntentRetention
	}
	return r.Retention
}

// impliedPending reports whether the intent's status was never written: a new intent is pending
// (or unsigned) and Ready (Active) by implication, and writing that down would double the API server's writes
// of a create (docs/decisions.md, "A create costs the API server one write"). Its first real
// transition (submitted, expired, an invalid spec) writes the status.
func impliedPending(ti *v1alpha1.TransferIntent) bool {
	return ti.Status.Phase == "" && len(ti.Status.Conditions) == 0
}

// ensureLabels makes the account and type labels match the intent's spec. The intent store sets
// them at the create, so this writes only for an intent made some other way (kubectl): neither
// label changes after, and the phase is no label (v1alpha1.PhaseField).
func (r *TransferIntentReconciler) ensureLabels(ctx context.Context, intent *v1alpha1.TransferIntent) error {
	want := v1alpha1.IntentLabels(intent.Spec.AccountRef.Name, intent.Spec.Type)
	labels := intent.GetLabels()
	stale := false
	for k, v := range want {
		if labels[k] != v {
			stale = true
		}
	}
	if !stale {
		return nil
	}
	before := intent.DeepCopy()
	if labels == nil {
		labels = map[string]string{}
	}
	for k, v := range want {
		labels[k] = v
	}
	intent.SetLabels(labels)
	// With the resourceVersion read: the patch's answer replaces the object in memory, so without
	// it a status written meanwhile (the watcher's submitted) would come back under decisions
	// taken on the older phase (an expiry). A conflict is retried with the new object.
	if err := r.Patch(ctx, intent, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("setting the labels: %w", err)
	}
	return nil
}

// SetupWithManager registers the controller.
func (r *TransferIntentReconciler) SetupWithManager(mgr ctrl.Manager) error {
	sweep := &retentionSweep{reconciler: r, list: terminalIntents(mgr.GetCache()), log: mgr.GetLogger().WithName("retention-sweep")}
	if err := mgr.Add(sweep); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1alpha1.TransferIntent{}).
		WatchesRawSource(&r.requeue).
		WithOptions(controller.Options{MaxConcurrentReconciles: intentWorkers}).
		Named("transferintent").
		Complete(r)
}
