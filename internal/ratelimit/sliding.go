package ratelimit

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"
)

// SlidingWindow is an exact in-memory sliding-window limiter. It limits the API (a one-minute
// Window) and counts failed sign-ins (internal/webauth, over longer windows, giving back the
// attempts that succeed), as RedisStore does for every replica.
//
// Each key keeps the admitted requests of the last window as a ring of (millisecond, count)
// buckets, so memory per key is bounded by min(limit, milliseconds of the window) buckets however
// fast the key is used, and the window is exact to the millisecond. Keys idle for a whole window
// hold nothing worth keeping and are evicted by EvictIdle (run it with Janitor).
type SlidingWindow struct {
	windowMs int64
	mu       sync.RWMutex
	keys     map[string]*keyWindow
	// beforeLock, when set (tests only), runs between looking a window up and locking it: the
	// moment at which a concurrent EvictIdle can remove the window an Allow is about to count into.
	beforeLock func()
}

// NewSlidingWindow returns an empty limiter over the API's Window.
func NewSlidingWindow() *SlidingWindow { return NewSlidingWindowOf(Window) }

// NewSlidingWindowOf returns an empty limiter over a window of d (at least a millisecond).
func NewSlidingWindowOf(d time.Duration) *SlidingWindow {
	return &SlidingWindow{windowMs: max(d.Milliseconds(), 1), keys: make(map[string]*keyWindow)}
}

type bucket struct {
	ms    int64 // unix milliseconds of the requests in this bucket
	count int32
}

type keyWindow struct {
	mu      sync.Mutex
	buckets []bucket // ring buffer
	head    int      // index of the oldest bucket
	n       int      // buckets in use
	total   int      // requests counted in the window
	lastMs  int64    // newest request, for idle eviction
	evicted bool     // removed from the map: an Allow that still holds it must fetch a new one
}

// Allow implements Limiter; it never waits, so ctx is unused.
func (s *SlidingWindow) Allow(_ context.Context, key string, limit int, now time.Time) Decision {
	d, _ := s.Take(key, limit, now)
	return d
}

// Take is Allow that also returns the time the request was counted at (zero when refused), for
// Give: a sign-in attempt is counted before its outcome is known.
func (s *SlidingWindow) Take(key string, limit int, now time.Time) (Decision, time.Time) {
	if limit < 1 {
		limit = 1
	}
	nowMs := now.UnixMilli()
	w := s.lockedWindow(key)
	defer w.mu.Unlock()
	w.evict(nowMs, s.windowMs)
	d := Decision{Limit: limit}
	if w.total >= limit {
		d.RetryAfter = w.untilOldestLeaves(nowMs, s.windowMs)
		d.Reset = d.RetryAfter
		return d, time.Time{}
	}
	at := w.add(nowMs, limit, s.windowMs)
	d.Allowed = true
	d.Remaining = limit - w.total
	d.Reset = w.untilOldestLeaves(nowMs, s.windowMs)
	return d, time.UnixMilli(at)
}

// Give takes back a request that Take counted at `at` (a sign-in that did not fail after all);
// nothing when it has left the window.
func (s *SlidingWindow) Give(key string, at time.Time) {
	s.mu.RLock()
	w := s.keys[key]
	s.mu.RUnlock()
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	// An evicted or cleared window holds nothing to give back.
	if !w.evicted {
		w.remove(at.UnixMilli())
	}
}

// Clear forgets every request on key.
func (s *SlidingWindow) Clear(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.keys[key]; w != nil {
		w.mu.Lock()
		w.evicted = true
		w.mu.Unlock()
		delete(s.keys, key)
	}
}

// lockedWindow returns the key's window, locked. A window evicted between the map lookup and the
// lock is not counted into: its replacement is fetched instead, so no request is lost.
func (s *SlidingWindow) lockedWindow(key string) *keyWindow {
	for {
		w := s.window(key)
		if s.beforeLock != nil {
			s.beforeLock()
		}
		w.mu.Lock()
		if !w.evicted {
			return w
		}
		w.mu.Unlock()
	}
}

