package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
)

// planNode is a node of EXPLAIN (FORMAT JSON)'s plan.
type planNode struct {
	NodeType     string     `json:"Node Type"`
	RelationName string     `json:"Relation Name"`
	Plans        []planNode `json:"Plans"`
}

func (n planNode) seqScans(relation string) int {
	count := 0
	if n.NodeType == "Seq Scan" && n.RelationName == relation {
		count++
	}
	for _, c := range n.Plans {
		count += c.seqScans(relation)
	}
	return count
}

// At 1,000,000 due deliveries (5,000 events to each of 200 endpoints of 20 accounts), the claim
// reads webhook_deliveries through its index only, never by a sequential scan, and takes
// milliseconds: its cost follows the endpoints, not the deliveries.
func TestClaimIsAnIndexScanAtAMillionDueDeliveries(t *testing.T) {
	srv := pgtest.Start(t)
	db, err := postgres.Open(context.Background(), srv.NewDatabase(t), postgres.Options{Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	ctx := context.Background()
	_, cancel, pool, err := db.Call(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	start := time.Now()
	// The queue's index is built after the rows (from the migration's own definition): a million
	// inserts that each update it take minutes on a small machine.
	var queueIndex string
	if err := pool.QueryRow(ctx, `SELECT indexdef FROM pg_indexes WHERE indexname = 'webhook_deliveries_queue'`).Scan(&queueIndex); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`SET synchronous_commit = off`,
		`DROP INDEX webhook_deliveries_queue`,
		`INSERT INTO webhook_events (id, namespace, account, environment, intent_id, type, sequence, created_at, body)
		 SELECT 'evt_' || lpad(i::text, 6, '0'), 'ns', 'acct-' || (i % 20), 'test', 'int_' || i, 'transfer.created', 1, now(), '{}'
		 FROM generate_series(1, 5000) i`,
		`INSERT INTO webhook_deliveries (event_id, endpoint_uid, namespace, endpoint, account, next_attempt_at)
		 SELECT 'evt_' || lpad(i::text, 6, '0'), 'uid-' || lpad(j::text, 3, '0'), 'ns', 'ep-' || j, 'acct-' || (j % 20),
		        now() - make_interval(secs => i)
		 FROM generate_series(1, 5000) i, generate_series(1, 200) j`,
		queueIndex,
		`ANALYZE webhook_deliveries`,
		`ANALYZE webhook_events`,
	} {
		if _, err := pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("1,000,000 due deliveries written in %s", time.Since(start).Round(time.Millisecond))

	busy := []string{"uid-001", "uid-002"}
	args := claimArgs(Claim{Limit: 32, Lease: time.Minute, Busy: busy, Held: map[string]int{"ns/acct-1": 2}})
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var raw string
		if err := tx.QueryRow(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+claimSQL, args...).Scan(&raw); err != nil {
			return err
		}
		var plans []struct {
			Plan          planNode `json:"Plan"`
			ExecutionTime float64  `json:"Execution Time"`
		}
		if err := json.Unmarshal([]byte(raw), &plans); err != nil {
			return err
		}
		if n := plans[0].Plan.seqScans("webhook_deliveries"); n != 0 {
			t.Errorf("the claim scans webhook_deliveries sequentially (%d times):\n%s", n, raw)
		}
		t.Logf("claim at 1,000,000 due deliveries: %.1f ms (EXPLAIN ANALYZE execution time)", plans[0].ExecutionTime)
		if !strings.Contains(raw, "webhook_deliveries_queue") {
			t.Errorf("the claim does not use webhook_deliveries_queue:\n%s", raw)
		}
		// Timed as the deliverer calls it: 32 deliveries, one per endpoint, none busy.
		begin := time.Now()
		rows, err := tx.Query(ctx, claimSQL, args...)
		if err != nil {
			return err
		}
		n := 0
		for rows.Next() {
			n++
		}
		rows.Close()
		if n != 32 {
			t.Errorf("claimed %d; want 32", n)
		}
		t.Logf("claim of 32 at 1,000,000 due deliveries: %s", time.Since(begin).Round(10*time.Microsecond))
		return errRollback
	})
	if err != nil && !errors.Is(err, errRollback) {
		t.Fatal(err)
	}
}

type rollback struct{}

func (rollback) Error() string { return "rollback" }

var errRollback error = rollback{}
