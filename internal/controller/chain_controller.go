package controller

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"net/netip"
	neturl "net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
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

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/fieldrule"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// ChainIDField indexes Chains and TokenDefinitions by spec.chainId.
const ChainIDField = "spec.chainId"

// ChainRPCSecretField indexes Chains by the Secrets holding their RPC URLs (spec.rpc and
// spec.witnessRpcs).
const ChainRPCSecretField = "spec.rpc.urlSecretRef.name"

// ChainByChainID is the ChainIDField index function of Chains.
func ChainByChainID(obj client.Object) []string {
	return []string{obj.(*v1alpha1.Chain).Spec.ChainID}
}

// ChainByRPCSecret is the ChainRPCSecretField index function of Chains.
func ChainByRPCSecret(obj client.Object) []string {
	spec := &obj.(*v1alpha1.Chain).Spec
	var names []string
	add := func(rpc v1alpha1.ChainRPC) {
		if rpc.URLSecretRef != nil && !slices.Contains(names, rpc.URLSecretRef.Name) {
			names = append(names, rpc.URLSecretRef.Name)
		}
	}
	if spec.RPC != nil {
		add(*spec.RPC)
	}
	for _, rpc := range spec.WitnessRPCs {
		add(rpc)
	}
	return names
}

// ChainReconciler publishes Chains into the chain table and probes the node of each Chain with an
// RPC endpoint.
type ChainReconciler struct {
	writer
	Chains *registry.ChainTable
	// Probe asks the node of chain (its CAIP-2 id) at url for its chain id and head block
	// (jsonrpc.Client.Probe); nil skips probing.
	Probe func(ctx context.Context, chain, url string) (chainID *big.Int, head uint64, err error)
	// ProbeInterval is how often a Chain's node is probed again.
	ProbeInterval time.Duration
	// ProbeSettlement asks a node about a settlement contract (jsonrpc.Client.ProbeSettlement); nil
	// skips the check.
	ProbeSettlement func(ctx context.Context, chain, url string, contract, permit2 common.Address) (jsonrpc.Settlement, error)
	// Attester is the address of the service's attester key; zero when the service has none.
	Attester common.Address
	// TrustedSources are the operator's trusted RPC hosts per chain: a chain on the list has its
	// settlement contract used only when its node (which verified the contract) is on it.
	TrustedSources registry.TrustedSources

	requeue enqueuer
}

