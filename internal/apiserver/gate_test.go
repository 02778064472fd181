package apiserver

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/problem"
)

func TestAuthGate(t *testing.T) {
	h := newHarness(t)
	expired := testKey("test", "E")
	disabled := testKey("test", "D")
	h.keys.keys[hashOf(expired)] = mustKey("key-e", h.clock.Now().Add(-time.Second), false)
	h.keys.keys[hashOf(disabled)] = mustKey("key-d", time.Time{}, true)

	cases := []struct {
		name   string
		header http.Header
		want   problem.Type
	}{
		{"no header", nil, problem.MissingAPIKey},
		{"empty header", withKey(""), problem.MissingAPIKey},
		{"session cookie does not replace the header", http.Header{"Cookie": {"tis_session=abc"}}, problem.MissingAPIKey},
		{"key in Authorization is not read", http.Header{"Authorization": {"Bearer " + testKeyA}}, problem.MissingAPIKey},
		{"unknown well-formed key", withKey(testKey("test", "Z")), problem.InvalidAPIKey},
		{"malformed: wrong prefix", withKey("pk_test_" + strings.Repeat("A", 64)), problem.InvalidAPIKey},
		{"malformed: short", withKey("sk_test_abc"), problem.InvalidAPIKey},
		{"malformed: bad character", withKey("sk_test_" + strings.Repeat("A", 63) + "!"), problem.InvalidAPIKey},
		{"expired key", withKey(expired), problem.InvalidAPIKey},
		{"disabled key", withKey(disabled), problem.InvalidAPIKey},
		{"repeated api-key header", http.Header{"Api-Key": {testKeyA, testKeyA}}, problem.InvalidAPIKey},
	}
	var invalidBodies []string
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := h.do(t, http.MethodGet, "/v2/tokens", tc.header, "")
			p := assertProblem(t, resp, body, tc.want, "/v2/tokens")
			if tc.want == problem.MissingAPIKey && resp.Header.Get("WWW-Authenticate") == "" {
				t.Fatal("401 without WWW-Authenticate")
			}
			if tc.want == problem.InvalidAPIKey {
				invalidBodies = append(invalidBodies, p.Detail)
			}
		})
	}
	for _, d := range invalidBodies {
		if d != invalidBodies[0] {
			t.Fatalf("invalid-api-key details differ (%q vs %q): they must not hint at the reason", d, invalidBodies[0])
		}
	}
}

func mustKey(id string, expires time.Time, disabled bool) registryKeyAlias {
	return registryKeyAlias{ID: id, Account: "alice", Environment: "test", ExpiresAt: expires, Disabled: disabled, RateLimitPerMinute: 50}
}

func TestAuthGateRunsBeforeRouting(t *testing.T) {
	h := newHarness(t)
	resp, body := h.do(t, http.MethodGet, "/v2/no-such-thing?x=1", nil, "")
	assertProblem(t, resp, body, problem.MissingAPIKey, "/v2/no-such-thing?x=1")
	resp, body = h.do(t, http.MethodGet, "/v2/no-such-thing?x=1", withKey(testKeyA), "")
	assertProblem(t, resp, body, problem.NotFound, "/v2/no-such-thing?x=1")
	resp, body = h.do(t, http.MethodDelete, "/v2/tokens", nil, "")
	assertProblem(t, resp, body, problem.MissingAPIKey, "/v2/tokens")
	resp, body = h.do(t, http.MethodDelete, "/v2/tokens", withKey(testKeyA), "")
	assertProblem(t, resp, body, problem.MethodNotAllowed, "/v2/tokens")
	if allow := resp.Header.Get("Allow"); !strings.Contains(allow, "GET") {
		t.Fatalf("405 Allow = %q, want GET listed", allow)
	}
}

func TestNotFoundOutsideV2IsAProblem(t *testing.T) {
	h := newHarness(t)
	resp, body := h.do(t, http.MethodGet, "/nope", nil, "")
	assertProblem(t, resp, body, problem.NotFound, "/nope")
	resp, body = h.do(t, http.MethodPost, "/health", nil, "")
	assertProblem(t, resp, body, problem.MethodNotAllowed, "/health")
}

