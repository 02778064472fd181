package controller

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

var _ = Describe("TokenDefinition controller", func() {
	It("serves a token within one second of its creation, and withdraws it within one second of its deletion", func() {
		chain := createReadyChain()
		token := newToken(chain.Spec.ChainID, "USDC", randomAddress())
		Expect(k8sClient.Create(ctx, token)).To(Succeed())
		withinOneSecond(func() bool { _, ok := models.Tokens.ByAddress(token.Spec.Address); return ok })
		expectReady(token, metav1.ConditionTrue, v1alpha1.ReasonValid)

		served, _ := models.Tokens.BySymbol(chain.Spec.ChainID, "usdc")
		Expect(served.Name).To(Equal(token.Name))
		Expect(served.Decimals).To(Equal(int32(6)))
		Expect(models.Tokens.ByChain(chain.Spec.ChainID)).To(HaveLen(1))

		Expect(k8sClient.Delete(ctx, token)).To(Succeed())
		withinOneSecond(func() bool { _, ok := models.Tokens.ByAddress(token.Spec.Address); return !ok })
	})

	It("publishes limits.maxAmount in base units, and its change or removal", func() {
		chain := createReadyChain()
		token := newToken(chain.Spec.ChainID, "USDC", randomAddress())
		token.Spec.Limits = &v1alpha1.TokenLimits{MaxAmount: "250000.5"}
		Expect(k8sClient.Create(ctx, token)).To(Succeed())
		maxAmount := func() string {
			served, ok := models.Tokens.ByAddress(token.Spec.Address)
			if !ok || served.MaxAmount == nil {
				return ""
			}
			return served.MaxAmount.String()
		}
		withinOneSecond(func() bool { return maxAmount() == "250000500000" })

		before := token.DeepCopy()
		token.Spec.Limits = &v1alpha1.TokenLimits{MaxAmount: "1000"}
		Expect(k8sClient.Patch(ctx, token, client.MergeFrom(before))).To(Succeed())
		withinOneSecond(func() bool { return maxAmount() == "1000000000" })

		before = token.DeepCopy()
		token.Spec.Limits = nil
		Expect(k8sClient.Patch(ctx, token, client.MergeFrom(before))).To(Succeed())
		withinOneSecond(func() bool { return maxAmount() == "" })
	})

	It("serves an all-lowercase address under its EIP-55 form", func() {
		chain := createReadyChain()
		checksummed := randomAddress()
		token := newToken(chain.Spec.ChainID, "WETH", strings.ToLower(checksummed))
		Expect(k8sClient.Create(ctx, token)).To(Succeed())
		expectReady(token, metav1.ConditionTrue, v1alpha1.ReasonValid)
		served, ok := models.Tokens.ByAddress(chain.Spec.ChainID + ":" + checksummed)
		Expect(ok).To(BeTrue())
		Expect(served.Address).To(Equal(chain.Spec.ChainID + ":" + checksummed))
	})

	It("reports UnknownChain until the Chain exists, then becomes Ready", func() {
		chain := newChain(uniqueChainID())
		token := newToken(chain.Spec.ChainID, "DAI", randomAddress())
		Expect(k8sClient.Create(ctx, token)).To(Succeed())
		cond := expectReady(token, metav1.ConditionFalse, v1alpha1.ReasonUnknownChain)
		Expect(cond.Message).To(ContainSubstring(chain.Spec.ChainID))
		_, ok := models.Tokens.ByAddress(token.Spec.Address)
		Expect(ok).To(BeFalse())

		Expect(k8sClient.Create(ctx, chain)).To(Succeed())
		expectReady(token, metav1.ConditionTrue, v1alpha1.ReasonValid)
		_, ok = models.Tokens.ByAddress(token.Spec.Address)
		Expect(ok).To(BeTrue())

		By("withdrawing the token when its chain goes")
		Expect(k8sClient.Delete(ctx, chain)).To(Succeed())
		expectReady(token, metav1.ConditionFalse, v1alpha1.ReasonUnknownChain)
		_, ok = models.Tokens.ByAddress(token.Spec.Address)
		Expect(ok).To(BeFalse())
	})

	It("reports an address with a broken EIP-55 checksum as InvalidSpec", func() {
		chain := createReadyChain()
		token := newToken(chain.Spec.ChainID, "BAD", breakChecksum(randomAddress()))
		Expect(k8sClient.Create(ctx, token)).To(Succeed())
		cond := expectReady(token, metav1.ConditionFalse, v1alpha1.ReasonInvalidSpec)
		Expect(cond.Message).To(ContainSubstring("spec.address"))
		Expect(cond.Message).To(ContainSubstring("EIP-55"))
		_, ok := models.Tokens.ByAddress(token.Spec.Address)
		Expect(ok).To(BeFalse())

		By("serving it once the address is fixed")
		fixed := token.DeepCopy()
		fixed.Spec.Address = strings.ToLower(token.Spec.Address)
		Expect(k8sClient.Update(ctx, fixed)).To(Succeed())
		expectReady(fixed, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Expect(fixed.Status.ObservedGeneration).To(Equal(int64(2)))
	})

	It("reports a native token whose decimals differ from the chain's as InvalidSpec", func() {
		chain := createReadyChain()
		token := newToken(chain.Spec.ChainID, "ETH", registry.NativeTokenAddress)
		token.Spec.Decimals = 6
		Expect(k8sClient.Create(ctx, token)).To(Succeed())
		cond := expectReady(token, metav1.ConditionFalse, v1alpha1.ReasonInvalidSpec)
		Expect(cond.Message).To(ContainSubstring("18 decimals"))
	})

	It("serves the older of two definitions of one address; the newer once the older is deleted", func() {
		chain := createReadyChain()
		address := randomAddress()
		older := newToken(chain.Spec.ChainID, "USDC", address)
		older.Name = "z-" + older.Name // the newer sorts first by name: only age can make the older win
		Expect(k8sClient.Create(ctx, older)).To(Succeed())
		expectReady(older, metav1.ConditionTrue, v1alpha1.ReasonValid)
		waitForNextSecond(older.CreationTimestamp)

		newer := newToken(chain.Spec.ChainID, "USDC.e", address)
		newer.Name = "a-" + newer.Name
		Expect(k8sClient.Create(ctx, newer)).To(Succeed())
		cond := expectReady(newer, metav1.ConditionFalse, v1alpha1.ReasonConflict)
		Expect(cond.Message).To(ContainSubstring(older.Name))
		expectReady(older, metav1.ConditionTrue, v1alpha1.ReasonValid)
		served, _ := models.Tokens.ByAddress(chain.Spec.ChainID + ":" + address)
		Expect(served.Name).To(Equal(older.Name))

		Expect(k8sClient.Delete(ctx, older)).To(Succeed())
		withinOneSecond(func() bool {
			served, _ := models.Tokens.ByAddress(chain.Spec.ChainID + ":" + address)
			return served.Name == newer.Name
		})
		expectReady(newer, metav1.ConditionTrue, v1alpha1.ReasonValid)
	})

	It("refuses a second definition of a symbol on one chain", func() {
		chain := createReadyChain()
		first := newToken(chain.Spec.ChainID, "USDT", randomAddress())
		Expect(k8sClient.Create(ctx, first)).To(Succeed())
		expectReady(first, metav1.ConditionTrue, v1alpha1.ReasonValid)
		waitForNextSecond(first.CreationTimestamp)
		second := newToken(chain.Spec.ChainID, "usdt", randomAddress())
		Expect(k8sClient.Create(ctx, second)).To(Succeed())
		expectReady(second, metav1.ConditionFalse, v1alpha1.ReasonConflict)
		Consistently(func() int { return len(models.Tokens.ByChain(chain.Spec.ChainID)) }).
			WithTimeout(200 * time.Millisecond).Should(Equal(1))
	})
})
