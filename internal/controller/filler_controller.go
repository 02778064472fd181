package controller

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/fieldrule"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/rfq"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
	"github.com/transferintent/transfer-intent-service/internal/webhook/ssrf"
)

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=fillers,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=intents.transferintent.io,resources=fillers/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=intents.transferintent.io,resources=fillers/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=secrets,verbs=create;update;patch

// FillerAccountField indexes Fillers by the name of their Account.
const FillerAccountField = "spec.accountRef.name"

// FillerByAccount is the FillerAccountField index function of Fillers.
func FillerByAccount(obj client.Object) []string {
	return []string{obj.(*v1alpha1.Filler).Spec.AccountRef.Name}
}

// FillerSecretName is the name of the Secret the operator generates for a Filler: its signing
// secret, under signing.DefaultSecretKey.
func FillerSecretName(filler string) string { return filler + "-filler-secret" }

// DefaultFillerStatsInterval is how often a Filler's status takes the market's counters, when the
// reconciler has them (FillerReconciler.Stats).
const DefaultFillerStatsInterval = time.Minute

// FillerReconciler publishes Ready Fillers into the filler directory the request for quotes asks,
// generates each Filler's signing secret, makes each a dependent of its Account, and reports the
// market's counters and fades on its status.
//
// A Filler is Ready when its spec is valid, its Account exists, is enabled and owns an enabled
// ApiKey with role filler (the account that reads the order book: AccountNotFiller otherwise), it
// is not disabled, and its secret is usable. Fading (past the fade threshold) keeps it published:
// the request for quotes skips it by itself until the cool-down ends, on every replica.
//
// The secret is never logged, put in an event or in the status: they name the Secret only.
type FillerReconciler struct {
	writer
	Fillers *registry.FillerDirectory
	// Stats, when set, gives the market's counters of a filler (rfq.Market.Stats); the reconciler
	// writes them on the status every StatsInterval.
	Stats func(name string) rfq.Stats
	// StatsInterval is how often the counters are written (DefaultFillerStatsInterval).
	StatsInterval time.Duration
	// FadeWindow names the fade window in the Fading message (rfq.DefaultFadeWindow).
	FadeWindow time.Duration
}

// ValidateFillerSpec mirrors the CRD rules of a Filler's spec, and checks the EIP-55 checksums of
// its addresses.
func ValidateFillerSpec(spec *v1alpha1.FillerSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := fieldrule.LocalObjectReference(p.Child("accountRef"), spec.AccountRef)
	errs = append(errs, validateQuoteURL(p.Child("quoteURL"), spec.QuoteURL)...)
	routes := p.Child("routes")
	switch {
	case len(spec.Routes) == 0:
		errs = append(errs, field.Required(routes, "at least one route"))
	case len(spec.Routes) > 64:
		errs = append(errs, field.TooMany(routes, len(spec.Routes), 64))
	}
	payouts := map[string]bool{}
	pp := p.Child("payoutAddresses")
	switch {
	case len(spec.PayoutAddresses) == 0:
		errs = append(errs, field.Required(pp, "at least one payout address"))
	case len(spec.PayoutAddresses) > 32:
		errs = append(errs, field.TooMany(pp, len(spec.PayoutAddresses), 32))
	}
	for i, pa := range spec.PayoutAddresses {
		ip := pp.Index(i)
		errs = append(errs, validateChainID(ip.Child("chainId"), pa.ChainID)...)
		if payouts[pa.ChainID] {
			errs = append(errs, field.Duplicate(ip.Child("chainId"), pa.ChainID))
		}
		payouts[pa.ChainID] = true
		if e := (fieldrule.String{Required: true, Pattern: hexAddressPattern}).Validate(ip.Child("address"), pa.Address); len(e) > 0 {
			errs = append(errs, e...)
		} else {
			errs = append(errs, validateEIP55(ip.Child("address"), pa.Address, pa.Address)...)
		}
	}
	for i, r := range spec.Routes {
		ip := routes.Index(i)
		fromErrs := validateChainID(ip.Child("fromChainId"), r.FromChainID)
		toErrs := validateChainID(ip.Child("toChainId"), r.ToChainID)
		errs = append(append(errs, fromErrs...), toErrs...)
		if len(fromErrs) == 0 {
			errs = append(errs, validateRouteTokens(ip.Child("tokensIn"), r.TokensIn, r.FromChainID, "fromChainId")...)
		}
		if len(toErrs) == 0 {
			errs = append(errs, validateRouteTokens(ip.Child("tokensOut"), r.TokensOut, r.ToChainID, "toChainId")...)
			if !payouts[r.ToChainID] {
				errs = append(errs, field.Invalid(ip.Child("toChainId"), r.ToChainID, "every route's toChainId needs a payout address on that chain"))
			}
		}
	}
	return errs
}

