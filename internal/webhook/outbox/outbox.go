// Package outbox is the webhook delivery log in PostgreSQL (the service's database,
// internal/postgres, migration 00004): the events recorded for intents' transitions, a delivery
// per event and subscribed WebhookEndpoint with its attempts and when the next is due, and each
// endpoint's health.
//
// An event is written before anything is sent, and a delivery leaves the log only when an attempt
// succeeded, its attempts ran out or its endpoint went away: a deliverer killed at any point loses
// nothing, it only sends an event again (under the same webhook-id). Every call is bounded by the
// database's timeout.
package outbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/transferintent/transfer-intent-service/internal/postgres"
	"github.com/transferintent/transfer-intent-service/internal/webhook/policy"
)

// States of a delivery.
const (
	StatePending   = "pending"
	StateDelivered = "delivered"
	StateFailed    = "failed"  // every attempt failed
	StateDropped   = "dropped" // its endpoint was deleted or disabled
)

// Event is one event of an intent, as signed and sent.
type Event struct {
	ID        string // evt_<ULID>
	Namespace string
	// Account and Environment are the intent's: GET /v2/events lists an account's events of one
	// environment.
	Account     string
	Environment string
	IntentID    string
	Type        string
	Sequence    int
	CreatedAt   time.Time
	Body        []byte
}

// Target is a WebhookEndpoint an event is delivered to.
type Target struct {
	UID       string
	Namespace string
	Name      string
	// Account owns the endpoint: the deliverer shares its workers fairly between accounts.
	Account string
}

// Delivery is an attempt to make: an event and the endpoint it goes to.
type Delivery struct {
	EventID     string
	EndpointUID string
	Namespace   string
	Endpoint    string
	Account     string
	// Attempts is the number of attempts made before this one.
	Attempts       int
	Type           string
	Sequence       int
	EventCreatedAt time.Time
	Body           []byte
}

// Health is an endpoint's delivery record.
type Health struct {
	ConsecutiveFailures int
	// FailingSince is the first failure since the last success; zero while the endpoint succeeds.
	FailingSince  time.Time
	LastSuccessAt time.Time
	LastError     string
	// DisabledGeneration is the endpoint's generation when deliveries to it were stopped for
	// failing too long; 0 when they were not.
	DisabledGeneration int64
}

// Store reads and writes the outbox tables of the service's database (internal/postgres).
type Store struct {
	db *postgres.DB
}

// New returns the outbox in db.
func New(db *postgres.DB) *Store { return &Store{db: db} }