// ValidateChainSpec mirrors the CRD rules of a Chain's spec and checks the settlement address's
// EIP-55 checksum and the gas price's uint256 bound.
func ValidateChainSpec(spec *v1alpha1.ChainSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := validateChainID(p.Child("chainId"), spec.ChainID)
	errs = append(errs, fieldrule.Environment(p.Child("environment"), spec.Environment)...)
	errs = append(errs, fieldrule.String{Required: true, MinLen: 1, MaxLen: 64}.Validate(p.Child("displayName"), spec.DisplayName)...)
	errs = append(errs, fieldrule.String{Required: true, MinLen: 1, MaxLen: 16, Pattern: symbolPattern}.Validate(p.Child("nativeSymbol"), spec.NativeSymbol)...)
	errs = append(errs, validateRange(p.Child("nativeDecimals"), spec.NativeDecimals, 0, 77)...)
	errs = append(errs, validateRange(p.Child("blockTimeSeconds"), spec.BlockTimeSeconds, 1, 3600)...)
	errs = append(errs, validateRange(p.Child("finalitySeconds"), spec.FinalitySeconds, 0, 86400)...)
	if e := (fieldrule.String{Required: true, MaxLen: 78, Pattern: decimalIntPattern}).Validate(p.Child("defaultGasPriceWei"), spec.DefaultGasPriceWei); len(e) > 0 {
		errs = append(errs, e...)
	} else {
		errs = append(errs, validateUint256(p.Child("defaultGasPriceWei"), spec.DefaultGasPriceWei)...)
	}
	errs = append(errs, fieldrule.String{Required: true, MaxLen: 40, Pattern: decimalPattern}.Validate(p.Child("nativeTokenPriceUsd"), spec.NativeTokenPriceUSD)...)
	errs = append(errs, validatePriceFeed(p.Child("priceFeed"), spec.PriceFeed)...)
	errs = append(errs, validateMaxGasOnArrival(p.Child("maxGasOnArrival"), spec)...)
	if spec.PriceFeed != nil && spec.RPC == nil {
		errs = append(errs, field.Invalid(p.Child("priceFeed"), spec.PriceFeed.Address, "a priceFeed needs rpc: the feed is read through the chain's node"))
	}
	for name, addr := range map[string]string{"settlementAddress": spec.SettlementAddress, "permit2Address": spec.Permit2Address} {
		if e := (fieldrule.String{Pattern: hexAddressPattern}).Validate(p.Child(name), addr); len(e) > 0 {
			errs = append(errs, e...)
		} else if addr != "" {
			errs = append(errs, validateEIP55(p.Child(name), addr, addr)...)
		}
	}
	if spec.ExplorerURL != "" {
		errs = append(errs, validateExplorerURL(p.Child("explorerUrl"), spec.ExplorerURL)...)
	}
	if spec.RPC != nil {
		errs = append(errs, validateChainRPC(p.Child("rpc"), spec.RPC)...)
	}
	for i := range spec.WitnessRPCs {
		errs = append(errs, validateChainRPC(p.Child("witnessRpcs").Index(i), &spec.WitnessRPCs[i])...)
	}
	if len(spec.WitnessRPCs) > maxWitnessRPCs {
		errs = append(errs, field.TooMany(p.Child("witnessRpcs"), len(spec.WitnessRPCs), maxWitnessRPCs))
	}
	if spec.BridgeMinConfirmations != 0 {
		errs = append(errs, validateRange(p.Child("bridgeMinConfirmations"), spec.BridgeMinConfirmations, 2, 100000)...)
	}
	return errs
}

// maxWitnessRPCs mirrors the CRD's bound on spec.witnessRpcs.
const maxWitnessRPCs = 4

// validateChainRPC checks one endpoint: exactly one of url and urlSecretRef, the url https (or
// loopback http).
func validateChainRPC(rp *field.Path, rpc *v1alpha1.ChainRPC) field.ErrorList {
	var errs field.ErrorList
	if rpc.URL != "" {
		if e := (fieldrule.String{MaxLen: 2048}).Validate(rp.Child("url"), rpc.URL); len(e) > 0 {
			errs = append(errs, e...)
		} else {
			errs = append(errs, fieldrule.RPCURL(rp.Child("url"), rpc.URL)...)
		}
	}
	errs = append(errs, fieldrule.SecretKeyReference(rp.Child("urlSecretRef"), rpc.URLSecretRef)...)
	if (rpc.URL != "") == (rpc.URLSecretRef != nil) {
		errs = append(errs, field.Invalid(rp, "<redacted>", "set exactly one of url and urlSecretRef"))
	}
	return errs
}

// Reconcile publishes one Chain, or withdraws it when it is gone, invalid or loses a conflict.
func (r *ChainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var chain v1alpha1.Chain
	return r.reconcile(ctx, req, &chain, reconcileSteps{
		withdraw: func() { r.Chains.Delete(req.Name) },
		validate: func() field.ErrorList { return ValidateChainSpec(&chain.Spec) },
		publish:  func(o *outcome) (ctrl.Result, error) { return r.publish(ctx, req, &chain, o) },
		// The chain watcher writes the RPCAgreement condition: a patch of a stale list would drop it.
		optimisticLock: true,
	})
}