func (s *SlidingWindow) window(key string) *keyWindow {
	s.mu.RLock()
	w := s.keys[key]
	s.mu.RUnlock()
	if w != nil {
		return w
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if w = s.keys[key]; w == nil {
		w = &keyWindow{}
		s.keys[key] = w
	}
	return w
}

// evict drops the buckets that have left the window: a request at t counts while t > now - window.
func (w *keyWindow) evict(nowMs, window int64) {
	cutoff := nowMs - window
	for w.n > 0 {
		b := w.buckets[w.head]
		if b.ms > cutoff {
			return
		}
		w.total -= int(b.count)
		w.head = (w.head + 1) % len(w.buckets)
		w.n--
	}
}

func (w *keyWindow) untilOldestLeaves(nowMs, window int64) time.Duration {
	if w.n == 0 {
		return 0
	}
	oldest := w.buckets[w.head].ms
	// Requests racing each other can arrive with a now older than the newest bucket; the wait is
	// still never more than one window.
	return time.Duration(min(oldest+window-nowMs, window)) * time.Millisecond
}

// add counts a request at nowMs and returns the millisecond of the bucket it went to.
func (w *keyWindow) add(nowMs int64, limit int, window int64) int64 {
	w.lastMs = max(w.lastMs, nowMs)
	if w.n > 0 {
		last := &w.buckets[(w.head+w.n-1)%len(w.buckets)]
		// A clock that steps back a little lands in the newest bucket rather than breaking the order.
		if last.ms >= nowMs {
			last.count++
			w.total++
			return last.ms
		}
	}
	if w.n == len(w.buckets) {
		w.grow(limit, window)
	}
	w.buckets[(w.head+w.n)%len(w.buckets)] = bucket{ms: nowMs, count: 1}
	w.n++
	w.total++
	return nowMs
}

// remove uncounts a request of the bucket at ms. An emptied bucket goes: the wait until a slot
// frees must not be measured from it.
func (w *keyWindow) remove(ms int64) {
	for i := w.n - 1; i >= 0; i-- {
		b := &w.buckets[(w.head+i)%len(w.buckets)]
		if b.ms != ms {
			continue
		}
		b.count--
		w.total--
		if b.count == 0 {
			for j := i; j < w.n-1; j++ {
				w.buckets[(w.head+j)%len(w.buckets)] = w.buckets[(w.head+j+1)%len(w.buckets)]
			}
			w.n--
		}
		return
	}
}

// grow doubles the ring up to the most buckets a window can need: one per admitted request, and no
// more than one per millisecond.
func (w *keyWindow) grow(limit int, window int64) {
	size := max(4, 2*len(w.buckets))
	size = min(size, max(limit, 1), int(window))
	if size <= len(w.buckets) {
		size = len(w.buckets) + 1
	}
	grown := make([]bucket, size)
	for i := 0; i < w.n; i++ {
		grown[i] = w.buckets[(w.head+i)%len(w.buckets)]
	}
	w.buckets, w.head = grown, 0
}

// EvictIdle forgets keys with no request in the last window; it returns how many it removed.
func (s *SlidingWindow) EvictIdle(now time.Time) int {
	cutoff := now.UnixMilli() - s.windowMs
	s.mu.Lock()
	defer s.mu.Unlock()
	removed := 0
	for key, w := range s.keys {
		w.mu.Lock()
		if w.lastMs <= cutoff {
			w.evicted = true
			delete(s.keys, key)
			removed++
		}
		w.mu.Unlock()
	}
	return removed
}

// Len is the number of keys currently held.
func (s *SlidingWindow) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.keys)
}

// Janitor evicts idle keys every Interval; it is a manager Runnable that runs on every replica.
type Janitor struct {
	Limiter  *SlidingWindow
	Interval time.Duration
	Clock    clock.PassiveClock
}

// NeedLeaderElection is false: every replica limits its own traffic.
func (j *Janitor) NeedLeaderElection() bool { return false }

// Start evicts idle keys until ctx ends.
func (j *Janitor) Start(ctx context.Context) error {
	if j.Clock == nil {
		j.Clock = clock.RealClock{}
	}
	_ = wait.PollUntilContextCancel(ctx, j.Interval, false, func(context.Context) (bool, error) {
		j.Limiter.EvictIdle(j.Clock.Now())
		return false, nil // never done: it ends with ctx
	})
	return nil
}
