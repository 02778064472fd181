package webauth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/ratelimit"
)

// Attempts counts sign-in attempts per key (an (email, client) pair, a device, a client address,
// an account) in a sliding window.
// An attempt takes a slot before the password is checked (Acquire) and gives it back when it does
// not count as a failure (Release); a success forgets the key's failures (Reset).
type Attempts interface {
	Acquire(ctx context.Context, key string, now time.Time) (retryAfter time.Duration, slot Slot, ok bool)
	Release(ctx context.Context, key string, slot Slot)
	Reset(ctx context.Context, key string)
}

// Slot is one counted attempt: in the replica's window (at, when it was counted) or in Redis
// (hit).
type Slot struct {
	at  time.Time
	hit ratelimit.Hit
}

// localAttempts counts in this replica's memory.
type localAttempts struct{ t *Throttle }

func (l localAttempts) Acquire(_ context.Context, key string, now time.Time) (time.Duration, Slot, bool) {
	wait, at, ok := l.t.Acquire(key, now)
	return wait, Slot{at: at}, ok
}

func (l localAttempts) Release(_ context.Context, key string, s Slot) { l.t.Release(key, s.at) }
func (l localAttempts) Reset(_ context.Context, key string)           { l.t.Reset(key) }

// keyNamer names sign-in counters in Redis by an HMAC of their key under the current session
// key: emails and client addresses are neither stored in Redis nor confirmable by hashing
// guesses, and instances sharing one Redis stay apart by prefix. Rotating the session keys starts
// the counts afresh.
type keyNamer struct {
	prefix string
	keys   SessionKeySource
}

func (n keyNamer) name(ctx context.Context, key string) string {
	var secret []byte
	if keys, err := n.keys.SessionKeys(ctx); err == nil && len(keys) > 0 {
		secret = keys[0]
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("sign-in counter:" + key))
	return n.prefix + hex.EncodeToString(m.Sum(nil)[:16])
}

// sharedAttempts counts in Redis, so that every replica sees the same failures. While Redis does
// not answer (each call has the store's deadline, and the store stops asking for a cooldown after
// failures, saying so once in the log), the replica counts in its own Throttle, as the API's rate
// limit does: an attacker spreading guesses then gets at most replicas × the limit.
type sharedAttempts struct {
	store  *ratelimit.RedisStore
	policy ThrottlePolicy
	keys   keyNamer
	local  localAttempts
}

// NewSharedAttempts counts the policy's attempts in store, under keys named by keys.
func NewSharedAttempts(store *ratelimit.RedisStore, policy ThrottlePolicy, keys keyNamer) Attempts {
	return &sharedAttempts{store: store, policy: policy, keys: keys, local: localAttempts{NewThrottle(policy)}}
}

func (s *sharedAttempts) Acquire(ctx context.Context, key string, now time.Time) (time.Duration, Slot, bool) {
	d, hit, err := s.store.Take(ctx, s.keys.name(ctx, key), s.policy.Limit, s.policy.Window)
	if err != nil {
		return s.local.Acquire(ctx, key, now)
	}
	return d.RetryAfter, Slot{hit: hit}, d.Allowed
}

func (s *sharedAttempts) Release(ctx context.Context, key string, slot Slot) {
	if slot.hit == "" {
		s.local.Release(ctx, key, slot)
		return
	}
	// Should Redis not answer, the attempt stays counted until it leaves the window.
	_ = s.store.Give(ctx, s.keys.name(ctx, key), slot.hit)
}

func (s *sharedAttempts) Reset(ctx context.Context, key string) {
	s.local.Reset(ctx, key)
	// Should Redis not answer, the failures stay counted until they leave the window.
	_ = s.store.Clear(ctx, s.keys.name(ctx, key))
}
