package controller

import (
	"time"

	"github.com/ethereum/go-ethereum/common"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// The Chain controller probes each Chain's node and reports it: a real JSON-RPC node (the dev
// chain) on loopback, the right one, one of another network, and one that is gone.
var _ = Describe("Chain RPC probe", func() {
	rpcCondition := func(chain *v1alpha1.Chain, reason string) *metav1.Condition {
		GinkgoHelper()
		var cond *metav1.Condition
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, objKey(chain), chain)).To(Succeed())
			cond = meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionRPCReachable)
			g.Expect(cond).NotTo(BeNil())
			g.Expect(cond.Reason).To(Equal(reason), cond.Message)
		}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(Succeed())
		return cond
	}

	It("reports a node of the chain as Reachable with its head block, and the chain stays served", func() {
		node := devchain.Start(GinkgoTB(), 31337)
		node.Backend.Commit()
		node.Backend.Commit()
		chain := newChain("eip155:31337")
		chain.Spec.RPC = &v1alpha1.ChainRPC{URL: node.URL}
		Expect(k8sClient.Create(ctx, chain)).To(Succeed())
		DeferCleanup(func() { Expect(k8sClient.Delete(ctx, chain)).To(Succeed()) })
		cond := rpcCondition(chain, v1alpha1.ReasonReachable)
		Expect(cond.Status).To(Equal(metav1.ConditionTrue))
		Expect(chain.Status.HeadBlock).To(BeNumerically(">=", 2))
		Expect(meta.IsStatusConditionTrue(chain.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue())
		Expect(meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionReconciling)).To(BeNil())
	})

	It("reports a node of another network as ChainIDMismatch, and the Chain as Stalled", func() {
		node := devchain.Start(GinkgoTB(), 31338)
		chain := newChain(uniqueChainID())
		chain.Spec.RPC = &v1alpha1.ChainRPC{URL: node.URL}
		Expect(k8sClient.Create(ctx, chain)).To(Succeed())
		cond := rpcCondition(chain, v1alpha1.ReasonChainIDMismatch)
		Expect(cond.Message).To(ContainSubstring("31338"))
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, objKey(chain), chain)).To(Succeed())
			stalled := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionStalled)
			g.Expect(stalled).NotTo(BeNil())
			g.Expect(stalled.Message).To(HavePrefix("ChainIDMismatch: "))
		}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(Succeed())
		Expect(meta.IsStatusConditionTrue(chain.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "the chain is still served")
	})

	It("reports a node that is gone as Unreachable, and the Chain as Reconciling", func() {
		node := devchain.Start(GinkgoTB(), 31339)
		url := node.URL
		Expect(node.Close()).To(Succeed())
		chain := newChain(uniqueChainID())
		chain.Spec.RPC = &v1alpha1.ChainRPC{URL: url}
		Expect(k8sClient.Create(ctx, chain)).To(Succeed())
		cond := rpcCondition(chain, v1alpha1.ReasonUnreachable)
		Expect(cond.Message).NotTo(ContainSubstring(url), "the RPC URL may hold a credential")
		Expect(meta.IsStatusConditionTrue(chain.Status.Conditions, v1alpha1.ConditionReconciling)).To(BeTrue())
	})
})

// suiteAttester is the attester key address the suite's controllers are told the service has.
var suiteAttester = common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906")

