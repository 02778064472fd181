package loadgen

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunCountsEveryResponse(t *testing.T) {
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1)%2 == 0 {
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	res := Run(context.Background(), Config{Concurrency: 4, Duration: 5 * time.Second, MaxRequests: 400},
		Request{Method: http.MethodGet, URL: srv.URL})
	if res.Requests != 400 || res.Statuses[200]+res.Statuses[429] != 400 || res.Errors != 0 {
		t.Fatalf("result %+v, want 400 requests counted", res)
	}
	if int(served.Load()) != res.Requests {
		t.Fatalf("server saw %d, client counted %d", served.Load(), res.Requests)
	}
	if res.P50 <= 0 || res.P50 > res.P99 || res.P99 > res.Max {
		t.Fatalf("percentiles out of order: %+v", res)
	}
}

func TestPercentile(t *testing.T) {
	lat := make([]time.Duration, 100)
	for i := range lat {
		lat[i] = time.Duration(i+1) * time.Millisecond
	}
	if percentile(lat, 50) != 50*time.Millisecond || percentile(lat, 99) != 99*time.Millisecond {
		t.Fatalf("p50 %v p99 %v", percentile(lat, 50), percentile(lat, 99))
	}
	if percentile(nil, 99) != 0 {
		t.Fatal("empty")
	}
}
