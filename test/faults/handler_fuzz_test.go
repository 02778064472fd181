package faults

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-logr/logr"
	"golang.org/x/crypto/bcrypt"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/chain/chaindata"
	"github.com/transferintent/transfer-intent-service/internal/chain/watcher"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/openapi"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/webauth"
)

// The seeds of FuzzHandler reach what they are meant to: each gets its status, so the fuzzer
// starts from requests that pass the gate, the parsers and the session checks, not from 401s. They
// go over a real net/http server with the production server settings (Server.Runnable), and are
// judged as the fuzzer judges its own requests.
func TestHandlerSeeds(t *testing.T) {
	st := newFuzzStack(t)
	for i, s := range handlerSeeds() {
		if got := st.send(t, s.method, s.target, s.header, []byte(s.body)); got != s.want {
			t.Errorf("seed %d, %s %s: status %d, want %d", i, s.method, s.target, got, s.want)
		}
	}
}

// FuzzHandler sends the whole HTTP interface (/health, the OpenAPI documents, every /v2 route,
// sign-in, the pages and key management) requests whose method, target, headers and body the
// fuzzer chooses. The stack is assembled as internal/service assembles it (read models, transfer
// domain, intent store, chain submissions, sign-in, the API's observe/readiness/gate/rate-limit
// layers); only the Kubernetes API is a fake client, so that nothing here is down. Each request
// is written as a client sends it and read back by net/http's own parser, as the server would,
// then served in-process: a loopback connection per request would cost several times the
// handler's own work. Requests net/http refuses before any handler runs are left out.
//
// No answer may be a 5xx, take more than 10 s or come from a panic; every error (status >= 400)
// must be a complete RFC 9457 problem (application/problem+json with type, title, status equal to
// the HTTP status, a detail of at most 512 bytes, and instance); a 405 names what is allowed and
// a 429 when to come back; a body must match its Content-Length.
//
// The seeds are real requests for every route (TestHandlerSeeds). Placeholders in the target and
// headers stand for what exists only at run time in each fuzzing process: {{key}} (a test API
// key), {{live}} (a live key), {{session}} (a signed-in session), {{intent}} (an intent of the
// key's account), {{keyid}} (a spare API key of that account) and {{order}} (an order id).
//
// `make test` runs it briefly (FUZZ_TARGETS); `make fuzz FUZZTIME=10m` runs it longer.
func FuzzHandler(f *testing.F) {
	for _, s := range handlerSeeds() {
		f.Add(s.method, s.target, s.header, []byte(s.body))
	}
	st := newFuzzStack(f)
	f.Fuzz(func(t *testing.T, method, target, header string, body []byte) {
		st.check(t, method, target, header, body)
	})
}

type seedRequest struct {
	method, target, header, body string
	// want is the status the seed gets in order, from a fresh stack (TestHandlerSeeds).
	want int
}

const (
	jsonKey     = "api-key: {{key}}\nContent-Type: application/json"
	withSession = "Cookie: " + webauth.CookieName + "={{session}}"
	jsonSession = withSession + "\nContent-Type: application/json"
	usdcSepolia = "eip155:11155111:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
	alice       = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	bob         = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
)

