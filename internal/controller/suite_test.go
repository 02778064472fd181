package controller

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// The suite runs a real API server (envtest) with the CRDs, and a manager with every controller
// and the read models, watching one namespace as the operator does in production. Tests make
// their objects unique by name and by chain id, so they run in any order.

var (
	ctx       context.Context
	k8sClient client.Client // talks to the API server directly, not through the manager's cache
	models    ReadModels
	namespace string
	// suiteCache is the manager's cache, for specs of code that reads the informers directly.
	suiteCache cache.Cache
	// suiteIntentMetrics are the TransferIntent controller's metrics, unregistered.
	suiteIntentMetrics *IntentMetrics
)

func TestControllers(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Controller Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	cluster := testenv.Start(GinkgoTB())
	k8sClient = cluster.Client
	namespace = cluster.CreateNamespace(GinkgoTB())

	mgr, err := ctrl.NewManager(cluster.Config, ctrl.Options{
		Scheme:                 cluster.Scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Cache:                  cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}},
	})
	Expect(err).NotTo(HaveOccurred())
	suiteCache = mgr.GetCache()
	models = NewReadModels()
	suiteIntentMetrics, err = NewIntentMetrics(nil)
	Expect(err).NotTo(HaveOccurred())
	Expect(SetupWithManager(mgr, models, WithAttester(suiteAttester), WithIntentMetrics(suiteIntentMetrics))).To(Succeed())

	var cancel context.CancelFunc
	ctx, cancel = context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		defer GinkgoRecover()
		defer close(stopped)
		Expect(mgr.Start(ctx)).To(Succeed())
	}()
	// Before envtest stops (cleanups run last in, first out).
	DeferCleanup(func() {
		cancel()
		Eventually(stopped).WithTimeout(30 * time.Second).Should(BeClosed())
	})
})

// Helpers shared by the specs.

// chainNumbers hands out eip155 chain ids no other spec uses.
var chainNumbers atomic.Int64

func init() { chainNumbers.Store(time.Now().UnixNano() % 1_000_000_000) }

func uniqueChainID() string { return fmt.Sprintf("eip155:%d", chainNumbers.Add(1)) }

func uniqueName(prefix string) string { return prefix + "-" + utilrand.String(8) }

// randomAddress returns a random EIP-55 address.
func randomAddress() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	return common.BytesToAddress(b).Hex()
}

func objKey(obj client.Object) client.ObjectKey { return client.ObjectKeyFromObject(obj) }

func newChain(chainID string) *v1alpha1.Chain {
	return &v1alpha1.Chain{
		ObjectMeta: metav1.ObjectMeta{Name: uniqueName("chain"), Namespace: namespace},
		Spec: v1alpha1.ChainSpec{
			ChainID: chainID, Environment: v1alpha1.EnvironmentTest, DisplayName: "Test chain",
			NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 12, FinalitySeconds: 780,
			DefaultGasPriceWei: "20000000000", NativeTokenPriceUSD: "3150.25",
		},
	}
}

func newToken(chainID, symbol, address string) *v1alpha1.TokenDefinition {
	return &v1alpha1.TokenDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: uniqueName("token"), Namespace: namespace},
		Spec: v1alpha1.TokenDefinitionSpec{
			Symbol: symbol, ChainID: chainID, Address: chainID + ":" + address, Decimals: 6,
		},
	}
}

func newAccount() *v1alpha1.Account {
	name := uniqueName("acct")
	return &v1alpha1.Account{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec:       v1alpha1.AccountSpec{DisplayName: "Acme " + name, Email: name + "@example.com"},
	}
}

// newApiKey returns an ApiKey of the account and its plaintext key.
func newApiKey(account string) (*v1alpha1.ApiKey, string) {
	secret := "sk_test_" + utilrand.String(64)
	return &v1alpha1.ApiKey{
		ObjectMeta: metav1.ObjectMeta{Name: uniqueName("key"), Namespace: namespace},
		Spec: v1alpha1.ApiKeySpec{
			AccountRef:    v1alpha1.LocalObjectReference{Name: account},
			Environment:   v1alpha1.EnvironmentTest,
			KeyHash:       registry.HashKey(secret),
			DisplayPrefix: secret[:12],
		},
	}, secret
}

