package ratelimit

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/onsi/gomega"
	clocktesting "k8s.io/utils/clock/testing"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func TestSlidingWindowIsExact(t *testing.T) {
	l := NewSlidingWindow()
	// 50 requests spread over the first 49 seconds: all admitted.
	for i := range 50 {
		d := l.Allow(bg, "k", 50, t0.Add(time.Duration(i)*time.Second))
		if !d.Allowed {
			t.Fatalf("request %d refused", i+1)
		}
		if want := 50 - (i + 1); d.Remaining != want {
			t.Fatalf("request %d: remaining %d, want %d", i+1, d.Remaining, want)
		}
	}
	// The 51st inside the window is refused until the oldest (t0) leaves at t0+60s.
	d := l.Allow(bg, "k", 50, t0.Add(59*time.Second+999*time.Millisecond))
	if d.Allowed {
		t.Fatal("51st request inside the window was admitted")
	}
	if d.RetryAfter != time.Millisecond || Seconds(d.RetryAfter) != 1 {
		t.Fatalf("RetryAfter = %v (%ds), want 1ms (1s)", d.RetryAfter, Seconds(d.RetryAfter))
	}
	// At exactly t0+60s the first request is out of the window: one slot, and only one.
	if d := l.Allow(bg, "k", 50, t0.Add(60*time.Second)); !d.Allowed {
		t.Fatal("first request after the oldest left the window was refused")
	}
	if d := l.Allow(bg, "k", 50, t0.Add(60*time.Second)); d.Allowed {
		t.Fatal("second request at t0+60s was admitted; only one slot had freed")
	}
	// The next slot frees when the request of t0+1s leaves.
	d = l.Allow(bg, "k", 50, t0.Add(60*time.Second+500*time.Millisecond))
	if d.Allowed || d.RetryAfter != 500*time.Millisecond {
		t.Fatalf("got %+v, want refused with RetryAfter 500ms", d)
	}
}

func TestSlidingWindowNoBoundaryBurst(t *testing.T) {
	// A fixed-window counter would admit 50 at 0:59 and 50 more at 1:00; the sliding window does not.
	l := NewSlidingWindow()
	admitted := 0
	for i := range 100 {
		at := t0.Add(59 * time.Second)
		if i >= 50 {
			at = t0.Add(61 * time.Second)
		}
		if l.Allow(bg, "k", 50, at).Allowed {
			admitted++
		}
	}
	if admitted != 50 {
		t.Fatalf("admitted %d across the minute boundary, want 50", admitted)
	}
}

func TestSlidingWindowKeysAreIndependentAndLimitsPerKey(t *testing.T) {
	l := NewSlidingWindow()
	for range 3 {
		l.Allow(bg, "a", 3, t0)
	}
	if l.Allow(bg, "a", 3, t0).Allowed {
		t.Fatal("key a: 4th request admitted with limit 3")
	}
	if !l.Allow(bg, "b", 3, t0).Allowed {
		t.Fatal("key b refused because of key a")
	}
	// Raising a key's limit takes effect at once.
	if !l.Allow(bg, "a", 5, t0).Allowed {
		t.Fatal("key a refused after its limit was raised to 5")
	}
}

func TestSlidingWindowConcurrentExactlyLimit(t *testing.T) {
	l := NewSlidingWindow()
	var admitted, refused atomic.Int32
	var wg sync.WaitGroup
	for i := range 120 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := l.Allow(bg, "k", 50, t0.Add(time.Duration(i)*time.Millisecond))
			if d.Allowed {
				admitted.Add(1)
			} else {
				refused.Add(1)
				if Seconds(d.RetryAfter) < 1 || Seconds(d.RetryAfter) > 60 {
					t.Errorf("Retry-After %v out of range", d.RetryAfter)
				}
			}
		}()
	}
	wg.Wait()
	if admitted.Load() != 50 || refused.Load() != 70 {
		t.Fatalf("admitted %d refused %d, want 50 and 70", admitted.Load(), refused.Load())
	}
}

func TestSlidingWindowMemoryIsBounded(t *testing.T) {
	l := NewSlidingWindow()
	// A million requests within one second on a key with a huge limit: at most 1000 buckets (1 per ms).
	for i := range 1_000_000 {
		l.Allow(bg, "hot", 1<<30, t0.Add(time.Duration(i)*time.Microsecond))
	}
	w := l.window("hot")
	if len(w.buckets) > 1024 || w.total != 1_000_000 {
		t.Fatalf("buckets %d total %d; want <= 1024 buckets holding 1e6 requests", len(w.buckets), w.total)
	}
}

func TestEvictIdle(t *testing.T) {
	l := NewSlidingWindow()
	l.Allow(bg, "old", 50, t0)
	l.Allow(bg, "new", 50, t0.Add(30*time.Second))
	if n := l.EvictIdle(t0.Add(60 * time.Second)); n != 1 || l.Len() != 1 {
		t.Fatalf("evicted %d, left %d; want 1 and 1", n, l.Len())
	}
	if n := l.EvictIdle(t0.Add(90 * time.Second)); n != 1 || l.Len() != 0 {
		t.Fatalf("evicted %d, left %d; want 1 and 0", n, l.Len())
	}
}