// handlerSeeds are real requests for every route, with a few refusals of each kind.
func handlerSeeds() []seedRequest {
	transfer := `{"from":"eip155:11155111:` + alice + `","to":"eip155:11155111:` + bob + `","asset":"` + usdcSepolia + `","amount":"12.5"}`
	swap := `{"from":"eip155:11155111:` + alice + `","to":"eip155:11155111:` + alice + `","asset":{"in":"` + usdcSepolia +
		`","out":"eip155:11155111:0xfFf9976782d46CC05630D1f6eBAb18b2324d6B14"},"amount":"3","deadline":"` +
		time.Now().Add(24*time.Hour).UTC().Format(time.RFC3339) + `"}`
	bridge := `{"from":"eip155:11155111:` + alice + `","to":"eip155:84532:` + bob + `","asset":"` + usdcSepolia + `","amount":"5"}`
	return []seedRequest{
		{"GET", "/health", "", "", 200},
		{"GET", "/openapi.json", "", "", 200},
		{"GET", "/v2/openapi.json", "api-key: {{key}}", "", 200},
		{"GET", "/v2/tokens", "api-key: {{key}}", "", 200},
		{"GET", "/v2/tokens?chain-id=eip155:11155111&limit=1", "api-key: {{key}}", "", 200},
		{"GET", "/v2/tokens?chain-id=eip155:1", "api-key: {{live}}", "", 200},
		{"GET", "/v2/tokens", "", "", 401},
		{"GET", "/v2/tokens", "api-key: sk_test_nope", "", 403},
		{"POST", "/v2/transfers/simulate", jsonKey, transfer, 200},
		{"POST", "/v2/transfers/simulate", jsonKey, swap, 200},
		{"POST", "/v2/transfers/simulate", jsonKey, bridge, 200},
		{"POST", "/v2/transfers/simulate", "api-key: {{live}}\nContent-Type: application/json", transfer, 403},
		{"POST", "/v2/transfers/simulate", "api-key: {{key}}\nContent-Type: text/plain", transfer, 415},
		{"POST", "/v2/transfers/simulate", jsonKey, `{"amount":"1","amount":"2"}`, 400},
		// The long amount, which came back twice in the problem.
		{"POST", "/v2/transfers/simulate", jsonKey, strings.Replace(transfer, `"12.5"`, `"`+strings.Repeat("9", 2000)+`x"`, 1), 422},
		{"POST", "/v2/transfers", jsonKey, transfer, 201},
		{"POST", "/v2/transfers", jsonKey + "\nIdempotency-Key: fuzz-1", swap, 201},
		{"POST", "/v2/transfers", jsonKey + "\nIdempotency-Key: fuzz-1", swap, 200},
		{"POST", "/v2/transfers", jsonKey + "\nIdempotency-Key: fuzz-1", transfer, 422},
		// Real clients' variants: parameters on the media type, escapes and non-ASCII in keys,
		// queries and paths.
		{"POST", "/v2/transfers", "api-key: {{key}}\nContent-Type: application/json; charset=utf-8\nIdempotency-Key: 2024/05 50%+ ~ok",
			transfer, 201},
		{"POST", "/v2/transfers", jsonKey + "\nIdempotency-Key: clé", transfer, 400},
		{"GET", "/v2/tokens?chain-id=eip155%3A11155111", "api-key: {{key}}", "", 200},
		{"GET", "/v2/transfers/int_transfer_%E2%82%AC", "api-key: {{key}}", "", 400},
		{"GET", "/v2/transfers?type=swap&limit=2", "api-key: {{key}}", "", 200},
		{"GET", "/v2/transfers?cursor=int_transfer_01JD0000000000000000000000", "api-key: {{key}}", "", 400},
		{"GET", "/v2/transfers/{{intent}}", "api-key: {{key}}", "", 200},
		{"GET", "/v2/transfers/int_transfer_01JD0000000000000000000000", "api-key: {{key}}", "", 404},
		{"POST", "/v2/transfers/{{intent}}/submission", jsonKey, `{"hash":"0x` + strings.Repeat("ab", 32) + `"}`, 422},
		{"GET", "/v2/orders/{{order}}/attestation", "api-key: {{key}}", "", 404},
		{"GET", "/v2/transfers/simulate", "api-key: {{key}}", "", 405},
		{"DELETE", "/v2/transfers", "api-key: {{key}}", "", 405},
		{"GET", "/v2/nowhere", "api-key: {{key}}", "", 404},
		{"HEAD", "/v2/tokens", "api-key: {{key}}", "", 200},
		{"OPTIONS", "/v2/transfers", "api-key: {{key}}", "", 405},
		{"GET", "/v2/transfers?limit=101", "api-key: {{key}}", "", 400},
		{"GET", "/v2//tokens", "api-key: {{key}}", "", 307},
		{"GET", "/v2/tokens", "api-key: {{key}}\napi-key: {{key}}", "", 403},
		{"GET", "/nowhere", "", "", 404},
		{"GET", "/sign-in", "", "", 200},
		{"GET", "/keys", withSession, "", 200},
		{"GET", "/intents?status=confirmed", withSession, "", 200},
		{"GET", "/intents?status=done", withSession, "", 400},
		{"GET", "/intents", "", "", 303},
		{"GET", "/intents/{{intent}}", withSession, "", 200},
		{"GET", "/auth/assets/app.css", "", "", 200},
		{"POST", "/auth/sign-in", "Content-Type: application/json", `{"email":"signin@example.com","password":"fuzz-password"}`, 204},
		{"POST", "/auth/sign-in", "Content-Type: application/x-www-form-urlencoded", "email=signin%40example.com&password=fuzz-password", 303},
		{"POST", "/auth/sign-in", "Content-Type: application/json", `{"email":"signin@example.com","password":"wrong"}`, 401},
		{"POST", "/auth/api-key/create", jsonSession, `{"name":"fuzzed","environment":"test"}`, 201},
		{"POST", "/auth/api-key/create", jsonSession + "\nSec-Fetch-Site: cross-site", `{"name":"fuzzed","environment":"test"}`, 403},
		{"GET", "/auth/api-keys", withSession, "", 200},
		{"POST", "/auth/api-keys/{{keyid}}/disable", withSession, "", 200},
		{"DELETE", "/auth/api-keys/{{keyid}}", withSession, "", 204},
		{"POST", "/auth/sign-out", withSession, "", 204},
		{"GET", "/auth/api-keys", withSession, "", 200},
	}
}

