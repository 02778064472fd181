package controller

import (
	"bytes"
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/policy"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=webhookendpoints,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=intents.transferintent.io,resources=webhookendpoints/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=intents.transferintent.io,resources=webhookendpoints/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=secrets,verbs=create;update;patch

// WebhookEndpointSecretField indexes WebhookEndpoints by the Secret holding their signing secret
// (spec.secretRef, else the generated one).
const WebhookEndpointSecretField = "webhookSecretName"

// WebhookEndpointBySecret is the WebhookEndpointSecretField index function of WebhookEndpoints.
func WebhookEndpointBySecret(obj client.Object) []string {
	return []string{webhookSecretRef(obj.(*v1alpha1.WebhookEndpoint)).Name}
}

// webhookSecretRef is where the endpoint's signing secret is: spec.secretRef (its key defaulted),
// or the generated Secret.
func webhookSecretRef(ep *v1alpha1.WebhookEndpoint) v1alpha1.SecretKeyReference {
	if ref := ep.Spec.SecretRef; ref != nil {
		return v1alpha1.SecretKeyReference{Name: ref.Name, Key: secretKeyOrDefault(ref, signing.DefaultSecretKey)}
	}
	return v1alpha1.SecretKeyReference{Name: endpoint.GeneratedSecretName(ep.Name), Key: signing.DefaultSecretKey}
}

// WebhookEndpointReconciler checks WebhookEndpoints, makes each a dependent of its Account, and
// keeps its signing secret: generated when the spec names none, and rotated (the previous value
// signing for signing.RotationGrace more) when it changes. It runs on the leader only: nothing
// reads endpoints from a read model yet (deliveries are not wired).
//
// The secret is never logged, put in an event or in the status: they name the Secret only.
type WebhookEndpointReconciler struct {
	writer
	// Limit is the most endpoints of one account that are served (endpoint.Admitted); below 1,
	// no limit.
	Limit int
}

// Reconcile checks one WebhookEndpoint and keeps its signing secret.
func (r *WebhookEndpointReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var ep v1alpha1.WebhookEndpoint
	return r.reconcile(ctx, req, &ep, reconcileSteps{
		validate: func() field.ErrorList { return endpoint.ValidateSpec(&ep.Spec) },
		publish:  func(o *outcome) (ctrl.Result, error) { return r.publish(ctx, &ep, o) },
	})
}

// publish is the WebhookEndpoint's own part of a reconcile, on a valid spec.
func (r *WebhookEndpointReconciler) publish(ctx context.Context, ep *v1alpha1.WebhookEndpoint, o *outcome) (ctrl.Result, error) {
	spec := &ep.Spec
	var account v1alpha1.Account
	accountErr := r.Get(ctx, types.NamespacedName{Namespace: ep.Namespace, Name: spec.AccountRef.Name}, &account)
	if accountErr != nil && !apierrors.IsNotFound(accountErr) {
		return ctrl.Result{}, accountErr
	}
	accountExists := accountErr == nil && account.DeletionTimestamp.IsZero()
	if accountExists {
		if err := r.ensureOwnedBy(ctx, ep, &account); err != nil {
			return ctrl.Result{}, err
		}
	}

	admitted, err := r.admitted(ctx, ep)
	if err != nil {
		return ctrl.Result{}, err
	}
	ref := webhookSecretRef(ep)
	secretProblem, previousUntil, err := r.keepSecret(ctx, ep, ref)
	if err != nil {
		return ctrl.Result{}, err
	}
	o.update(func() {
		ep.Status.SecretRef = &ref
		if previousUntil.IsZero() {
			ep.Status.PreviousSecretExpiresAt = nil
		} else {
			ep.Status.PreviousSecretExpiresAt = &metav1.Time{Time: previousUntil}
		}
	})

	switch {
	case secretProblem.reason != "":
		o.setNotReady(secretProblem.reason, "%s", secretProblem.message)
	case !accountExists:
		o.setNotReady(v1alpha1.ReasonOwnerMissing, "Account %s does not exist: nothing is delivered", spec.AccountRef.Name)
	case spec.Disabled:
		o.setNotReady(v1alpha1.ReasonDisabled, "the endpoint is disabled: nothing is delivered")
	case ep.DeliveriesStopped():
		o.setNotReady(v1alpha1.ReasonDeliveriesFailing, "deliveries stopped at %s after failing for %s (last error: %s): change the spec to resume them",
			ep.Status.DisabledAt.UTC().Format(time.RFC3339), policy.DisableAfter, ep.Status.LastError)
	case account.Spec.Disabled:
		o.setNotReady(v1alpha1.ReasonOwnerDisabled, "Account %s is disabled: nothing is delivered", spec.AccountRef.Name)
	case !admitted:
		o.setNotReady(v1alpha1.ReasonEndpointLimitExceeded, "Account %s has more WebhookEndpoints than the limit of %d per account "+
			"(--webhook-endpoints-per-account) and this is one of the newest: nothing is delivered to it until an older one is deleted",
			spec.AccountRef.Name, r.Limit)
	default:
		o.setReady(v1alpha1.ReasonValid, "%d event types go to the endpoint, signed with the secret in Secret %s (key %s)",
			len(spec.EventTypes), ref.Name, ref.Key)
	}
	var result ctrl.Result
	if !previousUntil.IsZero() {
		// Come back when the rotation ends, to forget the previous secret.
		result.RequeueAfter = previousUntil.Sub(r.now().Time) + expiryGrace
	}
	return result, nil
}

// admitted reports whether the endpoint is within its account's limit (endpoint.Admitted).
func (r *WebhookEndpointReconciler) admitted(ctx context.Context, ep *v1alpha1.WebhookEndpoint) (bool, error) {
	if r.Limit < 1 {
		return true, nil
	}
	var siblings v1alpha1.WebhookEndpointList
	if err := r.List(ctx, &siblings, client.InNamespace(ep.Namespace), client.MatchingFields{endpoint.AccountField: ep.Spec.AccountRef.Name}); err != nil {
		return false, err
	}
	return endpoint.Admitted(ep, siblings.Items, r.Limit), nil
}

// secretProblem is what keeps an endpoint's signing secret from being usable (empty: nothing).
type secretProblem struct{ reason, message string }

// keepSecret makes sure the endpoint has a usable signing secret: it generates the Secret when the
// spec names none, and records a change of the secret as a rotation (signing.Rotate). It returns
// what is wrong with the secret, and until when the previous secret signs too.
func (r *WebhookEndpointReconciler) keepSecret(ctx context.Context, ep *v1alpha1.WebhookEndpoint, ref v1alpha1.SecretKeyReference) (secretProblem, time.Time, error) {
	generated := ep.Spec.SecretRef == nil
	var secret corev1.Secret
	err := r.Get(ctx, types.NamespacedName{Namespace: ep.Namespace, Name: ref.Name}, &secret)
	switch {
	case apierrors.IsNotFound(err) && generated:
		return secretProblem{}, time.Time{}, r.generateSecret(ctx, ep, ref)
	case apierrors.IsNotFound(err):
		return secretProblem{v1alpha1.ReasonSecretMissing,
			fmt.Sprintf("Secret %s (secretRef) does not exist: nothing is delivered", ref.Name)}, time.Time{}, nil
	case err != nil:
		return secretProblem{}, time.Time{}, err
	}
	if generated && !metav1.IsControlledBy(&secret, ep) {
		return secretProblem{v1alpha1.ReasonConflict, fmt.Sprintf(
			"Secret %s exists and was not generated for this endpoint: delete it, or name it in spec.secretRef", ref.Name)}, time.Time{}, nil
	}
	if _, err := signing.ParseSecret(string(secret.Data[ref.Key])); err != nil {
		if generated { // ours, and broken: a new secret replaces it
			return secretProblem{}, time.Time{}, r.regenerate(ctx, &secret, ref)
		}
		return secretProblem{v1alpha1.ReasonSecretMissing, fmt.Sprintf(
			"Secret %s key %s does not hold a signing secret (whsec_ and the base64 of 24 to 64 bytes): nothing is delivered",
			ref.Name, ref.Key)}, time.Time{}, nil
	}
	before := secret.DeepCopy()
	if secret.Data == nil {
		secret.Data = map[string][]byte{}
	}
	observed, seen := secret.Data[signing.SecretKeyObserved]
	rotated := seen && !bytes.Equal(observed, secret.Data[ref.Key])
	changed, previousUntil := signing.Rotate(secret.Data, ref.Key, r.now().Time, signing.RotationGrace)
	if changed {
		if err := r.Patch(ctx, &secret, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
			return secretProblem{}, time.Time{}, fmt.Errorf("recording the rotation of the secret in Secret %s: %w", ref.Name, err)
		}
	}
	if rotated && r.Recorder != nil {
		r.Recorder.Eventf(ep, nil, corev1.EventTypeNormal, "SecretRotated", "Rotate",
			"the signing secret in Secret %s changed: the previous one signs too until %s", ref.Name, previousUntil.UTC().Format(time.RFC3339))
	}
	return secretProblem{}, previousUntil, nil
}

// generateSecret creates the endpoint's Secret with a new secret, owned (and controlled) by the
// endpoint so that the garbage collector deletes it with the endpoint.
func (r *WebhookEndpointReconciler) generateSecret(ctx context.Context, ep *v1alpha1.WebhookEndpoint, ref v1alpha1.SecretKeyReference) error {
	value, err := signing.NewSecret(nil)
	if err != nil {
		return err
	}
	secret, err := endpoint.GeneratedSecret(ep, value)
	if err != nil {
		return err
	}
	if err := r.Create(ctx, secret); err != nil {
		// AlreadyExists: the cache was behind; the Secret's event brings the endpoint back.
		return fmt.Errorf("creating Secret %s: %w", ref.Name, err)
	}
	if r.Recorder != nil {
		r.Recorder.Eventf(ep, nil, corev1.EventTypeNormal, "SecretGenerated", "Generate",
			"generated a signing secret in Secret %s (key %s)", ref.Name, ref.Key)
	}
	return nil
}

// regenerate replaces a broken secret in a generated Secret.
func (r *WebhookEndpointReconciler) regenerate(ctx context.Context, secret *corev1.Secret, ref v1alpha1.SecretKeyReference) error {
	value, err := signing.NewSecret(nil)
	if err != nil {
		return err
	}
	before := secret.DeepCopy()
	secret.Data = map[string][]byte{ref.Key: []byte(value), signing.SecretKeyObserved: []byte(value)}
	if err := r.Patch(ctx, secret, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("replacing the broken secret in Secret %s: %w", ref.Name, err)
	}
	return nil
}

// comesOrGoes passes the events that change which endpoints of an account count: a create, a
// delete, and the start of a deletion.
var comesOrGoes = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool {
		return e.ObjectOld.GetDeletionTimestamp().IsZero() != e.ObjectNew.GetDeletionTimestamp().IsZero()
	},
	GenericFunc: func(event.GenericEvent) bool { return false },
}

