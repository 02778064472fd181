package controller

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/fieldrule"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// TokenDefinitionByChainID is the ChainIDField index function of TokenDefinitions.
func TokenDefinitionByChainID(obj client.Object) []string {
	return []string{obj.(*v1alpha1.TokenDefinition).Spec.ChainID}
}

// TokenDefinitionReconciler publishes TokenDefinitions into the token registry.
//
// A definition is re-evaluated when the chain table or the registry's conflicts change on its
// chain (read-model listeners, see SetupWithManager). Deletion needs no finalizer: the registry is
// in memory, and the NotFound reconcile withdraws the definition, which serves a newer
// conflicting one at once and re-evaluates it through the conflict listener.
type TokenDefinitionReconciler struct {
	writer
	Chains *registry.ChainTable
	Tokens *registry.TokenRegistry

	requeue enqueuer
}

// ValidateTokenDefinitionSpec mirrors the CRD rules of a TokenDefinition's spec and checks the
// EIP-55 checksum of a mixed-case eip155 address.
func ValidateTokenDefinitionSpec(spec *v1alpha1.TokenDefinitionSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := fieldrule.String{Required: true, MinLen: 1, MaxLen: 32, Pattern: symbolPattern}.Validate(p.Child("symbol"), spec.Symbol)
	chainErrs := validateChainID(p.Child("chainId"), spec.ChainID)
	errs = append(errs, chainErrs...)
	addrPath := p.Child("address")
	if e := (fieldrule.String{Required: true, MaxLen: 171, Pattern: caip10Pattern}).Validate(addrPath, spec.Address); len(e) > 0 {
		errs = append(errs, e...)
	} else {
		switch {
		case len(chainErrs) == 0 && !strings.HasPrefix(spec.Address, spec.ChainID+":"):
			errs = append(errs, field.Invalid(addrPath, spec.Address, "address must be a CAIP-10 account on chainId (address must start with chainId followed by ':')"))
		case strings.HasPrefix(spec.Address, caip.NamespaceEIP155+":") && !eip155AddressPattern.MatchString(spec.Address):
			errs = append(errs, field.Invalid(addrPath, spec.Address, "an eip155 address must be 0x followed by 40 hex digits"))
		case strings.HasPrefix(spec.Address, caip.NamespaceEIP155+":"):
			_, address, _ := registry.SplitCAIP10(spec.Address)
			errs = append(errs, validateEIP55(addrPath, spec.Address, address)...)
		}
	}
	errs = append(errs, validateRange(p.Child("decimals"), spec.Decimals, 0, 77)...)
	if spec.Metadata != nil {
		errs = append(errs, fieldrule.String{MaxLen: 4096}.Validate(p.Child("metadata"), *spec.Metadata)...)
	}
	errs = append(errs, fieldrule.String{MaxLen: 40, Pattern: decimalPattern}.Validate(p.Child("priceUsd"), spec.PriceUSD)...)
	errs = append(errs, validatePriceFeed(p.Child("priceFeed"), spec.PriceFeed)...)
	if spec.Limits != nil {
		errs = append(errs, validateMaxAmount(p.Child("limits", "maxAmount"), spec.Limits.MaxAmount, spec.Decimals)...)
	}
	return errs
}

// validateMaxAmount mirrors the CRD rules of limits.maxAmount (a positive decimal with at most the
// token's decimals) and refuses what no rule can express: more than a uint256 of base units.
func validateMaxAmount(path *field.Path, v string, decimals int32) field.ErrorList {
	if errs := (fieldrule.String{Required: true, MinLen: 1, MaxLen: 100, Pattern: decimalPattern}).Validate(path, v); len(errs) > 0 {
		return errs
	}
	if decimals < 0 || decimals > 77 {
		return nil // spec.decimals reports it
	}
	if _, err := intent.ParseAmount(v, decimals); err != nil {
		return field.ErrorList{field.Invalid(path, v, fmt.Sprintf("maxAmount must be a positive amount of the token: %v", err))}
	}
	return nil
}