func TestUnavailableUntilReady(t *testing.T) {
	h := newHarness(t)
	h.srv.ready.Store(false)
	resp, body := h.do(t, http.MethodGet, "/v2/tokens", withKey(testKeyA), "")
	assertProblem(t, resp, body, problem.ServiceUnavailable, "/v2/tokens")
	resp, body = h.do(t, http.MethodGet, "/health", nil, "")
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), `"cache":"not synced"`) {
		t.Fatalf("health while starting: %d %s", resp.StatusCode, body)
	}
	h.srv.MarkReady()
	resp, body = h.do(t, http.MethodGet, "/health", nil, "")
	if resp.StatusCode != http.StatusOK || string(body) != `{"status":"ok","checks":{"cache":"ok"}}` {
		t.Fatalf("health when ready: %d %s", resp.StatusCode, body)
	}
}

func TestPanicBecomesProblem(t *testing.T) {
	h := newHarness(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/boom", func(http.ResponseWriter, *http.Request) { panic("boom") })
	h.http.Config.Handler = h.srv.observe(mux)
	resp, body := h.do(t, http.MethodGet, "/boom", nil, "")
	p := assertProblem(t, resp, body, problem.InternalError, "/boom")
	if strings.Contains(string(body), "goroutine") || strings.Contains(p.Detail, "boom") {
		t.Fatalf("500 body leaks internals: %s", body)
	}
}

func TestRateLimit120ConcurrentRequests(t *testing.T) {
	h := newHarness(t)
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for range 120 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, body := h.do(t, http.MethodGet, "/v2/tokens", withKey(testKeyA), "")
			mu.Lock()
			codes[resp.StatusCode]++
			mu.Unlock()
			if resp.Header.Get("RateLimit-Policy") != `"per-key";q=50;w=60` || resp.Header.Get("RateLimit") == "" {
				t.Errorf("rate-limit headers missing: %v", resp.Header)
			}
			if resp.StatusCode == http.StatusTooManyRequests {
				assertProblem(t, resp, body, problem.RateLimited, "/v2/tokens")
				if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
					t.Errorf("Retry-After %q is not whole seconds in 1..60", resp.Header.Get("Retry-After"))
				}
			}
		}()
	}
	wg.Wait()
	if codes[http.StatusOK] != 50 || codes[http.StatusTooManyRequests] != 70 {
		t.Fatalf("status counts %v, want 50 x 200 and 70 x 429", codes)
	}
	// Another key is unaffected.
	if resp, _ := h.do(t, http.MethodGet, "/v2/tokens", withKey(testKeyB), ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("other key got %d", resp.StatusCode)
	}
	// After Retry-After seconds the key works again.
	resp, _ := h.do(t, http.MethodGet, "/v2/tokens", withKey(testKeyA), "")
	wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	h.clock.Step(time.Duration(wait) * time.Second)
	if resp, body := h.do(t, http.MethodGet, "/v2/tokens", withKey(testKeyA), ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("after waiting Retry-After=%ds: %d %s", wait, resp.StatusCode, body)
	}
}

func TestRateLimitPerKeyOverride(t *testing.T) {
	h := newHarness(t)
	k := testKey("test", "R")
	h.keys.keys[hashOf(k)] = registryKeyAlias{ID: "key-r", Account: "alice", Environment: "test", RateLimitPerMinute: 3}
	for i := range 3 {
		if resp, _ := h.do(t, http.MethodGet, "/v2/tokens", withKey(k), ""); resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d: %d", i+1, resp.StatusCode)
		}
	}
	resp, body := h.do(t, http.MethodGet, "/v2/tokens", withKey(k), "")
	assertProblem(t, resp, body, problem.RateLimited, "/v2/tokens")
	if resp.Header.Get("RateLimit-Policy") != `"per-key";q=3;w=60` {
		t.Fatalf("policy %q", resp.Header.Get("RateLimit-Policy"))
	}
}

// A client inventing methods must not grow the metrics: every non-standard method is one series.
func TestCustomMethodsShareOneSeries(t *testing.T) {
	h := newHarness(t)
	for i := range 50 {
		req, _ := http.NewRequest("M"+strings.Repeat("X", i+1), h.http.URL+"/v2/tokens", nil)
		resp, err := h.http.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	entries := 0
	h.srv.metrics.series.Range(func(k, _ any) bool {
		if k.(seriesKey).method != "GET" {
			entries++
			if m := k.(seriesKey).method; m != "OTHER" {
				t.Errorf("series cached under method %q", m)
			}
		}
		return true
	})
	if entries != 1 {
		t.Fatalf("%d cached series for invented methods, want 1", entries)
	}
}