// Record writes events, each with a delivery to each of its targets (none is fine: the event is
// still listed by GET /v2/events), in one transaction. An event of a type already recorded for its
// intent is left out with its deliveries, whoever recorded it: recording is idempotent, so the
// emitter may record again whatever it is unsure of. It returns the events written now.
func (s *Store) Record(ctx context.Context, events []Event, targets [][]Target) ([]Event, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return nil, err
	}
	var written []Event
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		written = written[:0]
		for i, ev := range events {
			tag, err := tx.Exec(ctx, `INSERT INTO webhook_events (id, namespace, account, environment, intent_id, type, sequence, created_at, body)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (namespace, intent_id, type) DO NOTHING`,
				ev.ID, ev.Namespace, ev.Account, ev.Environment, ev.IntentID, ev.Type, ev.Sequence, ev.CreatedAt, ev.Body)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				continue
			}
			written = append(written, ev)
			for _, t := range targets[i] {
				if _, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (event_id, endpoint_uid, namespace, endpoint, account, next_attempt_at)
VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT DO NOTHING`, ev.ID, t.UID, t.Namespace, t.Name, t.Account); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("outbox: recording events: %w", err)
	}
	return written, nil
}

// Outcome is what an attempt came to.
type Outcome struct {
	// Delivered: the endpoint answered 2xx.
	Delivered bool
	// Error describes a failure (status code or network error, never the body).
	Error string
	// RetryIn is when to try again after a failure; zero with GiveUp.
	RetryIn time.Duration
	// GiveUp ends a failed delivery: its attempts ran out.
	GiveUp bool
}

// ErrNotHeld is Settle's answer when the delivery is no longer the one claimed: its lease ran out
// and another attempt was made or ended it (or its endpoint was disabled). Nothing was written.
var ErrNotHeld = errors.New("outbox: the delivery is no longer held (lease over, or ended meanwhile)")

// Settle writes an attempt's outcome on its delivery and on its endpoint's health, in one
// transaction, and returns the health. It writes only if the delivery is still pending with the
// attempts it was claimed with, so that two deliverers that both sent it (a lease that ran out
// mid-attempt) count one attempt, and an ended delivery stays ended.
func (s *Store) Settle(ctx context.Context, d Delivery, o Outcome) (Health, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return Health{}, err
	}
	var h Health
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		const held = ` WHERE event_id = $1 AND endpoint_uid = $2 AND state = 'pending' AND attempts = $3`
		var (
			tag pgconn.CommandTag
			err error
		)
		switch {
		case o.Delivered:
			tag, err = tx.Exec(ctx, `UPDATE webhook_deliveries SET state = 'delivered', attempts = attempts + 1,
delivered_at = now(), last_error = ''`+held, d.EventID, d.EndpointUID, d.Attempts)
		// A delivery replayed while this attempt ran (replayed) stays pending and due now: the
		// replay asked for an attempt after it, which this one was not.
		case o.GiveUp:
			tag, err = tx.Exec(ctx, `UPDATE webhook_deliveries SET attempts = attempts + 1, last_error = $4,
state = CASE WHEN replayed THEN 'pending' ELSE 'failed' END, next_attempt_at = CASE WHEN replayed THEN now() ELSE next_attempt_at END,
replayed = false`+held, d.EventID, d.EndpointUID, d.Attempts, o.Error)
		default:
			tag, err = tx.Exec(ctx, `UPDATE webhook_deliveries SET attempts = attempts + 1, last_error = $4,
next_attempt_at = CASE WHEN replayed THEN now() ELSE now() + make_interval(secs => $5) END, replayed = false`+held,
				d.EventID, d.EndpointUID, d.Attempts, o.Error, o.RetryIn.Seconds())
		}
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return ErrNotHeld
		}
		h, err = recordHealth(ctx, tx, d.EndpointUID, o)
		return err
	})
	if errors.Is(err, ErrNotHeld) {
		return Health{}, ErrNotHeld
	}
	if err != nil {
		return Health{}, fmt.Errorf("outbox: settling a delivery: %w", err)
	}
	return h, nil
}

const healthColumns = `consecutive_failures, failing_since, last_success_at, last_error, disabled_generation`

// recordHealth counts a failure in the endpoint's run of failures unless its last failure is more
// than policy.FailureGap old: then the run starts afresh.
func recordHealth(ctx context.Context, tx pgx.Tx, uid string, o Outcome) (Health, error) {
	if o.Delivered {
		return scanHealth(tx.QueryRow(ctx, `INSERT INTO webhook_endpoint_health (endpoint_uid, last_success_at) VALUES ($1, now())
ON CONFLICT (endpoint_uid) DO UPDATE SET consecutive_failures = 0, failing_since = NULL,
	last_success_at = now(), last_error = ''
RETURNING `+healthColumns, uid))
	}
	return scanHealth(tx.QueryRow(ctx, `INSERT INTO webhook_endpoint_health (endpoint_uid, consecutive_failures, failing_since, last_failure_at, last_error)
VALUES ($1, 1, now(), now(), $2)
ON CONFLICT (endpoint_uid) DO UPDATE SET consecutive_failures = webhook_endpoint_health.consecutive_failures + 1,
	failing_since = CASE
		WHEN webhook_endpoint_health.failing_since IS NULL
			OR webhook_endpoint_health.last_failure_at < now() - make_interval(secs => $3) THEN now()
		ELSE webhook_endpoint_health.failing_since END,
	last_failure_at = now(), last_error = $2
RETURNING `+healthColumns, uid, o.Error, policy.FailureGap.Seconds()))
}

func scanHealth(row pgx.Row) (Health, error) {
	var h Health
	var failing, success *time.Time
	if err := row.Scan(&h.ConsecutiveFailures, &failing, &success, &h.LastError, &h.DisabledGeneration); err != nil {
		return Health{}, err
	}
	if failing != nil {
		h.FailingSince = failing.UTC()
	}
	if success != nil {
		h.LastSuccessAt = success.UTC()
	}
	return h, nil
}

// Health reads an endpoint's health; the zero Health for one never attempted.
func (s *Store) Health(ctx context.Context, uid string) (Health, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return Health{}, err
	}
	h, err := scanHealth(pool.QueryRow(ctx, `SELECT `+healthColumns+` FROM webhook_endpoint_health WHERE endpoint_uid = $1`, uid))
	if errors.Is(err, pgx.ErrNoRows) {
		return Health{}, nil
	}
	if err != nil {
		return Health{}, fmt.Errorf("outbox: reading health: %w", err)
	}
	return h, nil
}

// Disable stops deliveries to an endpoint at its generation: its pending deliveries are dropped.
func (s *Store) Disable(ctx context.Context, uid string, generation int64) error {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return err
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE webhook_endpoint_health SET disabled_generation = $2 WHERE endpoint_uid = $1`, uid, generation); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET state = 'dropped', last_error = 'endpoint disabled'
WHERE endpoint_uid = $1 AND state = 'pending'`, uid)
		return err
	})
	if err != nil {
		return fmt.Errorf("outbox: disabling an endpoint: %w", err)
	}
	return nil
}

// Enable forgets an endpoint's failures, so that a disabled endpoint whose spec changed starts
// afresh.
func (s *Store) Enable(ctx context.Context, uid string) error {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, `UPDATE webhook_endpoint_health SET disabled_generation = 0, consecutive_failures = 0,
failing_since = NULL WHERE endpoint_uid = $1`, uid); err != nil {
		return fmt.Errorf("outbox: enabling an endpoint: %w", err)
	}
	return nil
}

// Drop ends a delivery without sending it (its endpoint is gone).
func (s *Store) Drop(ctx context.Context, d Delivery, reason string) error {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, `UPDATE webhook_deliveries SET state = 'dropped', last_error = $3
WHERE event_id = $1 AND endpoint_uid = $2 AND state = 'pending'`, d.EventID, d.EndpointUID, reason); err != nil {
		return fmt.Errorf("outbox: dropping a delivery: %w", err)
	}
	return nil
}

// Prune deletes, at most batch of each at a time, the ended deliveries of the events recorded
// before deliveriesBefore (the events' retention), and the events recorded before eventsBefore
// that have no pending delivery left, with their deliveries; it returns how many rows went. An
// event outlives its deliveries when the intent it is about may still be in the API server: its
// row is what keeps the emitter from recording it again under a new id.
func (s *Store) Prune(ctx context.Context, deliveriesBefore, eventsBefore time.Time, batch int) (int, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return 0, err
	}
	// The outer WHERE checks the state again: a replay that made a row pending while this
	// waited for its lock keeps it.
	deliveries, delErr := pool.Exec(ctx, `DELETE FROM webhook_deliveries d USING (
	SELECT d.event_id, d.endpoint_uid FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id
	WHERE e.created_at < $1 AND d.state <> 'pending' LIMIT $2) old
