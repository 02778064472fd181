package controller

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
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
	errs = append(errs, fieldrule.SecretKeyReference(p.Child("passwordSecretRef"), spec.PasswordSecretRef)...)
	return append(errs, validateFeePolicy(p.Child("fees"), spec.Fees)...)
}

// validateFeePolicy mirrors the CRD rules of spec.fees and checks the EIP-55 checksum of each
// recipient: a mistyped recipient would be paid fees nobody can claim.
func validateFeePolicy(p *field.Path, f *v1alpha1.IntegratorFeePolicy) field.ErrorList {
	if f == nil {
		return nil
	}
	var errs field.ErrorList
	for _, b := range []struct {
		name string
		v    int32
	}{{"defaultBps", f.DefaultBps}, {"maxBps", f.MaxBps}} {
		if b.v < 0 || b.v > maxIntegratorFeeBps {
			errs = append(errs, field.Invalid(p.Child(b.name), b.v, fmt.Sprintf("must be between 0 and %d basis points", maxIntegratorFeeBps)))
		}
	}
	if f.DefaultBps > f.MaxBps {
		errs = append(errs, field.Invalid(p, f.DefaultBps, "defaultBps must not exceed maxBps"))
	}
	rp := p.Child("recipients")
	switch {
	case len(f.Recipients) == 0:
		errs = append(errs, field.Required(rp, "at least one chain's recipients"))
	case len(f.Recipients) > 64:
		errs = append(errs, field.TooMany(rp, len(f.Recipients), 64))
	}
	seen := map[string]bool{}
	for i, r := range f.Recipients {
		ip := rp.Index(i)
		errs = append(errs, validateChainID(ip.Child("chainId"), r.ChainID)...)
		if seen[r.ChainID] {
			errs = append(errs, field.Duplicate(ip.Child("chainId"), r.ChainID))
		}
		seen[r.ChainID] = true
		ap := ip.Child("addresses")
		switch {
		case len(r.Addresses) == 0:
			errs = append(errs, field.Required(ap, "at least one address"))
		case len(r.Addresses) > 16:
			errs = append(errs, field.TooMany(ap, len(r.Addresses), 16))
		}
		for j, a := range r.Addresses {
			if e := (fieldrule.String{Required: true, Pattern: hexAddressPattern}).Validate(ap.Index(j), a); len(e) > 0 {
				errs = append(errs, e...)
			} else {
				errs = append(errs, validateEIP55(ap.Index(j), a, a)...)
			}
		}
	}
	return errs
}

// maxIntegratorFeeBps is the most an Account's fee policy may charge: 10%, 0x's bound on an
// integrator's swapFeeBps.
const maxIntegratorFeeBps = 1000

// feePolicyOf is the read model of spec.fees (validated): addresses in EIP-55, the default first.
func feePolicyOf(f *v1alpha1.IntegratorFeePolicy) *registry.FeePolicy {
	if f == nil {
		return nil
	}
	out := &registry.FeePolicy{DefaultBps: uint32(f.DefaultBps), MaxBps: uint32(f.MaxBps), Recipients: map[string][]string{}}
	for _, r := range f.Recipients {
		for _, a := range r.Addresses {
			out.Recipients[r.ChainID] = append(out.Recipients[r.ChainID], common.HexToAddress(a).Hex())
		}
	}
	return out
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
		Fees:        feePolicyOf(spec.Fees),
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