// publish is the Chain's own part of a reconcile, on a valid spec; the shared opening and
// closing (reconcile) surround it.
func (r *ChainReconciler) publish(ctx context.Context, req ctrl.Request, chain *v1alpha1.Chain, o *outcome) (ctrl.Result, error) {
	row, note, err := r.row(ctx, chain)
	if err != nil {
		return ctrl.Result{}, err
	}
	if older := r.Chains.Upsert(chain.Name, row); older != "" {
		o.setNotReady(v1alpha1.ReasonConflict, "chain %s is already defined by the older Chain %s, which is served instead", row.ID, older)
		return ctrl.Result{}, nil
	}
	o.setReady(v1alpha1.ReasonValid, "chain %s (%s) is served%s", row.ID, row.Environment, note)
	return r.probe(ctx, chain, row, o), nil
}

// probe records in the Chain's status whether its node answers with the right chain id, and at
// which block; the chain is served either way. The URL may hold a credential: it appears in no
// message (jsonrpc's errors quote it as <rpc url>).
func (r *ChainReconciler) probe(ctx context.Context, chain *v1alpha1.Chain, row registry.Chain, o *outcome) ctrl.Result {
	if r.project {
		return ctrl.Result{} // the probe feeds the status only: the leader's reconciler probes
	}
	if row.RPCURL == "" || r.Probe == nil {
		o.update(func() {
			meta.RemoveStatusCondition(&chain.Status.Conditions, v1alpha1.ConditionRPCReachable)
			// Without a node nothing checks the contract any more: a verdict left in place
			// would vouch for an address no one can look at.
			meta.RemoveStatusCondition(&chain.Status.Conditions, v1alpha1.ConditionSettlementContract)
			chain.Status.HeadBlock = 0
		})
		return ctrl.Result{}
	}
	id, head, err := r.Probe(ctx, row.ID, row.RPCURL)
	cond := metav1.Condition{Type: v1alpha1.ConditionRPCReachable, ObservedGeneration: chain.Generation, LastTransitionTime: r.now()}
	switch {
	case err != nil:
		cond.Status, cond.Reason = metav1.ConditionFalse, v1alpha1.ReasonUnreachable
		cond.Message = fmt.Sprintf("the node of %s did not answer: %v; simulations use the chain's static defaults", row.ID, err)
	case row.NumericID == nil || id.Cmp(row.NumericID) != 0:
		cond.Status, cond.Reason = metav1.ConditionFalse, v1alpha1.ReasonChainIDMismatch
		cond.Message = fmt.Sprintf("the node reports chain id %v, not %s: its data is refused; point spec.rpc at the right network", id, row.ID)
	default:
		cond.Status, cond.Reason = metav1.ConditionTrue, v1alpha1.ReasonReachable
		cond.Message = fmt.Sprintf("the node of %s answers", row.ID)
	}
	if prev := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionRPCReachable); prev == nil || prev.Reason != cond.Reason {
		eventType := corev1.EventTypeNormal
		if cond.Status != metav1.ConditionTrue {
			eventType = corev1.EventTypeWarning
		}
		o.event(eventType, cond.Reason, "Probe", "%s", cond.Message)
	}
	o.update(func() {
		meta.SetStatusCondition(&chain.Status.Conditions, cond)
		if err == nil {
			chain.Status.HeadBlock = int64(head) //nolint:gosec // block numbers are far below 2^63
		}
	})
	if cond.Reason == v1alpha1.ReasonReachable {
		r.checkSettlement(ctx, chain, row, o)
	}
	return ctrl.Result{RequeueAfter: r.ProbeInterval}
}

