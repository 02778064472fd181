package controller

import (
	"context"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/event"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
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

// withReachable adds the RPCReachable condition with status to c.
func withReachable(c *v1alpha1.Chain, status metav1.ConditionStatus) *v1alpha1.Chain {
	c.Status.Conditions = append(c.Status.Conditions, metav1.Condition{
		Type: v1alpha1.ConditionRPCReachable, Status: status, Reason: v1alpha1.ReasonReachable, LastTransitionTime: metav1.Now(),
	})
	return c
}

// Every replica's projection, which never probes, builds the row's SettlementVerified from the
// leader's verdict in the status, and only from a verdict about the current spec and node.
// Where the operator lists the hosts trusted with money for the chain, the verdict counts only
// from a node on the list: whoever writes the Chain could otherwise point spec.rpc at a node that
// vouches for a look-alike contract users would pay into.
const (
	trustedElsewhere = "eip155:31337=rpc.example"
	trustedHere      = "eip155:31337=127.0.0.1:1"
)

func verifiedChain() *v1alpha1.Chain { return chainWithSettlement(metav1.ConditionTrue, 2) }

func reachableChain(status metav1.ConditionStatus) func() *v1alpha1.Chain {
	return func() *v1alpha1.Chain { return withReachable(verifiedChain(), status) }
}

var _ = DescribeTable("A replica's projection publishes SettlementVerified",
	func(chain func() *v1alpha1.Chain, trusted string, want bool) {
		t := GinkgoTB()
		var sources registry.TrustedSources
		if trusted != "" {
			if err := sources.Add(trusted); err != nil {
				t.Fatal(err)
			}
		}
		chains := registry.NewChainTable()
		projection := &ChainReconciler{writer: writer{Client: readOnly{fakeClient(t, chain())}, project: true}, Chains: chains,
			TrustedSources: sources}
		if _, err := projection.Reconcile(context.Background(), request("devnet")); err != nil {
			t.Fatal(err)
		}
		row, ok := chains.Get("eip155:31337")
		if !ok {
			t.Fatal("the chain is not served")
		}
		if row.SettlementVerified != want {
			t.Errorf("SettlementVerified = %v, want %v", row.SettlementVerified, want)
		}
	},
	Entry("True for this generation", verifiedChain, "", true),
	Entry("True for an older generation", func() *v1alpha1.Chain { return chainWithSettlement(metav1.ConditionTrue, 1) }, "", false),
	Entry("False", func() *v1alpha1.Chain { return chainWithSettlement(metav1.ConditionFalse, 2) }, "", false),
	Entry("no verdict", func() *v1alpha1.Chain { return chainWithSettlement("", 0) }, "", false),
	Entry("True, but the Chain has no node any more", func() *v1alpha1.Chain {
		c := chainWithSettlement(metav1.ConditionTrue, 2)
		c.Spec.RPC = nil
		return c
	}, "", false),
	Entry("True, but the Chain has no settlement address any more", func() *v1alpha1.Chain {
		c := chainWithSettlement(metav1.ConditionTrue, 2)
		c.Spec.SettlementAddress = ""
		return c
	}, "", false),
	Entry("True, from a node off the chain's trusted hosts", reachableChain(metav1.ConditionTrue), trustedElsewhere, false),
	Entry("True, from a node on the chain's trusted hosts", reachableChain(metav1.ConditionTrue), trustedHere, true),
	// A URL changed in its Secret moves no generation: a node on the list that does not answer
	// may not be the one that gave the verdict.
	Entry("True, a node on the trusted hosts that does not answer", reachableChain(metav1.ConditionFalse), trustedHere, false),
	Entry("True, a node on the trusted hosts never probed", verifiedChain, trustedHere, false),
)

func withHead(c *v1alpha1.Chain, head int64) *v1alpha1.Chain { c.Status.HeadBlock = head; return c }

// The For() predicate lets through the status updates that change the verdict, and no other.
var _ = It("settlementVerificationChanged lets no create through: the other predicates decide those", func() {
	if settlementVerificationChanged.Create(event.CreateEvent{Object: chainWithSettlement(metav1.ConditionTrue, 2)}) {
		GinkgoTB().Error("the predicate lets creates through: the other predicates decide those")
	}
})

var _ = DescribeTable("settlementVerificationChanged, on an update,",
	func(old, new *v1alpha1.Chain, wantPassed bool) {
		t := GinkgoTB()
		if got := settlementVerificationChanged.Update(event.UpdateEvent{ObjectOld: old, ObjectNew: new}); got != wantPassed {
			t.Errorf("Update passed = %v, want %v", got, wantPassed)
		}
	},
	Entry("verified", chainWithSettlement("", 0), chainWithSettlement(metav1.ConditionTrue, 2), true),
	Entry("verdict withdrawn", chainWithSettlement(metav1.ConditionTrue, 2), chainWithSettlement(metav1.ConditionFalse, 2), true),
	Entry("verified again for the new generation", chainWithSettlement(metav1.ConditionTrue, 1), chainWithSettlement(metav1.ConditionTrue, 2), true),
	Entry("head block only", withHead(chainWithSettlement(metav1.ConditionTrue, 2), 1), withHead(chainWithSettlement(metav1.ConditionTrue, 2), 2), false),
	Entry("still unverified", chainWithSettlement("", 0), chainWithSettlement(metav1.ConditionFalse, 2), false),
	// A chain with trusted hosts uses its verdict only while its node answers.
	Entry("the node went down", withReachable(chainWithSettlement(metav1.ConditionTrue, 2), metav1.ConditionTrue),
		withReachable(chainWithSettlement(metav1.ConditionTrue, 2), metav1.ConditionFalse), true),
	Entry("the node came back", withReachable(chainWithSettlement(metav1.ConditionTrue, 2), metav1.ConditionFalse),
		withReachable(chainWithSettlement(metav1.ConditionTrue, 2), metav1.ConditionTrue), true),
	// The records of swaps and bridges read the contract's refund terms from the row.
	Entry("the guardian allowed every refund", withTerms(chainWithSettlement(metav1.ConditionTrue, 2), false),
		withTerms(chainWithSettlement(metav1.ConditionTrue, 2), true), true),
)

// withTerms gives c the refund terms a probe of its settlement contract read: a one-hour delay,
// every refund allowed or not.
func withTerms(c *v1alpha1.Chain, allAllowed bool) *v1alpha1.Chain {
	c.Status.Settlement = &v1alpha1.ChainSettlementStatus{Address: c.Spec.SettlementAddress, RefundDelaySeconds: 3600, AllRefundsAllowed: allAllowed}
	return c
}

// The leader records the refund terms the node gives of the Chain's settlement contract (only of
// this release's contract: another's answers mean nothing), and every replica's row carries them
// for the contract they were read of, so that a record tells when an escrow can be refunded
// without asking the node.
var _ = Describe("The settlement contract's refund terms", func() {
	probe := func(s jsonrpc.Settlement) *v1alpha1.Chain {
		t := GinkgoTB()
		kube := fakeClient(t, chainWithSettlement("", 0))
		leader := &ChainReconciler{writer: writer{Client: kube}, Chains: registry.NewChainTable(),
			Probe: func(context.Context, string, string) (*big.Int, uint64, error) { return big.NewInt(31337), 10, nil },
			ProbeSettlement: func(context.Context, string, string, common.Address, common.Address) (jsonrpc.Settlement, error) {
				return s, nil
			},
		}
		if _, err := leader.Reconcile(context.Background(), request("devnet")); err != nil {
			t.Fatal(err)
		}
		var chain v1alpha1.Chain
		if err := kube.Get(context.Background(), types.NamespacedName{Namespace: testNamespace, Name: "devnet"}, &chain); err != nil {
			t.Fatal(err)
		}
		return &chain
	}
	It("are recorded from this release's contract", func() {
		chain := probe(jsonrpc.Settlement{HasCode: true, SettlementCode: true, AttesterKnown: true, RefundDelay: 7200, RefundDelayKnown: true, AllRefundsAllowed: true})
		want := v1alpha1.ChainSettlementStatus{Address: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", RefundDelaySeconds: 7200, AllRefundsAllowed: true}
		if got := chain.Status.Settlement; got == nil || *got != want {
			GinkgoTB().Errorf("status.settlement %+v; want %+v", got, want)
		}
	})
	It("are not recorded from other code", func() {
		chain := probe(jsonrpc.Settlement{HasCode: true, AttesterKnown: true, RefundDelay: 7200, RefundDelayKnown: true})
		if chain.Status.Settlement != nil {
			GinkgoTB().Errorf("status.settlement %+v of code that is not the settlement contract", chain.Status.Settlement)
		}
	})
	It("reach the row only for the contract they were read of", func() {
		for _, tc := range []struct {
			name  string
			chain *v1alpha1.Chain
			want  *registry.RefundTerms
		}{
			{"the Chain's contract", withTerms(chainWithSettlement(metav1.ConditionTrue, 2), true),
				&registry.RefundTerms{Contract: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", Delay: time.Hour, AllAllowed: true}},
			{"a contract the Chain moved from", func() *v1alpha1.Chain {
				c := withTerms(chainWithSettlement(metav1.ConditionTrue, 2), true)
				c.Spec.SettlementAddress = "0x000000000000000000000000000000000000bEEF"
				return c
			}(), nil},
			{"never probed", chainWithSettlement(metav1.ConditionTrue, 2), nil},
		} {
			t := GinkgoTB()
			chains := registry.NewChainTable()
			projection := &ChainReconciler{writer: writer{Client: readOnly{fakeClient(t, tc.chain)}, project: true}, Chains: chains}
			if _, err := projection.Reconcile(context.Background(), request("devnet")); err != nil {
				t.Fatal(err)
			}
			row, _ := chains.Get("eip155:31337")
			if (row.Refund == nil) != (tc.want == nil) || (row.Refund != nil && *row.Refund != *tc.want) {
				t.Errorf("%s: row.Refund %+v; want %+v", tc.name, row.Refund, tc.want)
			}
		}
	})
})

// The leader asks no node off the chain's trusted hosts about the settlement contract, and
// withdraws a verdict it gave earlier: the node may have changed under the same generation.
var _ = Describe("The leader, on a node off the chain's trusted hosts", func() {
	It("asks nothing about the settlement contract and withdraws its earlier verdict", func() {
		t := GinkgoTB()
		var trusted registry.TrustedSources
		if err := trusted.Add("eip155:31337=rpc.example"); err != nil {
			t.Fatal(err)
		}
		kube := fakeClient(t, chainWithSettlement(metav1.ConditionTrue, 2))
		asked := false
		leader := &ChainReconciler{writer: writer{Client: kube}, Chains: registry.NewChainTable(), TrustedSources: trusted,
			Probe: func(context.Context, string, string) (*big.Int, uint64, error) { return big.NewInt(31337), 10, nil },
			ProbeSettlement: func(context.Context, string, string, common.Address, common.Address) (jsonrpc.Settlement, error) {
				asked = true
				return jsonrpc.Settlement{}, nil
			},
		}
		if _, err := leader.Reconcile(context.Background(), request("devnet")); err != nil {
			t.Fatal(err)
		}
		var chain v1alpha1.Chain
		if err := kube.Get(context.Background(), types.NamespacedName{Namespace: testNamespace, Name: "devnet"}, &chain); err != nil {
			t.Fatal(err)
		}
		c := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionSettlementContract)
		if asked || c == nil || c.Status != metav1.ConditionFalse || c.Reason != v1alpha1.ReasonUntrustedRPC {
			t.Fatalf("asked the node: %v; SettlementContract %+v; want not asked, False UntrustedRPC", asked, c)
		}
		if row, _ := leader.Chains.Get("eip155:31337"); row.SettlementVerified {
			t.Error("the row is verified")
		}
	})
})
