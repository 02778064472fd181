package controller

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// Every Ready reason, written out here with what Flux should read of it: a reason added to
// conditions.go without a decision here fails TestEveryNotReadyReasonRaisesAProgressCondition.
var readyReasons = map[string]string{
	v1alpha1.ReasonValid:                 "",
	v1alpha1.ReasonActive:                "",
	v1alpha1.ReasonTerminal:              "",
	v1alpha1.ReasonInvalidSpec:           v1alpha1.ConditionStalled,
	v1alpha1.ReasonConflict:              v1alpha1.ConditionStalled,
	v1alpha1.ReasonDisabled:              v1alpha1.ConditionStalled,
	v1alpha1.ReasonOwnerDisabled:         v1alpha1.ConditionStalled,
	v1alpha1.ReasonExpired:               v1alpha1.ConditionStalled,
	v1alpha1.ReasonDeliveriesFailing:     v1alpha1.ConditionStalled,
	v1alpha1.ReasonEndpointLimitExceeded: v1alpha1.ConditionStalled,
	v1alpha1.ReasonKeyLimitExceeded:      v1alpha1.ConditionStalled,
	v1alpha1.ReasonUnknownChain:          v1alpha1.ConditionReconciling,
	v1alpha1.ReasonOwnerMissing:          v1alpha1.ConditionReconciling,
	v1alpha1.ReasonSecretMissing:         v1alpha1.ConditionReconciling,
	v1alpha1.ReasonAccountNotFiller:      v1alpha1.ConditionReconciling,
	v1alpha1.ReasonFading:                v1alpha1.ConditionReconciling,
	// RPCReachable's reasons, raised while a Chain is served.
	v1alpha1.ReasonReachable:       "",
	v1alpha1.ReasonUnreachable:     v1alpha1.ConditionReconciling,
	v1alpha1.ReasonChainIDMismatch: v1alpha1.ConditionStalled,
	// Transaction's reasons describe the on-chain transaction, never Ready: a reverted or
	// dropped transaction is a state of the intent, not of its reconciliation.
	v1alpha1.ReasonIncluded:       "",
	v1alpha1.ReasonBroadcast:      "",
	v1alpha1.ReasonConfirmed:      "",
	v1alpha1.ReasonReverted:       "",
	v1alpha1.ReasonDropped:        "",
	v1alpha1.ReasonOpened:         "",
	v1alpha1.ReasonFilled:         "",
	v1alpha1.ReasonRefundIncluded: "",
	v1alpha1.ReasonRefunded:       "",
	v1alpha1.ReasonNotOpened:      "",
	v1alpha1.ReasonRefundAllowed:  "",
	v1alpha1.ReasonSigned:         "",
	v1alpha1.ReasonCancelled:      "",
	v1alpha1.ReasonHardCancelled:  "",
	// SettlementContract's reasons: the chain is served and transfers work whatever they say; the
	// condition and a Warning event tell the operator.
	v1alpha1.ReasonContractVerified:      "",
	v1alpha1.ReasonNoContractCode:        "",
	v1alpha1.ReasonNotSettlementContract: "",
	v1alpha1.ReasonAttesterMismatch:      "",
	v1alpha1.ReasonRefundDelayTooShort:   "",
	v1alpha1.ReasonUntrustedRPC:          "",
	// Permit2: never the Ready condition's reason (gasless orders are an option of a served chain).
	v1alpha1.ReasonPermit2Verified: "",
	v1alpha1.ReasonNoPermit2Code:   "",
	v1alpha1.ReasonNotPermit2:      "",
	v1alpha1.ReasonPermit2Mismatch: "",
	// RPCAgreement's reasons, written by the chain watcher: the chain is served either way; a
	// disagreement withholds attestations and says so in a Warning event.
	v1alpha1.ReasonSourcesAgree:    "",
	v1alpha1.ReasonSourcesDisagree: "",
}

// kstatus has no "current but not served": a Ready=False reason that raises neither condition
// would hold a Flux wait until its timeout.
var _ = Describe("Every Ready=False reason", func() {
	It("raises Reconciling or Stalled", func() {
		t := GinkgoTB()
		// Every Reason constant of api/v1alpha1, read from its source, must be decided above.
		file, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "..", "api", "v1alpha1", "conditions.go"), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		declared := 0
		for _, decl := range file.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				for i, name := range spec.(*ast.ValueSpec).Names {
					if !strings.HasPrefix(name.Name, "Reason") {
						continue
					}
					declared++
					value, _ := strconv.Unquote(spec.(*ast.ValueSpec).Values[i].(*ast.BasicLit).Value)
					if _, ok := readyReasons[value]; !ok {
						t.Errorf("%s (%q) has no decision in readyReasons: Stalled, Reconciling or neither?", name.Name, value)
					}
				}
			}
		}
		if declared != len(readyReasons) {
			t.Errorf("conditions.go declares %d reasons, readyReasons decides %d", declared, len(readyReasons))
		}
		for reason, want := range readyReasons {
			if got := progressOf[reason]; got != want {
				t.Errorf("%s raises %q, want %q", reason, got, want)
			}
		}
		for reason := range progressOf {
			if _, ok := readyReasons[reason]; !ok {
				t.Errorf("progressOf has %s, which this test does not know", reason)
			}
		}
	})
})

var _ = Describe("The progress conditions", func() {
	It("follow Ready", func() {
		t := GinkgoTB()
		var conds []metav1.Condition
		notReady := metav1.Condition{Type: v1alpha1.ConditionReady, Status: metav1.ConditionFalse, Reason: v1alpha1.ReasonOwnerMissing,
			Message: "Account acme does not exist", ObservedGeneration: 3, LastTransitionTime: metav1.Unix(100, 0)}
		setProgressConditions(&conds, notReady)
		c := meta.FindStatusCondition(conds, v1alpha1.ConditionReconciling)
		if c == nil || c.Status != metav1.ConditionTrue || c.Message != "OwnerMissing: Account acme does not exist" || c.ObservedGeneration != 3 {
			t.Fatalf("Reconciling = %+v", c)
		}

		stalled := notReady
		stalled.Reason, stalled.LastTransitionTime = v1alpha1.ReasonConflict, metav1.Unix(200, 0)
		setProgressConditions(&conds, stalled)
		if meta.FindStatusCondition(conds, v1alpha1.ConditionReconciling) != nil || !meta.IsStatusConditionTrue(conds, v1alpha1.ConditionStalled) {
			t.Fatalf("after a conflict: %+v; want Stalled alone", conds)
		}
		// Still stalled, a later reconcile keeps the time the object stalled at.
		again := stalled
		again.LastTransitionTime = metav1.Unix(300, 0)
		setProgressConditions(&conds, again)
		if got := meta.FindStatusCondition(conds, v1alpha1.ConditionStalled).LastTransitionTime; !got.Equal(&stalled.LastTransitionTime) {
			t.Errorf("Stalled moved its transition time to %v", got)
		}

		ready := metav1.Condition{Type: v1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: v1alpha1.ReasonValid, Message: "served"}
		setProgressConditions(&conds, ready)
		if len(conds) != 0 {
			t.Errorf("a Ready object carries %+v; want neither condition", conds)
		}
	})
})
