package apiserver

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Chains and tokens of the transfer tests: real testnet and mainnet ids and contracts.
const (
	sepolia     = "eip155:11155111"
	baseSepolia = "eip155:84532"
	arbSepolia  = "eip155:421614" // no settlement contract: no swap or bridge route
	mainnet     = "eip155:1"

	usdcSepolia     = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
	wethSepolia     = "0xfFf9976782d46CC05630D1f6eBAb18b2324d6B14"
	usdcBaseSepolia = "0x036CbD53842c5426634e7929541eC2318f3dCF7e"
	usdcArbSepolia  = "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d"
	usdcMainnet     = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"

	aliceAddr = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	bobAddr   = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	settleA   = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"
	settleB   = "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"

	testNamespace = "tis-test"
)

// testLiveKey is a live key of the account carol.
var testLiveKey = testKey("live", "C")

func eip55(addr string) string { return common.HexToAddress(addr).Hex() }

func caip10(chain, addr string) string { return chain + ":" + eip55(addr) }

func testCatalog() intent.RegistryCatalog {
	chains := registry.NewChainTable()
	// A chain with a settlement contract models one whose contract the Chain controller verified,
	// with a node and a witness (static chain data: neither is called).
	chain := func(id string, ref int64, env registry.Environment, settlement string, block int64) {
		var node string
		var witnesses []string
		if settlement != "" {
			node, witnesses = "https://node.example", []string{"https://witness.example"}
		}
		chains.Upsert("chain-"+id[len("eip155:"):], registry.Chain{
			RPCURL: node, WitnessURLs: witnesses,
			ID: id, NumericID: big.NewInt(ref), Environment: env,
			DisplayName: id, NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: block, FinalitySeconds: 60,
			DefaultGasPriceWei: big.NewInt(1_000_000_000), NativeTokenPriceUSD: "3000", SettlementAddress: settlement,
			SettlementVerified: settlement != "",
		})
	}
	chain(sepolia, 11155111, registry.EnvironmentTest, settleA, 12)
	chain(baseSepolia, 84532, registry.EnvironmentTest, settleB, 2)
	chain(arbSepolia, 421614, registry.EnvironmentTest, "", 1)
	chain(mainnet, 1, registry.EnvironmentLive, settleA, 12)
	tokens := registry.NewTokenRegistry()
	token := func(name, symbol, chainID, addr string, decimals int32) {
		tokens.Upsert(registry.Token{Name: name, Symbol: symbol, ChainID: chainID, Address: caip10(chainID, addr), Decimals: decimals, PriceUSD: "1"})
	}
	token("usdc-sepolia", "USDC", sepolia, usdcSepolia, 6)
	token("weth-sepolia", "WETH", sepolia, wethSepolia, 18)
	token("usdc-base-sepolia", "USDC", baseSepolia, usdcBaseSepolia, 6)
	token("usdc-arb-sepolia", "USDC", arbSepolia, usdcArbSepolia, 6)
	token("usdc-mainnet", "USDC", mainnet, usdcMainnet, 6)
	return intent.RegistryCatalog{Chains: chains, Tokens: tokens}
}

func testScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(err)
	}
	if err := v1alpha1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}

// transferHarness is the API with the transfer routes, over a fake Kubernetes client.
type transferHarness struct {
	*harness
	kube    client.WithWatch
	store   *intentstore.Store
	catalog intent.RegistryCatalog
}

type transferConfig struct {
	funcs     *interceptor.Funcs
	transfers func(*intent.Service) TransferService
	opts      func(*Options)
	store     func(*intentstore.Options)
	// quotes, when set, is the service's store of simulations, given the default one.
	quotes func(local intent.QuoteStore) intent.QuoteStore
	// gasless, when set, is the gasless intents' book.
	gasless GaslessBook
	// feed, when set, serves the event streams.
	feed *IntentFeed
	// keys, when set, is the key index in place of the harness's fake.
	keys KeyIndex
	// feePolicies, when set, are the accounts' integrator fee policies.
	feePolicies intent.FeePolicies
	// chainData, when set, is what the service reads of the chains (static defaults otherwise).
	chainData intent.ChainData
}

func newTransferHarness(t testing.TB, configure ...func(*transferConfig)) *transferHarness {
	t.Helper()
	var cfg transferConfig
	for _, c := range configure {
		c(&cfg)
	}
	builder := fake.NewClientBuilder().WithScheme(testScheme()).
		WithIndex(&v1alpha1.TransferIntent{}, intentstore.AccountIndexField, intentstore.IndexByAccount)
	if cfg.funcs != nil {
		builder = builder.WithInterceptorFuncs(*cfg.funcs)
	}
	return transferHarnessOver(t, builder.Build(), cfg)
}

