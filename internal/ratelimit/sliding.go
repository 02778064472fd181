package ratelimit

import (
	"context"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// SlidingWindow is an exact in-memory sliding-window limiter.
//
// Each key keeps the admitted requests of the last Window as a ring of (millisecond, count) buckets,
// so memory per key is bounded by min(limit, 60000) buckets however fast the key is used, and the
// window is exact to the millisecond. Keys idle for a whole Window hold nothing worth keeping and
// are evicted by EvictIdle (run it with Run).
type SlidingWindow struct {
	mu   sync.RWMutex
	keys map[string]*keyWindow
	// beforeLock, when set (tests only), runs between looking a window up and locking it: the
	// moment at which a concurrent EvictIdle can remove the window an Allow is about to count into.
	beforeLock func()
}

// NewSlidingWindow returns an empty limiter.
func NewSlidingWindow() *SlidingWindow {
	return &SlidingWindow{keys: make(map[string]*keyWindow)}
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
	if limit < 1 {
		limit = 1
	}
	nowMs := now.UnixMilli()
	w := s.lockedWindow(key)
	defer w.mu.Unlock()
	w.evict(nowMs)
	d := Decision{Limit: limit}
	if w.total >= limit {
		d.RetryAfter = w.untilOldestLeaves(nowMs)
		d.Reset = d.RetryAfter
		return d
	}
	w.add(nowMs, limit)
	d.Allowed = true
	d.Remaining = limit - w.total
	d.Reset = w.untilOldestLeaves(nowMs)
	return d
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

// evict drops the buckets that have left the window: a request at t counts while t > now - Window.
func (w *keyWindow) evict(nowMs int64) {
	cutoff := nowMs - Window.Milliseconds()
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

func (w *keyWindow) untilOldestLeaves(nowMs int64) time.Duration {
	if w.n == 0 {
		return 0
	}
	oldest := w.buckets[w.head].ms
	// Requests racing each other can arrive with a now older than the newest bucket; the wait is
	// still never more than one window.
	return min(time.Duration(oldest+Window.Milliseconds()-nowMs)*time.Millisecond, Window)
}

func (w *keyWindow) add(nowMs int64, limit int) {
	w.lastMs = max(w.lastMs, nowMs)
	if w.n > 0 {
		last := &w.buckets[(w.head+w.n-1)%len(w.buckets)]
		// A clock that steps back a little lands in the newest bucket rather than breaking the order.
		if last.ms >= nowMs {
			last.count++
			w.total++
			return
		}
	}
	if w.n == len(w.buckets) {
		w.grow(limit)
	}
	w.buckets[(w.head+w.n)%len(w.buckets)] = bucket{ms: nowMs, count: 1}
	w.n++
	w.total++
}

// grow doubles the ring up to the most buckets a window can need: one per admitted request, and no
// more than one per millisecond.
func (w *keyWindow) grow(limit int) {
	size := max(4, 2*len(w.buckets))
	size = min(size, max(limit, 1), int(Window.Milliseconds()))
	if size <= len(w.buckets) {
		size = len(w.buckets) + 1
	}
	grown := make([]bucket, size)
	for i := 0; i < w.n; i++ {
		grown[i] = w.buckets[(w.head+i)%len(w.buckets)]
	}
	w.buckets, w.head = grown, 0
}

// EvictIdle forgets keys with no request in the last Window; it returns how many it removed.
func (s *SlidingWindow) EvictIdle(now time.Time) int {
	cutoff := now.UnixMilli() - Window.Milliseconds()
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
	t := time.NewTicker(j.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			j.Limiter.EvictIdle(j.Clock.Now())
		}
	}
}
