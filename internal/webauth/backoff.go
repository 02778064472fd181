package webauth

import (
	"context"
	"sync"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
)

// BackoffPolicy is the growing delay per account: after Free sign-in attempts on an account in
// Window, from any clients without the account's device cookie, the next attempt closes the
// account to them for Base, the one after the closure for twice as long, and so on, at most Max;
// attempts while it is closed are refused (429) without being counted. An attempt is counted
// before its password is checked, so parallel guesses cannot outrun the count: at most one
// attempt gets through per closure. A success gives its own attempt back.
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

// delay is how long the account closes after its n-th attempt in the window.
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

// maxBackoffEntries bounds what is kept per account: enough to reach Max, and bounded.
const maxBackoffEntries = 64

// localBackoff counts in this replica's memory. It is an Attempts: Acquire refuses while the
// account is closed.
type localBackoff struct {
	policy   BackoffPolicy
	attempts *ratelimit.SlidingWindow

	// mu makes the check of the closure, the count and the closure one step, so that parallel
	// guesses cannot outrun the count.
	mu     sync.Mutex
	closed map[string]time.Time // end of each closure
	sweep  sweeper
}

func newLocalBackoff(p BackoffPolicy) *localBackoff {
	return &localBackoff{policy: p, attempts: ratelimit.NewSlidingWindowOf(p.Window), closed: map[string]time.Time{}}
}

func (b *localBackoff) Acquire(_ context.Context, key string, now time.Time) (time.Duration, Slot, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sweep.due(now) {
		b.attempts.EvictIdle(now)
		for k, until := range b.closed {
			if !until.After(now) {
				delete(b.closed, k)
			}
		}
	}
	if until, ok := b.closed[key]; ok && until.After(now) {
		return until.Sub(now), Slot{}, false
	}
	// At the bound an attempt is not counted (the old lists dropped their oldest instead), and its
	// delay is the bound's: Max long since, so nothing a client sees differs. The default policy
	// never gets there (about 22 attempts fit in its window).
	d, at := b.attempts.Take(key, b.policy.Free+maxBackoffEntries, now)
	if delay := b.policy.delay(d.Limit - d.Remaining); delay > 0 {
		b.closed[key] = now.Add(delay)
	}
	return 0, Slot{at: at}, true
}

func (b *localBackoff) Release(_ context.Context, key string, s Slot) { b.attempts.Give(key, s.at) }

func (b *localBackoff) Reset(_ context.Context, key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.attempts.Clear(key)
	delete(b.closed, key)
}

// sharedBackoff keeps attempts and closures in Redis for every replica; while Redis does not
// answer, the replica's own count holds, as for the other sign-in limits.
type sharedBackoff struct {
	store  *ratelimit.RedisStore
	policy BackoffPolicy
	keys   keyNamer
	local  *localBackoff
}

// NewSharedBackoff keeps the policy's attempts and closures in store, under keys named by keys.
func NewSharedBackoff(store *ratelimit.RedisStore, policy BackoffPolicy, keys keyNamer) Attempts {
	return &sharedBackoff{store: store, policy: policy, keys: keys, local: newLocalBackoff(policy)}
}

// room is the limit of the attempts' window in Redis: never reached, so every attempt is counted
// and Remaining tells how many came before.
const room = 1 << 20

func (s *sharedBackoff) Acquire(ctx context.Context, key string, now time.Time) (time.Duration, Slot, bool) {
	attempts, closed := s.keys.name(ctx, "attempts:"+key), s.keys.name(ctx, "closed:"+key)
	if wait, err := s.store.ClosedFor(ctx, closed); err != nil {
		return s.local.Acquire(ctx, key, now)
	} else if wait > 0 {
		return wait, Slot{}, false
	}
	d, hit, err := s.store.Take(ctx, attempts, room, s.policy.Window)
	if err != nil {
		return s.local.Acquire(ctx, key, now)
	}
	delay := s.policy.delay(room - d.Remaining)
	if delay <= 0 {
		return 0, Slot{hit: hit}, true
	}
	// Of the attempts that find the account open past its free ones, the one that closes it
	// goes on; the others, racing it, are refused and not counted.
	opened, err := s.store.CloseIfOpen(ctx, closed, delay)
	if err != nil {
		// Redis stopped answering between the two calls: the replica's own count decides.
		_ = s.store.Give(ctx, attempts, hit)
		return s.local.Acquire(ctx, key, now)
	}
	if opened {
		return 0, Slot{hit: hit}, true
	}
	_ = s.store.Give(ctx, attempts, hit)
	wait, _ := s.store.ClosedFor(ctx, closed)
	return max(wait, time.Second), Slot{}, false
}

func (s *sharedBackoff) Release(ctx context.Context, key string, slot Slot) {
	if slot.hit == "" {
		s.local.Release(ctx, key, slot)
		return
	}
	_ = s.store.Give(ctx, s.keys.name(ctx, "attempts:"+key), slot.hit)
}

func (s *sharedBackoff) Reset(ctx context.Context, key string) {
	s.local.Reset(ctx, key)
	// Should Redis not answer, the closure ends by itself within Max.
	_ = s.store.Clear(ctx, s.keys.name(ctx, "attempts:"+key))
	_ = s.store.Clear(ctx, s.keys.name(ctx, "closed:"+key))
}
