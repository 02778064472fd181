package controller

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"golang.org/x/crypto/bcrypt"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

var _ = Describe("Account controller", func() {
	It("publishes a valid Account into the directory and the key index", func() {
		account := createReadyAccount()
		entry, ok := models.Accounts.ByEmail(account.Spec.Email)
		Expect(ok).To(BeTrue())
		Expect(entry.Name).To(Equal(account.Name))
		Expect(entry.PasswordSecret).To(BeNil())
	})

	It("publishes an Account's integrator fee policy, its recipients in EIP-55 form, and the API server refuses a default above the most", func() {
		account := newAccount()
		account.Spec.Fees = feePolicy()
		account.Spec.Fees.Recipients[0].Addresses = []string{"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"}
		Expect(k8sClient.Create(ctx, account)).To(Succeed())
		expectReady(account, metav1.ConditionTrue, v1alpha1.ReasonValid)
		policy := models.Accounts.FeePolicy(account.Name)
		Expect(policy).NotTo(BeNil())
		Expect(policy.DefaultBps).To(BeEquivalentTo(25))
		Expect(policy.MaxBps).To(BeEquivalentTo(100))
		Expect(policy.Recipients).To(Equal(map[string][]string{"eip155:11155111": {"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}}))

		bad := newAccount()
		bad.Spec.Fees = feePolicy()
		bad.Spec.Fees.DefaultBps = 200
		err := k8sClient.Create(ctx, bad)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("defaultBps must not exceed maxBps"))
	})

	It("reports a missing password Secret as SecretMissing, keeps the account usable, and follows the Secret", func() {
		account := newAccount()
		secretName := uniqueName("pw")
		account.Spec.PasswordSecretRef = &v1alpha1.SecretKeyReference{Name: secretName}
		Expect(k8sClient.Create(ctx, account)).To(Succeed())
		cond := expectReady(account, metav1.ConditionFalse, v1alpha1.ReasonSecretMissing)
		Expect(cond.Message).To(ContainSubstring(secretName))

		key, plaintext := newApiKey(account.Name)
		Expect(k8sClient.Create(ctx, key)).To(Succeed())
		expectReady(key, metav1.ConditionTrue, v1alpha1.ReasonValid)
		_, ok := models.Keys.Authenticate(key.Spec.KeyHash, time.Now())
		Expect(ok).To(BeTrue(), "a missing password Secret must not refuse API keys")
		Expect(plaintext).NotTo(BeEmpty())

		By("becoming Ready when the Secret holds a bcrypt hash")
		hash, err := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: secretName, Namespace: namespace},
			Data:       map[string][]byte{"passwordHash": hash},
		})).To(Succeed())
		expectReady(account, metav1.ConditionTrue, v1alpha1.ReasonValid)
		entry, _ := models.Accounts.Get(account.Name)
		Expect(entry.PasswordSecret).NotTo(BeNil())
		Expect(entry.PasswordSecret.Key).To(Equal("passwordHash"))
	})

	It("reports a second Account with the same email as Conflict", func() {
		first := createReadyAccount()
		waitForNextSecond(first.CreationTimestamp)
		second := newAccount()
		second.Spec.Email = first.Spec.Email
		Expect(k8sClient.Create(ctx, second)).To(Succeed())
		expectReady(second, metav1.ConditionFalse, v1alpha1.ReasonConflict)
		entry, _ := models.Accounts.ByEmail(first.Spec.Email)
		Expect(entry.Name).To(Equal(first.Name))
	})
})
