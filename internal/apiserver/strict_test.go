package apiserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// One strict parser for every input: what a loose one would guess at is refused with a 400 (or
// 405/415) that names the culprit.
func TestStrictInputs(t *testing.T) {
	h := newTransferHarness(t)
	key := http.Header{APIKeyHeader: {testKeyA}}
	jsonKey := http.Header{APIKeyHeader: {testKeyA}, "Content-Type": {"application/json"}}
	body := usdcTransfer().String()
	duplicate := strings.Replace(body, `{`, `{"amount":"1",`, 1) // amount twice: which one counts?
	for _, tc := range []struct {
		name, method, path string
		header             http.Header
		body               string
		status             int
		detail             string
	}{
		{"duplicate member", http.MethodPost, "/v2/transfers/simulate", jsonKey, duplicate, 400, "duplicate"},
		{"duplicate nested member", http.MethodPost, "/v2/transfers/simulate", jsonKey,
			`{"from":"a","to":"b","asset":{"in":"x","in":"y","out":"z"},"amount":"1"}`, 400, "duplicate"},
		{"two Content-Types", http.MethodPost, "/v2/transfers/simulate",
			http.Header{APIKeyHeader: {testKeyA}, "Content-Type": {"application/json", "text/plain"}}, body, 415, ""},
		{"semicolon in the query", http.MethodGet, "/v2/transfers?type=swap;x=1", key, "", 400, "query"},
		{"bad escape in the query", http.MethodGet, "/v2/transfers?type=swap%ZZ", key, "", 400, "query"},
		{"limit with a trailing semicolon", http.MethodGet, "/v2/transfers?limit=2;", key, "", 400, "query"},
		{"unknown query parameter", http.MethodGet, "/v2/transfers?colour=red", key, "", 400, "colour"},
		{"unknown query parameter on tokens", http.MethodGet, "/v2/tokens?chain=eip155:1", key, "", 400, "chain"},
		{"chain id spelt with a leading zero", http.MethodGet, "/v2/tokens?chain-id=eip155:01", key, "", 400, "chain-id"},
		{"GET on simulate", http.MethodGet, "/v2/transfers/simulate", key, "", 405, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, raw := h.do(t, tc.method, tc.path, tc.header, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, raw)
			}
			if ct := resp.Header.Get("Content-Type"); ct != problem.ContentType {
				t.Errorf("Content-Type %q, want a problem", ct)
			}
			if !strings.Contains(strings.ToLower(string(raw)), tc.detail) {
				t.Errorf("the problem does not name %q: %s", tc.detail, raw)
			}
			if tc.status == http.StatusMethodNotAllowed && resp.Header.Get("Allow") == "" {
				t.Error("405 without Allow")
			}
		})
	}
}

// A request refused by the rate limit (or the key check) is counted under the operation it was
// meant for, not as unmatched.
func TestRefusalsAreCountedUnderTheirRoute(t *testing.T) {
	reg := prometheus.NewRegistry()
	keys := &fakeKeys{keys: map[string]registry.Key{
		hashOf(testKeyA): {ID: "key-a", Account: "alice", Environment: registry.EnvironmentTest, RateLimitPerMinute: 1},
	}}
	opts := DefaultOptions()
	opts.BaseURL, opts.ProblemBaseURL = testBaseURL, testProblemURL
	s := New(opts, Deps{Keys: keys, Tokens: &fakeTokens{tokens: sampleTokens()}, Metrics: NewMetrics(reg),
		Clock: clocktesting.NewFakeClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))}, logr.Discard())
	s.MarkReady()
	for _, want := range []int{http.StatusOK, http.StatusTooManyRequests} {
		req := httptest.NewRequest(http.MethodGet, "/v2/tokens", nil)
		req.Header.Set(APIKeyHeader, testKeyA)
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		if rec.Code != want {
			t.Fatalf("status %d, want %d", rec.Code, want)
		}
	}
	if n := testutil.ToFloat64(s.deps.Metrics.requests.WithLabelValues("GET /v2/tokens", "GET", "429")); n != 1 {
		t.Errorf("429s counted under GET /v2/tokens: %v, want 1", n)
	}
}

// A problem quotes a short excerpt of the input, never all of it: a 60 KB amount used to come
// back twice in a 120 KB answer.
func TestProblemsQuoteOnlyAnExcerpt(t *testing.T) {
	h := newTransferHarness(t, func(c *transferConfig) {
		c.opts = func(o *Options) { o.MaxBodyBytes = 1 << 20 }
	})
	body := usdcTransfer().with("amount", strings.Repeat("9", 60_000)+"x").String()
	resp, raw := h.post(t, "/v2/transfers/simulate", testKeyA, body)
	if resp.StatusCode/100 != 4 {
		t.Fatalf("status %d: %.200s", resp.StatusCode, raw)
	}
	if len(raw) > 2048 {
		t.Fatalf("a %d-byte problem for a 60 KB amount: %.300s…", len(raw), raw)
	}
}

