package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// TransferIntentReconciler keeps the bookkeeping of stored intents: a new intent starts pending,
// its labels mirror its account, type and phase (lists filter on them server-side), and its Ready
// condition says whether it is active. The lifecycle itself (expiry, retention, on-chain
// confirmation) is not here yet: it will be one pure transition function applied by this
// reconciler.
type TransferIntentReconciler struct {
	writer

	requeue enqueuer
}

// ValidateTransferIntentSpec mirrors the CRD rules of a TransferIntent's spec that the
// reconciler depends on.
func ValidateTransferIntentSpec(spec *v1alpha1.TransferIntentSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := stringRule{required: true, pattern: intentIDPattern}.validate(p.Child("id"), spec.ID)
	errs = append(errs, validateLocalObjectReference(p.Child("accountRef"), spec.AccountRef)...)
	errs = append(errs, validateEnvironment(p.Child("environment"), spec.Environment)...)
	errs = append(errs, validateIntentType(p.Child("type"), spec.Type)...)
	if len(spec.ResolvedPath) > 4 {
		errs = append(errs, field.TooMany(p.Child("resolvedPath"), len(spec.ResolvedPath), 4))
	}
	for i, step := range spec.ResolvedPath {
		errs = append(errs, validateIntentType(p.Child("resolvedPath").Index(i), step)...)
	}
	errs = append(errs, validateChainID(p.Child("fromChain"), spec.FromChain)...)
	errs = append(errs, validateChainID(p.Child("toChain"), spec.ToChain)...)
	errs = append(errs, stringRule{required: true, pattern: orderIDPattern}.validate(p.Child("orderId"), spec.OrderID)...)
	errs = append(errs, stringRule{pattern: keyHashPattern}.validate(p.Child("idempotencyKeyHash"), spec.IdempotencyKeyHash)...)
	errs = append(errs, stringRule{pattern: keyHashPattern}.validate(p.Child("requestHash"), spec.RequestHash)...)
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

// isTerminal reports whether an intent in the phase can change no more.
func isTerminal(phase v1alpha1.IntentPhase) bool {
	switch phase {
	case v1alpha1.IntentPhaseConfirmed, v1alpha1.IntentPhaseFailed, v1alpha1.IntentPhaseExpired:
		return true
	}
	return false
}

// Reconcile brings one intent's bookkeeping up to date.
func (r *TransferIntentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	var intent v1alpha1.TransferIntent
	if err := r.Get(ctx, req.NamespacedName, &intent); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !intent.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	o := r.outcome(&intent, &intent.Status.CommonStatus)
	// Other writers (the lifecycle) change the status too: never overwrite a phase read stale.
	o.optimisticLock = true
	defer func() { retErr = o.finish(ctx, retErr) }()

	if errs := ValidateTransferIntentSpec(&intent.Spec); len(errs) > 0 {
		o.setNotReady(v1alpha1.ReasonInvalidSpec, "%s", errs.ToAggregate())
		return ctrl.Result{}, nil
	}

	phase := intent.Status.Phase
	if phase == "" {
		phase = v1alpha1.IntentPhasePending
		now := r.now()
		o.update(func() {
			intent.Status.Phase = phase
			intent.Status.UpdatedAt = &now
		})
	}
	if err := r.ensureLabels(ctx, &intent, phase); err != nil {
		return ctrl.Result{}, err
	}
	if isTerminal(phase) {
		o.setReady(v1alpha1.ReasonTerminal, "the intent is %s", phase)
	} else {
		o.setReady(v1alpha1.ReasonActive, "the intent is %s", phase)
	}
	return ctrl.Result{}, nil
}

// ensureLabels makes the account, type and phase labels match the intent.
func (r *TransferIntentReconciler) ensureLabels(ctx context.Context, intent *v1alpha1.TransferIntent, phase v1alpha1.IntentPhase) error {
	want := map[string]string{
		v1alpha1.LabelAccount: intent.Spec.AccountRef.Name,
		v1alpha1.LabelType:    string(intent.Spec.Type),
		v1alpha1.LabelPhase:   string(phase),
	}
	labels := intent.GetLabels()
	stale := false
	for k, v := range want {
		if labels[k] != v {
			stale = true
		}
	}
	if !stale || !r.leads() {
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
	if err := r.Patch(ctx, intent, client.MergeFrom(before)); err != nil {
		return fmt.Errorf("setting the labels: %w", err)
	}
	return nil
}

// SetupWithManager registers the controller.
func (r *TransferIntentReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1alpha1.TransferIntent{}).
		WatchesRawSource(&r.requeue).
		WithOptions(controllerOptions()).
		Named("transferintent").
		Complete(r)
}