// checkSettlement records in the Chain's status whether its settlementAddress holds the
// settlement contract and whether that accepts the service's attester. A node that does not
// answer leaves the last word in place: RPCReachable already tells about the node.
func (r *ChainReconciler) checkSettlement(ctx context.Context, chain *v1alpha1.Chain, row registry.Chain, o *outcome) {
	if row.SettlementAddress == "" || r.ProbeSettlement == nil {
		o.update(func() {
			meta.RemoveStatusCondition(&chain.Status.Conditions, v1alpha1.ConditionSettlementContract)
			meta.RemoveStatusCondition(&chain.Status.Conditions, v1alpha1.ConditionPermit2)
			chain.Status.Settlement = nil
		})
		return
	}
	contract, permit2 := common.HexToAddress(row.SettlementAddress), common.HexToAddress(row.Permit2Address)
	var cond metav1.Condition
	var permit2Cond *metav1.Condition
	if r.TrustedSources.Restricts(row.ID) && !r.TrustedSources.Trusts(row.ID, row.RPCURL) {
		// Not asked: only a node on the operator's list may vouch for the contract, and a verdict
		// of an earlier node is withdrawn (the URL may have changed in its Secret, which moves no
		// generation).
		cond = metav1.Condition{Type: v1alpha1.ConditionSettlementContract, Status: metav1.ConditionFalse, Reason: v1alpha1.ReasonUntrustedRPC,
			Message: fmt.Sprintf("spec.rpc is not on the manager's --attestation-trusted-hosts for %s: the settlement contract at %s is not checked on its word, and no swap or bridge uses it", row.ID, contract.Hex())}
	} else {
		s, err := r.ProbeSettlement(ctx, row.ID, row.RPCURL, contract, permit2)
		if err != nil {
			return
		}
		cond = settlementCondition(contract, s, r.Attester, r.refundDelayNeeded(row.Environment))
		terms := settlementStatus(contract, s)
		o.update(func() { chain.Status.Settlement = terms })
		if s.SettlementCode {
			// permit2() means something only when the code is our settlement contract's.
			c := permit2Condition(permit2, s)
			c.ObservedGeneration, c.LastTransitionTime = chain.Generation, r.now()
			permit2Cond = &c
		}
	}
	o.update(func() {
		if permit2Cond == nil {
			meta.RemoveStatusCondition(&chain.Status.Conditions, v1alpha1.ConditionPermit2)
		} else {
			meta.SetStatusCondition(&chain.Status.Conditions, *permit2Cond)
		}
	})
	cond.ObservedGeneration, cond.LastTransitionTime = chain.Generation, r.now()
	if prev := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionSettlementContract); prev == nil || prev.Reason != cond.Reason {
		eventType := corev1.EventTypeNormal
		if cond.Status != metav1.ConditionTrue {
			eventType = corev1.EventTypeWarning
		}
		o.event(eventType, cond.Reason, "Probe", "%s", cond.Message)
	}
	o.update(func() { meta.SetStatusCondition(&chain.Status.Conditions, cond) })
}

// settlementStatus is the refund terms the node gave of contract, when its code is this release's
// settlement contract (another contract's answers mean nothing); nil otherwise.
func settlementStatus(contract common.Address, s jsonrpc.Settlement) *v1alpha1.ChainSettlementStatus {
	if !s.SettlementCode || !s.RefundDelayKnown || s.RefundDelay > math.MaxInt64/uint64(time.Second) {
		return nil
	}
	return &v1alpha1.ChainSettlementStatus{
		Address: contract.Hex(), RefundDelaySeconds: int64(s.RefundDelay), AllRefundsAllowed: s.AllRefundsAllowed, //nolint:gosec // bounded above
	}
}

// AttestationLatency bounds how long, once a fill is final, the watcher takes to see and attest it
// and the filler to get its settle mined on the origin chain. A contract's refund delay must cover
// it on top of the slowest destination's finality.
const AttestationLatency = 15 * time.Minute

// refundDelayNeeded is the least refund delay a settlement contract of the environment needs: a
// fill made just before an order's deadline must be final on its destination (the slowest of the
// environment's chains, at bridge depth) and attested, and the settle mined, before the user may
// take the escrow back.
func (r *ChainReconciler) refundDelayNeeded(env registry.Environment) time.Duration {
	slowest := time.Duration(0)
	for _, c := range r.Chains.List() {
		if c.Environment == env {
			slowest = max(slowest, BridgeFinality(c))
		}
	}
	return slowest + AttestationLatency
}

