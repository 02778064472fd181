package controller

import (
	"context"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/fieldrule"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// ApiKeyAccountField indexes ApiKeys by the name of their Account.
const ApiKeyAccountField = "spec.accountRef.name"

// ApiKeyByAccount is the ApiKeyAccountField index function of ApiKeys.
func ApiKeyByAccount(obj client.Object) []string {
	return []string{obj.(*v1alpha1.ApiKey).Spec.AccountRef.Name}
}

// ApiKeyReconciler publishes ApiKeys into the key index and makes each key a dependent of its
// Account, so that deleting the Account garbage-collects its keys.
//
// The index holds every key with a valid spec, usable or not, and decides at request time
// (KeyIndex.Authenticate): an expired key is refused from the instant of its expiresAt, and a key
// of a disabled or deleted account from the moment the Account controller saw that. The Ready
// condition reports the same verdict for people; expiry is re-evaluated at expiresAt, not polled.
type ApiKeyReconciler struct {
	writer
	Keys *registry.KeyIndex

	requeue enqueuer
}

// ValidateApiKeySpec mirrors the CRD rules of an ApiKey's spec.
func ValidateApiKeySpec(spec *v1alpha1.ApiKeySpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := fieldrule.LocalObjectReference(p.Child("accountRef"), spec.AccountRef)
	errs = append(errs, fieldrule.Environment(p.Child("environment"), spec.Environment)...)
	errs = append(errs, fieldrule.String{Required: true, Pattern: keyHashPattern}.Validate(p.Child("keyHash"), spec.KeyHash)...)
	prefixErrs := fieldrule.String{Required: true, MinLen: 9, MaxLen: 16, Pattern: displayPrefixPattern}.Validate(p.Child("displayPrefix"), spec.DisplayPrefix)
	errs = append(errs, prefixErrs...)
	if len(prefixErrs) == 0 && (spec.Environment == v1alpha1.EnvironmentTest || spec.Environment == v1alpha1.EnvironmentLive) &&
		!strings.HasPrefix(spec.DisplayPrefix, "sk_"+string(spec.Environment)+"_") {
		errs = append(errs, field.Invalid(p.Child("displayPrefix"), spec.DisplayPrefix,
			"displayPrefix must start with sk_test_ for a test key and sk_live_ for a live key"))
	}
	errs = append(errs, fieldrule.String{MaxLen: 63}.Validate(p.Child("displayName"), spec.DisplayName)...)
	if spec.RateLimitPerMinute != 0 { // 0: stored before the default existed
		errs = append(errs, validateRange(p.Child("rateLimitPerMinute"), spec.RateLimitPerMinute, 1, 100000)...)
	}
	switch spec.Role {
	case "", v1alpha1.ApiKeyRoleClient, v1alpha1.ApiKeyRoleFiller: // "": stored before the default existed
	default:
		errs = append(errs, field.NotSupported(p.Child("role"), spec.Role, []v1alpha1.ApiKeyRole{v1alpha1.ApiKeyRoleClient, v1alpha1.ApiKeyRoleFiller}))
	}
	return errs
}

// Reconcile publishes one ApiKey.
func (r *ApiKeyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var key v1alpha1.ApiKey
	return r.reconcile(ctx, req, &key, reconcileSteps{
		withdraw: func() { r.Keys.Delete(req.Name) },
		validate: func() field.ErrorList { return ValidateApiKeySpec(&key.Spec) },
		publish:  func(o *outcome) (ctrl.Result, error) { return r.publish(ctx, req, &key, o) },
	})
}

// publish is the ApiKey's own part of a reconcile, on a valid spec; the shared opening and
// closing (reconcile) surround it.
func (r *ApiKeyReconciler) publish(ctx context.Context, req ctrl.Request, key *v1alpha1.ApiKey, o *outcome) (ctrl.Result, error) {
	spec := &key.Spec
	var account v1alpha1.Account
	accountErr := r.Get(ctx, types.NamespacedName{Namespace: key.Namespace, Name: spec.AccountRef.Name}, &account)
	if accountErr != nil && !apierrors.IsNotFound(accountErr) {
		return ctrl.Result{}, accountErr
	}
	accountExists := accountErr == nil && account.DeletionTimestamp.IsZero()
	if accountExists {
		if err := r.ensureOwnedBy(ctx, key, &account); err != nil {
			return ctrl.Result{}, err
		}
	}

	entry := apikey.KeyFromApiKey(key)
	overLimit, limit, err := r.overLimit(ctx, key, &account.Spec)
	if err != nil {
		return ctrl.Result{}, err
	}
	entry.OverLimit = overLimit
	older := r.Keys.Upsert(spec.KeyHash, entry)

	now := r.now().Time
	var result ctrl.Result
	switch {
	case older != "":
		o.setNotReady(v1alpha1.ReasonConflict, "the older ApiKey %s has the same keyHash and is the one requests authenticate as", older)
	case !accountExists:
		o.setNotReady(v1alpha1.ReasonOwnerMissing, "Account %s does not exist: the key is refused", spec.AccountRef.Name)
	case spec.Disabled:
		o.setNotReady(v1alpha1.ReasonDisabled, "the key is disabled")
	case overLimit:
		o.setNotReady(v1alpha1.ReasonKeyLimitExceeded, "Account %s holds more than its %d ApiKeys (spec.maxApiKeys) and this key is among the newest: the key is refused",
			spec.AccountRef.Name, limit)
	case !entry.ExpiresAt.IsZero() && !now.Before(entry.ExpiresAt):
		o.setNotReady(v1alpha1.ReasonExpired, "the key expired at %s", entry.ExpiresAt.UTC().Format(time.RFC3339))
	case account.Spec.Disabled:
		o.setNotReady(v1alpha1.ReasonOwnerDisabled, "Account %s is disabled: the key is refused", spec.AccountRef.Name)
	default:
		o.setReady(v1alpha1.ReasonValid, "the key is accepted")
	}
	if !entry.ExpiresAt.IsZero() && now.Before(entry.ExpiresAt) {
		// Come back when it expires, to report it; the index refuses it on time regardless.
		result.RequeueAfter = entry.ExpiresAt.Sub(now) + expiryGrace
	}
	return result, nil
}

// overLimit tells whether the key is past its account's bound of keys: the account's keys, oldest
// first (then by name), are counted from the cache, and the first `limit` are within it. A key
// made from the /keys page never is (the page refuses one past the bound); a key applied from Git
// may be, and stays refused until older keys go or the bound is raised.
func (r *ApiKeyReconciler) overLimit(ctx context.Context, key *v1alpha1.ApiKey, account *v1alpha1.AccountSpec) (bool, int, error) {
	limit := account.APIKeyLimit()
	var keys v1alpha1.ApiKeyList
	if err := r.List(ctx, &keys, client.InNamespace(key.Namespace), client.MatchingFields{ApiKeyAccountField: key.Spec.AccountRef.Name}); err != nil {
		return false, limit, fmt.Errorf("listing the ApiKeys of Account %s: %w", key.Spec.AccountRef.Name, err)
	}
	if len(keys.Items) <= limit {
		return false, limit, nil
	}
	older := 0
	for i := range keys.Items {
		k := &keys.Items[i]
		if k.Name == key.Name || !k.DeletionTimestamp.IsZero() {
			continue
		}
		if c := k.CreationTimestamp.Compare(key.CreationTimestamp.Time); c < 0 || (c == 0 && k.Name < key.Name) {
			older++
		}
	}
	return older >= limit, limit, nil
}

// expiryGrace delays the expiry reconcile a little past expiresAt, so that the clock reads it as
// expired even if the work queue wakes a hair early.
const expiryGrace = 100 * time.Millisecond

// ensureOwnedBy makes the Account an owner of the key (not its controller), so that the garbage
// collector deletes the key with the Account. blockOwnerDeletion holds a foreground deletion of
// the Account until its keys are gone.
func (r *ApiKeyReconciler) ensureOwnedBy(ctx context.Context, key *v1alpha1.ApiKey, account *v1alpha1.Account) error {
	before := key.DeepCopy()
	if err := apikey.SetOwner(key, account); err != nil {
		return fmt.Errorf("owner-referencing Account %s: %w", account.Name, err)
	}
	if equality.Semantic.DeepEqual(before.OwnerReferences, key.OwnerReferences) || r.project {
		return nil
	}
	if err := r.Patch(ctx, key, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("setting the owner reference to Account %s: %w", account.Name, err)
	}
	return nil
}

// SetupWithManager registers the controller; a change of an Account re-evaluates its keys.
func (r *ApiKeyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1alpha1.ApiKey{}).
		Watches(&v1alpha1.Account{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
			return requestsFor(ctx, mgr.GetClient(), &v1alpha1.ApiKeyList{}, ApiKeyAccountField, []string{obj.GetName()},
				client.InNamespace(obj.GetNamespace()))
		})).
		// A key created or deleted moves its siblings within or past the account's bound.
		Watches(&v1alpha1.ApiKey{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
			return requestsFor(ctx, mgr.GetClient(), &v1alpha1.ApiKeyList{}, ApiKeyAccountField,
				[]string{obj.(*v1alpha1.ApiKey).Spec.AccountRef.Name}, client.InNamespace(obj.GetNamespace()))
		})).
		WatchesRawSource(&r.requeue).
		WithOptions(r.controllerOptions()).
		Named(r.controllerName("apikey")).
		Complete(r.recording("ApiKey", r))
}
