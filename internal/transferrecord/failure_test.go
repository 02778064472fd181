package transferrecord

import (
	"reflect"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/transferintent/transfer-intent-service/api/openapi"
	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// A failed intent's record carries failure {code, message}: the status's code where it kept one,
// else the code its Transaction condition's reason implies (intents failed by an older release,
// live or archived); no other phase carries one.
func TestFailureCodeOfEachFailure(t *testing.T) {
	condition := func(reason, message string) v1alpha1.CommonStatus {
		var out v1alpha1.CommonStatus
		meta.SetStatusCondition(&out.Conditions, metav1.Condition{Type: v1alpha1.ConditionTransaction, Status: metav1.ConditionFalse, Reason: reason, Message: message})
		return out
	}
	for _, tc := range []struct {
		name   string
		status v1alpha1.TransferIntentStatus
		want   *Failure
	}{
		{"reverted", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseFailed, FailureCode: v1alpha1.FailureReverted,
			CommonStatus: condition(v1alpha1.ReasonReverted, "reverted: ERC20InsufficientBalance")}, &Failure{Code: v1alpha1.FailureReverted, Message: "reverted: ERC20InsufficientBalance"}},
		{"insufficient balance, with its error", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseFailed, FailureCode: v1alpha1.FailureInsufficientBalance,
			FailureError: &v1alpha1.RevertError{Name: "ERC20InsufficientBalance", Selector: "0xe450d38c", Args: map[string]string{"balance": "0", "needed": "9"}},
			CommonStatus: condition(v1alpha1.ReasonReverted, "m")}, &Failure{Code: v1alpha1.FailureInsufficientBalance, Message: "m",
			Error: &FailureError{Name: "ERC20InsufficientBalance", Selector: "0xe450d38c", Args: map[string]string{"balance": "0", "needed": "9"}}}},
		{"out of gas", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseFailed, FailureCode: v1alpha1.FailureOutOfGas,
			CommonStatus: condition(v1alpha1.ReasonReverted, "gas used 25000")}, &Failure{Code: v1alpha1.FailureOutOfGas, Message: "gas used 25000"}},
		{"not opened", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseFailed, FailureCode: v1alpha1.FailureNotOpened,
			CommonStatus: condition(v1alpha1.ReasonNotOpened, "no Opened")}, &Failure{Code: v1alpha1.FailureNotOpened, Message: "no Opened"}},
		{"refunded", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseFailed, FailureCode: v1alpha1.FailureRefunded,
			CommonStatus: condition(v1alpha1.ReasonRefunded, "refunded")}, &Failure{Code: v1alpha1.FailureRefunded, Message: "refunded"}},
		{"reverted, by an older release", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseFailed,
			CommonStatus: condition(v1alpha1.ReasonReverted, "r")}, &Failure{Code: v1alpha1.FailureReverted, Message: "r"}},
		{"not opened, by an older release", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseFailed,
			CommonStatus: condition(v1alpha1.ReasonNotOpened, "n")}, &Failure{Code: v1alpha1.FailureNotOpened, Message: "n"}},
		{"refunded, by an older release", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseFailed,
			CommonStatus: condition(v1alpha1.ReasonRefunded, "f")}, &Failure{Code: v1alpha1.FailureRefunded, Message: "f"}},
		{"failed by hand, no condition", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseFailed}, &Failure{Code: v1alpha1.FailureReverted}},
		{"submitted", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseSubmitted, CommonStatus: condition(v1alpha1.ReasonDropped, "d")}, nil},
		{"expired", v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseExpired}, nil},
		{"pending, implied", v1alpha1.TransferIntentStatus{}, nil},
	} {
		got := Of(&v1alpha1.TransferIntent{Status: tc.status}, nil, epoch).Failure
		if (got == nil) != (tc.want == nil) || (got != nil && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("%s: failure %+v; want %+v", tc.name, got, tc.want)
		}
	}
}

// Every reason a release before failure codes failed an intent with maps to a code of the set.
func TestEveryFailingReasonHasACode(t *testing.T) {
	for reason, code := range failureByReason {
		if !slices.Contains(v1alpha1.FailureCodes, code) {
			t.Errorf("reason %s maps to %q, not a failure code", reason, code)
		}
	}
}

// The OpenAPI document's FailureCode enum is the Go set, so a client generated from it knows
// every code the service sends.
func TestTheOpenAPIFailureCodesAreTheGoSet(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Enum []string `json:"enum"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := yaml.Unmarshal(openapi.YAML, &doc); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range v1alpha1.FailureCodes {
		want = append(want, string(c))
	}
	if got := doc.Components.Schemas["FailureCode"].Enum; !slices.Equal(got, want) {
		t.Errorf("OpenAPI FailureCode enum %v; want %v", got, want)
	}
	states := []string{string(RefundWaiting), string(RefundAvailable), string(RefundSent), string(RefundFinal)}
	if got := doc.Components.Schemas["RefundState"].Enum; !slices.Equal(got, states) {
		t.Errorf("OpenAPI RefundState enum %v; want %v", got, states)
	}
}