// BridgeFinality is how long a bridge's fill on the chain takes to be final, at most: its
// finalitySeconds, or its bridge depth in blocks if that is longer.
func BridgeFinality(c registry.Chain) time.Duration {
	blocks := time.Duration(c.BridgeMinDepth()) * time.Duration(c.BlockTimeSeconds) * time.Second //nolint:gosec // bounded by the CRD
	return max(time.Duration(c.FinalitySeconds)*time.Second, blocks)
}

// settlementCondition is the SettlementContract condition of what the node said of contract; need
// is the least refund delay the environment's bridges require.
func settlementCondition(contract common.Address, s jsonrpc.Settlement, attester common.Address, need time.Duration) metav1.Condition {
	cond := metav1.Condition{Type: v1alpha1.ConditionSettlementContract, Status: metav1.ConditionFalse}
	switch {
	case !s.HasCode:
		cond.Reason = v1alpha1.ReasonNoContractCode
		cond.Message = fmt.Sprintf("no contract at %s: swaps and bridges from this chain are refused until the settlement contract is deployed there", contract.Hex())
	case !s.SettlementCode || !s.AttesterKnown || !s.RefundDelayKnown:
		// attester() alone proves nothing: any contract can answer it. The code must be this
		// release's Settlement, whose rules the attestations and refunds rely on.
		cond.Reason = v1alpha1.ReasonNotSettlementContract
		cond.Message = fmt.Sprintf("the code at %s is not this release's settlement contract (compared byte for byte outside its immutables): swaps and bridges through it are refused", contract.Hex())
	case attester != (common.Address{}) && s.Attester != attester:
		cond.Reason = v1alpha1.ReasonAttesterMismatch
		cond.Message = fmt.Sprintf("the settlement contract at %s accepts the attester %s, the service signs as %s: fillers of bridges from this chain cannot be repaid",
			contract.Hex(), s.Attester.Hex(), attester.Hex())
	case time.Duration(s.RefundDelay)*time.Second < need: //nolint:gosec // a contract's uint64 seconds
		cond.Reason = v1alpha1.ReasonRefundDelayTooShort
		cond.Message = fmt.Sprintf("the settlement contract at %s lets a user refund %s after an order's deadline, but a fill made just before it may need %s to be final on this environment's slowest chain and be attested: a filler could pay and lose the escrow; deploy it with a refundDelay of at least %s",
			contract.Hex(), time.Duration(s.RefundDelay)*time.Second, need, need) //nolint:gosec // a contract's uint64 seconds
	default:
		cond.Status, cond.Reason = metav1.ConditionTrue, v1alpha1.ReasonContractVerified
		cond.Message = fmt.Sprintf("the settlement contract at %s accepts the attester %s", contract.Hex(), s.Attester.Hex())
		if attester == (common.Address{}) {
			cond.Message += "; the service has no attester key, so bridges are refused"
		}
	}
	return cond
}

// permit2Condition is the Permit2 condition of what the node said of the Chain's Permit2 address
// and of the (verified) settlement contract's permit2().
func permit2Condition(permit2 common.Address, s jsonrpc.Settlement) metav1.Condition {
	cond := metav1.Condition{Type: v1alpha1.ConditionPermit2, Status: metav1.ConditionFalse}
	switch {
	case !s.Permit2HasCode:
		cond.Reason = v1alpha1.ReasonNoPermit2Code
		cond.Message = fmt.Sprintf("no contract at %s: Permit2 is not deployed on this chain, so its orders are transactions only (set spec.permit2Address if it lives elsewhere)", permit2.Hex())
	case !s.Permit2Code:
		cond.Reason = v1alpha1.ReasonNotPermit2
		cond.Message = fmt.Sprintf("the code at %s is not Permit2's (compared byte for byte outside its immutables): no gasless orders on this chain", permit2.Hex())
	case !s.Permit2Known || s.Permit2 != permit2:
		cond.Reason = v1alpha1.ReasonPermit2Mismatch
		cond.Message = fmt.Sprintf("the settlement contract pulls gasless orders through %s, not the chain's Permit2 %s: no gasless orders on this chain", s.Permit2.Hex(), permit2.Hex())
	default:
		cond.Status, cond.Reason = metav1.ConditionTrue, v1alpha1.ReasonPermit2Verified
		cond.Message = fmt.Sprintf("Permit2 at %s, and the settlement contract pulls gasless orders through it", permit2.Hex())
	}
	return cond
}

