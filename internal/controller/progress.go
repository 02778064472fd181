package controller

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// progressOf says which of the kstatus conditions a Ready=False reason raises, in Flux's sense:
//   - Stalled: the object will not be served until a person changes a spec: its own (an invalid
//     spec, a conflict, a key disabled or expired) or its Account's (disabled). kstatus and Flux
//     read it as Failed, at once.
//   - Reconciling: the object waits for something that may still appear, such as a Chain, an
//     Account or a Secret applied later in the same sync. kstatus reads it as InProgress.
//
// kstatus has no "Current but not served": a Ready=False with neither condition reads InProgress
// until a sync's timeout, so every Ready=False reason is in the table. A disabled key is Stalled
// rather than quietly Current because it is refused; Argo CD's health check shows it as Suspended.
// Ready=True (Valid, and an intent's Active and Terminal) raises neither, and both are removed.
var progressOf = map[string]string{
	v1alpha1.ReasonInvalidSpec:           v1alpha1.ConditionStalled,
	v1alpha1.ReasonConflict:              v1alpha1.ConditionStalled,
	v1alpha1.ReasonDisabled:              v1alpha1.ConditionStalled,
	v1alpha1.ReasonOwnerDisabled:         v1alpha1.ConditionStalled,
	v1alpha1.ReasonExpired:               v1alpha1.ConditionStalled,
	v1alpha1.ReasonDeliveriesFailing:     v1alpha1.ConditionStalled,
	v1alpha1.ReasonEndpointLimitExceeded: v1alpha1.ConditionStalled,
	// A key past its Account's maxApiKeys is refused until someone raises the bound or deletes a key.
	v1alpha1.ReasonKeyLimitExceeded: v1alpha1.ConditionStalled,
	v1alpha1.ReasonUnknownChain:     v1alpha1.ConditionReconciling,
	v1alpha1.ReasonOwnerMissing:     v1alpha1.ConditionReconciling,
	v1alpha1.ReasonSecretMissing:    v1alpha1.ConditionReconciling,
	// A filler key of the Filler's Account may be applied in the same sync.
	v1alpha1.ReasonAccountNotFiller: v1alpha1.ConditionReconciling,
	// A fading filler is asked again once its cool-down ends, with no one acting.
	v1alpha1.ReasonFading: v1alpha1.ConditionReconciling,
	// Reasons of a Chain's RPCReachable, which can need attention while the chain is served.
	v1alpha1.ReasonChainIDMismatch: v1alpha1.ConditionStalled,
	v1alpha1.ReasonUnreachable:     v1alpha1.ConditionReconciling,
}

// setProgressConditions sets Stalled or Reconciling from the Ready condition just decided (or, on a
// served Chain, from a failed RPCReachable), with that condition's reason and with its message
// after the reason, and removes the other one: Flux removes them rather than setting them False,
// so an object that is fine carries Ready alone.
func setProgressConditions(conds *[]metav1.Condition, ready metav1.Condition) {
	raised, from := "", ready
	if ready.Status != metav1.ConditionTrue {
		raised = progressOf[ready.Reason]
	} else if rpc := meta.FindStatusCondition(*conds, v1alpha1.ConditionRPCReachable); rpc != nil && rpc.Status == metav1.ConditionFalse {
		// A served Chain whose node is down or of another network still needs its operator.
		raised, from = progressOf[rpc.Reason], *rpc
	}
	for _, kind := range []string{v1alpha1.ConditionStalled, v1alpha1.ConditionReconciling} {
		if kind != raised {
			meta.RemoveStatusCondition(conds, kind)
			continue
		}
		cond := from
		cond.Type = kind
		cond.Status = metav1.ConditionTrue
		// Flux and `kubectl wait` print the message alone: it leads with the reason.
		cond.Message = from.Reason + ": " + from.Message
		meta.SetStatusCondition(conds, cond)
	}
}
