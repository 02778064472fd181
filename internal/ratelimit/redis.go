package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisTimeout bounds each call to Redis on the request path.
const DefaultRedisTimeout = 100 * time.Millisecond

// takeScript is the exact sliding window of one key as a sorted set of hits scored by the time
// they were admitted, in milliseconds of Redis's own clock: every replica counts against the same
// clock, so skew between replicas cannot widen the window. A hit at t counts while
// t > now - window, as in SlidingWindow. Atomic: Redis runs a script without interleaving.
//
//	KEYS[1]  the key's sorted set
//	ARGV[1]  limit, ARGV[2] window in ms, ARGV[3] a unique id of this hit
//	returns  {admitted (0|1), hits counted after it, ms until the oldest hit leaves, now in ms}
var takeScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
local admitted = 0
if n < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  n = n + 1
  admitted = 1
end
local reset = 0
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then
  reset = tonumber(oldest[2]) + window - now
end
return {admitted, n, reset, now}
`)

// RedisStore keeps sliding windows in Redis, shared by every replica. Each call has its own
// deadline (Timeout); an error means Redis did not answer in time, never that a request was
// refused.
type RedisStore struct {
	Client  redis.UniversalClient
	Prefix  string
	Timeout time.Duration
}

// Hit identifies one counted hit, so that it can be given back.
type Hit string

// Take counts a hit on key when fewer than limit hits were counted in the window before Redis's
// now, and reports the decision with the hit's id (empty when refused).
func (s *RedisStore) Take(ctx context.Context, key string, limit int, window time.Duration) (Decision, Hit, error) {
	if limit < 1 {
		limit = 1
	}
	id, err := newHitID()
	if err != nil {
		return Decision{}, "", err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	res, err := takeScript.Run(ctx, s.Client, []string{s.Prefix + key}, limit, window.Milliseconds(), id).Int64Slice()
	if err != nil {
		return Decision{}, "", fmt.Errorf("redis: %w", err)
	}
	if len(res) != 4 {
		return Decision{}, "", errors.New("redis: unexpected answer of the window script")
	}
	d := Decision{Allowed: res[0] == 1, Limit: limit, Reset: time.Duration(max(res[2], 0)) * time.Millisecond}
	if !d.Allowed {
		d.RetryAfter = d.Reset
		return d, "", nil
	}
	d.Remaining = limit - int(res[1])
	return d, Hit(id), nil
}

// Give gives back a hit Take counted (an attempt that did not fail after all).
func (s *RedisStore) Give(ctx context.Context, key string, hit Hit) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	return s.Client.ZRem(ctx, s.Prefix+key, string(hit)).Err()
}

// Clear forgets every hit on key.
func (s *RedisStore) Clear(ctx context.Context, key string) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	return s.Client.Del(ctx, s.Prefix+key).Err()
}

// Ping checks that Redis answers within the deadline.
func (s *RedisStore) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	return s.Client.Ping(ctx).Err()
}

func (s *RedisStore) timeout() time.Duration {
	if s.Timeout <= 0 {
		return DefaultRedisTimeout
	}
	return s.Timeout
}

// newHitID is unique among the hits of a key: the members of a sorted set must differ.
func newHitID() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}
