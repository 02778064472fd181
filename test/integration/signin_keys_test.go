package integration

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/webauth"
)

// On a real API server with the real controllers: the operator creates the session Secret, a key
// created from a session is owned by its Account, and deleting the Account refuses the key on /v2
// within a second (the Account controller withdraws the account from the key index; envtest runs
// no garbage collector, so this does not rely on the key object being deleted).
var _ = Describe("API keys created from a browser session", func() {
	// browserCall calls the service with an optional session cookie and api-key, and checks the
	// answer against the OpenAPI document.
	browserCall := func(method, path, body, cookie, apiKey string) (*http.Response, []byte) {
		GinkgoHelper()
		req, err := http.NewRequestWithContext(ctx, method, apiURL+path, strings.NewReader(body))
		Expect(err).NotTo(HaveOccurred())
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: webauth.CookieName, Value: cookie})
		}
		if apiKey != "" {
			req.Header.Set("api-key", apiKey)
		}
		resp, err := http.DefaultClient.Do(req)
		Expect(err).NotTo(HaveOccurred())
		defer func() { _ = resp.Body.Close() }()
		b, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(validator.CheckResponse(req, resp.StatusCode, resp.Header, b)).To(Succeed())
		return resp, b
	}

	It("are owned by their Account and refused within one second once it is deleted", func() {
		By("finding the session Secret the operator made itself")
		var sessionSecret corev1.Secret
		Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: namespace, Name: stack.SessionSecretName}, &sessionSecret)).
			To(Succeed(), "the session Secret was not created")
		Expect(len(sessionSecret.Data[webauth.SessionKeyCurrent])).To(BeNumerically(">=", webauth.MinSessionKeyBytes))

		account := stack.CreateAccount(GinkgoTB(), "Integration Person")
		resp, body := browserCall(http.MethodPost, "/auth/sign-in", fmt.Sprintf(`{"email":%q,"password":%q}`, account.Email, account.Password), "", "")
		Expect(resp.StatusCode).To(Equal(http.StatusNoContent), "sign-in: %s", body)
		var cookie string
		for _, c := range resp.Cookies() {
			if c.Name == webauth.CookieName {
				cookie = c.Value
			}
		}

		create := func(name string) (id, key string) {
			GinkgoHelper()
			resp, body := browserCall(http.MethodPost, "/auth/api-key/create", `{"name":"`+name+`"}`, cookie, "")
			Expect(resp.StatusCode).To(Equal(http.StatusCreated), "create: %s", body)
			var created struct{ ID, Key string }
			Expect(json.Unmarshal(body, &created)).To(Succeed())
			return created.ID, created.Key
		}
		id, key := create("integration")
		resp, body = browserCall(http.MethodGet, "/v2/tokens", "", "", key)
		Expect(resp.StatusCode).To(Equal(http.StatusOK), "the new key on /v2: %s", body)

		By("reading what the API server stores: the hash, an owner reference with the Account's UID")
		var stored v1alpha1.ApiKey
		Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: namespace, Name: id}, &stored)).To(Succeed())
		raw, err := json.Marshal(&stored)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(raw)).NotTo(ContainSubstring(key[len("sk_test_"):]))
		Expect(stored.Spec.KeyHash).To(Equal(registry.HashKey(key)))
		Expect(stored.OwnerReferences).To(HaveLen(1))
		Expect(stored.OwnerReferences[0].UID).To(Equal(account.Object.UID))
		Expect(*stored.OwnerReferences[0].BlockOwnerDeletion).To(BeTrue())

		By("the controller agreeing with what the handler published: the key becomes Ready")
		Eventually(func(g Gomega) {
			var k v1alpha1.ApiKey
			g.Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: namespace, Name: id}, &k)).To(Succeed())
			g.Expect(meta.IsStatusConditionTrue(k.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue())
		}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(Succeed())

		By("disabling a key against the real API server: refused at once")
		disabledID, disabledKey := create("to-disable")
		resp, body = browserCall(http.MethodPost, "/auth/api-keys/"+disabledID+"/disable", "", cookie, "")
		Expect(resp.StatusCode).To(Equal(http.StatusOK), "disable: %s", body)
		resp, _ = browserCall(http.MethodGet, "/v2/tokens", "", "", disabledKey)
		Expect(resp.StatusCode).To(Equal(http.StatusForbidden))

		By("deleting the Account: within one second the key is refused and the session ends")
		Expect(k8sClient.Delete(ctx, account.Object)).To(Succeed())
		deleted := time.Now()
		Eventually(func() int {
			resp, _ := browserCall(http.MethodGet, "/v2/tokens", "", "", key)
			return resp.StatusCode
		}).WithTimeout(time.Second).WithPolling(10*time.Millisecond).
			Should(Equal(http.StatusForbidden), "the key of a deleted Account within 1s")
		GinkgoWriter.Printf("key refused %s after the Account was deleted\n", time.Since(deleted).Round(time.Millisecond))
		resp, _ = browserCall(http.MethodGet, "/auth/api-keys", "", cookie, "")
		Expect(resp.StatusCode).To(Equal(http.StatusUnauthorized), "the deleted Account's session")
		Eventually(func() bool {
			err := k8sClient.Get(ctx, types.NamespacedName{Namespace: namespace, Name: account.Object.Name}, &v1alpha1.Account{})
			return apierrors.IsNotFound(err)
		}).WithTimeout(10*time.Second).WithPolling(20*time.Millisecond).Should(BeTrue(), "the Account is really gone (no finalizer holds it)")

		logs := stack.Logs.String()
		Expect(logs).NotTo(ContainSubstring(key[len("sk_test_"):]), "the operator log holds a plaintext key")
		Expect(logs).NotTo(ContainSubstring(disabledKey[len("sk_test_"):]), "the operator log holds a plaintext key")
	})
})
