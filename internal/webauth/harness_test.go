package webauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"golang.org/x/crypto/bcrypt"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
)

const (
	testNamespace  = "tis-test"
	testProblemURL = "https://problems.example.test"
)

// testSessionKey signs the harness's sessions.
var testSessionKey = []byte("0123456789abcdef0123456789abcdef-test")

// recordingSink is a logr sink that records every line at every verbosity, with its values, so a
// test can assert what was never logged.
type recordingSink struct {
	mu     *sync.Mutex
	lines  *[]string
	name   string
	values []any
}

func newRecordingSink() recordingSink {
	return recordingSink{mu: &sync.Mutex{}, lines: &[]string{}}
}

func (s recordingSink) Init(logr.RuntimeInfo)  {}
func (s recordingSink) Enabled(level int) bool { return true }
func (s recordingSink) Info(level int, msg string, kv ...any) {
	s.record(fmt.Sprintf("INFO(v=%d) %s: %s %v %v", level, s.name, msg, s.values, kv))
}
func (s recordingSink) Error(err error, msg string, kv ...any) {
	s.record(fmt.Sprintf("ERROR %s: %s: %v %v %v", s.name, msg, err, s.values, kv))
}
func (s recordingSink) WithValues(kv ...any) logr.LogSink {
	s.values = append(append([]any{}, s.values...), kv...)
	return s
}
func (s recordingSink) WithName(name string) logr.LogSink { s.name += "/" + name; return s }
func (s recordingSink) record(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	*s.lines = append(*s.lines, line)
}
func (s recordingSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(*s.lines, "\n")
}

// harness is the API (apiserver + webauth) over a fake Kubernetes client, served by httptest.
type harness struct {
	t        *testing.T
	clock    *clocktesting.FakeClock
	client   client.WithWatch
	accounts *registry.Accounts
	keys     *registry.KeyIndex
	events   *events.FakeRecorder
	logs     recordingSink
	web      *Handler
	intents  *recordingIntents
	srv      *httptest.Server
	http     *http.Client
}

// harnessOption is a func(*Options) that changes the handler's options, or a withInterceptor.
type harnessOption any

// withInterceptor makes the harness's Kubernetes client go through funcs (to fail its calls).
type withInterceptor interceptor.Funcs

func newHarness(t *testing.T, opts ...harnessOption) *harness {
	t.Helper()
	scheme := testenv.Scheme()
	h := &harness{
		t:        t,
		clock:    clocktesting.NewFakeClock(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)),
		client:   fakeClient(scheme, opts),
		accounts: registry.NewAccounts(),
		keys:     registry.NewKeyIndex(),
		events:   events.NewFakeRecorder(100),
		logs:     newRecordingSink(),
	}
	h.srv = httptest.NewServer(nil)
	t.Cleanup(h.srv.Close)

	o := DefaultOptions()
	o.BaseURL = h.srv.URL
	o.ProblemBaseURL = testProblemURL
	for _, opt := range opts {
		if fn, ok := opt.(func(*Options)); ok {
			fn(&o)
		}
	}
	log := logr.New(h.logs)
	h.intents = newRecordingIntents(t)
	web, err := New(o, Deps{
		Intents:     h.intents,
		Chains:      testChains,
		Accounts:    h.accounts,
		Keys:        h.keys,
		Cache:       h.client,
		APIReader:   h.client,
		Writer:      h.client,
		Status:      h.client.Status(),
		Namespace:   testNamespace,
		SessionKeys: StaticSessionKeys{testSessionKey},
		Events:      h.events,
		Clock:       h.clock,
	}, log.WithName("web"))
	if err != nil {
		t.Fatal(err)
	}
	h.web = web
	apiOpts := apiserver.DefaultOptions()
	apiOpts.BaseURL, apiOpts.ProblemBaseURL = o.BaseURL, testProblemURL
	api := apiserver.New(apiOpts, apiserver.Deps{
		Keys:   h.keys,
		Tokens: registry.NewTokenRegistry(),
		Clock:  h.clock,
		Web:    web,
	}, log.WithName("api"))
	api.MarkReady()
	h.srv.Config.Handler = api.Handler()

	validator := openapitest.NewValidator(t)
	h.http = &http.Client{
		Transport:     validator.Transport(t, nil),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return h
}

func fakeClient(scheme *runtime.Scheme, opts []harnessOption) client.WithWatch {
	b := fake.NewClientBuilder().WithScheme(scheme).WithStatusSubresource(&v1alpha1.Account{}, &v1alpha1.WebhookEndpoint{}).
		WithIndex(&v1alpha1.WebhookEndpoint{}, endpoint.AccountField, endpoint.ByAccount)
	for _, opt := range opts {
		if funcs, ok := opt.(withInterceptor); ok {
			b = b.WithInterceptorFuncs(interceptor.Funcs(funcs))
		}
	}
	return b.Build()
}

// testAccount is an Account object, its password Secret and its directory entries.
type testAccount struct {
	name, email, password string
	uid                   types.UID
}

