package controller

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// authenticates reports whether the key index accepts the key now.
func authenticates(key *v1alpha1.ApiKey) bool {
	_, ok := models.Keys.Authenticate(key.Spec.KeyHash, time.Now())
	return ok
}

var _ = Describe("ApiKey controller", func() {
	It("accepts a key within one second of its creation, and refuses it within one second of its deletion", func() {
		account := createReadyAccount()
		key, plaintext := newApiKey(account.Name)
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		withinOneSecond(func() bool { return authenticates(key) })

		entry, _ := models.Keys.Authenticate(registry.HashKey(plaintext), time.Now())
		Expect(entry.ID).To(Equal(key.Name))
		Expect(entry.Account).To(Equal(account.Name))
		Expect(entry.Environment).To(Equal(registry.EnvironmentTest))
		Expect(entry.RateLimitPerMinute).To(Equal(int32(50)), "the CRD default")
		cond := expectReady(key, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Expect(cond.Message).NotTo(ContainSubstring(plaintext))

		Expect(k8sClient.Delete(ctx, key)).To(Succeed())
		withinOneSecond(func() bool { return !authenticates(key) })
	})

	It("makes the Account an owner of the key, and refuses its keys at once when the Account is deleted", func() {
		account := createReadyAccount()
		key, _ := newApiKey(account.Name)
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		expectReady(key, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, objKey(key), key)).To(Succeed())
			g.Expect(key.OwnerReferences).To(ConsistOf(metav1.OwnerReference{
				APIVersion: v1alpha1.GroupVersion.String(), Kind: "Account", Name: account.Name, UID: account.UID,
				Controller: ptr.To(false), BlockOwnerDeletion: ptr.To(true),
			}))
		}).WithTimeout(5 * time.Second).Should(Succeed())
		Expect(authenticates(key)).To(BeTrue())

		Expect(k8sClient.Delete(ctx, account)).To(Succeed())
		withinOneSecond(func() bool { return !authenticates(key) })
		// envtest runs no kube-controller-manager, so no garbage collector deletes the key here; in
		// a cluster the owner reference above has it deleted. Until then it reports its owner gone.
		expectReady(key, metav1.ConditionFalse, v1alpha1.ReasonOwnerMissing)
	})

	It("refuses the keys of a disabled Account, and accepts them again when it is enabled", func() {
		account := newAccount()
		account.Spec.Disabled = true
		Expect(k8sClient.Create(ctx, account)).To(Succeed())
		expectReady(account, metav1.ConditionFalse, v1alpha1.ReasonDisabled)
		key, _ := newApiKey(account.Name)
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		expectReady(key, metav1.ConditionFalse, v1alpha1.ReasonOwnerDisabled)
		Expect(authenticates(key)).To(BeFalse())

		account.Spec.Disabled = false
		Expect(k8sClient.Update(ctx, account)).To(Succeed())
		withinOneSecond(func() bool { return authenticates(key) })
		expectReady(key, metav1.ConditionTrue, v1alpha1.ReasonValid)
	})

	It("refuses a disabled key", func() {
		account := createReadyAccount()
		key, _ := newApiKey(account.Name)
		key.Spec.Disabled = true
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		expectReady(key, metav1.ConditionFalse, v1alpha1.ReasonDisabled)
		Expect(authenticates(key)).To(BeFalse())
	})

	It("refuses a key whose Account does not exist", func() {
		key, _ := newApiKey(uniqueName("ghost"))
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		expectReady(key, metav1.ConditionFalse, v1alpha1.ReasonOwnerMissing)
		Expect(authenticates(key)).To(BeFalse())
		Expect(key.OwnerReferences).To(BeEmpty())
	})

	It("accepts a key until its expiresAt, then reports it Expired", func() {
		account := createReadyAccount()
		key, _ := newApiKey(account.Name)
		// expiresAt is stored in whole seconds: 2 to 3 seconds from now.
		expiresAt := time.Now().Add(3 * time.Second).Truncate(time.Second)
		key.Spec.ExpiresAt = &metav1.Time{Time: expiresAt}
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		expectReady(key, metav1.ConditionTrue, v1alpha1.ReasonValid)
		Expect(authenticates(key)).To(BeTrue())

		// The index refuses the key from expiresAt on, whatever the reconciler does.
		_, ok := models.Keys.Authenticate(key.Spec.KeyHash, expiresAt)
		Expect(ok).To(BeFalse())
		_, ok = models.Keys.Authenticate(key.Spec.KeyHash, expiresAt.Add(-time.Millisecond))
		Expect(ok).To(BeTrue())

		// The status follows at expiresAt (RequeueAfter, not polling).
		cond := expectReady(key, metav1.ConditionFalse, v1alpha1.ReasonExpired)
		Expect(time.Now()).To(BeTemporally(">=", expiresAt))
		Expect(cond.Message).To(ContainSubstring(expiresAt.UTC().Format(time.RFC3339)))
		Expect(authenticates(key)).To(BeFalse())
	})
})