// ensureOwnedBy makes the Account an owner of the endpoint (not its controller), so that deleting
// the Account garbage-collects its endpoints, as it does its keys.
func (r *WebhookEndpointReconciler) ensureOwnedBy(ctx context.Context, ep *v1alpha1.WebhookEndpoint, account *v1alpha1.Account) error {
	before := ep.DeepCopy()
	if err := endpoint.SetOwner(ep, account); err != nil {
		return err
	}
	if equality.Semantic.DeepEqual(before.OwnerReferences, ep.OwnerReferences) {
		return nil
	}
	if err := r.Patch(ctx, ep, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("setting the owner reference to Account %s: %w", account.Name, err)
	}
	return nil
}

// SetupWithManager registers the controller: a change of an Account or of a signing Secret
// re-evaluates the endpoints that depend on it, and an endpoint that comes or goes its account's
// others (their places within the limit).
func (r *WebhookEndpointReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1alpha1.WebhookEndpoint{}).
		Watches(&v1alpha1.WebhookEndpoint{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
			return requestsFor(ctx, mgr.GetClient(), &v1alpha1.WebhookEndpointList{}, endpoint.AccountField,
				[]string{obj.(*v1alpha1.WebhookEndpoint).Spec.AccountRef.Name}, client.InNamespace(obj.GetNamespace()))
		}), builder.WithPredicates(comesOrGoes)).
		Watches(&v1alpha1.Account{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
			return requestsFor(ctx, mgr.GetClient(), &v1alpha1.WebhookEndpointList{}, endpoint.AccountField, []string{obj.GetName()},
				client.InNamespace(obj.GetNamespace()))
		})).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
			return requestsFor(ctx, mgr.GetClient(), &v1alpha1.WebhookEndpointList{}, WebhookEndpointSecretField, []string{obj.GetName()},
				client.InNamespace(obj.GetNamespace()))
		}), builder.WithPredicates(secretDataChanged)).
		WithOptions(r.controllerOptions()).
		Named(r.controllerName("webhookendpoint")).
		Complete(r.recording("WebhookEndpoint", r))
}