// validateQuoteURL checks the CRD's rules of a quote URL: at most 2048 characters, https or http to
// a loopback host, no user information, and no address literal of a private network (a name is
// resolved and checked at each request). One rule, the request path's: ssrf.CheckURL with loopback
// allowed, as the CRD allows it; the request for quotes checks it again with its own setting.
func validateQuoteURL(path *field.Path, value string) field.ErrorList {
	if errs := (fieldrule.String{Required: true, MaxLen: 2048}).Validate(path, value); len(errs) > 0 {
		return errs
	}
	if err := ssrf.CheckURL(value, true); err != nil {
		return field.ErrorList{field.Invalid(path, value, "quoteURL must be https (plain http to a loopback address only) "+
			"and reach a public address: "+err.Error())}
	}
	return nil
}

// validateRouteTokens checks a route's token list: CAIP-10 addresses on the route's chain, each
// once, at most 64.
func validateRouteTokens(path *field.Path, tokens []string, chain, chainField string) field.ErrorList {
	var errs field.ErrorList
	if len(tokens) > 64 {
		errs = append(errs, field.TooMany(path, len(tokens), 64))
	}
	seen := map[string]bool{}
	for i, t := range tokens {
		ip := path.Index(i)
		if e := (fieldrule.String{Required: true, MaxLen: 170, Pattern: caip10Pattern}).Validate(ip, t); len(e) > 0 {
			errs = append(errs, e...)
			continue
		}
		switch {
		case !strings.HasPrefix(t, chain+":"):
			errs = append(errs, field.Invalid(ip, t, "must be a CAIP-10 address on "+chainField))
		case strings.HasPrefix(t, caip.NamespaceEIP155+":") && !eip155AddressPattern.MatchString(t):
			errs = append(errs, field.Invalid(ip, t, "an eip155 address must be 0x followed by 40 hex digits"))
		case strings.HasPrefix(t, caip.NamespaceEIP155+":"):
			_, address, _ := registry.SplitCAIP10(t)
			errs = append(errs, validateEIP55(ip, t, address)...)
		}
		if seen[t] {
			errs = append(errs, field.Duplicate(ip, t))
		}
		seen[t] = true
	}
	return errs
}

// Reconcile publishes one Filler.
func (r *FillerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var f v1alpha1.Filler
	return r.reconcile(ctx, req, &f, reconcileSteps{
		withdraw: func() { r.Fillers.Delete(req.Name) },
		validate: func() field.ErrorList { return ValidateFillerSpec(&f.Spec) },
		publish:  func(o *outcome) (ctrl.Result, error) { return r.publish(ctx, &f, o) },
	})
}