// row builds the chain table row of a valid Chain. note explains an RPC URL that could not be
// resolved: RPC is optional, so the chain is served without it.
func (r *ChainReconciler) row(ctx context.Context, chain *v1alpha1.Chain) (row registry.Chain, note string, err error) {
	spec := &chain.Spec
	ns, ref, _ := registry.SplitCAIP2(spec.ChainID)
	row = registry.Chain{
		ID:                  spec.ChainID,
		Environment:         registry.Environment(spec.Environment),
		DisplayName:         spec.DisplayName,
		NativeSymbol:        spec.NativeSymbol,
		NativeDecimals:      spec.NativeDecimals,
		BlockTimeSeconds:    spec.BlockTimeSeconds,
		FinalitySeconds:     spec.FinalitySeconds,
		NativeTokenPriceUSD: spec.NativeTokenPriceUSD,
		NativePriceFeed:     priceFeedRow(spec.PriceFeed),
		ExplorerURL:         strings.TrimRight(spec.ExplorerURL, "/"),
		CreatedAt:           chain.CreationTimestamp.Time,
	}
	if ns == caip.NamespaceEIP155 {
		row.NumericID, _ = new(big.Int).SetString(ref, 10)
	}
	row.DefaultGasPriceWei, _ = new(big.Int).SetString(spec.DefaultGasPriceWei, 10)
	if spec.MaxGasOnArrival != "" {
		row.MaxGasOnArrival, _ = intent.ParseAmount(spec.MaxGasOnArrival, spec.NativeDecimals) // checked by validateSpec
	}
	row.Permit2Address = contracts.CanonicalPermit2.Hex()
	if spec.Permit2Address != "" {
		row.Permit2Address = common.HexToAddress(spec.Permit2Address).Hex()
	}
	if spec.SettlementAddress != "" {
		row.SettlementAddress = common.HexToAddress(spec.SettlementAddress).Hex()
	}
	if spec.RPC != nil {
		row.RPCURL, note, err = r.resolveRPC(ctx, chain.Namespace, "rpc", spec.RPC)
		if err != nil {
			return row, "", err
		}
		if note != "" {
			note = " without RPC: " + note
		}
	}
	if spec.BridgeMinConfirmations > 0 {
		// Zero (a Chain stored before the field existed) leaves the watcher the CRD's default.
		row.BridgeMinConfirmations = uint64(spec.BridgeMinConfirmations)
	}
	seen := map[string]bool{endpointOf(row.RPCURL): row.RPCURL != ""}
	for i := range spec.WitnessRPCs {
		u, why, err := r.resolveRPC(ctx, chain.Namespace, fmt.Sprintf("witnessRpcs[%d]", i), &spec.WitnessRPCs[i])
		switch {
		case err != nil:
			return row, "", err
		case why != "":
			note += "; witness skipped: " + why
		case row.RPCURL == "":
			// A witness testifies next to the node: without the node there is nothing to check.
		case seen[endpointOf(u)]:
			note += fmt.Sprintf("; witnessRpcs[%d] skipped: the same host and port as another endpoint is not a second source", i)
		default:
			seen[endpointOf(u)] = true
			row.WitnessURLs = append(row.WitnessURLs, u)
		}
	}
	row.SettlementVerified = row.SettlementAddress != "" && row.RPCURL != "" && settlementVerified(chain)
	if row.SettlementVerified && r.TrustedSources.Restricts(row.ID) && !trustedVerdict(chain, r.TrustedSources, row) {
		// The verdict rests on spec.rpc's word: where the operator lists the hosts trusted with
		// money for this chain, it stands only while spec.rpc is on the list and answers (a URL
		// changed in its Secret moves no generation: a node that stopped answering since may not
		// be the one that gave the verdict).
		row.SettlementVerified = false
		note += "; settlement contract not used: spec.rpc, whose word verifies it, is not on --attestation-trusted-hosts for this chain or does not answer"
	}
	row.Permit2Verified = row.SettlementVerified && permit2Verified(chain)
	row.Refund = refundTerms(chain, row.SettlementAddress)
	return row, note, nil
}

