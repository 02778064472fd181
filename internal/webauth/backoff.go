package webauth

import (
	"context"
	"sync"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
)

// BackoffPolicy is the growing delay per account: after Free failed sign-ins on an account in
// Window, from any clients, each further failure closes the account to clients without its
// device cookie for Base, then twice as long, and so on, at most Max.
//
// This is OWASP's answer to guessing spread over many addresses without a lockout anyone can
// cause: the closure is short and grows only with the guessing, and a browser that signed in to
// the account before (its device cookie, see device.go) is never kept out by it, so an attacker
// elsewhere cannot lock the owner out. Tight limits stay per (account, client) and per client.
type BackoffPolicy struct {
	Free   int
	Window time.Duration
	Base   time.Duration
	Max    time.Duration
}

// delay is how long the account closes after its n-th failure in the window.
func (p BackoffPolicy) delay(n int) time.Duration {
	if n <= p.Free {
		return 0
	}
	d := p.Base
	for i := p.Free + 1; i < n && d < p.Max; i++ {
		d *= 2
	}
	return min(d, p.Max)
}

// Backoff keeps each account's failures and closure.
type Backoff interface {
	// Closed returns how long key stays closed to untrusted clients after now; 0 when open.
	Closed(ctx context.Context, key string, now time.Time) time.Duration
	// Failed counts a failure on key at now and closes it for the policy's delay.
	Failed(ctx context.Context, key string, now time.Time)
	// Reset forgets key's failures and closure (a successful sign-in).
	Reset(ctx context.Context, key string)
}

// localBackoff counts in this replica's memory.
type localBackoff struct {
	policy BackoffPolicy
	// failures counts failures per key in the window; closed holds each closure's end.
	failures *Throttle
	mu       sync.Mutex
	closed   map[string]time.Time
}

func newLocalBackoff(p BackoffPolicy) *localBackoff {
	// The throttle keeps at most Limit entries per key: enough to reach Max, and bounded.
	limit := p.Free + 64
	return &localBackoff{policy: p, failures: NewThrottle(ThrottlePolicy{Limit: limit, Window: p.Window}), closed: map[string]time.Time{}}
}

func (b *localBackoff) Closed(_ context.Context, key string, now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	until, ok := b.closed[key]
	if !ok {
		return 0
	}
	if !until.After(now) {
		delete(b.closed, key)
		return 0
	}
	return until.Sub(now)
}

func (b *localBackoff) Failed(_ context.Context, key string, now time.Time) {
	_, _ = b.failures.Acquire(key, now)
	n := b.failures.count(key, now)
	d := b.policy.delay(n)
	if d <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, until := range b.closed { // closures end within Max: the map stays small
		if !until.After(now) {
			delete(b.closed, k)
		}
	}
	b.closed[key] = now.Add(d)
}

func (b *localBackoff) Reset(_ context.Context, key string) {
	b.failures.Reset(key)
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.closed, key)
}

// sharedBackoff keeps failures and closures in Redis for every replica; while Redis does not
// answer, the replica's own count holds, as for the other sign-in limits.
type sharedBackoff struct {
	store  *ratelimit.RedisStore
	policy BackoffPolicy
	keys   *sharedAttempts // names keys by their hash
	local  *localBackoff
}

// NewSharedBackoff keeps the policy's failures and closures in store under prefix.
func NewSharedBackoff(store *ratelimit.RedisStore, policy BackoffPolicy, prefix string) Backoff {
	return &sharedBackoff{store: store, policy: policy, keys: &sharedAttempts{prefix: prefix}, local: newLocalBackoff(policy)}
}

func (s *sharedBackoff) Closed(ctx context.Context, key string, now time.Time) time.Duration {
	d, err := s.store.ClosedFor(ctx, s.keys.redisKey("closed:"+key))
	if err != nil {
		return s.local.Closed(ctx, key, now)
	}
	return d
}

func (s *sharedBackoff) Failed(ctx context.Context, key string, now time.Time) {
	// The count is a window with room for every failure: the decision is always "allowed", and
	// Remaining tells how many came before.
	const room = 1 << 20
	d, _, err := s.store.Take(ctx, s.keys.redisKey("failed:"+key), room, s.policy.Window)
	if err != nil {
		s.local.Failed(ctx, key, now)
		return
	}
	if delay := s.policy.delay(room - d.Remaining); delay > 0 {
		if err := s.store.Close(ctx, s.keys.redisKey("closed:"+key), delay); err != nil {
			s.local.Failed(ctx, key, now)
		}
	}
}

func (s *sharedBackoff) Reset(ctx context.Context, key string) {
	s.local.Reset(ctx, key)
	// Should Redis not answer, the closure ends by itself within Max.
	_ = s.store.Clear(ctx, s.keys.redisKey("failed:"+key))
	_ = s.store.Clear(ctx, s.keys.redisKey("closed:"+key))
}
