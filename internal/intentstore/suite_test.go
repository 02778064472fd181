package intentstore_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/servicetest"
)

// The suite runs the service end to end on a real API server (envtest), as service.Setup
// assembles it: the controllers with their read models, the intent store on the manager's
// informer, and the HTTP API on loopback. A second store and API server over the same API
// server, without an informer of its own, play a second replica whose watch lags behind.

var (
	ctx       context.Context
	k8sClient client.Client // direct to the API server
	namespace string
	store     *intentstore.Store
	// replica1 is the service's API; replica2 the lagging replica's.
	replica1, replica2 string
	// baseURL is the service's --base-url: Location headers start with it.
	baseURL string
	// keyA and keyB are test keys of two accounts.
	keyA, keyB         string
	accountA, accountB string
)

// The test chain: a unique testnet id with one-second blocks, so a deadline a few seconds away
// is valid. It has no settlement contract: the store's specs create transfers only.
var (
	chainID = "eip155:31337"
	usdc    = common.HexToAddress("0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238").Hex()
	alice   = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	bob     = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
)

func TestIntentStore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Intent store Suite")
}

var _ = BeforeSuite(func() {
	ctx = GinkgoTB().Context() // cancelled at the end of the suite
	stack := servicetest.Start(GinkgoTB(), servicetest.WithLogOutput(GinkgoWriter),
		servicetest.WithServiceOptions(func(o *service.Options) { o.Transfers.Retention = time.Hour }))
	k8sClient, namespace, store = stack.Client, stack.Namespace, stack.Service.Intents
	replica1, baseURL = stack.URL, stack.Options.Site.BaseURL
	replica2 = stack.LaggingReplica(GinkgoTB())

	createFixtures(stack.Models)
})

// createFixtures creates the chain, its USDC, two accounts with a key each, and waits until the
// read models serve them.
func createFixtures(models controller.ReadModels) {
	chain := &v1alpha1.Chain{
		ObjectMeta: metav1.ObjectMeta{Name: "devnet", Namespace: namespace},
		Spec: v1alpha1.ChainSpec{
			ChainID: chainID, Environment: v1alpha1.EnvironmentTest, DisplayName: "Devnet", NativeSymbol: "ETH",
			NativeDecimals: 18, BlockTimeSeconds: 1, FinalitySeconds: 2, DefaultGasPriceWei: "1000000000",
			NativeTokenPriceUSD: "3000",
		},
	}
	Expect(k8sClient.Create(ctx, chain)).To(Succeed())
	token := &v1alpha1.TokenDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "devnet-usdc", Namespace: namespace},
		Spec:       v1alpha1.TokenDefinitionSpec{Symbol: "USDC", ChainID: chainID, Address: chainID + ":" + usdc, Decimals: 6},
	}
	Expect(k8sClient.Create(ctx, token)).To(Succeed())
	accountA, keyA = createAccountWithKey()
	accountB, keyB = createAccountWithKey()
	Eventually(func() bool {
		_, chainOK := models.Chains.Get(chainID)
		_, tokenOK := models.Tokens.ByAddress(chainID + ":" + usdc)
		_, keyAOK := models.Keys.Authenticate(registry.HashKey(keyA), time.Now())
		_, keyBOK := models.Keys.Authenticate(registry.HashKey(keyB), time.Now())
		return chainOK && tokenOK && keyAOK && keyBOK
	}).WithTimeout(10 * time.Second).Should(BeTrue())
}

func createAccountWithKey() (account, key string) {
	account = "acct-" + utilrand.String(8)
	Expect(k8sClient.Create(ctx, &v1alpha1.Account{
		ObjectMeta: metav1.ObjectMeta{Name: account, Namespace: namespace},
		Spec:       v1alpha1.AccountSpec{DisplayName: account, Email: account + "@example.com"},
	})).To(Succeed())
	key = "sk_test_" + randomAlnum(64)
	Expect(k8sClient.Create(ctx, &v1alpha1.ApiKey{
		ObjectMeta: metav1.ObjectMeta{Name: "key-" + utilrand.String(8), Namespace: namespace},
		Spec: v1alpha1.ApiKeySpec{
			AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest,
			KeyHash: registry.HashKey(key), DisplayPrefix: key[:12], RateLimitPerMinute: 100000,
		},
	})).To(Succeed())
	return account, key
}

func randomAlnum(n int) string {
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	b := []byte(utilrand.String(n)) // lower-case letters and digits
	for i := range b {
		if i%3 == 0 {
			b[i] = alphabet[int(b[i])%len(alphabet)]
		}
	}
	return string(b)
}

// httpClient validates every response against the OpenAPI document.
func httpClient() *http.Client {
	return &http.Client{Transport: openapitest.NewValidator(GinkgoTB()).Transport(GinkgoTB(), nil), Timeout: 30 * time.Second}
}
