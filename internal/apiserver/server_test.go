package apiserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

const (
	testBaseURL    = "https://api.example.test"
	testProblemURL = "https://problems.example.test"
)

var ulidPattern = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{26}$`)

// fakeKeys is a map of hash to key with the owner/disabled/expiry rules done by the test itself.
type fakeKeys struct {
	mu   sync.Mutex
	keys map[string]registry.Key
}

func (f *fakeKeys) Authenticate(hash string, now time.Time) (registry.Key, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	k, ok := f.keys[hash]
	if !ok || k.Disabled || (!k.ExpiresAt.IsZero() && !now.Before(k.ExpiresAt)) {
		return registry.Key{}, false
	}
	return k, true
}

// Recheck: the fake decides as Authenticate does, and names no finer reason than the key's own.
func (f *fakeKeys) Recheck(hash, keyID string, now time.Time) registry.Refusal {
	f.mu.Lock()
	defer f.mu.Unlock()
	k, ok := f.keys[hash]
	switch {
	case !ok || k.ID != keyID:
		return registry.RefusalKeyDeleted
	case k.Disabled:
		return registry.RefusalKeyDisabled
	case !k.ExpiresAt.IsZero() && !now.Before(k.ExpiresAt):
		return registry.RefusalKeyExpired
	}
	return ""
}

// Changed: the fake's keys change only under a test's hand, which the streams see on their timer.
func (f *fakeKeys) Changed() <-chan struct{} { return nil }

type fakeTokens struct {
	mu       sync.Mutex
	tokens   []registry.Token
	onChange []func()
}

func (f *fakeTokens) List() []registry.Token { f.mu.Lock(); defer f.mu.Unlock(); return f.tokens }
func (f *fakeTokens) OnChange(fn func())     { f.onChange = append(f.onChange, fn) }
func (f *fakeTokens) set(ts []registry.Token) {
	f.mu.Lock()
	f.tokens = ts
	f.mu.Unlock()
	for _, fn := range f.onChange {
		fn()
	}
}

func hashOf(key string) string {
	s := sha256.Sum256([]byte(key))
	return "sha256:" + hex.EncodeToString(s[:])
}

func testKey(env, fill string) string {
	prefix := "sk_test_"
	if env == "live" {
		prefix = "sk_live_"
	}
	return prefix + strings.Repeat(fill, 64/len(fill))
}

type harness struct {
	srv    *Server
	http   *httptest.Server
	clock  *clocktesting.FakeClock
	keys   *fakeKeys
	tokens *fakeTokens
}

var (
	testKeyA = testKey("test", "A")
	testKeyB = testKey("test", "B")
)

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{
		clock: clocktesting.NewFakeClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)),
		keys: &fakeKeys{keys: map[string]registry.Key{
			hashOf(testKeyA): {ID: "key-a", Account: "alice", Environment: registry.EnvironmentTest, RateLimitPerMinute: 50},
			hashOf(testKeyB): {ID: "key-b", Account: "bob", Environment: registry.EnvironmentTest, RateLimitPerMinute: 50},
		}},
		tokens: &fakeTokens{tokens: sampleTokens()},
	}
	full, v2 := testDocuments(t)
	opts := DefaultOptions()
	opts.BaseURL, opts.ProblemBaseURL = testBaseURL, testProblemURL
	h.srv = New(opts, Deps{
		Keys: h.keys, Tokens: h.tokens, Clock: h.clock,
		OpenAPI: full, OpenAPIV2: v2,
	}, logr.Discard())
	h.srv.MarkReady()
	h.http = httptest.NewServer(h.srv.Handler())
	t.Cleanup(h.http.Close)
	return h
}

func sampleTokens() []registry.Token {
	meta := "https://example.test/usdc.json"
	return []registry.Token{
		{Symbol: "USDC", ChainID: "eip155:1", Address: "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", Decimals: 6, Metadata: &meta},
		{Symbol: "WETH", ChainID: "eip155:1", Address: "eip155:1:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", Decimals: 18},
		{Symbol: "USDC", ChainID: "eip155:8453", Address: "eip155:8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", Decimals: 6},
	}
}

// do sends a request and returns the response with its body read.
func (h *harness) do(t *testing.T, method, path string, header http.Header, body string) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.http.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := h.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	validateAgainstOpenAPI(t, req, resp, b)
	return resp, b
}

func withKey(key string) http.Header { return http.Header{"Api-Key": {key}} }

// assertProblem checks every field of a problem response (type, title, status, detail, instance, correlationId).
func assertProblem(t *testing.T, resp *http.Response, body []byte, want problem.Type, path string) problem.Body {
	t.Helper()
	if resp.StatusCode != want.Status {
		t.Fatalf("status %d, want %d; body %s", resp.StatusCode, want.Status, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != problem.ContentType {
		t.Fatalf("Content-Type %q, want %q", ct, problem.ContentType)
	}
	var p problem.Body
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		t.Fatalf("problem body %s: %v", body, err)
	}
	if p.Type != testProblemURL+"/"+want.Slug || p.Title != want.Title || p.Status != want.Status {
		t.Fatalf("problem type/title/status = %q/%q/%d, want %q/%q/%d", p.Type, p.Title, p.Status,
			testProblemURL+"/"+want.Slug, want.Title, want.Status)
	}
	if p.Detail == "" {
		t.Fatal("problem detail is empty")
	}
	if p.Instance != testBaseURL+path {
		t.Fatalf("instance %q, want %q", p.Instance, testBaseURL+path)
	}
	if !ulidPattern.MatchString(p.CorrelationID) || resp.Header.Get(CorrelationHeader) != p.CorrelationID {
		t.Fatalf("correlationId %q (header %q) is not the same ULID", p.CorrelationID, resp.Header.Get(CorrelationHeader))
	}
	return p
}