// maxAmountRow is limits.maxAmount in base units, nil without limits; the spec was validated.
func maxAmountRow(spec *v1alpha1.TokenDefinitionSpec) *big.Int {
	if spec.Limits == nil {
		return nil
	}
	v, err := intent.ParseAmount(spec.Limits.MaxAmount, spec.Decimals)
	if err != nil {
		return nil
	}
	return v
}

// Reconcile publishes one TokenDefinition, or withdraws it when it is gone, invalid, on an unknown
// chain or loses a conflict.
func (r *TokenDefinitionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var def v1alpha1.TokenDefinition
	return r.reconcile(ctx, req, &def, reconcileSteps{
		withdraw: func() { r.Tokens.Delete(req.Name) },
		validate: func() field.ErrorList { return ValidateTokenDefinitionSpec(&def.Spec) },
		publish:  func(o *outcome) (ctrl.Result, error) { return r.publish(ctx, req, &def, o) },
	})
}

// publish is the TokenDefinition's own part of a reconcile, on a valid spec; the shared opening and
// closing (reconcile) surround it.
func (r *TokenDefinitionReconciler) publish(ctx context.Context, req ctrl.Request, def *v1alpha1.TokenDefinition, o *outcome) (ctrl.Result, error) {
	spec := &def.Spec
	chain, ok := r.Chains.Get(spec.ChainID)
	if !ok {
		r.Tokens.Delete(req.Name)
		o.setNotReady(v1alpha1.ReasonUnknownChain, "no Ready Chain has chainId %s", spec.ChainID)
		return ctrl.Result{}, nil
	}
	token := registry.Token{
		Name:      def.Name,
		Symbol:    spec.Symbol,
		ChainID:   spec.ChainID,
		Address:   registry.NormalizeCAIP10(spec.Address),
		Decimals:  spec.Decimals,
		Metadata:  spec.Metadata,
		PriceUSD:  spec.PriceUSD,
		PriceFeed: priceFeedRow(spec.PriceFeed),
		MaxAmount: maxAmountRow(spec),
		CreatedAt: def.CreationTimestamp.Time,
	}
	if token.Address == spec.ChainID+":"+registry.NativeTokenAddress && spec.Decimals != chain.NativeDecimals {
		r.Tokens.Delete(req.Name)
		o.setNotReady(v1alpha1.ReasonInvalidSpec, "spec.decimals: the native token of %s has %d decimals (Chain %s), not %d",
			spec.ChainID, chain.NativeDecimals, chain.Name, spec.Decimals)
		return ctrl.Result{}, nil
	}
	if older := r.Tokens.Upsert(token); older != "" {
		o.setNotReady(v1alpha1.ReasonConflict,
			"the older TokenDefinition %s already defines this address or symbol on %s, and is served instead", older, spec.ChainID)
		return ctrl.Result{}, nil
	}
	o.setReady(v1alpha1.ReasonValid, "%s on %s is served", spec.Symbol, spec.ChainID)
	return ctrl.Result{}, nil
}

// SetupWithManager registers the controller. Definitions on a chain are re-evaluated
//   - when a Chain with that chainId changes (watch, through the ChainIDField index), and
//   - after the chain table published a change of that chain, and after the token registry
//     changed which definitions conflict there (listeners). The watch alone would race: this
//     controller can handle a Chain event before the Chain controller has published the chain.
func (r *TokenDefinitionReconciler) SetupWithManager(mgr ctrl.Manager) error {
	onChains := func(chainIDs []string) {
		r.requeue.add(requestsFor(listenerContext, mgr.GetClient(), &v1alpha1.TokenDefinitionList{}, ChainIDField, chainIDs))
	}
	r.Chains.OnChange(onChains)
	r.Tokens.OnConflictChange(onChains)
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1alpha1.TokenDefinition{}).
		Watches(&v1alpha1.Chain{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
			chain := obj.(*v1alpha1.Chain)
			return requestsFor(ctx, mgr.GetClient(), &v1alpha1.TokenDefinitionList{}, ChainIDField, []string{chain.Spec.ChainID},
				client.InNamespace(chain.Namespace))
		})).
		WatchesRawSource(&r.requeue).
		WithOptions(r.controllerOptions()).
		Named(r.controllerName("tokendefinition")).
		Complete(r.recording("TokenDefinition", r))
}
