package apiserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// BenchmarkTokensHandler measures the server-side cost of GET /v2/tokens through the whole
// handler chain, next to a handler that only writes the same bytes (the baseline), without the
// network, so the difference is the stack's own work per request.
func BenchmarkTokensHandler(b *testing.B) {
	h := newBenchHarness(b)
	req := httptest.NewRequest(http.MethodGet, "/v2/tokens", nil)
	req.Header.Set(APIKeyHeader, testKeyA)
	body := h.srv.tokens.list("").whole
	bare := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	benchBareAndFull(b, bare, h.srv.Handler(), func() *http.Request { return req })
}

// benchBareAndFull runs the baseline handler and the full one on the requests newReq makes, in
// parallel, reporting allocations: the two sub-benchmarks of a handler's cost.
func benchBareAndFull(b *testing.B, bare, full http.Handler, newReq func() *http.Request) {
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{{"bare", bare}, {"full", full}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					w := &discardWriter{header: http.Header{}}
					bc.h.ServeHTTP(w, newReq())
					if w.status != 0 && w.status != http.StatusOK {
						b.Fatalf("status %d", w.status)
					}
				}
			})
		})
	}
}

func newBenchHarness(b *testing.B) *harness {
	t := &testing.T{}
	h := newHarness(t)
	b.Cleanup(h.http.Close)
	h.keys.keys[hashOf(testKeyA)] = registryKeyAlias{ID: "key-a", Account: "alice", Environment: "test", RateLimitPerMinute: 1 << 30}
	h.srv.log = zap.New(zap.WriteTo(io.Discard))
	return h
}

type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(code int)        { w.status = code }

// BenchmarkSimulateHandler measures the server-side cost of POST /v2/transfers/simulate (a USDC
// transfer on a chain without a node, the static answer) through the whole handler chain, next to
// a handler that reads the body and writes the same answer's bytes (the baseline).
func BenchmarkSimulateHandler(b *testing.B) {
	h := newTransferHarness(b)
	h.keys.keys[hashOf(testKeyA)] = registryKeyAlias{ID: "key-a", Account: "alice", Environment: "test", RateLimitPerMinute: 1 << 30}
	h.srv.log = zap.New(zap.WriteTo(io.Discard))
	body := usdcTransfer().String()
	newReq := func() *http.Request {
		req := httptest.NewRequest(http.MethodPost, "/v2/transfers/simulate", strings.NewReader(body))
		req.Header.Set(APIKeyHeader, testKeyA)
		req.Header.Set("Content-Type", "application/json")
		return req
	}
	probe := httptest.NewRecorder()
	h.srv.Handler().ServeHTTP(probe, newReq())
	if probe.Code != http.StatusOK {
		b.Fatalf("simulate: %d %s", probe.Code, probe.Body)
	}
	answer := probe.Body.Bytes()
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
	benchBareAndFull(b, bare, h.srv.Handler(), newReq)
}