// A window of another length (sign-in counts failures over 15 minutes) is as exact.
func TestSlidingWindowOfAnotherLength(t *testing.T) {
	l := NewSlidingWindowOf(15 * time.Minute)
	for i := range 3 {
		if d := l.Allow(bg, "k", 3, t0.Add(time.Duration(i)*time.Minute)); !d.Allowed {
			t.Fatalf("attempt %d refused", i+1)
		}
	}
	if d := l.Allow(bg, "k", 3, t0.Add(3*time.Minute)); d.Allowed || d.RetryAfter != 12*time.Minute {
		t.Fatalf("got %+v, want refused for 12m (until the first leaves the window)", d)
	}
	if l.Allow(bg, "k", 3, t0.Add(15*time.Minute-time.Millisecond)).Allowed {
		t.Fatal("admitted before a slot freed")
	}
	if !l.Allow(bg, "k", 3, t0.Add(15*time.Minute)).Allowed {
		t.Fatal("refused at the moment the first left the window")
	}
	if n := l.EvictIdle(t0.Add(17 * time.Minute)); n != 0 {
		t.Fatalf("evicted %d keys still in the window", n)
	}
	if n := l.EvictIdle(t0.Add(30 * time.Minute)); n != 1 {
		t.Fatalf("evicted %d, want the idle key", n)
	}
}

// Give takes back exactly the request Take counted, also one that a clock stepping back counted
// into a later bucket; Clear forgets the key.
func TestSlidingWindowTakeGiveClear(t *testing.T) {
	l := NewSlidingWindow()
	_, first := l.Take("k", 3, t0)
	_, second := l.Take("k", 3, t0.Add(time.Second))
	_, stepped := l.Take("k", 3, t0.Add(time.Second-5*time.Millisecond)) // counted with the second
	if !first.Equal(t0) || !stepped.Equal(second) {
		t.Fatalf("counted at %s, %s, %s", first, second, stepped)
	}
	if d, at := l.Take("k", 3, t0.Add(2*time.Second)); d.Allowed || !at.IsZero() {
		t.Fatalf("4th request: %+v at %s, want refused and not counted", d, at)
	}
	l.Give("k", stepped)
	if d, _ := l.Take("k", 3, t0.Add(2*time.Second)); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("after a give: %+v, want admitted with none left", d)
	}
	// The first request given back: the wait is measured from the next one, at t0+1s.
	l.Give("k", first)
	l.Give("k", first) // given back already: nothing more to give
	if d, _ := l.Take("k", 3, t0.Add(3*time.Second)); !d.Allowed {
		t.Fatal("refused after the first was given back")
	}
	if d, _ := l.Take("k", 3, t0.Add(3*time.Second)); d.Allowed || d.RetryAfter != 58*time.Second {
		t.Fatalf("got %+v, want refused for 58s", d)
	}
	// A request that left the window is not given back in place of a newer one.
	l.Give("k", t0.Add(-time.Minute))
	if d, _ := l.Take("k", 3, t0.Add(3*time.Second)); d.Allowed {
		t.Fatal("a give of a request never counted freed a slot")
	}
	l.Clear("k")
	l.Give("k", second)
	if d, _ := l.Take("k", 3, t0.Add(3*time.Second)); !d.Allowed || d.Remaining != 2 || l.Len() != 1 {
		t.Fatalf("after a clear: %+v with %d keys, want a fresh window", d, l.Len())
	}
}

func TestSeconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want int
	}{{0, 0}, {time.Nanosecond, 1}, {time.Second, 1}, {time.Second + 1, 2}, {59500 * time.Millisecond, 60}} {
		if got := Seconds(tc.d); got != tc.want {
			t.Errorf("Seconds(%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

func BenchmarkAllowParallel(b *testing.B) {
	l := NewSlidingWindow()
	keys := make([]string, 64)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%d", i)
	}
	var n atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		i := int(n.Add(1))
		for pb.Next() {
			l.Allow(bg, keys[i%len(keys)], 1<<30, time.Now())
			i++
		}
	})
}

// An Allow racing an eviction must count into the live window, not the evicted one.
func TestAllowAfterEvictionCountsIntoTheNewWindow(t *testing.T) {
	l := NewSlidingWindow()
	l.Allow(bg, "k", 2, t0)
	now := t0.Add(2 * Window)
	// The race: an Allow has looked the idle window up, and before it locks it the janitor evicts
	// it. The hook runs EvictIdle at exactly that moment, once.
	evictions := 0
	l.beforeLock = func() {
		if evictions == 0 {
			evictions = l.EvictIdle(now)
		}
	}
	if !l.Allow(bg, "k", 2, now).Allowed {
		t.Fatal("first request after the eviction refused")
	}
	l.beforeLock = nil
	if evictions != 1 {
		t.Fatalf("the hook evicted %d windows, want 1: the race was not recreated", evictions)
	}
	if !l.Allow(bg, "k", 2, now).Allowed {
		t.Fatal("second request refused with limit 2")
	}
	if l.Allow(bg, "k", 2, now).Allowed {
		t.Fatal("third request admitted with limit 2: the racing request was counted into the evicted window")
	}
}

func TestJanitorEvicts(t *testing.T) {
	l := NewSlidingWindow()
	l.Allow(bg, "k", 1, t0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		done <- (&Janitor{Limiter: l, Interval: time.Millisecond, Clock: clocktesting.NewFakePassiveClock(t0.Add(Window))}).Start(ctx)
	}()
	gomega.NewWithT(t).Eventually(l.Len).WithTimeout(5*time.Second).WithPolling(time.Millisecond).
		Should(gomega.BeZero(), "the janitor evicts the idle key")
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("janitor: %v", err)
	}
}

// bg is the context of the tests' calls: the in-process window never waits.
var bg = context.Background()
