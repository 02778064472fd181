// Package quotestore shares the simulations of firm quotes (issue 27) between replicas: each
// replica keeps its own in memory (intent.MemoryQuotes) and writes them through to Redis, so that
// a create on another replica than the simulation's keeps the simulated quote.
package quotestore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	"github.com/redis/go-redis/v9"
	"k8s.io/utils/clock"

	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// DefaultTimeout bounds each Redis call, as the rate limiter's do.
const DefaultTimeout = 100 * time.Millisecond

// Shared is an intent.QuoteStore: the replica's memory first, then Redis. A Put always keeps the
// simulation locally and writes it to Redis with PX = the time left to its expiresAt (Redis then
// drops it itself); a Get reads memory, then Redis. A Get that finds nothing locally and cannot
// ask Redis returns an error, so that the service answers 503 instead of a false quote-expired.
type Shared struct {
	Local  *intent.MemoryQuotes
	Client redis.UniversalClient
	// Prefix starts every key (the namespace's, "tis:<namespace>:"); "quote:<simulationId>" follows.
	Prefix string
	// Timeout bounds each call (DefaultTimeout when zero).
	Timeout time.Duration
	// Clock tells the time left to a simulation's expiresAt.
	Clock clock.PassiveClock
	Log   logr.Logger
}

var _ intent.QuoteStore = (*Shared)(nil)

func (s *Shared) key(id string) string { return s.Prefix + "quote:" + id }

func (s *Shared) timeout() time.Duration {
	if s.Timeout <= 0 {
		return DefaultTimeout
	}
	return s.Timeout
}

func (s *Shared) now() time.Time {
	if s.Clock == nil {
		return time.Now()
	}
	return s.Clock.Now()
}

// Put keeps q locally, then in Redis until its expiresAt. The error says only that Redis did not
// take it: the replica still holds it.
func (s *Shared) Put(ctx context.Context, q intent.SimulatedQuote) error {
	if err := s.Local.Put(ctx, q); err != nil {
		return err
	}
	ttl := q.ExpiresAt.Sub(s.now())
	if ttl < time.Millisecond {
		return nil
	}
	value, err := json.Marshal(q)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	if err := s.Client.Do(ctx, "SET", s.key(q.ID), value, "PX", ttl.Milliseconds()).Err(); err != nil {
		s.Log.V(1).Info("simulation not shared in Redis", "simulationId", q.ID, "error", err.Error())
		return fmt.Errorf("sharing simulation %s: %w", q.ID, err)
	}
	return nil
}

// Get finds the simulation in memory, then in Redis.
func (s *Shared) Get(ctx context.Context, id string) (intent.SimulatedQuote, bool, error) {
	if q, found, err := s.Local.Get(ctx, id); err != nil || found {
		return q, found, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	value, err := s.Client.Get(ctx, s.key(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return intent.SimulatedQuote{}, false, nil
	}
	if err != nil {
		s.Log.V(1).Info("simulation not looked up in Redis", "simulationId", id, "error", err.Error())
		return intent.SimulatedQuote{}, false, fmt.Errorf("looking up simulation %s: %w", id, err)
	}
	var q intent.SimulatedQuote
	if err := json.Unmarshal(value, &q); err != nil {
		return intent.SimulatedQuote{}, false, fmt.Errorf("simulation %s in Redis: %w", id, err)
	}
	return q, q.ID == id, nil
}
