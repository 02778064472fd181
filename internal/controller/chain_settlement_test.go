package controller

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// chainWithSettlement is a Chain at generation 2 with a settlement address, a node, and the
// SettlementContract condition status written for generation condGen (no condition when status
// is empty).
func chainWithSettlement(status metav1.ConditionStatus, condGen int64) *v1alpha1.Chain {
	chain := &v1alpha1.Chain{
		ObjectMeta: metav1.ObjectMeta{Name: "devnet", Namespace: testNamespace, Generation: 2},
		Spec: v1alpha1.ChainSpec{
			ChainID: "eip155:31337", Environment: v1alpha1.EnvironmentTest, DisplayName: "Devnet",
			NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 1, FinalitySeconds: 2,
			DefaultGasPriceWei: "1000000000", NativeTokenPriceUSD: "3000",
			SettlementAddress: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
			RPC:               &v1alpha1.ChainRPC{URL: "http://127.0.0.1:1"},
		},
	}
	if status != "" {
		chain.Status.Conditions = []metav1.Condition{{
			Type: v1alpha1.ConditionSettlementContract, Status: status, ObservedGeneration: condGen,
			Reason: v1alpha1.ReasonContractVerified, LastTransitionTime: metav1.Now(),
		}}
	}
	return chain
}

// Every replica's projection, which never probes, builds the row's SettlementVerified from the
// leader's verdict in the status, and only from a verdict about the current spec and node.
func TestProjectionPublishesTheSettlementVerdict(t *testing.T) {
	// Where the operator lists the hosts trusted with money for the chain, the verdict counts only
	// from a node on the list: whoever writes the Chain could otherwise point spec.rpc at a node
	// that vouches for a look-alike contract users would pay into.
	var trustedElsewhere, trustedHere registry.TrustedSources
	if err := trustedElsewhere.Add("eip155:31337=rpc.example"); err != nil {
		t.Fatal(err)
	}
	if err := trustedHere.Add("eip155:31337=127.0.0.1:1"); err != nil {
		t.Fatal(err)
	}
	verified := func() *v1alpha1.Chain { return chainWithSettlement(metav1.ConditionTrue, 2) }
	tests := []struct {
		name    string
		chain   func() *v1alpha1.Chain
		trusted registry.TrustedSources
		want    bool
	}{
		{"True for this generation", verified, nil, true},
		{"True for an older generation", func() *v1alpha1.Chain { return chainWithSettlement(metav1.ConditionTrue, 1) }, nil, false},
		{"False", func() *v1alpha1.Chain { return chainWithSettlement(metav1.ConditionFalse, 2) }, nil, false},
		{"no verdict", func() *v1alpha1.Chain { return chainWithSettlement("", 0) }, nil, false},
		{"True, but the Chain has no node any more", func() *v1alpha1.Chain {
			c := chainWithSettlement(metav1.ConditionTrue, 2)
			c.Spec.RPC = nil
			return c
		}, nil, false},
		{"True, but the Chain has no settlement address any more", func() *v1alpha1.Chain {
			c := chainWithSettlement(metav1.ConditionTrue, 2)
			c.Spec.SettlementAddress = ""
			return c
		}, nil, false},
		{"True, from a node off the chain's trusted hosts", verified, trustedElsewhere, false},
		{"True, from a node on the chain's trusted hosts", verified, trustedHere, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chains := registry.NewChainTable()
			projection := &ChainReconciler{writer: writer{Client: readOnly{fakeClient(t, tt.chain())}, project: true}, Chains: chains,
				TrustedSources: tt.trusted}
			if _, err := projection.Reconcile(context.Background(), request("devnet")); err != nil {
				t.Fatal(err)
			}
			row, ok := chains.Get("eip155:31337")
			if !ok {
				t.Fatal("the chain is not served")
			}
			if row.SettlementVerified != tt.want {
				t.Errorf("SettlementVerified = %v, want %v", row.SettlementVerified, tt.want)
			}
		})
	}
}

// The For() predicate lets through the status updates that change the verdict, and no other.
func TestSettlementVerificationChangedPredicate(t *testing.T) {
	withHead := func(c *v1alpha1.Chain, head int64) *v1alpha1.Chain { c.Status.HeadBlock = head; return c }
	tests := []struct {
		name       string
		old, new   *v1alpha1.Chain
		wantPassed bool
	}{
		{"verified", chainWithSettlement("", 0), chainWithSettlement(metav1.ConditionTrue, 2), true},
		{"verdict withdrawn", chainWithSettlement(metav1.ConditionTrue, 2), chainWithSettlement(metav1.ConditionFalse, 2), true},
		{"verified again for the new generation", chainWithSettlement(metav1.ConditionTrue, 1), chainWithSettlement(metav1.ConditionTrue, 2), true},
		{"head block only", withHead(chainWithSettlement(metav1.ConditionTrue, 2), 1), withHead(chainWithSettlement(metav1.ConditionTrue, 2), 2), false},
		{"still unverified", chainWithSettlement("", 0), chainWithSettlement(metav1.ConditionFalse, 2), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := settlementVerificationChanged.Update(event.UpdateEvent{ObjectOld: tt.old, ObjectNew: tt.new}); got != tt.wantPassed {
				t.Errorf("Update passed = %v, want %v", got, tt.wantPassed)
			}
		})
	}
	if settlementVerificationChanged.Create(event.CreateEvent{Object: chainWithSettlement(metav1.ConditionTrue, 2)}) {
		t.Error("the predicate lets creates through: the other predicates decide those")
	}
}
