package main

import (
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
)

// terminal is an output that takes time in proportion to what it is given, about 50 MB/s, with
// no CPU: 5 ms for a full 256 KiB buffer.
type terminal struct{}

func (terminal) Write(p []byte) (int, error) {
	time.Sleep(time.Duration(len(p)) * 20 * time.Nanosecond)
	return len(p), nil
}
func (terminal) Sync() error { return nil }

// BenchmarkLogOutput writes access-log-sized lines from parallel goroutines through the log's
// buffer, the one before (zap's BufferedWriteSyncer, which writes a full or due buffer on the
// writing goroutine, holding its lock) and now (asyncWriter), to an output that takes its time. It
// prints the p99 and the longest time one Write took: the wait a request meets when its access
// log line arrives during a flush. Each of 32 goroutines waits 1 ms (for its next request) between
// lines: about 30,000 lines, 8 MB, a second, a sixth of what the output takes.
func BenchmarkLogOutput(b *testing.B) {
	line := []byte(`{"level":"info","ts":"2026-11-25T01:52:46Z","logger":"api","msg":"request","http":{"method":"GET","route":"GET /v2/tokens","status":200,"duration":0.000101,"correlationId":"01M886H2KRHRKPT9YSW8GJP0ME","keyId":"demo-bench-1-1234abcd","account":"demo"}}` + "\n")
	for _, bc := range []struct {
		name string
		open func() (zapcore.WriteSyncer, func() error)
	}{
		{"before", func() (zapcore.WriteSyncer, func() error) {
			w := &zapcore.BufferedWriteSyncer{WS: zapcore.Lock(terminal{}), Size: logBufferBytes, FlushInterval: logFlushInterval}
			return w, w.Stop
		}},
		{"now", func() (zapcore.WriteSyncer, func() error) {
			w := newLogOutput(terminal{})
			return w, w.Stop
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w, stop := bc.open()
			b.SetParallelism(16) // 32 requests at a time on 2 cores, as under wrk -c32
			var mu sync.Mutex
			var waits []time.Duration
			b.RunParallel(func(pb *testing.PB) {
				var mine []time.Duration
				for pb.Next() {
					time.Sleep(time.Millisecond)
					start := time.Now()
					_, _ = w.Write(line)
					mine = append(mine, time.Since(start))
				}
				mu.Lock()
				waits = append(waits, mine...)
				mu.Unlock()
			})
			b.StopTimer()
			_ = stop()
			slices.Sort(waits)
			b.ReportMetric(float64(waits[len(waits)*99/100].Nanoseconds()), "p99-ns")
			b.ReportMetric(float64(waits[len(waits)-1].Nanoseconds()), "max-ns")
		})
	}
}
