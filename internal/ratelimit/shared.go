package ratelimit

import (
	"context"
	"time"
)

// Shared is the Limiter of several replicas: each key's window is kept in Redis (a RedisStore),
// so the limit holds across replicas exactly.
//
// While Redis does not answer (each call has its own deadline, and the store stops asking for a
// cooldown after a few failures), every replica falls back to its own exact window (Local): a key
// then gets at most replicas × its limit, and no request is refused or held up because Redis is
// down. Redis's windows do not see the requests admitted meanwhile.
type Shared struct {
	store *RedisStore
	local *SlidingWindow
}

// NewShared counts in store, falling back to local while store does not answer.
func NewShared(store *RedisStore, local *SlidingWindow) *Shared {
	return &Shared{store: store, local: local}
}

// Allow implements Limiter. now is used by the fallback only: Redis counts by its own clock.
func (s *Shared) Allow(ctx context.Context, key string, limit int, now time.Time) Decision {
	d, _, err := s.store.Take(ctx, key, limit, Window)
	if err != nil {
		return s.local.Allow(ctx, key, limit, now)
	}
	return d
}
