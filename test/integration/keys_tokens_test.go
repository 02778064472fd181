package integration

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// withinOneSecond is the bound for a change in Kubernetes to show on the API.
const withinOneSecond = time.Second

func newAccount() *v1alpha1.Account {
	GinkgoHelper()
	name := "acct-" + utilrand.String(8)
	a := &v1alpha1.Account{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec:       v1alpha1.AccountSpec{DisplayName: name, Email: name + "@example.test"},
	}
	Expect(k8sClient.Create(ctx, a)).To(Succeed())
	return a
}

// newKey applies an ApiKey for account and returns the plaintext key once it authenticates.
func newKey(account string, mutate func(*v1alpha1.ApiKeySpec)) (*v1alpha1.ApiKey, string) {
	GinkgoHelper()
	k, err := apikey.Generate(registry.EnvironmentTest)
	Expect(err).NotTo(HaveOccurred())
	obj := &v1alpha1.ApiKey{
		ObjectMeta: metav1.ObjectMeta{Name: "key-" + utilrand.String(8), Namespace: namespace},
		Spec: v1alpha1.ApiKeySpec{
			AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest,
			KeyHash: k.Hash, DisplayPrefix: k.DisplayPrefix,
		},
	}
	if mutate != nil {
		mutate(&obj.Spec)
	}
	Expect(k8sClient.Create(ctx, obj)).To(Succeed())
	return obj, k.Plaintext
}

func statusOf(path, key string) func() int {
	return func() int { return get(path, key).StatusCode }
}

var _ = Describe("API keys applied with kubectl", func() {
	It("authenticate once applied, and are refused within one second when disabled, expired or orphaned", func() {
		account := newAccount()
		obj, key := newKey(account.Name, nil)
		Eventually(statusOf("/v2/tokens", key)).WithTimeout(withinOneSecond).Should(Equal(http.StatusOK))

		By("disabling the key")
		patch := client.MergeFrom(obj.DeepCopy())
		obj.Spec.Disabled = true
		Expect(k8sClient.Patch(ctx, obj, patch)).To(Succeed())
		Eventually(statusOf("/v2/tokens", key)).WithTimeout(withinOneSecond).Should(Equal(http.StatusForbidden))

		By("enabling it again with an expiry two seconds ahead")
		patch = client.MergeFrom(obj.DeepCopy())
		obj.Spec.Disabled = false
		obj.Spec.ExpiresAt = &metav1.Time{Time: time.Now().Add(2 * time.Second)}
		Expect(k8sClient.Patch(ctx, obj, patch)).To(Succeed())
		Eventually(statusOf("/v2/tokens", key)).WithTimeout(withinOneSecond).Should(Equal(http.StatusOK))
		Eventually(statusOf("/v2/tokens", key)).WithTimeout(3 * time.Second).Should(Equal(http.StatusForbidden))
		r := get("/v2/tokens", key)
		Expect(r.Body).To(ContainSubstring(`/invalid-api-key"`))
	})

	It("are refused within one second once their Account is deleted", func() {
		account := newAccount()
		_, key := newKey(account.Name, nil)
		Eventually(statusOf("/v2/tokens", key)).WithTimeout(withinOneSecond).Should(Equal(http.StatusOK))
		Expect(k8sClient.Delete(ctx, account)).To(Succeed())
		Eventually(statusOf("/v2/tokens", key)).WithTimeout(withinOneSecond).Should(Equal(http.StatusForbidden))
	})

	It("are refused while their Account is disabled", func() {
		account := newAccount()
		_, key := newKey(account.Name, nil)
		Eventually(statusOf("/v2/tokens", key)).WithTimeout(withinOneSecond).Should(Equal(http.StatusOK))
		patch := client.MergeFrom(account.DeepCopy())
		account.Spec.Disabled = true
		Expect(k8sClient.Patch(ctx, account, patch)).To(Succeed())
		Eventually(statusOf("/v2/tokens", key)).WithTimeout(withinOneSecond).Should(Equal(http.StatusForbidden))
	})

	It("use the per-key rate limit from the ApiKey spec", func() {
		account := newAccount()
		_, key := newKey(account.Name, func(s *v1alpha1.ApiKeySpec) { s.RateLimitPerMinute = 2 })
		Eventually(statusOf("/v2/tokens", key)).WithTimeout(withinOneSecond).Should(Equal(http.StatusOK))
		// The Eventually above spent at least one admitted request; the limit of 2 is reached by the next.
		codes := []int{get("/v2/tokens", key).StatusCode, get("/v2/tokens", key).StatusCode}
		Expect(codes).To(ContainElement(http.StatusTooManyRequests))
		r := get("/v2/tokens", key)
		Expect(r.StatusCode).To(Equal(http.StatusTooManyRequests))
		Expect(r.Header.Get("RateLimit-Policy")).To(Equal(`"per-key";q=2;w=60`))
	})
})