// refundTerms are the refund terms the last probe read of the contract at address (the row's
// settlementAddress); nil when it read none of that contract.
func refundTerms(chain *v1alpha1.Chain, address string) *registry.RefundTerms {
	s := chain.Status.Settlement
	if s == nil || address == "" || !common.IsHexAddress(s.Address) || common.HexToAddress(s.Address).Hex() != address {
		return nil
	}
	return &registry.RefundTerms{Contract: address, Delay: time.Duration(s.RefundDelaySeconds) * time.Second, AllAllowed: s.AllRefundsAllowed}
}

// resolveRPC is an endpoint's URL, read from its Secret when it has one. why explains a URL that
// could not be resolved (the chain is served without it); it never quotes the URL.
func (r *ChainReconciler) resolveRPC(ctx context.Context, namespace, name string, rpc *v1alpha1.ChainRPC) (url, why string, err error) {
	sref := rpc.URLSecretRef
	if sref == nil {
		return rpc.URL, "", nil
	}
	key := secretKeyOrDefault(sref, defaultRPCSecretKey)
	var secret corev1.Secret
	err = r.Get(ctx, types.NamespacedName{Namespace: namespace, Name: sref.Name}, &secret)
	switch {
	case apierrors.IsNotFound(err):
		return "", fmt.Sprintf("Secret %s (%s.urlSecretRef) does not exist", sref.Name, name), nil
	case err != nil:
		return "", "", err
	case len(secret.Data[key]) == 0:
		return "", fmt.Sprintf("Secret %s has no key %s (%s.urlSecretRef)", sref.Name, key, name), nil
	}
	u := string(secret.Data[key])
	if errs := fieldrule.RPCURL(field.NewPath("data").Key(key), u); len(errs) > 0 {
		return "", fmt.Sprintf("Secret %s key %s (%s.urlSecretRef) does not hold an https (or loopback http) URL", sref.Name, key, name), nil
	}
	return u, "", nil
}

// endpointOf is the host and port a URL reaches: two URLs with the same are one source. Every
// loopback host is one host, an IP is written one way (an IPv4-mapped IPv6 address is its IPv4
// address), a name loses its trailing dot, and a port its leading zeros.
func endpointOf(raw string) string {
	u, err := neturl.Parse(raw)
	if err != nil {
		return raw
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		host = ip.Unmap().String()
	}
	if fieldrule.IsLoopbackHost(host) {
		host = "loopback"
	}
	port := map[string]int{"http": 80, "https": 443}[u.Scheme]
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err == nil {
			port = n
		}
	}
	return host + ":" + strconv.Itoa(port)
}

// trustedVerdict reports whether a restricted chain's verdict comes from a node the operator
// trusts that answers now: spec.rpc on the list and RPCReachable True.
func trustedVerdict(chain *v1alpha1.Chain, trusted registry.TrustedSources, row registry.Chain) bool {
	return trusted.Trusts(row.ID, row.RPCURL) && reachable(chain)
}

// settlementVerified says whether the Chain's status holds a True SettlementContract condition
// written for its current spec: one of an older generation may be about another address or node.
func settlementVerified(chain *v1alpha1.Chain) bool {
	cond := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionSettlementContract)
	return cond != nil && cond.Status == metav1.ConditionTrue && cond.ObservedGeneration == chain.Generation
}

// permit2Verified says whether the Chain's status holds a True Permit2 condition written for its
// current spec.
func permit2Verified(chain *v1alpha1.Chain) bool {
	cond := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionPermit2)
	return cond != nil && cond.Status == metav1.ConditionTrue && cond.ObservedGeneration == chain.Generation
}