// newIntent returns a valid TransferIntent of the account.
func newIntent(account string) *v1alpha1.TransferIntent {
	const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	ulid := make([]byte, 26)
	for i := range ulid {
		n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(crockford))))
		ulid[i] = crockford[n.Int64()]
	}
	ulid[0] = '0'
	id := "int_transfer_" + string(ulid)
	orderID := make([]byte, 32)
	_, _ = rand.Read(orderID)
	return &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: "int-transfer-" + strings.ToLower(string(ulid)), Namespace: namespace},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest,
			Type: v1alpha1.IntentTypeTransfer, FromChain: "eip155:11155111", ToChain: "eip155:11155111",
			OrderID: fmt.Sprintf("0x%x", orderID),
			Request: v1alpha1.TransferRequest{
				From:   "eip155:11155111:" + randomAddress(),
				To:     "eip155:11155111:" + randomAddress(),
				Asset:  v1alpha1.TransferAsset{In: "eip155:11155111:" + registry.NativeTokenAddress},
				Amount: "1.5",
			},
			ExpiresAt: metav1.NewTime(time.Now().Add(time.Hour).Truncate(time.Second)),
		},
	}
}

// commonStatus returns the status every kind shares.
func commonStatus(obj client.Object) *v1alpha1.CommonStatus {
	return obj.(v1alpha1.Object).GetCommonStatus()
}

// expectReady waits until the object's Ready condition has the status and reason for its current
// generation, and returns the condition.
func expectReady(obj client.Object, status metav1.ConditionStatus, reason string) *metav1.Condition {
	GinkgoHelper()
	var cond *metav1.Condition
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, objKey(obj), obj)).To(Succeed())
		st := commonStatus(obj)
		cond = meta.FindStatusCondition(st.Conditions, v1alpha1.ConditionReady)
		g.Expect(cond).NotTo(BeNil(), "no Ready condition yet")
		g.Expect(cond.Status).To(Equal(status), cond.Message)
		g.Expect(cond.Reason).To(Equal(reason), cond.Message)
		g.Expect(cond.ObservedGeneration).To(Equal(obj.GetGeneration()))
		g.Expect(st.ObservedGeneration).To(Equal(obj.GetGeneration()))
	}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(Succeed())
	return cond
}

// expectImpliedPending waits until the controller has reconciled a new intent (it labels the
// ones created without labels, as kubectl may) and checks that its status stays unwritten: a new
// intent's pending phase and Ready condition are implied, not written.
func expectImpliedPending(ti *v1alpha1.TransferIntent) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, objKey(ti), ti)).To(Succeed())
		g.Expect(ti.Labels).To(HaveKeyWithValue(v1alpha1.LabelType, string(ti.Spec.Type)))
	}).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(Succeed())
	Consistently(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, objKey(ti), ti)).To(Succeed())
		g.Expect(ti.Status).To(Equal(v1alpha1.TransferIntentStatus{}), "a new intent's status is implied")
	}).WithTimeout(300 * time.Millisecond).WithPolling(50 * time.Millisecond).Should(Succeed())
}

// withinOneSecond is the read models' promise: visible to the HTTP layer within a second.
func withinOneSecond(fn func() bool) {
	GinkgoHelper()
	Eventually(fn).WithTimeout(time.Second).WithPolling(5 * time.Millisecond).Should(BeTrue())
}

func createReadyChain() *v1alpha1.Chain {
	GinkgoHelper()
	chain := newChain(uniqueChainID())
	Expect(k8sClient.Create(ctx, chain)).To(Succeed())
	expectReady(chain, metav1.ConditionTrue, v1alpha1.ReasonValid)
	return chain
}

func createReadyAccount() *v1alpha1.Account {
	GinkgoHelper()
	account := newAccount()
	Expect(k8sClient.Create(ctx, account)).To(Succeed())
	expectReady(account, metav1.ConditionTrue, v1alpha1.ReasonValid)
	return account
}
