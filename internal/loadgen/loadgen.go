// Package loadgen sends a closed-loop HTTP load to a server on loopback and reports throughput
// and latency percentiles. It exists so that benchmarks compare two servers with the same client,
// connections and accounting in one run.
package loadgen

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Request describes the one request every worker repeats.
type Request struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte
}

// Config is the shape of a run.
type Config struct {
	// Concurrency is the number of workers, each with one request in flight on its own connection.
	Concurrency int
	// Duration is how long the measured part lasts; Warmup runs first and is not counted.
	Duration time.Duration
	Warmup   time.Duration
	// MaxRequests bounds the run by count too (0: no bound), so a run always stops by itself.
	MaxRequests int
}

// Result is what one run measured.
type Result struct {
	Requests int
	Elapsed  time.Duration
	// Statuses counts responses by HTTP status; Errors counts transport failures.
	Statuses map[int]int
	Errors   int
	P50, P90 time.Duration
	P99, Max time.Duration
}

// RPS is completed requests per second.
func (r Result) RPS() float64 { return float64(r.Requests) / r.Elapsed.Seconds() }

// String is one line for a table.
func (r Result) String() string {
	return fmt.Sprintf("%9.0f req/s  p50 %8s  p90 %8s  p99 %8s  max %8s  n=%d statuses=%v errors=%d",
		r.RPS(), r.P50, r.P90, r.P99, r.Max, r.Requests, r.Statuses, r.Errors)
}

// Run sends req from cfg.Concurrency workers until cfg.Duration has passed after the warmup.
func Run(ctx context.Context, cfg Config, req Request) Result {
	client := &http.Client{Transport: &http.Transport{
		MaxIdleConnsPerHost: cfg.Concurrency, MaxConnsPerHost: cfg.Concurrency, DisableCompression: true,
	}}
	defer client.CloseIdleConnections()
	if cfg.Warmup > 0 {
		drive(ctx, client, cfg.Concurrency, cfg.Warmup, 0, req)
	}
	start := time.Now()
	per := drive(ctx, client, cfg.Concurrency, cfg.Duration, cfg.MaxRequests, req)
	res := Result{Elapsed: time.Since(start), Statuses: map[int]int{}}
	var lat []time.Duration
	for _, w := range per {
		lat = append(lat, w.latencies...)
		res.Errors += w.errors
		for s, n := range w.statuses {
			res.Statuses[s] += n
		}
	}
	res.Requests = len(lat)
	slices.Sort(lat)
	res.P50, res.P90, res.P99 = percentile(lat, 50), percentile(lat, 90), percentile(lat, 99)
	if len(lat) > 0 {
		res.Max = lat[len(lat)-1]
	}
	return res
}

type workerResult struct {
	latencies []time.Duration
	statuses  map[int]int
	errors    int
}

func drive(ctx context.Context, client *http.Client, workers int, d time.Duration, maxRequests int, req Request) []workerResult {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	results := make([]workerResult, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = work(ctx, client, req, perWorker(maxRequests, workers))
		}()
	}
	wg.Wait()
	return results
}

func perWorker(maxRequests, workers int) int {
	if maxRequests <= 0 {
		return 0
	}
	return max(1, maxRequests/workers)
}

func work(ctx context.Context, client *http.Client, r Request, limit int) workerResult {
	res := workerResult{statuses: map[int]int{}}
	for limit == 0 || len(res.latencies) < limit {
		if ctx.Err() != nil {
			return res
		}
		req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, bytes.NewReader(r.Body))
		if err != nil {
			res.errors++
			return res
		}
		req.Header = r.Header
		t := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			if ctx.Err() == nil {
				res.errors++
			}
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		res.latencies = append(res.latencies, time.Since(t))
		res.statuses[resp.StatusCode]++
	}
	return res
}

// percentile is the nearest-rank percentile of sorted latencies.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100
	return sorted[max(rank, 1)-1]
}