// publish is the Filler's own part of a reconcile, on a valid spec.
func (r *FillerReconciler) publish(ctx context.Context, f *v1alpha1.Filler, o *outcome) (ctrl.Result, error) {
	spec := &f.Spec
	var account v1alpha1.Account
	accountErr := r.Get(ctx, types.NamespacedName{Namespace: f.Namespace, Name: spec.AccountRef.Name}, &account)
	if accountErr != nil && !apierrors.IsNotFound(accountErr) {
		return ctrl.Result{}, accountErr
	}
	accountExists := accountErr == nil && account.DeletionTimestamp.IsZero()
	fillerKey := false
	if accountExists {
		if err := r.ensureOwnedBy(ctx, f, &account); err != nil {
			return ctrl.Result{}, err
		}
		var err error
		if fillerKey, err = r.hasFillerKey(ctx, f.Namespace, account.Name); err != nil {
			return ctrl.Result{}, err
		}
	}
	ref := v1alpha1.SecretKeyReference{Name: FillerSecretName(f.Name), Key: signing.DefaultSecretKey}
	secret, problem, err := r.keepSecret(ctx, f, ref)
	if err != nil {
		return ctrl.Result{}, err
	}
	o.update(func() { f.Status.SigningSecretRef = &ref })

	var stats rfq.Stats
	if r.Stats != nil {
		stats = r.Stats(f.Name)
		o.update(func() {
			f.Status.Quotes, f.Status.Wins, f.Status.Fills, f.Status.Fades = stats.Quotes, stats.Wins, stats.Fills, stats.Fades
			f.Status.QuoteLatencyMs = stats.QuoteLatency.Milliseconds()
			if stats.NotAskedUntil.IsZero() {
				f.Status.NotAskedUntil = nil
			} else {
				f.Status.NotAskedUntil = &metav1.Time{Time: stats.NotAskedUntil.UTC().Truncate(time.Second)}
			}
		})
	}

	served := false
	switch {
	case problem.reason != "":
		o.setNotReady(problem.reason, "%s", problem.message)
	case !accountExists:
		o.setNotReady(v1alpha1.ReasonOwnerMissing, "Account %s does not exist: the filler is not asked for quotes", spec.AccountRef.Name)
	case spec.Disabled:
		o.setNotReady(v1alpha1.ReasonDisabled, "the filler is disabled: it is not asked for quotes")
	case account.Spec.Disabled:
		o.setNotReady(v1alpha1.ReasonOwnerDisabled, "Account %s is disabled: the filler is not asked for quotes", spec.AccountRef.Name)
	case !fillerKey:
		o.setNotReady(v1alpha1.ReasonAccountNotFiller, "Account %s owns no enabled ApiKey with role filler: the filler is not asked for quotes",
			spec.AccountRef.Name)
	case !stats.NotAskedUntil.IsZero():
		served = true
		window := stats.FadeWindow
		if window <= 0 {
			window = r.FadeWindow
		}
		if window <= 0 {
			window = rfq.DefaultFadeWindow
		}
		o.setNotReady(v1alpha1.ReasonFading, "not asked for quotes until %s after %d fades in the last %s (orders won and not filled)",
			stats.NotAskedUntil.UTC().Format(time.RFC3339), stats.RecentFades, window)
	default:
		served = true
		o.setReady(v1alpha1.ReasonValid, "asked for quotes on %d routes at %s, signed with the secret in Secret %s (key %s)",
			len(spec.Routes), spec.QuoteURL, ref.Name, ref.Key)
	}
	if served {
		r.Fillers.Upsert(fillerEntry(f, secret))
	} else {
		r.Fillers.Delete(f.Name)
	}
	var result ctrl.Result
	if r.Stats != nil && !r.project {
		interval := r.StatsInterval
		if interval <= 0 {
			interval = DefaultFillerStatsInterval
		}
		result.RequeueAfter = interval
	}
	return result, nil
}

// fillerEntry is the directory's row of a Filler.
func fillerEntry(f *v1alpha1.Filler, secret string) registry.Filler {
	entry := registry.Filler{Name: f.Name, Account: f.Spec.AccountRef.Name, URL: f.Spec.QuoteURL, Secret: secret,
		Payouts: make(map[string]common.Address, len(f.Spec.PayoutAddresses))}
	if t := f.Status.NotAskedUntil; t != nil {
		// The leader's word, from the fades it counts: every replica skips a fading filler.
		entry.NotAskedUntil = t.Time
	}
	for _, p := range f.Spec.PayoutAddresses {
		entry.Payouts[p.ChainID] = common.HexToAddress(p.Address)
	}
	for _, r := range f.Spec.Routes {
		entry.Routes = append(entry.Routes, registry.FillerRoute{From: r.FromChainID, To: r.ToChainID, TokensIn: r.TokensIn, TokensOut: r.TokensOut})
	}
	return entry
}

// hasFillerKey reports whether the account owns an enabled ApiKey with role filler.
func (r *FillerReconciler) hasFillerKey(ctx context.Context, namespace, account string) (bool, error) {
	var keys v1alpha1.ApiKeyList
	if err := r.List(ctx, &keys, client.InNamespace(namespace), client.MatchingFields{ApiKeyAccountField: account}); err != nil {
		return false, err
	}
	for _, k := range keys.Items {
		if k.Spec.Role == v1alpha1.ApiKeyRoleFiller && !k.Spec.Disabled && k.DeletionTimestamp.IsZero() {
			return true, nil
		}
	}
	return false, nil
}

// keepSecret returns the Filler's signing secret, generating its Secret when there is none (the
// reconciler; a projection waits for it) and replacing a broken one it generated. It returns what
// keeps the secret from being used, if anything.
func (r *FillerReconciler) keepSecret(ctx context.Context, f *v1alpha1.Filler, ref v1alpha1.SecretKeyReference) (string, secretProblem, error) {
	var secret corev1.Secret
	err := r.Get(ctx, types.NamespacedName{Namespace: f.Namespace, Name: ref.Name}, &secret)
	switch {
	case apierrors.IsNotFound(err) && r.project:
		return "", secretProblem{v1alpha1.ReasonSecretMissing, fmt.Sprintf("waiting for the signing secret in Secret %s", ref.Name)}, nil
	case apierrors.IsNotFound(err):
		value, err := r.generateSecret(ctx, f, ref)
		return value, secretProblem{}, err
	case err != nil:
		return "", secretProblem{}, err
	}
	if !metav1.IsControlledBy(&secret, f) {
		return "", secretProblem{v1alpha1.ReasonConflict, fmt.Sprintf(
			"Secret %s exists and was not generated for this Filler: delete or rename it", ref.Name)}, nil
	}
	value := string(secret.Data[ref.Key])
	if _, err := signing.ParseSecret(value); err != nil {
		if r.project {
			return "", secretProblem{v1alpha1.ReasonSecretMissing, fmt.Sprintf("waiting for a new signing secret in Secret %s", ref.Name)}, nil
		}
		value, err = r.regenerate(ctx, &secret, ref)
		return value, secretProblem{}, err
	}
	return value, secretProblem{}, nil
}

