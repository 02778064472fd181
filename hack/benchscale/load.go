package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// loadResult is one closed-loop run: every worker repeats its call until the run's time is up.
type loadResult struct {
	n        int
	elapsed  time.Duration
	failures int
	firstErr error
	p50, p99 time.Duration
	lat      []time.Duration // sorted
}

// merge is two runs of the same load as one.
func merge(a, b loadResult) loadResult {
	if a.n == 0 && a.failures == 0 {
		return b
	}
	m := loadResult{n: a.n + b.n, elapsed: a.elapsed + b.elapsed, failures: a.failures + b.failures, firstErr: a.firstErr}
	if m.firstErr == nil {
		m.firstErr = b.firstErr
	}
	m.lat = append(slices.Clone(a.lat), b.lat...)
	slices.Sort(m.lat)
	m.p50, m.p99 = percentile(m.lat, 50), percentile(m.lat, 99)
	return m
}

func (r loadResult) rate() float64 { return float64(r.n) / r.elapsed.Seconds() }

func (r loadResult) String() string {
	s := fmt.Sprintf("%.0f/s, p50 %s, p99 %s (n=%d", r.rate(), round(r.p50), round(r.p99), r.n)
	if r.failures > 0 {
		s += fmt.Sprintf(", %d failed: %v", r.failures, r.firstErr)
	}
	return s + ")"
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	case d >= 10*time.Microsecond:
		return d.Round(time.Microsecond)
	default:
		return d
	}
}

// closedLoop runs call from workers goroutines for d, after a warmup that is not counted. call
// gets its worker and sequence number; a failed call counts as a failure, not in the latencies.
func closedLoop(ctx context.Context, workers int, warmup, d time.Duration, call func(ctx context.Context, worker, seq int) error) loadResult {
	if warmup > 0 {
		drive(ctx, workers, warmup, call)
	}
	return drive(ctx, workers, d, call)
}

func drive(ctx context.Context, workers int, d time.Duration, call func(ctx context.Context, worker, seq int) error) loadResult {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	type tally struct {
		lat      []time.Duration
		failures int
		err      error
	}
	tallies := make([]tally, workers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			t := &tallies[w]
			for seq := 0; ctx.Err() == nil; seq++ {
				t0 := time.Now()
				// The call runs to its end even when the run's time is up, so nothing is cut half-way.
				err := call(context.WithoutCancel(ctx), w, seq)
				if err != nil {
					t.failures++
					if t.err == nil {
						t.err = err
					}
					continue
				}
				t.lat = append(t.lat, time.Since(t0))
			}
		})
	}
	wg.Wait()
	res := loadResult{elapsed: time.Since(start)}
	var all []time.Duration
	for _, t := range tallies {
		all = append(all, t.lat...)
		res.failures += t.failures
		if res.firstErr == nil {
			res.firstErr = t.err
		}
	}
	slices.Sort(all)
	res.n, res.lat = len(all), all
	res.p50, res.p99 = percentile(all, 50), percentile(all, 99)
	return res
}

func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[min(max(i-1, 0), len(sorted)-1)]
}