// fuzzStack is the service's HTTP interface, as a handler and served on loopback.
type fuzzStack struct {
	addr        string
	kube        client.Client
	keys        *registry.KeyIndex
	handler     http.Handler
	panics      atomic.Int64
	values      map[string]string // placeholder -> value, except the session
	mu          sync.Mutex
	session     string
	ownerPass   string
	refreshFrom net.Addr
}

const (
	fuzzNamespace = "tis-fuzz"
	ownerEmail    = "owner-7f3a@example.com" // never in a seed: the fuzzer's failed sign-ins do not throttle it
)

func newFuzzStack(tb testing.TB) *fuzzStack {
	tb.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	must(tb, err)
	baseURL := "http://" + listener.Addr().String()

	builder := fake.NewClientBuilder().WithScheme(service.NewScheme()).
		WithStatusSubresource(&v1alpha1.TransferIntent{}, &v1alpha1.Account{}, &v1alpha1.ApiKey{}, &v1alpha1.Chain{}, &v1alpha1.TokenDefinition{}).
		WithIndex(&v1alpha1.TransferIntent{}, intentstore.AccountIndexField, intentstore.IndexByAccount)
	for _, ix := range controller.Indexes() {
		builder = builder.WithIndex(ix.Object, ix.Field, ix.Extract)
	}
	kube := builder.Build()
	st := &fuzzStack{addr: listener.Addr().String(), kube: kube, values: map[string]string{}}

	// The read models, as the controllers fill them for chains whose settlement contracts they verified.
	models := controller.NewReadModels()
	st.keys = models.Keys
	created := time.Now().Add(-time.Hour)
	chain := func(id string, ref int64, env registry.Environment, settlement string) {
		models.Chains.Upsert("chain-"+strings.TrimPrefix(id, "eip155:"), registry.Chain{
			ID: id, NumericID: big.NewInt(ref), Environment: env, DisplayName: id, NativeSymbol: "ETH", NativeDecimals: 18,
			BlockTimeSeconds: 12, FinalitySeconds: 60, DefaultGasPriceWei: big.NewInt(1_000_000_000), NativeTokenPriceUSD: "3000",
			SettlementAddress: settlement, SettlementVerified: true, CreatedAt: created,
		})
	}
	chain("eip155:11155111", 11155111, registry.EnvironmentTest, "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB")
	chain("eip155:84532", 84532, registry.EnvironmentTest, "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb")
	chain("eip155:1", 1, registry.EnvironmentLive, "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB")
	token := func(symbol, chainID, addr string, decimals int32) {
		models.Tokens.Upsert(registry.Token{Name: strings.ToLower(symbol) + "-" + strings.TrimPrefix(chainID, "eip155:"), Symbol: symbol,
			ChainID: chainID, Address: chainID + ":" + common.HexToAddress(addr).Hex(), Decimals: decimals, PriceUSD: "1", CreatedAt: created})
	}
	token("USDC", "eip155:11155111", "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", 6)
	token("WETH", "eip155:11155111", "0xfFf9976782d46CC05630D1f6eBAb18b2324d6B14", 18)
	token("ETH", "eip155:11155111", registry.NativeTokenAddress, 18)
	token("USDC", "eip155:84532", "0x036CbD53842c5426634e7929541eC2318f3dCF7e", 6)
	token("USDC", "eip155:1", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", 6)

	// Two accounts: "owner" holds the keys and the session the placeholders stand for; the seeds
	// sign in as "signin", so the fuzzer's wrong passwords throttle that one.
	st.ownerPass = "owner-password-7f3a"
	st.account(tb, models, "owner", ownerEmail, st.ownerPass, created)
	st.account(tb, models, "signin", "signin@example.com", "fuzz-password", created)
	st.values["{{key}}"] = st.apiKey(tb, "owner", "fuzz-test", registry.EnvironmentTest)
	st.values["{{live}}"] = st.apiKey(tb, "owner", "fuzz-live", registry.EnvironmentLive)
	st.apiKey(tb, "owner", "fuzz-spare", registry.EnvironmentTest)
	st.values["{{keyid}}"] = "fuzz-spare"

	// The domain and the stores, as service.Setup builds them.
	opts := service.DefaultOptions()
	opts.Namespace = fuzzNamespace
	opts.Site.BaseURL = baseURL
	fees := opts.Transfers.Fees
	chainData, err := chaindata.New(opts.Transfers.ChainRPC)
	must(tb, err)
	tb.Cleanup(chainData.Close)
	catalog := intent.RegistryCatalog{Chains: models.Chains, Tokens: models.Tokens}
	transfers, err := intent.NewService(intent.Config{
		Catalog: catalog, Fees: &fees, QuoteTTL: opts.Transfers.QuoteTTL, IntentTTL: opts.Transfers.IntentTTL,
		MaxDeadline: opts.Transfers.MaxDeadline, ChainData: chainData, TypedPricesOnLive: true,
		BridgesUnavailable: "bridges are unavailable: the service has no attester key",
	})
	must(tb, err)
	store, err := intentstore.New(kube, kube, kube, intentstore.Options{Namespace: fuzzNamespace, ClaimTimeout: opts.Transfers.ClaimTimeout})
	must(tb, err)
	watchIndex := watcher.NewIndex()
	submissions := &watcher.Submissions{Chains: models.Chains, Index: watchIndex, Timeout: opts.Transfers.SubmissionTimeout,
		Writer: &intentstatus.Writer{Client: kube, APIReader: kube, Written: watchIndex.Upsert}}
	full, v2, err := openapi.Documents(baseURL)
	must(tb, err)
	opts.API.Site, opts.Web.Site = opts.Site, opts.Site
	web, err := webauth.New(opts.Web, webauth.Deps{
		Accounts: models.Accounts, Keys: models.Keys, Cache: kube, APIReader: kube, Writer: kube, Status: kube.Status(),
		Namespace:   fuzzNamespace,
		SessionKeys: webauth.StaticSessionKeys{[]byte("fuzz-session-key-0123456789abcdef0123456789")},
		Intents:     store,
	}, logr.Discard())
	must(tb, err)
	api := apiserver.New(opts.API, apiserver.Deps{
		APIHealth: apiHealthy{}, Keys: models.Keys, Tokens: models.Tokens, OpenAPI: full, OpenAPIV2: v2,
		Web: web, Catalog: catalog, Transfers: transfers, Intents: store, Submissions: submissions,
	}, logr.New(panicLog{&st.panics}))
	api.MarkReady()
	st.handler = api.Handler()
	srv := api.Runnable(listener).Server
	srv.ErrorLog = nil
	go func() { _ = srv.Serve(listener) }()
	tb.Cleanup(func() { _ = srv.Close() })

	// An intent of the owner's for the routes that take an id, created through the API.
	resp, raw := st.exchange(tb, nil, "POST /v2/transfers HTTP/1.1", jsonKey, `{"from":"eip155:11155111:`+alice+
		`","to":"eip155:11155111:`+bob+`","asset":"`+usdcSepolia+`","amount":"2"}`)
	if resp.StatusCode != http.StatusCreated {
		tb.Fatalf("creating the seed intent: %d %s", resp.StatusCode, raw)
	}
	var rec struct {
		ID      string `json:"id"`
		OrderID string `json:"orderId"`
	}
	must(tb, json.Unmarshal(raw, &rec))
	st.values["{{intent}}"] = rec.ID
	st.values["{{order}}"] = "0x" + strings.Repeat("0", 63) + "1"
	if rec.OrderID != "" {
		st.values["{{order}}"] = rec.OrderID
	}
	// The harness signs in from another loopback address than the fuzzer's requests, so that
	// their failed sign-ins, counted per client address, never throttle it.
	st.refreshFrom = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}
	st.signIn(tb)
	return st
}

