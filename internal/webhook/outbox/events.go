package outbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Scope is whose events a list or a replay reads: an account's, in one environment.
type Scope struct {
	Namespace   string
	Account     string
	Environment string
}

// EventFilter narrows a list of events. Zero fields do not filter.
type EventFilter struct {
	// Type is an event type, or a prefix ending in "." for a wildcard ("transfer." for
	// transfer.*).
	Type string
	// IntentID is the API id of the intent the events are about.
	IntentID string
	// After and Before bound created_at, both exclusive.
	After, Before time.Time
	// Since is the retention's start: older events are not served, even before pruning.
	Since time.Time
}

// Cursor is the place of the last event of a page: the list goes on after it.
type Cursor struct {
	CreatedAt time.Time
	ID        string
}

// ListedEvent is an event with its deliveries.
type ListedEvent struct {
	Event
	Deliveries []DeliveryState
}

// DeliveryState is where a delivery of an event to one endpoint stands.
type DeliveryState struct {
	Endpoint string
	State    string
	Attempts int
	// LastError is the last failed attempt's description (sender.Describe: no address).
	LastError     string
	DeliveredAt   time.Time
	NextAttemptAt time.Time // zero unless pending
}

// filterSQL is the WHERE of a scope and a filter, from argument $1 on; it returns the clause
// and its arguments.
func filterSQL(sc Scope, f EventFilter) (string, []any) {
	where := []string{"e.namespace = $1", "e.account = $2", "e.environment = $3", "e.created_at >= $4"}
	args := []any{sc.Namespace, sc.Account, sc.Environment, f.Since}
	add := func(clause string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(clause, len(args)))
	}
	switch {
	case strings.HasSuffix(f.Type, "."):
		add("starts_with(e.type, $%d)", f.Type)
	case f.Type != "":
		add("e.type = $%d", f.Type)
	}
	if f.IntentID != "" {
		add("e.intent_id = $%d", f.IntentID)
	}
	if !f.After.IsZero() {
		add("e.created_at > $%d", f.After)
	}
	if !f.Before.IsZero() {
		add("e.created_at < $%d", f.Before)
	}
	return strings.Join(where, " AND "), args
}

const eventColumns = `e.id, e.namespace, e.account, e.environment, e.intent_id, e.type, e.sequence, e.created_at, e.body`

func scanEvent(row pgx.CollectableRow) (Event, error) {
	var ev Event
	err := row.Scan(&ev.ID, &ev.Namespace, &ev.Account, &ev.Environment, &ev.IntentID, &ev.Type, &ev.Sequence, &ev.CreatedAt, &ev.Body)
	ev.CreatedAt = ev.CreatedAt.UTC()
	return ev, err
}

// Events lists a page of the scope's events that match f, newest first (ties by id, newest
// first), after the cursor (nil: from the newest), with their deliveries; and whether more follow.
func (s *Store) Events(ctx context.Context, sc Scope, f EventFilter, after *Cursor, limit int) ([]ListedEvent, bool, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return nil, false, err
	}
	where, args := filterSQL(sc, f)
	if after != nil {
		args = append(args, after.CreatedAt, after.ID)
		where += fmt.Sprintf(" AND (e.created_at, e.id) < ($%d, $%d)", len(args)-1, len(args))
	}
	args = append(args, limit+1)
	rows, err := pool.Query(ctx, `SELECT `+eventColumns+` FROM webhook_events e WHERE `+where+
		fmt.Sprintf(` ORDER BY e.created_at DESC, e.id DESC LIMIT $%d`, len(args)), args...)
	if err != nil {
		return nil, false, fmt.Errorf("outbox: listing events: %w", err)
	}
	events, err := pgx.CollectRows(rows, scanEvent)
	if err != nil {
		return nil, false, fmt.Errorf("outbox: listing events: %w", err)
	}
	more := len(events) > limit
	if more {
		events = events[:limit]
	}
	out, err := s.withDeliveries(ctx, pool, events)
	return out, more, err
}

// withDeliveries adds their deliveries to events, in one query.
func (s *Store) withDeliveries(ctx context.Context, q querier, events []Event) ([]ListedEvent, error) {
	out := make([]ListedEvent, len(events))
	ids := make([]string, len(events))
	index := make(map[string]int, len(events))
	for i, ev := range events {
		out[i].Event, ids[i], index[ev.ID] = ev, ev.ID, i
	}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, `SELECT event_id, endpoint, state, attempts, last_error, delivered_at,
	CASE WHEN state = 'pending' THEN next_attempt_at END
FROM webhook_deliveries WHERE event_id = ANY($1) ORDER BY event_id, endpoint`, ids)
	if err != nil {
		return nil, fmt.Errorf("outbox: reading deliveries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id          string
			d           DeliveryState
			at, nextAtt *time.Time
		)
		if err := rows.Scan(&id, &d.Endpoint, &d.State, &d.Attempts, &d.LastError, &at, &nextAtt); err != nil {
			return nil, err
		}
		if at != nil {
			d.DeliveredAt = at.UTC()
		}
		if nextAtt != nil {
			d.NextAttemptAt = nextAtt.UTC()
		}
		i := index[id]
		out[i].Deliveries = append(out[i].Deliveries, d)
	}
	return out, rows.Err()
}

