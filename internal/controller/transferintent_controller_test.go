package controller

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/prometheus/client_golang/prometheus/testutil"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

var _ = Describe("TransferIntent controller", func() {
	It("lets the retention sweep find the cached terminal intents by their status label", func() {
		intent := newIntent(uniqueName("acct"))
		Expect(k8sClient.Create(ctx, intent)).To(Succeed())
		list := terminalIntents(suiteCache)
		listed := func() bool {
			found := false
			Expect(list(ctx, func(ti *v1alpha1.TransferIntent) { found = found || ti.Name == intent.Name })).To(Succeed())
			return found
		}
		expectImpliedPending(intent)
		Expect(listed()).To(BeFalse(), "a pending intent is not terminal")

		before := intent.DeepCopy()
		intent.Status.Phase = v1alpha1.IntentPhaseExpired
		Expect(k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))).To(Succeed())
		Eventually(listed).WithTimeout(5 * time.Second).Should(BeTrue())
	})

	It("labels a new intent and leaves its status unwritten: pending and Ready are implied", func() {
		intent := newIntent(uniqueName("acct"))
		Expect(k8sClient.Create(ctx, intent)).To(Succeed())
		expectImpliedPending(intent)
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, objKey(intent), intent)).To(Succeed())
			g.Expect(intent.Labels).To(And(
				HaveKeyWithValue(v1alpha1.LabelAccount, intent.Spec.AccountRef.Name),
				HaveKeyWithValue(v1alpha1.LabelType, "transfer"),
			))
		}).WithTimeout(5 * time.Second).Should(Succeed())

		By("reporting a terminal phase: Ready says so, and no label is written for it")
		before := intent.DeepCopy()
		intent.Status.Phase = v1alpha1.IntentPhaseExpired
		Expect(k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))).To(Succeed())
		expectReady(intent, metav1.ConditionTrue, v1alpha1.ReasonTerminal)
		Expect(intent.Labels).To(Equal(before.Labels))
	})

	It("expires a pending intent at spec.expiresAt, found by the status.phase field selector, counted and with no Event", func() {
		expiredBefore := testutil.ToFloat64(suiteIntentMetrics.expiredN.WithLabelValues(string(v1alpha1.IntentPhaseExpired)))
		intent := newIntent(uniqueName("acct"))
		// expiresAt is stored in whole seconds; two to three seconds from now.
		intent.Spec.ExpiresAt = metav1.NewTime(time.Now().Add(3 * time.Second).Truncate(time.Second))
		Expect(k8sClient.Create(ctx, intent)).To(Succeed())
		expectImpliedPending(intent)

		expectReady(intent, metav1.ConditionTrue, v1alpha1.ReasonTerminal)
		Expect(intent.Status.Phase).To(Equal(v1alpha1.IntentPhaseExpired))
		Expect(intent.Status.UpdatedAt.Time).NotTo(BeTemporally("<", intent.Spec.ExpiresAt.Time))
		Expect(testutil.ToFloat64(suiteIntentMetrics.expiredN.WithLabelValues(string(v1alpha1.IntentPhaseExpired)))).To(BeNumerically(">", expiredBefore))

		By("being found by kubectl get --field-selector " + v1alpha1.PhaseField + "=expired (the API server's selectable field)")
		Eventually(func(g Gomega) {
			var list v1alpha1.TransferIntentList
			g.Expect(k8sClient.List(ctx, &list, client.InNamespace(namespace),
				client.MatchingFields{v1alpha1.PhaseField: "expired"}, client.MatchingLabels{v1alpha1.LabelAccount: intent.Spec.AccountRef.Name})).To(Succeed())
			g.Expect(list.Items).To(HaveLen(1))
			g.Expect(list.Items[0].Name).To(Equal(intent.Name))
		}).WithTimeout(5 * time.Second).Should(Succeed())

		By("recording no Event about it: an Event per intent was a write of the API server each")
		Consistently(func(g Gomega) {
			var list eventsv1.EventList
			g.Expect(k8sClient.List(ctx, &list, client.InNamespace(namespace))).To(Succeed())
			for _, e := range list.Items {
				g.Expect(e.Regarding.Name).NotTo(Equal(intent.Name), "event %s: %s", e.Reason, e.Note)
			}
		}).WithTimeout(2 * time.Second).WithPolling(200 * time.Millisecond).Should(Succeed())
	})
})