// transferHarnessOver is the API with the transfer routes over kube, a fake Kubernetes client or
// a real API server's.
func transferHarnessOver(t testing.TB, kube client.WithWatch, cfg transferConfig) *transferHarness {
	t.Helper()
	h := &transferHarness{harness: &harness{
		clock: clocktesting.NewFakeClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)),
		keys: &fakeKeys{keys: map[string]registry.Key{
			hashOf(testKeyA):    {ID: "key-a", Account: "alice", Environment: registry.EnvironmentTest, RateLimitPerMinute: 1000},
			hashOf(testKeyB):    {ID: "key-b", Account: "bob", Environment: registry.EnvironmentTest, RateLimitPerMinute: 1000},
			hashOf(testLiveKey): {ID: "key-c", Account: "carol", Environment: registry.EnvironmentLive, RateLimitPerMinute: 1000},
		}},
		tokens: &fakeTokens{},
	}, kube: kube, catalog: testCatalog()}
	h.serve(t, cfg)
	return h
}

// replica is a second replica of the service over the same Kubernetes API: its own intent store
// (with its own per-replica deduplication) and HTTP server, the same keys, tokens and clock.
func (h *transferHarness) replica(t testing.TB, configure ...func(*transferConfig)) *transferHarness {
	t.Helper()
	r := &transferHarness{harness: &harness{clock: h.clock, keys: h.keys, tokens: h.tokens}, kube: h.kube, catalog: h.catalog}
	var cfg transferConfig
	for _, c := range configure {
		c(&cfg)
	}
	r.serve(t, cfg)
	return r
}

// serve builds the intent store over h.kube and starts the API on a loopback server.
func (h *transferHarness) serve(t testing.TB, cfg transferConfig) {
	t.Helper()
	var err error
	storeOpts := intentstore.Options{Namespace: testNamespace, Clock: h.clock}
	if cfg.store != nil {
		cfg.store(&storeOpts)
	}
	h.store, err = intentstore.New(h.kube, h.kube, h.kube, storeOpts)
	if err != nil {
		t.Fatal(err)
	}
	var quotes intent.QuoteStore = intent.NewMemoryQuotes(0, h.clock)
	if cfg.quotes != nil {
		quotes = cfg.quotes(quotes)
	}
	svc, err := intent.NewService(intent.Config{Catalog: h.catalog, Clock: h.clock, Quotes: quotes, TypedPricesOnLive: true, ChainData: cfg.chainData,
		FeePolicies: cfg.feePolicies})
	if err != nil {
		t.Fatal(err)
	}
	var transfers TransferService = svc
	if cfg.transfers != nil {
		transfers = cfg.transfers(svc)
	}
	full, v2 := openAPIDocuments(t)
	opts := DefaultOptions()
	opts.BaseURL, opts.ProblemBaseURL = testBaseURL, testProblemURL
	if cfg.opts != nil {
		cfg.opts(&opts)
	}
	var keys KeyIndex = h.keys
	if cfg.keys != nil {
		keys = cfg.keys
	}
	h.srv = New(opts, Deps{
		Keys: keys, Tokens: h.tokens, Clock: h.clock, OpenAPI: full, OpenAPIV2: v2,
		Catalog: h.catalog, Transfers: transfers, Intents: h.store, Gasless: cfg.gasless, Feed: cfg.feed,
	}, logr.Discard())
	h.srv.MarkReady()
	h.http = httptest.NewServer(h.srv.Handler())
	t.Cleanup(h.http.Close)
}

func openAPIDocuments(t testing.TB) (full, v2 []byte) {
	t.Helper()
	if tt, ok := t.(*testing.T); ok {
		return testDocuments(tt)
	}
	return testDocuments(&testing.T{})
}

// transferBody is a transfer request as a client writes it.
type transferBody map[string]any

func (b transferBody) String() string {
	out, err := json.Marshal(b)
	if err != nil {
		panic(err)
	}
	return string(out)
}

// with returns a copy with the members changed; a nil value removes the member.
func (b transferBody) with(kv ...any) transferBody {
	out := transferBody{}
	for k, v := range b {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
		} else {
			out[kv[i].(string)] = kv[i+1]
		}
	}
	return out
}

// usdcTransfer is 12.5 USDC from alice to bob on Sepolia.
func usdcTransfer() transferBody {
	return transferBody{
		"from": caip10(sepolia, aliceAddr), "to": caip10(sepolia, bobAddr),
		"asset": caip10(sepolia, usdcSepolia), "amount": "12.5",
	}
}

// post sends a JSON body with a key and extra header pairs.
func (h *transferHarness) post(t *testing.T, path, key, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	hdr := withKey(key)
	hdr.Set("Content-Type", "application/json")
	for i := 0; i < len(header); i += 2 {
		hdr.Set(header[i], header[i+1])
	}
	return h.do(t, http.MethodPost, path, hdr, body)
}

func decodeJSON[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("decoding %s: %v", body, err)
	}
	return v
}

// failingTransfers fails every call the way an unreachable dependency would.
type failingTransfers struct{ err error }

func (f failingTransfers) Simulate(context.Context, string, intent.Parsed) (intent.SimulationResult, error) {
	return intent.SimulationResult{}, f.err
}

func (f failingTransfers) Prepare(context.Context, string, intent.Parsed, [32]byte) (intent.Plan, error) {
	return intent.Plan{}, f.err
}

func (f failingTransfers) WithNonce(string, intent.Parsed, intent.Plan, [32]byte) (intent.Plan, error) {
	return intent.Plan{}, f.err
}
