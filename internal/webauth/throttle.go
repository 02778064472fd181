package webauth

import (
	"slices"
	"sync"
	"time"
)

// ThrottlePolicy allows Limit failed sign-ins in any Window.
type ThrottlePolicy struct {
	Limit  int
	Window time.Duration
}

// Throttle counts failed sign-ins per key (an (email, client) pair, a device, a client address)
// in a sliding window.
//
// internal/ratelimit's SlidingWindow counts requests in a fixed one-minute window; sign-in needs a
// longer window (15 minutes) and counts attempts before their outcome is known, so it has its own
// small counter. An attempt takes a slot before the password is checked (Acquire) and gives it
// back when it succeeds (Release), so parallel guesses cannot outrun the count.
//
// State is per replica; with Redis, sharedAttempts counts for every replica and falls back to a
// Throttle while Redis does not answer (then n replicas admit up to n times the limit).
type Throttle struct {
	policy ThrottlePolicy

	mu        sync.Mutex
	attempts  map[string][]time.Time // ascending; at most policy.Limit entries
	nextSweep time.Time
}

// NewThrottle returns an empty throttle.
func NewThrottle(p ThrottlePolicy) *Throttle {
	if p.Limit < 1 {
		p.Limit = 1
	}
	return &Throttle{policy: p, attempts: map[string][]time.Time{}}
}

// Acquire counts an attempt on key at now when fewer than Limit were counted in the Window
// before now. Otherwise it counts nothing and returns how long until a slot frees.
func (t *Throttle) Acquire(key string, now time.Time) (retryAfter time.Duration, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sweepLocked(now)
	live := t.liveLocked(key, now)
	if len(live) >= t.policy.Limit {
		return live[0].Add(t.policy.Window).Sub(now), false
	}
	t.attempts[key] = append(live, now)
	return 0, true
}

// Release gives back the slot an attempt at `at` took (it did not fail after all).
func (t *Throttle) Release(key string, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	list := t.attempts[key]
	if i := slices.IndexFunc(list, func(x time.Time) bool { return x.Equal(at) }); i >= 0 {
		list = slices.Delete(list, i, i+1)
	}
	if len(list) == 0 {
		delete(t.attempts, key)
		return
	}
	t.attempts[key] = list
}

// Reset forgets every attempt on key.
func (t *Throttle) Reset(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.attempts, key)
}

// liveLocked drops the attempts that have left the window (an attempt at x counts while
// x > now - Window) and returns the rest.
func (t *Throttle) liveLocked(key string, now time.Time) []time.Time {
	list := t.attempts[key]
	cutoff := now.Add(-t.policy.Window)
	i := 0
	for i < len(list) && !list[i].After(cutoff) {
		i++
	}
	if i == len(list) {
		delete(t.attempts, key)
		return nil
	}
	return list[i:]
}

// sweepLocked forgets keys whose attempts have all left the window, once a minute, so that
// guesses at many emails do not grow the map without bound.
func (t *Throttle) sweepLocked(now time.Time) {
	if now.Before(t.nextSweep) {
		return
	}
	t.nextSweep = now.Add(time.Minute)
	for key := range t.attempts {
		t.liveLocked(key, now)
	}
}
