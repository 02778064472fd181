package outbox

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Claim is what a deliverer asks of the outbox: as many deliveries as it has free workers, none of
// the endpoints it is sending to, and how many of its workers each account holds now.
type Claim struct {
	// Limit is the most deliveries taken (the free workers).
	Limit int
	// Lease is how long the claimed deliveries are left alone.
	Lease time.Duration
	// Busy are the endpoints (UIDs) a worker is sending to: none of theirs is taken.
	Busy []string
	// Held counts the workers each account holds now, by AccountKey.
	Held map[string]int
}

// AccountKey names an account across namespaces, as Claim.Held counts it.
func AccountKey(namespace, account string) string { return namespace + "/" + account }

// claimSQL takes, of each endpoint with a due delivery, its oldest one, and shares the free
// workers between accounts before endpoints: an endpoint's place is its rank among its account's
// endpoints (oldest due first) plus the workers its account holds already, so an account with one
// waiting endpoint goes before the 200th of an account that floods, whatever their ages. Ties go
// to the oldest.
//
// It costs a few index probes per endpoint with pending deliveries, however many are due: the
// endpoints are walked through webhook_deliveries_queue one after the other (a loose index scan,
// the recursive part), and each one's oldest due delivery is the first entry of its range of that
// index (the lateral part). The chosen deliveries' next attempt moves to the end of the lease:
// another deliverer (or this one after a restart) takes them again only if the attempt's outcome
// was never written. SKIP LOCKED lets two deliverers (two leaders for a moment) split the work.
const claimSQL = `WITH RECURSIVE endpoints AS (
	(SELECT endpoint_uid FROM webhook_deliveries WHERE state = 'pending' ORDER BY endpoint_uid LIMIT 1)
	UNION ALL
	SELECT (SELECT d.endpoint_uid FROM webhook_deliveries d
		WHERE d.state = 'pending' AND d.endpoint_uid > e.endpoint_uid ORDER BY d.endpoint_uid LIMIT 1)
	FROM endpoints e WHERE e.endpoint_uid IS NOT NULL),
heads AS (
	SELECT h.* FROM endpoints e CROSS JOIN LATERAL (
		SELECT d.event_id, d.endpoint_uid, d.namespace, d.account, d.next_attempt_at FROM webhook_deliveries d
		WHERE d.state = 'pending' AND d.endpoint_uid = e.endpoint_uid AND d.next_attempt_at <= now()
		ORDER BY d.next_attempt_at, d.event_id LIMIT 1) h
	WHERE e.endpoint_uid IS NOT NULL AND NOT (e.endpoint_uid = ANY($3::text[]))),
turns AS (
	SELECT heads.event_id, heads.endpoint_uid, heads.next_attempt_at,
		row_number() OVER (PARTITION BY heads.namespace, heads.account ORDER BY heads.next_attempt_at, heads.event_id)
			+ coalesce(held.workers, 0) AS turn
	FROM heads LEFT JOIN unnest($4::text[], $5::int[]) AS held(account_key, workers)
		ON held.account_key = heads.namespace || '/' || heads.account),
due AS (
	SELECT d.event_id, d.endpoint_uid FROM webhook_deliveries d
	JOIN turns t ON t.event_id = d.event_id AND t.endpoint_uid = d.endpoint_uid
	WHERE d.state = 'pending' AND d.next_attempt_at <= now()
	ORDER BY t.turn, t.next_attempt_at, t.event_id
	LIMIT $1 FOR UPDATE OF d SKIP LOCKED)
UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => $2), replayed = false
FROM due, webhook_events e
WHERE d.event_id = due.event_id AND d.endpoint_uid = due.endpoint_uid AND e.id = d.event_id
RETURNING d.event_id, d.endpoint_uid, d.namespace, d.endpoint, d.account, d.attempts, e.type, e.sequence, e.created_at, e.body`

// Claim takes up to c.Limit due deliveries for c.Lease: at most one of each endpoint (its
// oldest), none of c.Busy's, shared between accounts as claimSQL says.
func (s *Store) Claim(ctx context.Context, c Claim) ([]Delivery, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return nil, err
	}
	rows, err := pool.Query(ctx, claimSQL, claimArgs(c)...)
	if err != nil {
		return nil, fmt.Errorf("outbox: claiming deliveries: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Delivery, error) {
		var d Delivery
		err := row.Scan(&d.EventID, &d.EndpointUID, &d.Namespace, &d.Endpoint, &d.Account, &d.Attempts, &d.Type, &d.Sequence, &d.EventCreatedAt, &d.Body)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("outbox: claiming deliveries: %w", err)
	}
	return out, nil
}

func claimArgs(c Claim) []any {
	busy := c.Busy
	if busy == nil {
		busy = []string{}
	}
	accounts, workers := make([]string, 0, len(c.Held)), make([]int32, 0, len(c.Held))
	for k, n := range c.Held {
		accounts, workers = append(accounts, k), append(workers, int32(n))
	}
	return []any{c.Limit, c.Lease.Seconds(), busy, accounts, workers}
}
