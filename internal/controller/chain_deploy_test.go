package controller

import (
	"context"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// What `manager settlement deploy` puts on two fresh chains of different ids is one contract at
// one address, which the Chain controller verifies on both; deploying again sends nothing.
var _ = Describe("A settlement contract deployed through the deployment proxy", func() {
	It("lands at one address on two chains, is verified on both, and a second run sends nothing", func() {
		guardian, err := crypto.GenerateKey()
		Expect(err).NotTo(HaveOccurred())
		args := deploy.Args{Attester: suiteAttester, Guardian: crypto.PubkeyToAddress(guardian.PublicKey),
			RefundDelay: settlement.MinRefundDelay, Permit2: contracts.CanonicalPermit2}
		for _, id := range []int64{31351, 31352} {
			node := devchain.Start(GinkgoTB(), id)
			mineEvery(node, 50*time.Millisecond)
			deployer, err := crypto.GenerateKey()
			Expect(err).NotTo(HaveOccurred())
			from := crypto.PubkeyToAddress(deployer.PublicKey)
			node.SendValue(GinkgoTB(), from, big.NewInt(1e18))
			run := func() *deploy.Result {
				GinkgoHelper()
				ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				defer cancel()
				res, err := deploy.Deploy(ctx, node.Backend.Client(), deploy.Request{ChainID: node.ID, Args: args, Key: deployer, Poll: 20 * time.Millisecond})
				Expect(err).NotTo(HaveOccurred())
				return res
			}
			res := run()
			Expect(res.AlreadyDeployed).To(BeFalse())
			Expect(res.Address).To(Equal(deploy.Address(args)), "the same address on every chain")

			chain := newChain("eip155:" + big.NewInt(id).String())
			chain.Spec.RPC = &v1alpha1.ChainRPC{URL: node.URL}
			chain.Spec.SettlementAddress = res.Address.Hex()
			Expect(k8sClient.Create(ctx, chain)).To(Succeed())
			DeferCleanup(func() { Expect(k8sClient.Delete(ctx, chain)).To(Succeed()) })
			Eventually(func(g Gomega) {
				g.Expect(k8sClient.Get(ctx, objKey(chain), chain)).To(Succeed())
				cond := meta.FindStatusCondition(chain.Status.Conditions, v1alpha1.ConditionSettlementContract)
				g.Expect(cond).NotTo(BeNil())
				g.Expect(cond.Status).To(Equal(metav1.ConditionTrue), cond.Message)
				g.Expect(cond.Reason).To(Equal(v1alpha1.ReasonContractVerified))
			}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(Succeed())

			nonce, err := node.Backend.Client().NonceAt(ctx, from, nil)
			Expect(err).NotTo(HaveOccurred())
			again := run()
			Expect(again.AlreadyDeployed).To(BeTrue())
			Expect(again.Address).To(Equal(res.Address))
			Expect(again.Tx).To(Equal(common.Hash{}))
			after, err := node.Backend.Client().NonceAt(ctx, from, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(after).To(Equal(nonce), "the second run sent a transaction")
		}
	})
})

// mineEvery makes a block on node at each interval until the spec ends, as a real chain does.
func mineEvery(node *devchain.Chain, interval time.Duration) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				node.Commit()
			}
		}
	}()
	DeferCleanup(func() { close(stop); <-done })
}
