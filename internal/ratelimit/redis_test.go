package ratelimit

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/transferintent/transfer-intent-service/internal/redistest"
)

func newShared(t *testing.T, srv *redistest.Server, reg prometheus.Registerer) *Shared {
	t.Helper()
	return newSharedWithin(t, srv, reg, 100*time.Millisecond)
}

// newSharedWithin is newShared with another deadline per Redis call.
func newSharedWithin(t *testing.T, srv *redistest.Server, reg prometheus.Registerer, timeout time.Duration) *Shared {
	t.Helper()
	client := srv.Client()
	t.Cleanup(func() { _ = client.Close() })
	store, err := NewRedisStore(client, "test:", StoreOptions{Timeout: timeout, Cooldown: 200 * time.Millisecond,
		Metrics: reg, Log: logr.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	return NewShared(store, NewSlidingWindow())
}

// metric is the value of a gathered counter or gauge.
func metric(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name && len(f.GetMetric()) == 1 {
			m := f.GetMetric()[0]
			if m.GetCounter() != nil {
				return m.GetCounter().GetValue()
			}
			return m.GetGauge().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// Three replicas, one Redis: 120 concurrent requests on one key with a limit of 50 admit exactly
// 50, and every refusal says when to come back. Redis is healthy here, so each call gets a
// deadline no loaded machine reaches: with 100 ms, 120 calls at once on a busy CI machine timed
// out and the replicas rightly fell back to their own windows (make flake-hunt, admitted 120).
// What a slow Redis does is TestSharedFallsBackWithinTheDeadlineAndRecovers's subject.
func TestSharedLimitIsExactAcrossReplicas(t *testing.T) {
	srv := redistest.Start(t)
	replicas := make([]*Shared, 3)
	for i := range replicas {
		replicas[i] = newSharedWithin(t, srv, nil, 10*time.Second)
	}
	var admitted, refused atomic.Int32
	var wg sync.WaitGroup
	for i := range 120 {
		wg.Go(func() {
			d := replicas[i%3].Allow(context.Background(), "key", 50, time.Now())
			switch {
			case d.Allowed:
				admitted.Add(1)
			case d.RetryAfter > 0 && d.RetryAfter <= Window:
				refused.Add(1)
			default:
				t.Errorf("refused without a usable RetryAfter: %+v", d)
			}
		})
	}
	wg.Wait()
	if admitted.Load() != 50 || refused.Load() != 70 {
		t.Fatalf("admitted %d, refused %d; want 50 and 70", admitted.Load(), refused.Load())
	}
}

// The window slides on Redis's clock: a hit counts while it is younger than the window, and a
// hit given back frees its slot at once.
func TestRedisStoreWindowSlidesAndGivesBack(t *testing.T) {
	srv := redistest.Start(t)
	client := srv.Client()
	defer func() { _ = client.Close() }()
	store := &RedisStore{Client: client, Prefix: "test:"}
	ctx := context.Background()
	const window = 300 * time.Millisecond
	d, first, err := store.Take(ctx, "k", 2, window)
	if err != nil || !d.Allowed || d.Remaining != 1 {
		t.Fatalf("first take: %+v %v", d, err)
	}
	if d, _, err := store.Take(ctx, "k", 2, window); err != nil || !d.Allowed || d.Remaining != 0 {
		t.Fatalf("second take: %+v %v", d, err)
	}
	d, _, err = store.Take(ctx, "k", 2, window)
	if err != nil || d.Allowed || d.RetryAfter <= 0 || d.RetryAfter > window {
		t.Fatalf("third take: %+v %v; want refused with 0 < RetryAfter <= %s", d, err, window)
	}
	if err := store.Give(ctx, "k", first); err != nil {
		t.Fatal(err)
	}
	if d, _, err := store.Take(ctx, "k", 2, window); err != nil || !d.Allowed {
		t.Fatalf("after giving one back: %+v %v", d, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		d, _, err := store.Take(ctx, "k", 2, window)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the window never slid")
		}
		time.Sleep(d.RetryAfter)
	}
	if err := store.Clear(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if n := client.ZCard(ctx, "test:k").Val(); n != 0 {
		t.Errorf("%d hits after Clear", n)
	}
}

// Redis stalled or gone: every decision still comes within the deadline, from the replica's own
// window (the limit holds per replica); the errors are counted and the degraded gauge is set; once
// Redis is back the limiter counts there again by itself.
func TestSharedFallsBackWithinTheDeadlineAndRecovers(t *testing.T) {
	srv := redistest.Start(t)
	reg := prometheus.NewRegistry()
	s := newShared(t, srv, reg)
	fake := clocktesting.NewFakeClock(time.Now())
	decide := func(key string) (Decision, time.Duration) {
		start := time.Now()
		d := s.Allow(context.Background(), key, 3, fake.Now())
		return d, time.Since(start)
	}
	client := srv.Client()
	defer func() { _ = client.Close() }()

	for _, outage := range []struct {
		name       string
		begin, end func()
	}{
		{"paused (SIGSTOP): connections accepted, never answered", srv.Pause, srv.Resume},
		{"killed: connections refused", srv.Stop, srv.Restart},
	} {
		fake.Step(2 * Window) // the fallback's window starts empty
		errorsBefore := metric(t, reg, "tis_ratelimit_store_errors_total")
		outage.begin()
		admitted := 0
		for range 5 {
			d, took := decide("key")
			if took > 300*time.Millisecond {
				t.Fatalf("%s: a decision took %s; the deadline is 100ms", outage.name, took)
			}
			if d.Allowed {
				admitted++
			}
		}
		if admitted != 3 {
			t.Errorf("%s: the fallback admitted %d of 5; want the limit, 3", outage.name, admitted)
		}
		if metric(t, reg, "tis_ratelimit_store_errors_total") <= errorsBefore || metric(t, reg, "tis_ratelimit_degraded") != 1 {
			t.Errorf("%s: errors %v, degraded %v; want errors counted and degraded 1", outage.name,
				metric(t, reg, "tis_ratelimit_store_errors_total"), metric(t, reg, "tis_ratelimit_degraded"))
		}
		outage.end()
		// A key no call touched during the outage: only a decision made after it counts there.
		deadline := time.Now().Add(5 * time.Second)
		for client.ZCard(context.Background(), "test:after").Val() == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the limiter never counted in Redis again", outage.name)
			}
			decide("after")
			time.Sleep(50 * time.Millisecond)
		}
		if metric(t, reg, "tis_ratelimit_degraded") != 0 {
			t.Errorf("%s: still degraded after recovering", outage.name)
		}
		_ = client.FlushAll(context.Background()).Err()
	}
}

// After the limit is lowered below the hits counted, a refusal waits for the hit whose leaving
// brings the count under the new limit, not for the oldest.
func TestRetryAfterWhenTheLimitWasLowered(t *testing.T) {
	srv := redistest.Start(t)
	client := srv.Client()
	defer func() { _ = client.Close() }()
	store := &RedisStore{Client: client, Prefix: "test:"}
	ctx := context.Background()
	const window = 2 * time.Second
	for i := range 4 {
		if d, _, err := store.Take(ctx, "k", 10, window); err != nil || !d.Allowed {
			t.Fatalf("hit %d: %+v %v", i, d, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	d, _, err := store.Take(ctx, "k", 2, window)
	if err != nil || d.Allowed {
		t.Fatalf("with 4 hits and a limit of 2: %+v %v; want refused", d, err)
	}
	// The third hit (200 ms after the first) must leave: about window - 200 ms from the first's
	// age now (400 ms), i.e. about 1.8 s, not the 1.6 s the oldest would give.
	if d.RetryAfter < 1700*time.Millisecond || d.RetryAfter > window {
		t.Errorf("RetryAfter %s; want about 1.8s", d.RetryAfter)
	}
}
