package intentstore_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-logr/logr"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/openapi"
	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// The suite runs the service end to end on a real API server (envtest): the controllers with
// their read models, the intent store on the manager's informer, and the HTTP API on loopback.
// A second store and API server over the same API server, without an informer of its own, play a
// second replica whose watch lags behind.

const baseURL = "https://api.example.test"

var (
	ctx       context.Context
	cancel    context.CancelFunc
	testEnv   *envtest.Environment
	k8sClient client.Client // direct to the API server
	namespace string
	store     *intentstore.Store
	replica1  *httptest.Server
	replica2  *httptest.Server
	// keyA and keyB are test keys of two accounts.
	keyA, keyB         string
	accountA, accountB string
)

// The test chain: a unique testnet id with one-second blocks, so a deadline a few seconds away
// is valid; a settlement contract so swaps have a route.
var (
	chainID    = "eip155:31337"
	usdc       = common.HexToAddress("0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238").Hex()
	alice      = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	bob        = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	settlement = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"
)

func TestIntentStore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Intent store Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		Fail("KUBEBUILDER_ASSETS is not set: export KUBEBUILDER_ASSETS=$PWD/bin/k8s/1.36.3-linux-amd64 (make envtest-assets)")
	}
	ctx, cancel = context.WithCancel(context.Background())
	testEnv = &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}
	cfg, err := testEnv.Start()
	Expect(err).NotTo(HaveOccurred())

	scheme := runtime.NewScheme()
	Expect(clientgoscheme.AddToScheme(scheme)).To(Succeed())
	Expect(v1alpha1.AddToScheme(scheme)).To(Succeed())
	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())
	namespace = "tis-" + utilrand.String(6)
	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}})).To(Succeed())

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Cache:                  cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}},
	})
	Expect(err).NotTo(HaveOccurred())
	models := controller.NewReadModels()
	Expect(controller.SetupWithManager(mgr, models, controller.WithIntentRetention(time.Hour))).To(Succeed())
	opts := intentstore.Options{Namespace: namespace}
	store, err = intentstore.SetupWithManager(mgr, opts)
	Expect(err).NotTo(HaveOccurred())
	// The second replica's store sees only what it creates itself and what it reads live.
	lagging, err := intentstore.New(mgr.GetClient(), mgr.GetAPIReader(), mgr.GetCache(), opts)
	Expect(err).NotTo(HaveOccurred())

	svc, err := intent.NewService(intent.Config{Catalog: intent.RegistryCatalog{Chains: models.Chains, Tokens: models.Tokens}})
	Expect(err).NotTo(HaveOccurred())
	full, v2, err := openapi.Documents(baseURL)
	Expect(err).NotTo(HaveOccurred())
	serve := func(s *intentstore.Store) (*apiserver.Server, *httptest.Server) {
		apiOpts := apiserver.DefaultOptions()
		apiOpts.BaseURL = baseURL
		srv := apiserver.New(apiOpts, apiserver.Deps{
			Keys: models.Keys, Tokens: models.Tokens, OpenAPI: full, OpenAPIV2: v2,
			Catalog: intent.RegistryCatalog{Chains: models.Chains, Tokens: models.Tokens}, Transfers: svc, Intents: s,
		}, logr.Discard())
		return srv, httptest.NewServer(srv.Handler())
	}
	api1, http1 := serve(store)
	api2, http2 := serve(lagging)
	replica1, replica2 = http1, http2

	go func() {
		defer GinkgoRecover()
		Expect(mgr.Start(ctx)).To(Succeed())
	}()
	Expect(mgr.GetCache().WaitForCacheSync(ctx)).To(BeTrue())
	Expect(store.WaitForSync(ctx)).To(BeTrue())
	api1.MarkReady()
	api2.MarkReady()

	createFixtures(models)
})

var _ = AfterSuite(func() {
	for _, s := range []*httptest.Server{replica1, replica2} {
		if s != nil {
			s.Close()
		}
	}
	if cancel != nil {
		cancel()
	}
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
})

// createFixtures creates the chain, its USDC, two accounts with a key each, and waits until the
// read models serve them.
func createFixtures(models controller.ReadModels) {
	chain := &v1alpha1.Chain{
		ObjectMeta: metav1.ObjectMeta{Name: "devnet", Namespace: namespace},
		Spec: v1alpha1.ChainSpec{
			ChainID: chainID, Environment: v1alpha1.EnvironmentTest, DisplayName: "Devnet", NativeSymbol: "ETH",
			NativeDecimals: 18, BlockTimeSeconds: 1, FinalitySeconds: 2, DefaultGasPriceWei: "1000000000",
			NativeTokenPriceUSD: "3000", SettlementAddress: settlement,
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
