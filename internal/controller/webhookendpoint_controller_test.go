package controller

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// newWebhookEndpoint returns a valid test-environment WebhookEndpoint of the account, with a
// generated secret.
func newWebhookEndpoint(account string) *v1alpha1.WebhookEndpoint {
	return &v1alpha1.WebhookEndpoint{
		ObjectMeta: metav1.ObjectMeta{Name: uniqueName("hooks"), Namespace: namespace},
		Spec: v1alpha1.WebhookEndpointSpec{
			AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest,
			URL:        "http://127.0.0.1:9999/hooks",
			EventTypes: []v1alpha1.WebhookEventType{v1alpha1.WebhookEventTransferCreated, v1alpha1.WebhookEventTransferConfirmed},
		},
	}
}

// eventuallySecret waits for the Secret to exist and pass check.
func eventuallySecret(name string, check func(Gomega, *corev1.Secret)) *corev1.Secret {
	GinkgoHelper()
	var secret corev1.Secret
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, &secret)).To(Succeed())
		check(g, &secret)
	}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(Succeed())
	return &secret
}

// expectNoEventCarries checks that no event about the object quotes any of the values.
func expectNoEventCarries(obj client.Object, values ...string) {
	GinkgoHelper()
	var list corev1.EventList
	Expect(k8sClient.List(ctx, &list, client.InNamespace(namespace))).To(Succeed())
	for _, e := range list.Items {
		if e.InvolvedObject.Name != obj.GetName() {
			continue
		}
		for _, v := range values {
			Expect(e.Message).NotTo(ContainSubstring(v))
		}
	}
}