WHERE d.event_id = old.event_id AND d.endpoint_uid = old.endpoint_uid AND d.state <> 'pending'`, deliveriesBefore, batch)
	// The events' stage runs whatever the first did: a slow first stage must not keep the
	// events from ever leaving.
	events, evErr := pool.Exec(ctx, `DELETE FROM webhook_events WHERE id IN (
	SELECT e.id FROM webhook_events e WHERE e.created_at < $1
	AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
	LIMIT $2)`, eventsBefore, batch)
	if err := errors.Join(delErr, evErr); err != nil {
		return int(deliveries.RowsAffected() + events.RowsAffected()), fmt.Errorf("outbox: pruning: %w", err)
	}
	return int(deliveries.RowsAffected() + events.RowsAffected()), nil
}

// Deliveries lists an event's deliveries' states by endpoint name (for tests and diagnosis).
func (s *Store) Deliveries(ctx context.Context, eventID string) (map[string]string, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return nil, err
	}
	rows, err := pool.Query(ctx, `SELECT endpoint, state FROM webhook_deliveries WHERE event_id = $1`, eventID)
	if err != nil {
		return nil, fmt.Errorf("outbox: reading deliveries: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, state string
		if err := rows.Scan(&name, &state); err != nil {
			return nil, err
		}
		out[name] = state
	}
	return out, rows.Err()
}