type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Replay is a request to send a scope's events to one endpoint again.
type Replay struct {
	Scope  Scope
	Target Target
	// Types are the event types the endpoint subscribes to: no other is sent to it.
	Types []string
	// Either IDs, or the range of Filter (its After, Before and Since), from after Cursor when
	// set (the Last of the replay before).
	IDs    []string
	Filter EventFilter
	Cursor *Cursor
	// Max is the most events one replay queues; the oldest go first.
	Max int
}

// Replayed is what a replay queued.
type Replayed struct {
	// Queued counts the events queued to the endpoint again.
	Queued int
	// More is set when the range holds more than Max: Last is the newest event queued, and the
	// next replay starts after it.
	More bool
	Last Cursor
}

// ErrUnknownEvent is Replay's answer when one of its ids is not an event of the scope of a type
// the endpoint subscribes to (or is older than the retention).
var ErrUnknownEvent = errors.New("outbox: no such event")

// Replay queues the chosen events to the endpoint again, oldest first, under their own ids (the
// webhook-id a receiver deduplicates by): a delivery that ended (delivered, failed or dropped)
// starts afresh with its attempts at zero, a pending one is made due now (and marked replayed, so
// that the outcome of an attempt in flight since before leaves it due), and an event the endpoint
// never had gets a delivery. Events of types the endpoint does not subscribe to are left
// out.
func (s *Store) Replay(ctx context.Context, r Replay) (Replayed, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return Replayed{}, err
	}
	var out Replayed
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		picked, err := pickReplayed(ctx, tx, r)
		if err != nil {
			return err
		}
		out = Replayed{Queued: len(picked)}
		if len(picked) > r.Max {
			out = Replayed{Queued: r.Max, More: true}
			picked = picked[:r.Max]
		}
		if len(picked) > 0 {
			last := picked[len(picked)-1]
			out.Last = Cursor{CreatedAt: last.CreatedAt, ID: last.ID}
		}
		return requeue(ctx, tx, r.Target, picked)
	})
	if err != nil {
		if errors.Is(err, ErrUnknownEvent) {
			return Replayed{}, err
		}
		return Replayed{}, fmt.Errorf("outbox: replaying events: %w", err)
	}
	return out, nil
}

// pickReplayed reads the events a replay queues, oldest first, at most r.Max+1 (to tell whether
// more follow).
func pickReplayed(ctx context.Context, tx pgx.Tx, r Replay) ([]Cursor, error) {
	f := r.Filter
	if len(r.IDs) > 0 {
		f = EventFilter{Since: r.Filter.Since}
	}
	where, args := filterSQL(r.Scope, f)
	args = append(args, r.Types)
	where += fmt.Sprintf(" AND e.type = ANY($%d)", len(args))
	if len(r.IDs) > 0 {
		args = append(args, r.IDs)
		where += fmt.Sprintf(" AND e.id = ANY($%d)", len(args))
	} else if r.Cursor != nil {
		args = append(args, r.Cursor.CreatedAt, r.Cursor.ID)
		where += fmt.Sprintf(" AND (e.created_at, e.id) > ($%d, $%d)", len(args)-1, len(args))
	}
	args = append(args, r.Max+1)
	rows, err := tx.Query(ctx, `SELECT e.created_at, e.id FROM webhook_events e WHERE `+where+
		fmt.Sprintf(` ORDER BY e.created_at, e.id LIMIT $%d`, len(args)), args...)
	if err != nil {
		return nil, err
	}
	picked, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Cursor, error) {
		var c Cursor
		err := row.Scan(&c.CreatedAt, &c.ID)
		c.CreatedAt = c.CreatedAt.UTC()
		return c, err
	})
	if err != nil {
		return nil, err
	}
	if len(r.IDs) > 0 && len(picked) < len(uniq(r.IDs)) {
		return nil, ErrUnknownEvent
	}
	return picked, nil
}

func requeue(ctx context.Context, tx pgx.Tx, t Target, picked []Cursor) error {
	if len(picked) == 0 {
		return nil
	}
	ids := make([]string, len(picked))
	for i, c := range picked {
		ids[i] = c.ID
	}
	_, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (event_id, endpoint_uid, namespace, endpoint, account, next_attempt_at)
SELECT id, $2, $3, $4, $5, now() FROM unnest($1::text[]) AS id
ON CONFLICT (event_id, endpoint_uid) DO UPDATE SET
	state = 'pending', next_attempt_at = LEAST(webhook_deliveries.next_attempt_at, now()),
	replayed = webhook_deliveries.state = 'pending',
	attempts = CASE WHEN webhook_deliveries.state = 'pending' THEN webhook_deliveries.attempts ELSE 0 END,
	last_error = CASE WHEN webhook_deliveries.state = 'pending' THEN webhook_deliveries.last_error ELSE '' END,
	delivered_at = NULL`, ids, t.UID, t.Namespace, t.Name, t.Account)
	return err
}

func uniq(ids []string) map[string]bool {
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}
