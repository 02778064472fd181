package ratelimit

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/transferintent/transfer-intent-service/internal/redistest"
)

// BenchmarkDecision measures one rate-limit decision with the in-process window (the baseline)
// and with the window shared in Redis on loopback, in the same run, and reports the p50 and p99
// of a decision next to ns/op. Run it with `make bench` (redis-server from hack/redis.sh).
func BenchmarkDecision(b *testing.B) {
	srv := redistest.Start(b)
	client := srv.Client()
	b.Cleanup(func() { _ = client.Close() })
	store, err := NewRedisStore(client, "bench:", StoreOptions{Log: logr.Discard()})
	if err != nil {
		b.Fatal(err)
	}
	shared := NewShared(store, NewSlidingWindow())
	for _, bc := range []struct {
		name    string
		limiter Limiter
	}{{"in-process", NewSlidingWindow()}, {"redis", shared}} {
		b.Run(bc.name, func(b *testing.B) {
			took := make([]time.Duration, 0, b.N)
			ctx := context.Background()
			i := 0
			for b.Loop() {
				start := time.Now()
				// 1000 keys of a limit no run reaches: every decision admits and counts.
				bc.limiter.Allow(ctx, fmt.Sprintf("key-%d", i%1000), 1<<30, start)
				took = append(took, time.Since(start))
				i++
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds()), "p99-ns")
		})
	}
}