type apiHealthy struct{}

func (apiHealthy) State() string { return "ok" }

// account creates an Account with a bcrypt password Secret and publishes it, as its controller
// would.
func (st *fuzzStack) account(tb testing.TB, models controller.ReadModels, name, email, password string, created time.Time) {
	tb.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	must(tb, err)
	ctx := context.Background()
	must(tb, st.kube.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: fuzzNamespace, Name: name + "-password"},
		Data: map[string][]byte{"passwordHash": hash}}))
	must(tb, st.kube.Create(ctx, &v1alpha1.Account{ObjectMeta: metav1.ObjectMeta{Namespace: fuzzNamespace, Name: name},
		Spec: v1alpha1.AccountSpec{DisplayName: name, Email: email,
			PasswordSecretRef: &v1alpha1.SecretKeyReference{Name: name + "-password", Key: "passwordHash"}}}))
	models.Accounts.Upsert(registry.Account{Name: name, DisplayName: name, Email: email,
		PasswordSecret: &registry.SecretRef{Name: name + "-password", Key: "passwordHash"}, CreatedAt: created})
	models.Keys.SetAccount(name, false)
}

// apiKey creates an ApiKey of the account with a limit the fuzzer cannot reach, publishes it, and
// returns the key.
func (st *fuzzStack) apiKey(tb testing.TB, account, name string, env registry.Environment) string {
	tb.Helper()
	k, err := apikey.Generate(env)
	must(tb, err)
	obj := k.Object(fuzzNamespace, account, name, nil)
	obj.Name = name
	obj.Spec.RateLimitPerMinute = math.MaxInt32
	must(tb, st.kube.Create(context.Background(), obj))
	st.keys.Upsert(k.Hash, registry.Key{ID: name, Account: account, Environment: env, DisplayPrefix: k.DisplayPrefix,
		DisplayName: name, RateLimitPerMinute: math.MaxInt32, CreatedAt: time.Now().Add(-time.Hour), UID: string(obj.UID), Generation: 1})
	return k.Plaintext
}