// addAccount creates an Account with a bcrypt password (cost bcrypt.MinCost unless given).
func (h *harness) addAccount(name string, cost ...int) testAccount {
	h.t.Helper()
	c := bcrypt.MinCost
	if len(cost) > 0 {
		c = cost[0]
	}
	a := testAccount{name: name, email: name + "@example.com", password: "pw-" + name + "-Secret1"}
	hash, err := bcrypt.GenerateFromPassword([]byte(a.password), c)
	if err != nil {
		h.t.Fatal(err)
	}
	ctx := context.Background()
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: testNamespace, Name: name + "-password"},
		Data:       map[string][]byte{"passwordHash": hash},
	}
	obj := &v1alpha1.Account{
		ObjectMeta: metav1.ObjectMeta{Namespace: testNamespace, Name: name, UID: types.UID("uid-" + name)},
		Spec: v1alpha1.AccountSpec{
			DisplayName:       strings.ToUpper(name[:1]) + name[1:],
			Email:             a.email,
			PasswordSecretRef: &v1alpha1.SecretKeyReference{Name: secret.Name, Key: "passwordHash"},
		},
	}
	if err := h.client.Create(ctx, secret); err != nil {
		h.t.Fatal(err)
	}
	if err := h.client.Create(ctx, obj); err != nil {
		h.t.Fatal(err)
	}
	a.uid = obj.UID
	h.accounts.Upsert(registry.Account{
		Name: name, DisplayName: obj.Spec.DisplayName, Email: a.email,
		PasswordSecret: &registry.SecretRef{Name: secret.Name, Key: "passwordHash"},
		CreatedAt:      h.clock.Now().Add(-time.Hour),
	})
	h.keys.SetAccount(name, false)
	return a
}

// request is one HTTP request of a test.
type request struct {
	method, path string
	body         string
	contentType  string
	cookie       string
	header       http.Header
}

func (h *harness) do(r request) (*http.Response, []byte) {
	h.t.Helper()
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	req, err := http.NewRequest(r.method, h.srv.URL+r.path, body)
	if err != nil {
		h.t.Fatal(err)
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.cookie != "" {
		req.Header.Set("Cookie", CookieName+"="+r.cookie)
	}
	resp, err := h.http.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		h.t.Fatal(err)
	}
	return resp, b
}

// signIn signs in with JSON and returns the session cookie's value.
func (h *harness) signIn(a testAccount) string {
	h.t.Helper()
	resp, body := h.do(jsonRequest(http.MethodPost, "/auth/sign-in", fmt.Sprintf(`{"email":%q,"password":%q}`, a.email, a.password), ""))
	if resp.StatusCode != http.StatusNoContent {
		h.t.Fatalf("sign-in of %s: %d %s", a.email, resp.StatusCode, body)
	}
	c := sessionCookie(h.t, resp)
	return c.Value
}

func sessionCookie(t *testing.T, resp *http.Response) *http.Cookie {
	t.Helper()
	for _, c := range resp.Cookies() {
		if c.Name == CookieName {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", CookieName, resp.Header.Values("Set-Cookie"))
	return nil
}

func jsonRequest(method, path, body, cookie string) request {
	return request{method: method, path: path, body: body, contentType: "application/json", cookie: cookie}
}

// created is the body of a 201 from POST /auth/api-key/create.
type created struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Environment   string  `json:"environment"`
	Key           string  `json:"key"`
	DisplayPrefix string  `json:"displayPrefix"`
	CreatedAt     string  `json:"createdAt"`
	ExpiresAt     *string `json:"expiresAt"`
}

func (h *harness) createKey(cookie, body string) created {
	h.t.Helper()
	resp, b := h.do(jsonRequest(http.MethodPost, "/auth/api-key/create", body, cookie))
	if resp.StatusCode != http.StatusCreated {
		h.t.Fatalf("create: %d %s", resp.StatusCode, b)
	}
	var c created
	if err := json.Unmarshal(b, &c); err != nil {
		h.t.Fatal(err)
	}
	return c
}

// useSession lists the account's keys with the session cookie and returns the cookie to use
// next (the refreshed one when the answer set it) and the status.
func (h *harness) useSession(cookie string) (string, int) {
	h.t.Helper()
	resp, _ := h.do(request{method: http.MethodGet, path: "/auth/api-keys", cookie: cookie})
	for _, c := range resp.Cookies() {
		if c.Name == CookieName {
			cookie = c.Value
		}
	}
	return cookie, resp.StatusCode
}

// v2Status calls GET /v2/tokens with the key and returns the status.
func (h *harness) v2Status(key string) int {
	h.t.Helper()
	resp, _ := h.do(request{method: http.MethodGet, path: "/v2/tokens", header: http.Header{"Api-Key": {key}}})
	return resp.StatusCode
}

// assertProblem checks a problem response field by field (the validator has checked its shape).
func assertProblem(t *testing.T, resp *http.Response, body []byte, want problem.Type) problem.Body {
	t.Helper()
	var p problem.Body
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("not a problem (%d): %s", resp.StatusCode, body)
	}
	if resp.StatusCode != want.Status || p.Type != testProblemURL+"/"+want.Slug || p.Status != want.Status {
		t.Fatalf("got %d %s, want %d %s: %s", resp.StatusCode, p.Type, want.Status, want.Slug, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != problem.ContentType {
		t.Fatalf("Content-Type %q", ct)
	}
	if p.CorrelationID == "" || p.CorrelationID != resp.Header.Get(apiserver.CorrelationHeader) {
		t.Fatalf("correlationId %q vs header %q", p.CorrelationID, resp.Header.Get(apiserver.CorrelationHeader))
	}
	return p
}

// drainEvents returns the events recorded so far.
func (h *harness) drainEvents() []string {
	var out []string
	for {
		select {
		case e := <-h.events.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}