var _ = Describe("Token definitions applied with kubectl", func() {
	It("are listed within one second, filtered by chain, and leave the list when deleted", func() {
		account := newAccount()
		_, key := newKey(account.Name, nil)
		chainID := fmt.Sprintf("eip155:%d", 900_000_000+utilrand.IntnRange(0, 99_999_999))
		Expect(k8sClient.Create(ctx, &v1alpha1.Chain{
			ObjectMeta: metav1.ObjectMeta{Name: "chain-" + utilrand.String(8), Namespace: namespace},
			Spec: v1alpha1.ChainSpec{ChainID: chainID, Environment: v1alpha1.EnvironmentTest, DisplayName: "Test chain",
				NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 2, FinalitySeconds: 10,
				DefaultGasPriceWei: "1000000000", NativeTokenPriceUSD: "3000"},
		})).To(Succeed())
		token := &v1alpha1.TokenDefinition{
			ObjectMeta: metav1.ObjectMeta{Name: "usdc-" + utilrand.String(8), Namespace: namespace},
			Spec: v1alpha1.TokenDefinitionSpec{Symbol: "USDC", ChainID: chainID, Decimals: 6,
				Address: chainID + ":0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"},
		}
		// The chain must be served before the token can be; measure the token from its own apply.
		Eventually(func() bool { _, ok := readModels.Chains.Get(chainID); return ok }).Should(BeTrue())
		Expect(k8sClient.Create(ctx, token)).To(Succeed())
		want := `[{"symbol":"USDC","chainId":"` + chainID + `","address":"` + token.Spec.Address + `","decimals":6,"metadata":null}]`
		Eventually(func() string { return get("/v2/tokens?chain-id="+chainID, key).Body }).
			WithTimeout(withinOneSecond).Should(Equal(want))
		Expect(get("/v2/tokens", key).Body).To(ContainSubstring(token.Spec.Address))

		Expect(k8sClient.Delete(ctx, token)).To(Succeed())
		Eventually(func() string { return get("/v2/tokens?chain-id="+chainID, key).Body }).
			WithTimeout(withinOneSecond).Should(Equal("[]"))
	})
})

var _ = Describe("The API's own documents and health", func() {
	It("serves /health and /openapi.json without a key, and /v2/openapi.json only with one", func() {
		var health struct {
			Status string            `json:"status"`
			Checks map[string]string `json:"checks"`
		}
		Expect(json.Unmarshal([]byte(get("/health", "").Body), &health)).To(Succeed())
		// Chains other specs made with a node add their own "chain <id>" checks, and a spec's chain
		// nodes stop when its container ends (the Chains stay, unreachable): only those may make
		// the service degraded here.
		wantStatus := "ok"
		for name, state := range health.Checks {
			if strings.HasPrefix(name, "chain ") && state != "ok" {
				wantStatus = "degraded"
			}
		}
		Expect(health.Status).To(Equal(wantStatus), "checks: %v", health.Checks)
		Expect(health.Checks).To(HaveKeyWithValue("cache", "ok"))
		Expect(health.Checks).To(HaveKeyWithValue("kubernetes-api", "ok"))
		Expect(get("/openapi.json", "").StatusCode).To(Equal(http.StatusOK))
		Expect(get("/v2/openapi.json", "").StatusCode).To(Equal(http.StatusUnauthorized))
		account := newAccount()
		_, key := newKey(account.Name, nil)
		Eventually(statusOf("/v2/openapi.json", key)).WithTimeout(withinOneSecond).Should(Equal(http.StatusOK))
	})
})