// signIn starts the session {{session}} stands for.
func (st *fuzzStack) signIn(tb testing.TB) {
	tb.Helper()
	body, _ := json.Marshal(map[string]string{"email": ownerEmail, "password": st.ownerPass})
	resp, raw := st.exchange(tb, st.refreshFrom, "POST /auth/sign-in HTTP/1.1", "Content-Type: application/json", string(body))
	for _, c := range resp.Cookies() {
		if c.Name == webauth.CookieName && c.Value != "" {
			st.mu.Lock()
			st.session = c.Value
			st.mu.Unlock()
			return
		}
	}
	tb.Fatalf("signing in the harness's session: %d %s", resp.StatusCode, raw)
}

// exchange sends one request over loopback from the local address from (nil: any) and reads the
// answer; it fails the test when there is none.
func (st *fuzzStack) exchange(tb testing.TB, from net.Addr, requestLine, header, body string) (*http.Response, []byte) {
	tb.Helper()
	raw := st.build(requestLine, st.substitute(header), []byte(body))
	resp, respBody, err := st.roundTrip(from, raw, http.MethodPost)
	if err != nil {
		tb.Fatalf("%s: %v", requestLine, err)
	}
	return resp, respBody
}

// substitute replaces the placeholders.
func (st *fuzzStack) substitute(s string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	for k, v := range st.values {
		s = strings.ReplaceAll(s, k, v)
	}
	st.mu.Lock()
	session := st.session
	st.mu.Unlock()
	return strings.ReplaceAll(s, "{{session}}", session)
}