// settlementVerificationChanged lets through the status update that verifies a Chain's settlement
// contract or withdraws that verdict. The other For() predicates drop status-only updates, but
// the verdict is written into the status by the leader's reconciler after it probes the node, and
// every replica's projection builds its chain row from it: without this, no replica would offer
// swaps or bridges through the contract until the spec changed. It starts no probe loop: the
// leader's reconcile it triggers probes again, and that passes this predicate again only if the
// node's answer changed. The node's reachability counts too: a chain with trusted hosts uses its
// verdict only while its node answers (trustedVerdict), so a node that goes down or comes back
// changes the row. So do the contract's refund terms (the guardian allowing every refund), which
// the records of swaps and bridges read from the row.
var settlementVerificationChanged = predicate.Funcs{
	CreateFunc:  func(event.CreateEvent) bool { return false },
	DeleteFunc:  func(event.DeleteEvent) bool { return false },
	GenericFunc: func(event.GenericEvent) bool { return false },
	UpdateFunc: func(e event.UpdateEvent) bool {
		before, ok := e.ObjectOld.(*v1alpha1.Chain)
		after, ok2 := e.ObjectNew.(*v1alpha1.Chain)
		return ok && ok2 && (settlementVerified(before) != settlementVerified(after) ||
			permit2Verified(before) != permit2Verified(after) || reachable(before) != reachable(after) ||
			!equality.Semantic.DeepEqual(before.Status.Settlement, after.Status.Settlement))
	},
}

// reachable reports whether the Chain's node answered its last probe with the right chain id.
func reachable(chain *v1alpha1.Chain) bool {
	return meta.IsStatusConditionTrue(chain.Status.Conditions, v1alpha1.ConditionRPCReachable)
}

// SetupWithManager registers the controller. The chain table's change listener re-evaluates
// Chains whose id changed hands, so that the newer of two conflicting Chains becomes Ready when
// the older goes.
func (r *ChainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Chains.OnChange(func(chainIDs []string) {
		r.requeue.add(requestsFor(listenerContext, mgr.GetClient(), &v1alpha1.ChainList{}, ChainIDField, chainIDs))
	})
	return ctrl.NewControllerManagedBy(mgr).
		// A status-only change (the chain watcher records its progress every few seconds) needs no
		// reconcile: it would only probe the node again. The settlement contract's verdict is the
		// exception: the chain row carries it.
		For(&v1alpha1.Chain{}, builder.WithPredicates(predicate.Or[client.Object](predicate.GenerationChangedPredicate{},
			predicate.LabelChangedPredicate{}, predicate.AnnotationChangedPredicate{}, settlementVerificationChanged))).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
			return requestsFor(ctx, mgr.GetClient(), &v1alpha1.ChainList{}, ChainRPCSecretField, []string{obj.GetName()}, client.InNamespace(obj.GetNamespace()))
		}), builder.WithPredicates(secretDataChanged)).
		WatchesRawSource(&r.requeue).
		WithOptions(r.controllerOptions()).
		Named(r.controllerName("chain")).
		Complete(r.recording("Chain", r))
}

// validateMaxGasOnArrival checks spec.maxGasOnArrival: a positive decimal in display units of the
// native token, with no more decimal places than nativeDecimals (the schema checks its form).
func validateMaxGasOnArrival(p *field.Path, spec *v1alpha1.ChainSpec) field.ErrorList {
	if spec.MaxGasOnArrival == "" {
		return nil
	}
	if e := (fieldrule.String{MaxLen: 40, Pattern: decimalPattern}).Validate(p, spec.MaxGasOnArrival); len(e) > 0 {
		return e
	}
	if _, err := intent.ParseAmount(spec.MaxGasOnArrival, spec.NativeDecimals); err != nil {
		return field.ErrorList{field.Invalid(p, spec.MaxGasOnArrival, fmt.Sprintf("must be a positive amount of %s with at most %d decimal places: %v", spec.NativeSymbol, spec.NativeDecimals, err))}
	}
	return nil
}
