// Package ratelimit decides whether a request on an API key is admitted.
//
// The contract's limit is "N requests per minute per key"; we read it as an exact sliding window:
// a request is admitted when fewer than N requests were admitted in the 60 seconds before it.
// A token bucket would let a burst of 2N through across a minute boundary; this does not.
package ratelimit

import (
	"context"
	"time"
)

// Window is the length of the sliding window.
const Window = time.Minute

// Decision is the outcome of one Allow call, with what the rate-limit headers need.
type Decision struct {
	// Allowed is true when the request is admitted (and counted).
	Allowed bool
	// Limit is the number of requests allowed in any Window.
	Limit int
	// Remaining is how many more requests would be admitted right now.
	Remaining int
	// Reset is the time until the oldest counted request leaves the window (a slot frees).
	// Zero when nothing is counted.
	Reset time.Duration
	// RetryAfter is the time the client must wait before a request can be admitted; zero when Allowed.
	RetryAfter time.Duration
}

// Limiter admits or refuses requests per key. The in-memory SlidingWindow serves one replica;
// Shared counts in Redis for every replica, and falls back to a SlidingWindow while Redis does not
// answer.
type Limiter interface {
	// Allow counts a request on key at now when fewer than limit requests were admitted in the
	// Window before now, and reports the decision. It answers within its own deadline whatever
	// the state of a store behind it.
	Allow(ctx context.Context, key string, limit int, now time.Time) Decision
}

// Seconds rounds d up to whole seconds, at least 1, as Retry-After needs: a client that waits the
// number given must then be admitted.
func Seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	s := int((d + time.Second - 1) / time.Second)
	if s < 1 {
		s = 1
	}
	return s
}