// build writes the request as a client would send it: the request line, a Host (unless the
// headers name one), the header lines, and a Content-Length of the body (framing is net/http's
// business, not the handler's, so the fuzzer's own Content-Length and Transfer-Encoding go).
func (st *fuzzStack) build(requestLine, header string, body []byte) []byte {
	var b bytes.Buffer
	b.WriteString(requestLine)
	b.WriteString("\r\n")
	hasHost := false
	for line := range strings.SplitSeq(header, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		name, _, _ := strings.Cut(line, ":")
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-length", "transfer-encoding", "connection", "te", "trailer", "upgrade":
			continue
		case "host":
			hasHost = true
		}
		b.WriteString(line)
		b.WriteString("\r\n")
	}
	if !hasHost {
		b.WriteString("Host: " + st.addr + "\r\n")
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\nConnection: close\r\n\r\n", len(body))
	b.Write(body)
	return b.Bytes()
}

// errNoAnswer is a connection closed, or a deadline passed, before a whole response came back.
var errNoAnswer = errors.New("no complete answer")

// answerWithin bounds every answer: nothing here waits for anything slow.
const answerWithin = 10 * time.Second

// roundTrip sends raw on a new loopback connection (from the local address from, when set) and
// reads the final response (after any 1xx) with its whole body.
func (st *fuzzStack) roundTrip(from net.Addr, raw []byte, method string) (*http.Response, []byte, error) {
	d := net.Dialer{LocalAddr: from, Timeout: answerWithin}
	conn, err := d.Dial("tcp", st.addr)
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(answerWithin))
	if _, err := conn.Write(raw); err != nil {
		return nil, nil, fmt.Errorf("%w: writing: %w", errNoAnswer, err)
	}
	br := bufio.NewReader(conn)
	for {
		resp, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", errNoAnswer, err)
		}
		if resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: reading the body of a %d: %w", errNoAnswer, resp.StatusCode, err)
			}
			return resp, body, nil
		}
	}
}

// fuzzClient is the peer address of the fuzzer's requests served in-process.
const fuzzClient = "192.0.2.10:40000"

// serveInProcess hands the request to the handler as the server would (same parser, a peer
// address) and records the answer. The fuzzer uses it: a loopback connection per request costs
// several times the handler's own work.
func (st *fuzzStack) serveInProcess(t *testing.T, raw []byte) (*http.Request, *http.Response, []byte, bool) {
	t.Helper()
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil || !serverAccepts(req) {
		return nil, nil, nil, false // net/http answers these itself; the handler never sees them
	}
	req.RemoteAddr = fuzzClient
	ctx, cancel := context.WithTimeout(context.Background(), answerWithin)
	defer cancel()
	req = req.WithContext(ctx)
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		st.handler.ServeHTTP(rec, req)
	}()
	select {
	case <-done:
	case <-time.After(answerWithin + time.Second):
		t.Fatalf("no answer within %s\nrequest:\n%q", answerWithin, raw)
	}
	return req, rec.Result(), rec.Body.Bytes(), true
}

// serverAccepts mirrors what net/http's server refuses (400 or 417) after parsing and before any
// handler runs: invalid header names or values, a missing or repeated Host on HTTP/1.1, an
// Expect other than 100-continue.
func serverAccepts(req *http.Request) bool {
	if req.ProtoAtLeast(1, 1) && len(req.Header["Host"]) != 1 && req.Host == "" && req.Method != http.MethodConnect {
		return false
	}
	if len(req.Header["Host"]) > 1 {
		return false
	}
	for name, values := range req.Header {
		if !isToken(name) {
			return false
		}
		for _, v := range values {
			for i := 0; i < len(v); i++ {
				if c := v[i]; (c < 0x20 && c != '\t') || c == 0x7f {
					return false
				}
			}
		}
	}
	if e := req.Header.Get("Expect"); e != "" && !strings.EqualFold(e, "100-continue") {
		return false
	}
	return true
}

// isToken reports whether s is an RFC 9110 token (a valid header field name).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// panicLog fails the fuzzing when the API logs a recovered panic: the answer may already have
// been on its way (a 200 cut short), so the status alone does not show it.
type panicLog struct{ panics *atomic.Int64 }

func (panicLog) Init(logr.RuntimeInfo)            {}
func (panicLog) Enabled(level int) bool           { return level == 0 }
func (panicLog) Info(int, string, ...any)         {}
func (l panicLog) WithValues(...any) logr.LogSink { return l }
func (l panicLog) WithName(string) logr.LogSink   { return l }
func (l panicLog) Error(_ error, msg string, _ ...any) {
	if strings.Contains(msg, "panic") {
		l.panics.Add(1)
	}
}

