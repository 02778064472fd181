package ratelimit

import (
	"context"
	"errors"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/sony/gobreaker/v2"
)

// DefaultCooldown is how long the shared limiter leaves Redis alone after a failed call.
const DefaultCooldown = time.Second

// Shared is the Limiter of several replicas: each key's window is kept in Redis, so the limit
// holds across replicas exactly.
//
// While Redis does not answer (each call has its own deadline), every replica falls back to its
// own exact window (Local): a key then gets at most replicas × its limit, and no request is
// refused or delayed because Redis is down. A log line and the tis_ratelimit_degraded gauge say
// so. After Cooldown one request tries Redis again; its success ends the fallback. Redis's windows
// do not see the requests admitted meanwhile.
type Shared struct {
	store   *RedisStore
	local   *SlidingWindow
	breaker *gobreaker.CircuitBreaker[Decision]
	errors  prometheus.Counter
	log     logr.Logger
}

// SharedOptions configures NewShared.
type SharedOptions struct {
	// Cooldown defaults to DefaultCooldown.
	Cooldown time.Duration
	// Metrics registers tis_ratelimit_store_errors_total and tis_ratelimit_degraded; nil for none.
	Metrics prometheus.Registerer
	Log     logr.Logger
}

// NewShared counts in store, falling back to local while store does not answer.
func NewShared(store *RedisStore, local *SlidingWindow, opts SharedOptions) (*Shared, error) {
	if opts.Cooldown <= 0 {
		opts.Cooldown = DefaultCooldown
	}
	s := &Shared{
		store: store, local: local, log: opts.Log,
		errors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tis_ratelimit_store_errors_total",
			Help: "Rate-limit decisions that Redis did not answer in time; each fell back to the replica's own window.",
		}),
	}
	degraded := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "tis_ratelimit_degraded",
		Help: "1 while the rate limiter counts per replica because Redis does not answer.",
	})
	s.breaker = gobreaker.NewCircuitBreaker[Decision](gobreaker.Settings{
		Name:        "redis",
		MaxRequests: 1,
		Timeout:     opts.Cooldown,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= 1 },
		// A request its client abandoned says nothing about Redis.
		IsExcluded: func(err error) bool { return errors.Is(err, context.Canceled) },
		OnStateChange: func(_ string, _, to gobreaker.State) {
			switch to {
			case gobreaker.StateOpen:
				degraded.Set(1)
				s.log.Info("Redis does not answer: rate limits are counted per replica until it does")
			case gobreaker.StateClosed:
				degraded.Set(0)
				s.log.Info("Redis answers again: rate limits are shared across replicas")
			default:
			}
		},
	})
	if opts.Metrics != nil {
		for _, c := range []prometheus.Collector{s.errors, degraded} {
			if err := opts.Metrics.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// Allow implements Limiter. now is used by the fallback only: Redis counts by its own clock.
func (s *Shared) Allow(ctx context.Context, key string, limit int, now time.Time) Decision {
	d, err := s.breaker.Execute(func() (Decision, error) {
		d, _, err := s.store.Take(ctx, key, limit, Window)
		return d, err
	})
	if err == nil {
		return d
	}
	if !errors.Is(err, gobreaker.ErrOpenState) && !errors.Is(err, gobreaker.ErrTooManyRequests) {
		s.errors.Inc()
	}
	return s.local.Allow(ctx, key, limit, now)
}
