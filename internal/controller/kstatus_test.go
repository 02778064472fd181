package controller

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// What Flux's kustomize-controller, `kubectl wait` and cli-utils conclude about each kind: kstatus
// computed from the objects as the API server stores them.
var _ = Describe("GitOps health (kstatus)", func() {
	kstatusOf := func(obj client.Object) *status.Result {
		GinkgoHelper()
		Expect(k8sClient.Get(ctx, objKey(obj), obj)).To(Succeed())
		content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		Expect(err).NotTo(HaveOccurred())
		res, err := status.Compute(&unstructured.Unstructured{Object: content})
		Expect(err).NotTo(HaveOccurred())
		return res
	}

	It("reads a good object of every kind as Current", func() {
		chain := createReadyChain()
		token := newToken(chain.Spec.ChainID, "USDC", randomAddress())
		Expect(k8sClient.Create(ctx, token)).To(Succeed())
		expectReady(token, metav1.ConditionTrue, v1alpha1.ReasonValid)
		account := createReadyAccount()
		key, _ := newApiKey(account.Name)
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		expectReady(key, metav1.ConditionTrue, v1alpha1.ReasonValid)
		ti := newIntent(account.Name)
		Expect(k8sClient.Create(ctx, ti)).To(Succeed())
		expectImpliedPending(ti)
		ep := newWebhookEndpoint(account.Name)
		Expect(k8sClient.Create(ctx, ep)).To(Succeed())
		expectReady(ep, metav1.ConditionTrue, v1alpha1.ReasonValid)

		for _, obj := range []client.Object{chain, token, account, key, ti, ep} {
			res := kstatusOf(obj)
			Expect(res.Status).To(Equal(status.CurrentStatus), "%T %s: %s", obj, obj.GetName(), res.Message)
		}
	})

	It("reads a TokenDefinition that conflicts with an older one as Failed, with the reason", func() {
		chain := createReadyChain()
		address := randomAddress()
		first := newToken(chain.Spec.ChainID, "USDC", address)
		Expect(k8sClient.Create(ctx, first)).To(Succeed())
		expectReady(first, metav1.ConditionTrue, v1alpha1.ReasonValid)
		second := newToken(chain.Spec.ChainID, "USDT", address)
		Expect(k8sClient.Create(ctx, second)).To(Succeed())

		// "Older" is by creation time, to the second, then by name: either may win.
		var served, refused client.Object
		Eventually(func(g Gomega) {
			for _, pair := range [][2]client.Object{{first, second}, {second, first}} {
				g.Expect(k8sClient.Get(ctx, objKey(pair[1]), pair[1])).To(Succeed())
				if c := meta.FindStatusCondition(commonStatus(pair[1]).Conditions, v1alpha1.ConditionReady); c != nil && c.Reason == v1alpha1.ReasonConflict {
					served, refused = pair[0], pair[1]
					return
				}
			}
			g.Expect(refused).NotTo(BeNil(), "neither token reports the conflict yet")
		}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(Succeed())

		res := kstatusOf(refused)
		Expect(res.Status).To(Equal(status.FailedStatus))
		Expect(res.Message).To(HavePrefix("Conflict: "))
		Expect(res.Message).To(ContainSubstring(served.GetName()))
		Expect(kstatusOf(served).Status).To(Equal(status.CurrentStatus))
	})

	It("reads a spec that slipped past CEL as Failed, and Current once it is fixed", func() {
		chain := createReadyChain()
		// CEL checks the address's shape; only the controller checks its EIP-55 checksum.
		token := newToken(chain.Spec.ChainID, "BAD", breakChecksum(randomAddress()))
		Expect(k8sClient.Create(ctx, token)).To(Succeed())
		expectReady(token, metav1.ConditionFalse, v1alpha1.ReasonInvalidSpec)
		res := kstatusOf(token)
		Expect(res.Status).To(Equal(status.FailedStatus))
		Expect(res.Message).To(HavePrefix("InvalidSpec: "))
		Expect(res.Message).To(ContainSubstring("EIP-55"))

		fixed := token.DeepCopy()
		fixed.Spec.Address = chain.Spec.ChainID + ":" + randomAddress()
		Expect(k8sClient.Update(ctx, fixed)).To(Succeed())
		expectReady(fixed, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Expect(kstatusOf(fixed).Status).To(Equal(status.CurrentStatus))
		Expect(commonStatus(fixed).Conditions).To(HaveLen(1), "Stalled is removed once the spec is fixed")
	})

	It("reads an ApiKey whose Account is missing as InProgress, and Current once the Account is applied", func() {
		account := newAccount()
		key, _ := newApiKey(account.Name)
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		expectReady(key, metav1.ConditionFalse, v1alpha1.ReasonOwnerMissing)
		res := kstatusOf(key)
		Expect(res.Status).To(Equal(status.InProgressStatus))
		Expect(res.Message).To(HavePrefix("OwnerMissing: "))

		Expect(k8sClient.Create(ctx, account)).To(Succeed())
		expectReady(key, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Expect(kstatusOf(key).Status).To(Equal(status.CurrentStatus))
	})

	It("reads a WebhookEndpoint whose secretRef names a Secret not yet applied as InProgress", func() {
		account := createReadyAccount()
		ep := newWebhookEndpoint(account.Name)
		ep.Spec.SecretRef = &v1alpha1.SecretKeyReference{Name: uniqueName("hooks")}
		Expect(k8sClient.Create(ctx, ep)).To(Succeed())
		expectReady(ep, metav1.ConditionFalse, v1alpha1.ReasonSecretMissing)
		res := kstatusOf(ep)
		Expect(res.Status).To(Equal(status.InProgressStatus))
		Expect(res.Message).To(HavePrefix("SecretMissing: "))
	})

	It("reads a disabled ApiKey as Failed at once rather than in progress until a timeout", func() {
		account := createReadyAccount()
		key, _ := newApiKey(account.Name)
		key.Spec.Disabled = true
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		expectReady(key, metav1.ConditionFalse, v1alpha1.ReasonDisabled)
		res := kstatusOf(key)
		Expect(res.Status).To(Equal(status.FailedStatus))
		Expect(res.Message).To(HavePrefix("Disabled: "))
	})
})