// check sends one fuzzed request in-process and judges the answer.
func (st *fuzzStack) check(t *testing.T, method, target, header string, body []byte) {
	raw := st.build(method+" "+st.substitute(target)+" HTTP/1.1", st.substitute(header), body)
	req, resp, respBody, ok := st.serveInProcess(t, raw)
	if !ok {
		return
	}
	st.judge(t, raw, req, resp, respBody)
}

// send sends one request over loopback and judges the answer like check. It returns the status,
// or 0 when net/http answered without the handler.
func (st *fuzzStack) send(t *testing.T, method, target, header string, body []byte) int {
	t.Helper()
	raw := st.build(method+" "+st.substitute(target)+" HTTP/1.1", st.substitute(header), body)
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return 0
	}
	resp, respBody, err := st.roundTrip(nil, raw, req.Method)
	if err != nil {
		t.Fatalf("%v\nrequest:\n%q", err, raw)
	}
	if resp.Header.Get(apiserver.CorrelationHeader) == "" {
		return 0 // answered by net/http before the handler
	}
	st.judge(t, raw, req, resp, respBody)
	return resp.StatusCode
}

// judge fails the test when the handler's answer is a 5xx, an error that is not a complete
// problem, a body whose length is not its Content-Length, or when the handler panicked.
func (st *fuzzStack) judge(t *testing.T, raw []byte, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	if n := st.panics.Swap(0); n > 0 {
		t.Fatalf("the handler panicked (status %d)\nrequest:\n%q", resp.StatusCode, raw)
	}
	head := req.Method == http.MethodHead
	if resp.StatusCode >= 500 {
		t.Fatalf("%d from the handler (nothing is down here)\nrequest:\n%q\nresponse: %s", resp.StatusCode, raw, body)
	}
	if cl := resp.Header.Get("Content-Length"); cl != "" && !head && cl != strconv.Itoa(len(body)) {
		t.Fatalf("Content-Length %s for a body of %d bytes\nrequest:\n%q", cl, len(body), raw)
	}
	if (resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified) && len(body) > 0 {
		t.Fatalf("a %d with a body\nrequest:\n%q", resp.StatusCode, raw)
	}
	// A 405 names what is allowed (RFC 9110 and docs/decisions.md); a 429 says when to come back.
	if resp.StatusCode == http.StatusMethodNotAllowed && resp.Header.Get("Allow") == "" {
		t.Fatalf("a 405 without Allow\nrequest:\n%q", raw)
	}
	if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a 429 without Retry-After\nrequest:\n%q", raw)
	}
	if resp.StatusCode >= 400 {
		if msg := incompleteProblem(resp, body, head); msg != "" {
			t.Fatalf("the %d answer is not a complete problem: %s\nrequest:\n%q\nresponse headers: %v\nresponse: %s",
				resp.StatusCode, msg, raw, resp.Header, body)
		}
	}
	// A request that may have ended the harness's session (sign-out) gets it a new one.
	if resp.StatusCode < 400 && strings.Contains(req.URL.Path, "sign-out") {
		st.signIn(t)
	}
}

// incompleteProblem says what is missing from an RFC 9457 problem answer, or "" when nothing is.
func incompleteProblem(resp *http.Response, body []byte, head bool) string {
	if ct := resp.Header.Get("Content-Type"); ct != problem.ContentType {
		return fmt.Sprintf("Content-Type %q", ct)
	}
	if head {
		return "" // no body to a HEAD request
	}
	var p map[string]any
	if err := json.Unmarshal(body, &p); err != nil {
		return "not a JSON object: " + err.Error()
	}
	for _, member := range []string{"type", "title", "instance", "detail"} {
		if s, ok := p[member].(string); !ok || s == "" {
			return fmt.Sprintf("member %q missing or empty", member)
		}
	}
	if status, ok := p["status"].(float64); !ok || int(status) != resp.StatusCode {
		return fmt.Sprintf("member status %v is not the HTTP status", p["status"])
	}
	if d := p["detail"].(string); len(d) > problem.MaxDetailBytes {
		return fmt.Sprintf("a detail of %d bytes (at most %d)", len(d), problem.MaxDetailBytes)
	}
	return ""
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