// The Chain controller checks the settlement contract at each Chain's settlementAddress on its
// node: deployed, the settlement contract, accepting the service's attester. Only a verified
// contract is published in the chain row as one swaps and bridges may use.
var _ = Describe("Chain settlement contract check", Ordered, func() {
	var node *devchain.Chain
	var chain *v1alpha1.Chain
	BeforeAll(func() { node = devchain.Start(GinkgoTB(), 31340) })

	// servedRow waits until the chain table serves the spec's Chain and returns its row.
	servedRow := func() registry.Chain {
		GinkgoHelper()
		var row registry.Chain
		Eventually(func() string {
			row, _ = models.Chains.Get(chain.Spec.ChainID)
			return row.Name
		}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(Equal(chain.Name))
		return row
	}

	// conditionOf creates a Chain of the node with the settlement (and Permit2, if not empty)
	// address, and returns its condition of the type once the controller wrote it.
	conditionOf := func(conditionType, settlementAddress, permit2Address string) *metav1.Condition {
		GinkgoHelper()
		chain = newChain("eip155:31340")
		chain.Spec.RPC = &v1alpha1.ChainRPC{URL: node.URL}
		chain.Spec.SettlementAddress = settlementAddress
		chain.Spec.Permit2Address = permit2Address
		Expect(k8sClient.Create(ctx, chain)).To(Succeed())
		created := chain
		DeferCleanup(func() {
			Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, created))).To(Succeed())
			// One Chain per chain id: the next spec's Chain must not meet this one.
			Eventually(func() bool { return apierrors.IsNotFound(k8sClient.Get(ctx, objKey(created), created)) }).
				WithTimeout(10 * time.Second).Should(BeTrue())
		})
		var cond *metav1.Condition
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, objKey(chain), chain)).To(Succeed())
			cond = meta.FindStatusCondition(chain.Status.Conditions, conditionType)
			g.Expect(cond).NotTo(BeNil())
		}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(Succeed())
		Expect(meta.IsStatusConditionTrue(chain.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "the chain is served either way")
		return cond
	}
	settlementCondition := func(settlementAddress string) *metav1.Condition {
		GinkgoHelper()
		return conditionOf(v1alpha1.ConditionSettlementContract, settlementAddress, "")
	}
	deploy := func(attester common.Address) string {
		GinkgoHelper()
		addr, err := node.DeploySettlement(attester, settlement.MinRefundDelay)
		Expect(err).NotTo(HaveOccurred())
		return addr.Hex()
	}

	It("verifies a settlement contract that accepts the service's attester, and the chain row says so", func() {
		cond := settlementCondition(deploy(suiteAttester))
		Expect(cond.Status).To(Equal(metav1.ConditionTrue))
		Expect(cond.Reason).To(Equal(v1alpha1.ReasonContractVerified), cond.Message)
		// The verdict is written in the status after the row was published: the status update
		// itself must bring the row up to date, well before the next probe (30 s).
		Eventually(func() bool { row, _ := models.Chains.Get(chain.Spec.ChainID); return row.SettlementVerified }).
			WithTimeout(5*time.Second).WithPolling(20*time.Millisecond).Should(BeTrue(), "the verified contract is not published")
		Expect(servedRow().SettlementAddress).To(Equal(chain.Spec.SettlementAddress))

		// Permit2 is at its canonical address in the dev chain's genesis, and the contract pulls
		// through it: gasless orders may be offered.
		permit2 := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionPermit2)
		Expect(permit2).NotTo(BeNil())
		Expect(permit2.Reason).To(Equal(v1alpha1.ReasonPermit2Verified), permit2.Message)
		Eventually(func() bool { row, _ := models.Chains.Get(chain.Spec.ChainID); return row.Permit2Verified }).
			WithTimeout(5*time.Second).WithPolling(20*time.Millisecond).Should(BeTrue(), "the verified Permit2 is not published")
		Expect(servedRow().Permit2Address).To(Equal(contracts.CanonicalPermit2.Hex()))
	})

	It("reports a Permit2 address without code, with other code, or not the one the contract pulls through", func() {
		token := node.DeployTestToken(GinkgoTB(), "Test USD", "TUSD", 6).Hex()
		nowhere := "0x000000000000000000000000000000000000dEaD"
		for _, c := range []struct{ permit2, want string }{
			{nowhere, v1alpha1.ReasonNoPermit2Code},
			{token, v1alpha1.ReasonNotPermit2},
		} {
			cond := conditionOf(v1alpha1.ConditionPermit2, deploy(suiteAttester), c.permit2)
			Expect(cond.Status).To(Equal(metav1.ConditionFalse))
			Expect(cond.Reason).To(Equal(c.want), cond.Message)
			// The row follows the status write (published by the status update, as above).
			Eventually(func() bool { return servedRow().SettlementVerified }).
				WithTimeout(5*time.Second).WithPolling(20*time.Millisecond).Should(BeTrue(), "the settlement contract itself is fine")
			Expect(servedRow().Permit2Verified).To(BeFalse())
			Expect(k8sClient.Delete(ctx, chain)).To(Succeed())
			Eventually(func() bool { return apierrors.IsNotFound(k8sClient.Get(ctx, objKey(chain), chain)) }).
				WithTimeout(10 * time.Second).Should(BeTrue())
		}
		elsewhere, err := node.DeploySettlementWithPermit2(suiteAttester, settlement.MinRefundDelay, common.HexToAddress(nowhere))
		Expect(err).NotTo(HaveOccurred())
		cond := conditionOf(v1alpha1.ConditionPermit2, elsewhere.Hex(), "")
		Expect(cond.Reason).To(Equal(v1alpha1.ReasonPermit2Mismatch), cond.Message)
		Expect(servedRow().Permit2Verified).To(BeFalse())
	})

	It("reports a settlement contract of another attester", func() {
		other := common.HexToAddress("0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65")
		cond := settlementCondition(deploy(other))
		Expect(cond.Status).To(Equal(metav1.ConditionFalse))
		Expect(cond.Reason).To(Equal(v1alpha1.ReasonAttesterMismatch), cond.Message)
		Expect(cond.Message).To(ContainSubstring(other.Hex()))
		Expect(cond.Message).To(ContainSubstring(suiteAttester.Hex()))
		Expect(servedRow().SettlementVerified).To(BeFalse())
	})

	It("reports an address without code, and the chain row does not vouch for it", func() {
		cond := settlementCondition("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")
		Expect(cond.Status).To(Equal(metav1.ConditionFalse))
		Expect(cond.Reason).To(Equal(v1alpha1.ReasonNoContractCode), cond.Message)
		row := servedRow()
		Expect(row.SettlementAddress).To(Equal("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"))
		Expect(row.SettlementVerified).To(BeFalse())
	})

	It("does not vouch for a deployed contract of a Chain without rpc: nothing checked it", func() {
		chain = newChain(uniqueChainID())
		chain.Spec.SettlementAddress = deploy(suiteAttester)
		Expect(k8sClient.Create(ctx, chain)).To(Succeed())
		DeferCleanup(func() { Expect(k8sClient.Delete(ctx, chain)).To(Succeed()) })
		expectReady(chain, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Expect(meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionSettlementContract)).To(BeNil())
		row := servedRow()
		Expect(row.SettlementAddress).To(Equal(chain.Spec.SettlementAddress))
		Expect(row.SettlementVerified).To(BeFalse())
	})

	It("reports a refund delay shorter than the environment's slowest bridge finality and the attestation", func() {
		slow := newChain(uniqueChainID())
		slow.Spec.FinalitySeconds = 86400 // a day: a fill there is final only a day later
		Expect(k8sClient.Create(ctx, slow)).To(Succeed())
		DeferCleanup(func() { Expect(k8sClient.Delete(ctx, slow)).To(Succeed()) })
		Eventually(func() bool {
			Expect(k8sClient.Get(ctx, objKey(slow), slow)).To(Succeed())
			return meta.IsStatusConditionTrue(slow.Status.Conditions, v1alpha1.ConditionReady)
		}).WithTimeout(10 * time.Second).Should(BeTrue())
		cond := settlementCondition(deploy(suiteAttester)) // refunds an hour after the deadline
		Expect(cond.Status).To(Equal(metav1.ConditionFalse))
		Expect(cond.Reason).To(Equal(v1alpha1.ReasonRefundDelayTooShort), cond.Message)
		Expect(cond.Message).To(ContainSubstring("24h15m0s"))
	})

	It("reports a look-alike that answers attester() with the service's attester but has other code", func() {
		forger, err := node.DeployForgingSettlement(suiteAttester)
		Expect(err).NotTo(HaveOccurred())
		cond := settlementCondition(forger.Hex())
		Expect(cond.Status).To(Equal(metav1.ConditionFalse))
		Expect(cond.Reason).To(Equal(v1alpha1.ReasonNotSettlementContract), cond.Message)
	})

	It("reports code that is not the settlement contract", func() {
		token := node.DeployTestToken(GinkgoTB(), "Test USD", "TUSD", 6)
		cond := settlementCondition(token.Hex())
		Expect(cond.Status).To(Equal(metav1.ConditionFalse))
		Expect(cond.Reason).To(Equal(v1alpha1.ReasonNotSettlementContract), cond.Message)
	})
})
