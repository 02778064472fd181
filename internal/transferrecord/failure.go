package transferrecord

import (
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// Failure is the OpenAPI Failure of a failed intent: a code a client branches on (the closed set
// v1alpha1.FailureCodes), a sentence for people, and the error its transaction reverted with when
// the node gave the revert data.
type Failure struct {
	Code    v1alpha1.FailureCode `json:"code"`
	Message string               `json:"message"`
	Error   *FailureError        `json:"error,omitempty"`
}

// FailureError is the OpenAPI FailureError: the decoded revert (internal/chain/reverts).
type FailureError struct {
	Name     string            `json:"name,omitempty"`
	Selector string            `json:"selector"`
	Args     map[string]string `json:"args,omitempty"`
}

// failureByReason is the code of an intent that failed before its status kept one (an object
// failed by an older release, live or archived), read from the reason of its Transaction
// condition, which every failure set. Such a release had no out_of_gas: it is reverted here.
var failureByReason = map[string]v1alpha1.FailureCode{
	v1alpha1.ReasonReverted:  v1alpha1.FailureReverted,
	v1alpha1.ReasonNotOpened: v1alpha1.FailureNotOpened,
	v1alpha1.ReasonRefunded:  v1alpha1.FailureRefunded,
}

// failureOf is a failed intent's failure; nil for any other phase. Its code is the status's, or,
// for an intent failed before the status kept one, its Transaction condition's reason's; an
// intent failed with neither (written by hand) is reverted, the catch-all of a transaction that
// did not do its work.
func failureOf(obj *v1alpha1.TransferIntent) *Failure {
	if obj.Phase() != v1alpha1.IntentPhaseFailed {
		return nil
	}
	f := &Failure{Code: obj.Status.FailureCode}
	if e := obj.Status.FailureError; e != nil {
		f.Error = &FailureError{Name: e.Name, Selector: e.Selector, Args: e.Args}
	}
	c := meta.FindStatusCondition(obj.Status.Conditions, v1alpha1.ConditionTransaction)
	if c != nil {
		f.Message = c.Message
	}
	if f.Code == "" && c != nil {
		f.Code = failureByReason[c.Reason]
	}
	if f.Code == "" {
		f.Code = v1alpha1.FailureReverted
	}
	return f
}