var _ = Describe("WebhookEndpoint controller", func() {
	It("generates a signing secret in a Secret the endpoint owns, and names it in the status only", func() {
		account := createReadyAccount()
		ep := newWebhookEndpoint(account.Name)
		Expect(k8sClient.Create(ctx, ep)).To(Succeed())
		cond := expectReady(ep, metav1.ConditionTrue, v1alpha1.ReasonValid)

		name := endpoint.GeneratedSecretName(ep.Name)
		Expect(ep.Status.SecretRef).To(Equal(&v1alpha1.SecretKeyReference{Name: name, Key: "secret"}))
		secret := eventuallySecret(name, func(g Gomega, s *corev1.Secret) {
			g.Expect(s.Data).To(HaveKey("secret"))
		})
		value := string(secret.Data["secret"])
		key, err := signing.ParseSecret(value)
		Expect(err).NotTo(HaveOccurred())
		Expect(key).To(HaveLen(32))
		Expect(secret.OwnerReferences).To(ConsistOf(metav1.OwnerReference{
			APIVersion: v1alpha1.GroupVersion.String(), Kind: "WebhookEndpoint", Name: ep.Name, UID: ep.UID,
			Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
		}), "the garbage collector deletes the Secret with the endpoint")
		Expect(ep.OwnerReferences).To(ConsistOf(metav1.OwnerReference{
			APIVersion: v1alpha1.GroupVersion.String(), Kind: "Account", Name: account.Name, UID: account.UID,
			Controller: ptr.To(false), BlockOwnerDeletion: ptr.To(true),
		}), "the garbage collector deletes the endpoint with its Account")
		Expect(cond.Message).To(ContainSubstring(name))
		Expect(cond.Message).NotTo(ContainSubstring(value))
		expectNoEventCarries(ep, value, value[len(signing.SecretPrefix):])

		// A deleted Secret is generated again, with a new secret.
		Expect(k8sClient.Delete(ctx, secret)).To(Succeed())
		eventuallySecret(name, func(g Gomega, s *corev1.Secret) {
			g.Expect(s.UID).NotTo(Equal(secret.UID))
			g.Expect(string(s.Data["secret"])).NotTo(Equal(value))
		})
	})

	It("keeps the previous secret signing for a day when the secret changes", func() {
		account := createReadyAccount()
		ep := newWebhookEndpoint(account.Name)
		Expect(k8sClient.Create(ctx, ep)).To(Succeed())
		expectReady(ep, metav1.ConditionTrue, v1alpha1.ReasonValid)
		name := endpoint.GeneratedSecretName(ep.Name)
		secret := eventuallySecret(name, func(g Gomega, s *corev1.Secret) { g.Expect(s.Data).To(HaveKey("secret")) })
		old := string(secret.Data["secret"])

		fresh, err := signing.NewSecret(nil)
		Expect(err).NotTo(HaveOccurred())
		secret.Data["secret"] = []byte(fresh)
		changedAt := time.Now()
		Expect(k8sClient.Update(ctx, secret)).To(Succeed())

		rotated := eventuallySecret(name, func(g Gomega, s *corev1.Secret) {
			g.Expect(s.Data).To(HaveKey(signing.SecretKeyPrevious))
		})
		Expect(signing.ActiveSecrets(rotated.Data, "secret", time.Now())).To(Equal([]string{fresh, old}))
		Expect(signing.ActiveSecrets(rotated.Data, "secret", changedAt.Add(signing.RotationGrace+time.Minute))).To(Equal([]string{fresh}))
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, objKey(ep), ep)).To(Succeed())
			g.Expect(ep.Status.PreviousSecretExpiresAt).NotTo(BeNil())
			g.Expect(ep.Status.PreviousSecretExpiresAt.Time).To(BeTemporally("~", changedAt.Add(signing.RotationGrace), 5*time.Second))
		}).WithTimeout(10 * time.Second).Should(Succeed())
		expectNoEventCarries(ep, old, fresh)
	})

	It("waits for a secretRef's Secret, and uses it once it holds a secret", func() {
		account := createReadyAccount()
		ep := newWebhookEndpoint(account.Name)
		ref := &v1alpha1.SecretKeyReference{Name: uniqueName("hooks-secret"), Key: "hmac"}
		ep.Spec.SecretRef = ref
		Expect(k8sClient.Create(ctx, ep)).To(Succeed())
		expectReady(ep, metav1.ConditionFalse, v1alpha1.ReasonSecretMissing)

		secret := &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: ref.Name, Namespace: namespace},
			Data:       map[string][]byte{"hmac": []byte("not a whsec_ secret")},
		}
		Expect(k8sClient.Create(ctx, secret)).To(Succeed())
		Eventually(func(g Gomega) string {
			return expectReady(ep, metav1.ConditionFalse, v1alpha1.ReasonSecretMissing).Message
		}).WithTimeout(10 * time.Second).Should(And(ContainSubstring("does not hold a signing secret"),
			Not(ContainSubstring("not a whsec_ secret"))))

		value, _ := signing.NewSecret(nil)
		secret.Data["hmac"] = []byte(value)
		Expect(k8sClient.Update(ctx, secret)).To(Succeed())
		expectReady(ep, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Expect(ep.Status.SecretRef).To(Equal(ref))
		Expect(k8sClient.Get(ctx, objKey(secret), secret)).To(Succeed())
		Expect(secret.OwnerReferences).To(BeEmpty(), "a Secret the user named stays the user's")
	})

	It("refuses to take over a Secret of the generated name that is not its own", func() {
		account := createReadyAccount()
		ep := newWebhookEndpoint(account.Name)
		squatter := &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: endpoint.GeneratedSecretName(ep.Name), Namespace: namespace},
			Data:       map[string][]byte{"secret": []byte("someone else's")},
		}
		Expect(k8sClient.Create(ctx, squatter)).To(Succeed())
		Expect(k8sClient.Create(ctx, ep)).To(Succeed())
		expectReady(ep, metav1.ConditionFalse, v1alpha1.ReasonConflict)
		Expect(k8sClient.Get(ctx, objKey(squatter), squatter)).To(Succeed())
		Expect(string(squatter.Data["secret"])).To(Equal("someone else's"))
	})

	It("reports its Account missing or disabled, and itself disabled", func() {
		orphan := newWebhookEndpoint(uniqueName("ghost"))
		Expect(k8sClient.Create(ctx, orphan)).To(Succeed())
		expectReady(orphan, metav1.ConditionFalse, v1alpha1.ReasonOwnerMissing)

		account := newAccount()
		account.Spec.Disabled = true
		Expect(k8sClient.Create(ctx, account)).To(Succeed())
		ep := newWebhookEndpoint(account.Name)
		Expect(k8sClient.Create(ctx, ep)).To(Succeed())
		expectReady(ep, metav1.ConditionFalse, v1alpha1.ReasonOwnerDisabled)

		before := account.DeepCopy()
		account.Spec.Disabled = false
		Expect(k8sClient.Patch(ctx, account, client.MergeFrom(before))).To(Succeed())
		expectReady(ep, metav1.ConditionTrue, v1alpha1.ReasonValid)

		epBefore := ep.DeepCopy()
		ep.Spec.Disabled = true
		Expect(k8sClient.Patch(ctx, ep, client.MergeFrom(epBefore))).To(Succeed())
		expectReady(ep, metav1.ConditionFalse, v1alpha1.ReasonDisabled)
	})

	It("is refused by the API server when its Secret key reference is malformed", func() {
		ep := newWebhookEndpoint(uniqueName("acct"))
		ep.Spec.SecretRef = &v1alpha1.SecretKeyReference{Name: "x", Key: "no spaces"}
		err := k8sClient.Create(ctx, ep)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
	})
})
