package controller

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

var _ = Describe("Chain controller", func() {
	It("serves a valid Chain and reports Ready=True Valid", func() {
		chain := newChain(uniqueChainID())
		chain.Spec.SettlementAddress = strings.ToLower(randomAddress())
		chain.Spec.ExplorerURL = "https://explorer.example/"
		Expect(k8sClient.Create(ctx, chain)).To(Succeed())
		cond := expectReady(chain, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Expect(cond.Message).To(ContainSubstring(chain.Spec.ChainID))

		row, ok := models.Chains.Get(chain.Spec.ChainID)
		Expect(ok).To(BeTrue())
		Expect(row.Name).To(Equal(chain.Name))
		Expect(row.NumericID.String()).To(Equal(strings.TrimPrefix(chain.Spec.ChainID, "eip155:")))
		Expect(row.DefaultGasPriceWei.String()).To(Equal("20000000000"))
		Expect(row.SettlementAddress).NotTo(Equal(chain.Spec.SettlementAddress), "stored in EIP-55 form")
		Expect(strings.ToLower(row.SettlementAddress)).To(Equal(chain.Spec.SettlementAddress))
		Expect(row.ExplorerURL).To(Equal("https://explorer.example"), "without the trailing slash, so that links join with one")

		By("withdrawing it when deleted")
		Expect(k8sClient.Delete(ctx, chain)).To(Succeed())
		withinOneSecond(func() bool { _, ok := models.Chains.Get(chain.Spec.ChainID); return !ok })
	})

	It("refuses a settlement address whose EIP-55 checksum is broken", func() {
		chain := newChain(uniqueChainID())
		chain.Spec.SettlementAddress = breakChecksum(randomAddress())
		Expect(k8sClient.Create(ctx, chain)).To(Succeed())
		cond := expectReady(chain, metav1.ConditionFalse, v1alpha1.ReasonInvalidSpec)
		Expect(cond.Message).To(ContainSubstring("spec.settlementAddress"))
		Expect(cond.Message).To(ContainSubstring("EIP-55"))
		_, ok := models.Chains.Get(chain.Spec.ChainID)
		Expect(ok).To(BeFalse())
		expectEvent(chain, corev1.EventTypeWarning, v1alpha1.ReasonInvalidSpec)
	})

	It("serves the older of two Chains with the same chainId, and the newer once the older is gone", func() {
		chainID := uniqueChainID()
		older := newChain(chainID)
		older.Name = "z-" + older.Name // the newer sorts first by name: only age can make the older win
		Expect(k8sClient.Create(ctx, older)).To(Succeed())
		expectReady(older, metav1.ConditionTrue, v1alpha1.ReasonValid)
		waitForNextSecond(older.CreationTimestamp)

		newer := newChain(chainID)
		newer.Name = "a-" + newer.Name
		newer.Spec.DisplayName = "Impostor"
		Expect(k8sClient.Create(ctx, newer)).To(Succeed())
		cond := expectReady(newer, metav1.ConditionFalse, v1alpha1.ReasonConflict)
		Expect(cond.Message).To(ContainSubstring(older.Name))
		row, _ := models.Chains.Get(chainID)
		Expect(row.Name).To(Equal(older.Name))

		Expect(k8sClient.Delete(ctx, older)).To(Succeed())
		expectReady(newer, metav1.ConditionTrue, v1alpha1.ReasonValid)
		row, _ = models.Chains.Get(chainID)
		Expect(row.DisplayName).To(Equal("Impostor"))
	})

	It("reads the RPC URL from a Secret, and follows the Secret", func() {
		chain := newChain(uniqueChainID())
		secretName := uniqueName("rpc")
		chain.Spec.RPC = &v1alpha1.ChainRPC{URLSecretRef: &v1alpha1.SecretKeyReference{Name: secretName, Key: "url"}}
		Expect(k8sClient.Create(ctx, chain)).To(Succeed())
		cond := expectReady(chain, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Expect(cond.Message).To(ContainSubstring("without RPC"))

		secret := &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: secretName, Namespace: namespace},
			StringData: map[string]string{"url": "https://rpc.example.com/v1/s3cr3t"},
		}
		Expect(k8sClient.Create(ctx, secret)).To(Succeed())
		Eventually(func() string {
			row, _ := models.Chains.Get(chain.Spec.ChainID)
			return row.RPCURL
		}).WithTimeout(5 * time.Second).Should(Equal("https://rpc.example.com/v1/s3cr3t"))
		cond = expectReady(chain, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Expect(cond.Message).NotTo(ContainSubstring("s3cr3t"))
	})
})

// breakChecksum flips the case of one letter of a checksummed address.
func breakChecksum(address string) string {
	b := []byte(address)
	for i := 2; i < len(b); i++ {
		switch {
		case 'a' <= b[i] && b[i] <= 'f':
			b[i] -= 'a' - 'A'
			return string(b)
		case 'A' <= b[i] && b[i] <= 'F':
			b[i] += 'a' - 'A'
			return string(b)
		}
	}
	return address
}

// waitForNextSecond waits until the API server's clock, which stamps creationTimestamp in whole
// seconds, can give a later object a later timestamp than t.
func waitForNextSecond(t metav1.Time) {
	GinkgoHelper()
	Eventually(func() bool { return time.Now().After(t.Add(time.Second)) }).
		WithTimeout(3 * time.Second).WithPolling(20 * time.Millisecond).Should(BeTrue())
}

// expectEvent waits for an event of the type and reason about the object.
func expectEvent(obj client.Object, eventType, reason string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		var events eventsv1.EventList
		g.Expect(k8sClient.List(ctx, &events, client.InNamespace(obj.GetNamespace()))).To(Succeed())
		found := false
		for _, e := range events.Items {
			if e.Regarding.UID == obj.GetUID() && e.Type == eventType && e.Reason == reason {
				found = true
			}
		}
		g.Expect(found).To(BeTrue(), "no %s event %s about %s", eventType, reason, obj.GetName())
	}).WithTimeout(5 * time.Second).Should(Succeed())
}
