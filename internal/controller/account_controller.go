package controller

import (
	"context"

	"golang.org/x/crypto/bcrypt"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/fieldrule"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// AccountPasswordSecretField indexes Accounts by the Secret holding their password hash.
const AccountPasswordSecretField = "spec.passwordSecretRef.name"

// AccountByPasswordSecret is the AccountPasswordSecretField index function of Accounts.
func AccountByPasswordSecret(obj client.Object) []string {
	if ref := obj.(*v1alpha1.Account).Spec.PasswordSecretRef; ref != nil {
		return []string{ref.Name}
	}
	return nil
}

// AccountReconciler publishes Accounts into the key index (existence and disabled, which every
// key of the account depends on) and the account directory (sign-in).
type AccountReconciler struct {
	writer
	Keys     *registry.KeyIndex
	Accounts *registry.Accounts

	requeue enqueuer
}

// ValidateAccountSpec mirrors the CRD rules of an Account's spec.
func ValidateAccountSpec(spec *v1alpha1.AccountSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := fieldrule.String{Required: true, MinLen: 1, MaxLen: 128}.Validate(p.Child("displayName"), spec.DisplayName)
	errs = append(errs, fieldrule.String{Required: true, MaxLen: 254, Pattern: emailPattern}.Validate(p.Child("email"), spec.Email)...)
	return append(errs, fieldrule.SecretKeyReference(p.Child("passwordSecretRef"), spec.PasswordSecretRef)...)
}

// Reconcile publishes one Account. Deleting an Account (or starting to) withdraws it from the key
// index at once, which refuses all its keys before they are garbage-collected.
func (r *AccountReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var account v1alpha1.Account
	return r.reconcile(ctx, req, &account, reconcileSteps{
		withdraw: func() { r.withdraw(req.Name) },
		validate: func() field.ErrorList { return ValidateAccountSpec(&account.Spec) },
		publish:  func(o *outcome) (ctrl.Result, error) { return r.publish(ctx, req, &account, o) },
	})
}

// publish is the Account's own part of a reconcile, on a valid spec; the shared opening and
// closing (reconcile) surround it.
func (r *AccountReconciler) publish(ctx context.Context, req ctrl.Request, account *v1alpha1.Account, o *outcome) (ctrl.Result, error) {
	spec := &account.Spec
	entry := registry.Account{
		Name:        account.Name,
		DisplayName: spec.DisplayName,
		Email:       spec.Email,
		Disabled:    spec.Disabled,
		CreatedAt:   account.CreationTimestamp.Time,
	}
	if ref := spec.PasswordSecretRef; ref != nil {
		entry.PasswordSecret = &registry.SecretRef{Name: ref.Name, Key: secretKeyOrDefault(ref, defaultPasswordSecretKey)}
	}
	// The Secret is read before anything is published, so that a failed read (transient) leaves
	// the read models as they were.
	secretProblem, err := r.checkPasswordSecret(ctx, account.Namespace, entry.PasswordSecret)
	if err != nil {
		return ctrl.Result{}, err
	}
	r.Keys.SetAccount(account.Name, spec.Disabled)
	older := r.Accounts.Upsert(entry)

	switch {
	case spec.Disabled:
		o.setNotReady(v1alpha1.ReasonDisabled, "the account is disabled: its API keys and sign-in are refused")
	case older != "":
		o.setNotReady(v1alpha1.ReasonConflict,
			"the older Account %s has the same email and is the one that signs in; API keys of this account keep working", older)
	case secretProblem != "":
		o.setNotReady(v1alpha1.ReasonSecretMissing, "%s: browser sign-in is impossible; API keys of this account keep working", secretProblem)
	case entry.PasswordSecret == nil:
		o.setReady(v1alpha1.ReasonValid, "the account is usable with API keys; it has no passwordSecretRef, so no browser sign-in")
	default:
		o.setReady(v1alpha1.ReasonValid, "the account is usable")
	}
	return ctrl.Result{}, nil
}

func (r *AccountReconciler) withdraw(name string) {
	r.Keys.DeleteAccount(name)
	r.Accounts.Delete(name)
}

// checkPasswordSecret returns what is wrong with the password Secret, "" when nothing is (or the
// account has none).
func (r *AccountReconciler) checkPasswordSecret(ctx context.Context, namespace string, ref *registry.SecretRef) (string, error) {
	if ref == nil {
		return "", nil
	}
	var secret corev1.Secret
	if err := r.Get(ctx, types.NamespacedName{Namespace: namespace, Name: ref.Name}, &secret); err != nil {
		if apierrors.IsNotFound(err) {
			return "Secret " + ref.Name + " (passwordSecretRef) does not exist", nil
		}
		return "", err
	}
	hash, ok := secret.Data[ref.Key]
	if !ok {
		return "Secret " + ref.Name + " has no key " + ref.Key + " (passwordSecretRef)", nil
	}
	if _, err := bcrypt.Cost(hash); err != nil {
		return "Secret " + ref.Name + " key " + ref.Key + " does not hold a bcrypt hash", nil //nolint:nilerr // a bad hash is the spec's problem, reported in status, not a failed reconcile
	}
	return "", nil
}

// SetupWithManager registers the controller; a change of a password Secret re-evaluates the
// Accounts that name it.
func (r *AccountReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1alpha1.Account{}).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
			return requestsFor(ctx, mgr.GetClient(), &v1alpha1.AccountList{}, AccountPasswordSecretField, []string{obj.GetName()},
				client.InNamespace(obj.GetNamespace()))
		}), builder.WithPredicates(secretDataChanged)).
		WatchesRawSource(&r.requeue).
		WithOptions(r.controllerOptions()).
		Named(r.controllerName("account")).
		Complete(r.recording("Account", r))
}
