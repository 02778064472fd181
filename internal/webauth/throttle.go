package webauth

import (
	"sync"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
)

// ThrottlePolicy allows Limit failed sign-ins in any Window.
type ThrottlePolicy struct {
	Limit  int
	Window time.Duration
}

// Throttle counts failed sign-ins per key (an (email, client) pair, a device, a client address)
// in the policy's sliding window, the API limit's ratelimit.SlidingWindow over a longer window.
//
// An attempt takes a slot before the password is checked (Acquire) and gives it back when it
// succeeds (Release), so parallel guesses cannot outrun the count.
//
// State is per replica; with Redis, sharedAttempts counts for every replica and falls back to a
// Throttle while Redis does not answer (then n replicas admit up to n times the limit).
type Throttle struct {
	limit    int
	attempts *ratelimit.SlidingWindow
	sweep    sweeper
}

// NewThrottle returns an empty throttle.
func NewThrottle(p ThrottlePolicy) *Throttle {
	return &Throttle{limit: max(p.Limit, 1), attempts: ratelimit.NewSlidingWindowOf(p.Window)}
}

// Acquire counts an attempt on key at now when fewer than Limit were counted in the Window
// before now, and returns when it was counted, for Release. Otherwise it counts nothing and
// returns how long until a slot frees.
func (t *Throttle) Acquire(key string, now time.Time) (retryAfter time.Duration, at time.Time, ok bool) {
	if t.sweep.due(now) {
		t.attempts.EvictIdle(now)
	}
	d, at := t.attempts.Take(key, t.limit, now)
	return d.RetryAfter, at, d.Allowed
}

// Release gives back the slot an attempt counted at `at` took (it did not fail after all).
func (t *Throttle) Release(key string, at time.Time) { t.attempts.Give(key, at) }

// Reset forgets every attempt on key.
func (t *Throttle) Reset(key string) { t.attempts.Clear(key) }

// sweeper is due once a minute: the sign-in counts, unlike the API limit, have no janitor, so
// an attempt forgets the keys whose attempts have all ended, and guesses at many emails do not
// grow the counts without bound.
type sweeper struct {
	mu   sync.Mutex
	next time.Time
}

func (s *sweeper) due(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Before(s.next) {
		return false
	}
	s.next = now.Add(time.Minute)
	return true
}
