package apiserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
	"github.com/transferintent/transfer-intent-service/internal/redistest"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// BenchmarkTokensOverHTTPByLimiter serves GET /v2/tokens over real HTTP on loopback through the
// whole stack, once with the in-process rate limiter (the baseline) and once with the limiter
// shared in Redis on loopback, in the same run, and reports requests per second of each.
func BenchmarkTokensOverHTTPByLimiter(b *testing.B) {
	srv := redistest.Start(b)
	client := srv.Client()
	b.Cleanup(func() { _ = client.Close() })
	store, err := ratelimit.NewRedisStore(client, "bench:", ratelimit.StoreOptions{Log: logr.Discard()})
	if err != nil {
		b.Fatal(err)
	}
	shared := ratelimit.NewShared(store, ratelimit.NewSlidingWindow())
	for _, bc := range []struct {
		name    string
		limiter ratelimit.Limiter
	}{{"in-process", ratelimit.NewSlidingWindow()}, {"redis", shared}} {
		b.Run(bc.name, func(b *testing.B) {
			keys := &fakeKeys{keys: map[string]registry.Key{
				hashOf(testKeyA): {ID: "key-a", Account: "alice", Environment: registry.EnvironmentTest, RateLimitPerMinute: 1 << 30},
			}}
			opts := DefaultOptions()
			opts.BaseURL, opts.ProblemBaseURL = testBaseURL, testProblemURL
			s := New(opts, Deps{Keys: keys, Tokens: &fakeTokens{tokens: sampleTokens()}, Limiter: bc.limiter}, logr.Discard())
			s.MarkReady()
			ts := httptest.NewServer(s.Handler())
			defer ts.Close()
			transport := &http.Transport{MaxIdleConnsPerHost: 64}
			defer transport.CloseIdleConnections()
			c := &http.Client{Transport: transport}
			var failed atomic.Int32
			start := time.Now()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				req, _ := http.NewRequest(http.MethodGet, ts.URL+"/v2/tokens", nil)
				req.Header.Set(APIKeyHeader, testKeyA)
				for pb.Next() {
					resp, err := c.Do(req)
					if err != nil {
						failed.Add(1)
						continue
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						failed.Add(1)
					}
				}
			})
			if failed.Load() > 0 {
				b.Fatalf("%d requests failed", failed.Load())
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
		})
	}
}