// generateSecret creates the Filler's Secret with a new secret, controlled by the Filler so that
// the garbage collector deletes it with it.
func (r *FillerReconciler) generateSecret(ctx context.Context, f *v1alpha1.Filler, ref v1alpha1.SecretKeyReference) (string, error) {
	value, err := signing.NewSecret(nil)
	if err != nil {
		return "", err
	}
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: ref.Name, Namespace: f.Namespace, Labels: map[string]string{
			"app.kubernetes.io/managed-by": v1alpha1.OperatorName, "app.kubernetes.io/component": "filler-secret",
		}},
		Type: corev1.SecretTypeOpaque,
		Data: map[string][]byte{ref.Key: []byte(value)},
	}
	if err := controllerutil.SetControllerReference(f, secret, v1alpha1.Scheme()); err != nil {
		return "", fmt.Errorf("owner-referencing Filler %s: %w", f.Name, err)
	}
	if err := r.Create(ctx, secret); err != nil {
		// AlreadyExists: the cache was behind; the Secret's event brings the Filler back.
		return "", fmt.Errorf("creating Secret %s: %w", ref.Name, err)
	}
	if r.Recorder != nil {
		r.Recorder.Eventf(f, nil, corev1.EventTypeNormal, "SecretGenerated", "Generate",
			"generated a signing secret in Secret %s (key %s)", ref.Name, ref.Key)
	}
	return value, nil
}

// regenerate replaces a broken secret in the Filler's generated Secret.
func (r *FillerReconciler) regenerate(ctx context.Context, secret *corev1.Secret, ref v1alpha1.SecretKeyReference) (string, error) {
	value, err := signing.NewSecret(nil)
	if err != nil {
		return "", err
	}
	before := secret.DeepCopy()
	secret.Data = map[string][]byte{ref.Key: []byte(value)}
	if err := r.Patch(ctx, secret, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return "", fmt.Errorf("replacing the broken secret in Secret %s: %w", ref.Name, err)
	}
	return value, nil
}

// ensureOwnedBy makes the Account an owner of the Filler (not its controller), so that deleting
// the Account garbage-collects its fillers, as it does its keys and endpoints.
func (r *FillerReconciler) ensureOwnedBy(ctx context.Context, f *v1alpha1.Filler, account *v1alpha1.Account) error {
	before := f.DeepCopy()
	if err := controllerutil.SetOwnerReference(account, f, v1alpha1.Scheme(), controllerutil.WithBlockOwnerDeletion(true),
		func(ref *metav1.OwnerReference) { ref.Controller = ptr.To(false) }); err != nil {
		return fmt.Errorf("owner-referencing Account %s: %w", account.Name, err)
	}
	if equality.Semantic.DeepEqual(before.OwnerReferences, f.OwnerReferences) || r.project {
		return nil
	}
	if err := r.Patch(ctx, f, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("setting the owner reference to Account %s: %w", account.Name, err)
	}
	return nil
}

// SetupWithManager registers the controller: a change of an Account or of one of its ApiKeys
// re-evaluates its Fillers, and a change of a Filler's Secret the Filler.
func (r *FillerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	fillersOfAccount := func(ctx context.Context, namespace, account string) []reconcile.Request {
		return requestsFor(ctx, mgr.GetClient(), &v1alpha1.FillerList{}, FillerAccountField, []string{account}, client.InNamespace(namespace))
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1alpha1.Filler{}).
		Owns(&corev1.Secret{}, builder.WithPredicates(secretDataChanged)).
		Watches(&v1alpha1.Account{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
			return fillersOfAccount(ctx, obj.GetNamespace(), obj.GetName())
		})).
		Watches(&v1alpha1.ApiKey{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
			return fillersOfAccount(ctx, obj.GetNamespace(), obj.(*v1alpha1.ApiKey).Spec.AccountRef.Name)
		})).
		WithOptions(r.controllerOptions()).
		Named(r.controllerName("filler")).
		Complete(r.recording("Filler", r))
}