// A Kubernetes API that stalls costs a create its write timeout and a 503 with Retry-After, never
// a hang or a 500; once it answers again, the retry with the same Idempotency-Key stores exactly
// one intent.
func TestStalledAPIServerAnswers503WithinTheDeadline(t *testing.T) {
	var stalled atomic.Bool
	stalled.Store(true)
	h := newTransferHarness(t, func(c *transferConfig) {
		c.store = func(o *intentstore.Options) { o.WriteTimeout = 300 * time.Millisecond }
		c.funcs = &interceptor.Funcs{Create: func(ctx context.Context, kube client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if stalled.Load() {
				<-ctx.Done() // a stalled API server: nothing comes back before the deadline
				return ctx.Err()
			}
			return kube.Create(ctx, obj, opts...)
		}}
	})
	for _, idem := range []string{"", "stall-1"} {
		start := time.Now()
		header := []string{}
		if idem != "" {
			header = []string{"Idempotency-Key", idem}
		}
		resp, raw := h.post(t, "/v2/transfers", testKeyA, usdcTransfer().String(), header...)
		took := time.Since(start)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("Idempotency-Key %q: %d (Retry-After %q) %s; want 503 with Retry-After", idem, resp.StatusCode, resp.Header.Get("Retry-After"), raw)
		}
		if took > 2*time.Second {
			t.Errorf("Idempotency-Key %q: the 503 took %s; the write timeout is 300ms", idem, took)
		}
	}
	stalled.Store(false)
	h.clock.Step(intentstore.DefaultClaimTimeout) // the stalled attempt's claim is abandoned
	for range 2 {
		resp, raw := h.post(t, "/v2/transfers", testKeyA, usdcTransfer().String(), "Idempotency-Key", "stall-1")
		if resp.StatusCode/100 != 2 {
			t.Fatalf("retry after recovery: %d %s", resp.StatusCode, raw)
		}
	}
	var list v1alpha1.TransferIntentList
	if err := h.kube.List(context.Background(), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 {
		t.Errorf("%d intents stored; want exactly one for the retried Idempotency-Key", len(list.Items))
	}
}

type fakeAPIHealth string

func (f fakeAPIHealth) State() string { return string(f) }

// /health says when the Kubernetes API server does not answer: degraded, still 200, since reads
// are served from the cache.
func TestHealthReportsTheAPIServer(t *testing.T) {
	for _, state := range []string{"ok", "unreachable"} {
		h := newTransferHarness(t)
		h.srv.deps.APIHealth = fakeAPIHealth(state)
		resp, raw := h.do(t, http.MethodGet, "/health", nil, "")
		body := decodeJSON[healthBody](t, raw)
		wantStatus := map[bool]string{true: "ok", false: "degraded"}[state == "ok"]
		if resp.StatusCode != http.StatusOK || body.Status != wantStatus || body.Checks["kubernetes-api"] != state {
			t.Errorf("API server %q: %d %s", state, resp.StatusCode, raw)
		}
	}
}

// /health names each dependency's state; one that does not answer makes the service degraded, still
// 200, since the replica serves without it.
func TestHealthReportsDependencies(t *testing.T) {
	for _, tc := range []struct {
		states map[string]string
		want   string
	}{
		{map[string]string{"redis": "ok", "chain eip155:1": "ok"}, "ok"},
		{map[string]string{"redis": "unreachable", "chain eip155:1": "ok"}, "degraded"},
		{map[string]string{"redis": "ok", "chain eip155:1": "unreachable"}, "degraded"},
	} {
		h := newTransferHarness(t)
		h.srv.deps.Dependencies = func(context.Context) map[string]string { return tc.states }
		resp, raw := h.do(t, http.MethodGet, "/health", nil, "")
		body := decodeJSON[healthBody](t, raw)
		if resp.StatusCode != http.StatusOK || body.Status != tc.want {
			t.Fatalf("states %v: %d %s, want 200 %s", tc.states, resp.StatusCode, raw, tc.want)
		}
		for name, state := range tc.states {
			if body.Checks[name] != state {
				t.Errorf("checks[%q] = %q, want %q", name, body.Checks[name], state)
			}
		}
	}
}
