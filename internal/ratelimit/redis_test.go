package ratelimit

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/transferintent/transfer-intent-service/internal/redistest"
)

func newShared(t *testing.T, srv *redistest.Server, reg prometheus.Registerer) *Shared {
	t.Helper()
	client := srv.Client()
	t.Cleanup(func() { _ = client.Close() })
	s, err := NewShared(&RedisStore{Client: client, Prefix: "test:", Timeout: 100 * time.Millisecond},
		NewSlidingWindow(), SharedOptions{Cooldown: 200 * time.Millisecond, Metrics: reg, Log: logr.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Three replicas, one Redis: 120 concurrent requests on one key with a limit of 50 admit exactly
// 50, and every refusal says when to come back.
func TestSharedLimitIsExactAcrossReplicas(t *testing.T) {
	srv := redistest.Start(t)
	replicas := []*Shared{newShared(t, srv, nil), newShared(t, srv, nil), newShared(t, srv, nil)}
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

// Redis gone or stalled: every decision still comes within the deadline, from the replica's own
// window (the limit holds per replica); the errors are counted; once Redis is back the limiter
// counts there again by itself.
func TestSharedFallsBackWithinTheDeadlineAndRecovers(t *testing.T) {
	srv := redistest.Start(t)
	reg := prometheus.NewRegistry()
	s := newShared(t, srv, reg)
	fake := clocktesting.NewFakeClock(time.Now())
	decide := func() (Decision, time.Duration) {
		start := time.Now()
		d := s.Allow(context.Background(), "key", 3, fake.Now())
		return d, time.Since(start)
	}

	for name, outage := range map[string]struct{ begin, end func() }{
		"paused (SIGSTOP)": {srv.Pause, srv.Resume},
		"killed":           {srv.Stop, srv.Restart},
	} {
		fake.Step(2 * Window) // the fallback's window starts empty
		outage.begin()
		admitted := 0
		for range 5 {
			d, took := decide()
			if took > 500*time.Millisecond {
				t.Fatalf("%s: a decision took %s", name, took)
			}
			if d.Allowed {
				admitted++
			}
		}
		if admitted != 3 {
			t.Errorf("%s: the fallback admitted %d of 5; want the limit, 3", name, admitted)
		}
		if testutil.ToFloat64(s.errors) < 1 {
			t.Errorf("%s: no store error counted", name)
		}
		outage.end()
		client := srv.Client()
		deadline := time.Now().Add(5 * time.Second)
		for client.ZCard(context.Background(), "test:key").Val() == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the limiter never counted in Redis again", name)
			}
			decide()
			time.Sleep(50 * time.Millisecond)
		}
		_ = client.FlushAll(context.Background()).Err()
		_ = client.Close()
	}
}
