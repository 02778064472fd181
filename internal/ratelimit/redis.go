package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"github.com/sony/gobreaker/v2"
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
-- A slot frees when the oldest hit leaves; after the limit was lowered, more hits than the limit
-- may be counted, and one frees only when the (n - limit + 1)-th oldest leaves.
local freeing = 0
if admitted == 0 then
  freeing = n - limit
end
local reset = 0
local oldest = redis.call('ZRANGE', KEYS[1], freeing, freeing, 'WITHSCORES')
if oldest[2] then
  reset = tonumber(oldest[2]) + window - now
end
return {admitted, n, reset, now}
`)

// RedisStore keeps sliding windows in Redis, shared by every replica. Each call has its own
// deadline (Timeout); an error means Redis did not answer in time, never that a request was
// refused. After Failures failed calls in a row the store stops asking Redis for Cooldown
// (ErrUnavailable at once), so that an outage costs each request nothing; then one call tries
// again, and its success ends the outage. Build it with NewRedisStore.
type RedisStore struct {
	Client  redis.UniversalClient
	Prefix  string
	Timeout time.Duration

	breaker *gobreaker.CircuitBreaker[any]
}

// ErrUnavailable is the answer of a store that leaves Redis alone after failures.
var ErrUnavailable = errors.New("redis: not asked during the cooldown after failures")

// Defaults of the store's circuit breaker.
const (
	DefaultFailures = 3
	DefaultCooldown = time.Second
)

// StoreOptions configures NewRedisStore; zero values take the defaults.
type StoreOptions struct {
	Timeout  time.Duration
	Failures uint32
	Cooldown time.Duration
	// Metrics registers tis_ratelimit_store_errors_total and tis_ratelimit_degraded; nil for none.
	Metrics prometheus.Registerer
	// Log gets one line when the store stops asking Redis and one when it asks again.
	Log logr.Logger
}

// NewRedisStore keeps its windows in client under prefix.
func NewRedisStore(client redis.UniversalClient, prefix string, opts StoreOptions) (*RedisStore, error) {
	if opts.Failures == 0 {
		opts.Failures = DefaultFailures
	}
	if opts.Cooldown <= 0 {
		opts.Cooldown = DefaultCooldown
	}
	errorsTotal := prometheus.NewCounter(prometheus.CounterOpts{
		Name: "tis_ratelimit_store_errors_total",
		Help: "Calls to Redis (rate limits, sign-in throttling) that failed or missed their deadline; each fell back to the replica's own count.",
	})
	degraded := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "tis_ratelimit_degraded",
		Help: "1 while rate limits and sign-in throttling are counted per replica because Redis does not answer.",
	})
	if opts.Metrics != nil {
		for _, c := range []prometheus.Collector{errorsTotal, degraded} {
			if err := opts.Metrics.Register(c); err != nil {
				return nil, err
			}
		}
	}
	s := &RedisStore{Client: client, Prefix: prefix, Timeout: opts.Timeout}
	s.breaker = gobreaker.NewCircuitBreaker[any](gobreaker.Settings{
		Name:        "redis",
		MaxRequests: 1,
		Timeout:     opts.Cooldown,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= opts.Failures },
		// A request its client abandoned says nothing about Redis.
		IsExcluded: func(err error) bool { return errors.Is(err, context.Canceled) },
		IsSuccessful: func(err error) bool {
			if err != nil && !errors.Is(err, context.Canceled) {
				errorsTotal.Inc()
			}
			return err == nil
		},
		OnStateChange: func(_ string, _, to gobreaker.State) {
			switch to {
			case gobreaker.StateOpen:
				degraded.Set(1)
				opts.Log.Info("Redis does not answer: rate limits and sign-in throttling are counted per replica until it does")
			case gobreaker.StateClosed:
				degraded.Set(0)
				opts.Log.Info("Redis answers again: rate limits and sign-in throttling are shared across replicas")
			default:
			}
		},
	})
	return s, nil
}

// guard runs one call to Redis through the breaker, within the deadline.
func (s *RedisStore) guard(ctx context.Context, call func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	if s.breaker == nil {
		return call(ctx)
	}
	_, err := s.breaker.Execute(func() (any, error) { return nil, call(ctx) })
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return ErrUnavailable
	}
	return err
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
	var res []int64
	err = s.guard(ctx, func(ctx context.Context) error {
		var err error
		res, err = takeScript.Run(ctx, s.Client, []string{s.Prefix + key}, limit, window.Milliseconds(), id).Int64Slice()
		return err
	})
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
	return s.guard(ctx, func(ctx context.Context) error { return s.Client.ZRem(ctx, s.Prefix+key, string(hit)).Err() })
}

// Clear forgets every hit on key.
func (s *RedisStore) Clear(ctx context.Context, key string) error {
	return s.guard(ctx, func(ctx context.Context) error { return s.Client.Del(ctx, s.Prefix+key).Err() })
}

// CloseIfOpen marks key closed for d (a key that expires by itself) unless it is closed already,
// and reports whether this call closed it.
func (s *RedisStore) CloseIfOpen(ctx context.Context, key string, d time.Duration) (bool, error) {
	var closed bool
	err := s.guard(ctx, func(ctx context.Context) error {
		var err error
		closed, err = s.Client.SetNX(ctx, s.Prefix+key, 1, max(d, time.Millisecond)).Result()
		return err
	})
	if err != nil {
		return false, fmt.Errorf("redis: %w", err)
	}
	return closed, nil
}

// ClosedFor returns how long key stays closed; 0 when it is not.
func (s *RedisStore) ClosedFor(ctx context.Context, key string) (time.Duration, error) {
	var d time.Duration
	err := s.guard(ctx, func(ctx context.Context) error {
		var err error
		d, err = s.Client.PTTL(ctx, s.Prefix+key).Result()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("redis: %w", err)
	}
	return max(d, 0), nil // -2: no key, -1: no expiry (never set so)
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
