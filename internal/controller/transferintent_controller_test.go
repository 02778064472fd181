package controller

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

var _ = Describe("TransferIntent controller", func() {
	It("starts a new intent pending, Ready=True Active, with its labels", func() {
		intent := newIntent(uniqueName("acct"))
		Expect(k8sClient.Create(ctx, intent)).To(Succeed())
		expectReady(intent, metav1.ConditionTrue, v1alpha1.ReasonActive)
		Expect(intent.Status.Phase).To(Equal(v1alpha1.IntentPhasePending))
		Expect(intent.Status.UpdatedAt).NotTo(BeNil())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, objKey(intent), intent)).To(Succeed())
			g.Expect(intent.Labels).To(And(
				HaveKeyWithValue(v1alpha1.LabelAccount, intent.Spec.AccountRef.Name),
				HaveKeyWithValue(v1alpha1.LabelType, "transfer"),
				HaveKeyWithValue(v1alpha1.LabelPhase, "pending"),
			))
		}).WithTimeout(5 * time.Second).Should(Succeed())

		By("reporting a terminal phase and relabelling")
		before := intent.DeepCopy()
		intent.Status.Phase = v1alpha1.IntentPhaseExpired
		Expect(k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))).To(Succeed())
		expectReady(intent, metav1.ConditionTrue, v1alpha1.ReasonTerminal)
		Eventually(func() map[string]string {
			_ = k8sClient.Get(ctx, objKey(intent), intent)
			return intent.Labels
		}).WithTimeout(5 * time.Second).Should(HaveKeyWithValue(v1alpha1.LabelPhase, "expired"))
	})
})
