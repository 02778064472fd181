// Package archivebench measures the archive at scale (make bench-archive, not make test): a real
// PostgreSQL seeded with COPY, then the reads /v2 makes of it, each against a bare round trip to
// the same server measured in the same run.
package archivebench

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/transferintent/transfer-intent-service/internal/archive"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
)

// rows is ARCHIVE_BENCH_ROWS, 1,000,000 by default: the target size.
func rows(b *testing.B) int {
	n := 1_000_000
	if v := os.Getenv("ARCHIVE_BENCH_ROWS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1000 {
			b.Fatalf("ARCHIVE_BENCH_ROWS=%q: want a number of at least 1000", v)
		}
	}
	return n
}

const accounts = 10

// object is a stored intent of the size the service writes (about 1.3 KB of JSON).
func object(id, account, typ string) []byte {
	return fmt.Appendf(nil, `{"apiVersion":"intents.transferintent.io/v1alpha1","kind":"TransferIntent","metadata":{"name":"%s","namespace":"bench","labels":{"intents.transferintent.io/account":"%s","intents.transferintent.io/status":"confirmed","intents.transferintent.io/type":"%s"},"creationTimestamp":"2026-11-01T00:00:00Z"},"spec":{"id":"%s","accountRef":{"name":"%s"},"apiKeyRef":{"name":"key-%s"},"environment":"test","type":"%s","fromChain":"eip155:11155111","toChain":"eip155:11155111","orderId":"0x5f2c1b8e8d2b4c0a9e7f6d5c4b3a29181706f5e4d3c2b1a09f8e7d6c5b4a3928","request":{"from":"eip155:11155111:0x1111111111111111111111111111111111111111","to":"eip155:11155111:0x2222222222222222222222222222222222222222","asset":{"in":"eip155:11155111:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"},"amount":"125.5"},"tx":{"to":"0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238","data":"0xa9059cbb000000000000000000000000222222222222222222222222222222222222222200000000000000000000000000000000000000000000000000000000077b0e60","value":"0","chainId":11155111,"gas":65000},"expiresAt":"2026-11-01T01:00:00Z"},"status":{"phase":"confirmed","hash":"0x8a1f0c9e2b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d","blockNumber":7123456,"blockHash":"0x1b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5d6e7f8091a2b3c4d5e6f70819","updatedAt":"2026-11-01T00:00:30Z","conditions":[{"type":"Transaction","status":"True","reason":"Confirmed","message":"transaction succeeded in block 7123456","lastTransitionTime":"2026-11-01T00:00:30Z"},{"type":"Ready","status":"True","reason":"Terminal","message":"the intent is confirmed","lastTransitionTime":"2026-11-01T00:00:30Z"}]}}`,
		id, account, typ, id, account, account, typ)
}

// seed COPYs n records over the accounts (60% transfers, 25% swaps, 15% bridges), oldest first,
// and returns the ids of the first account, newest first.
func seed(b *testing.B, url string, n int) []string {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = conn.Close(ctx) }()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var first []string
	i := 0
	src := pgx.CopyFromFunc(func() ([]any, error) {
		if i == n {
			return nil, nil
		}
		at := start.Add(time.Duration(i) * 10 * time.Second)
		id := intent.NewIntentID(at)
		account := "acct-" + strconv.Itoa(i%accounts)
		typ := [...]string{"transfer", "transfer", "transfer", "transfer", "transfer", "transfer", "swap", "swap", "swap", "bridge"}[i/accounts%10]
		if i%accounts == 0 {
			first = append(first, id)
		}
		i++
		return []any{id, "bench", account, "test", typ, "confirmed", fmt.Sprintf("0x%064x", i), fmt.Sprintf("0x%064x", n+i),
			at, at.Add(30 * time.Second), object(id, account, typ), ""}, nil
	})
	took := time.Now()
	copied, err := conn.CopyFrom(ctx, pgx.Identifier{"intents"}, []string{"id", "namespace", "account", "environment", "type", "status",
		"order_id", "hash", "created_at", "updated_at", "object", "idempotency_key_hash"}, src)
	if err != nil || int(copied) != n {
		b.Fatalf("COPY: %d rows, %v", copied, err)
	}
	fmt.Printf("seeded %d rows with COPY in %s (%.0f rows/s)\n", n, time.Since(took).Round(time.Second), float64(n)/time.Since(took).Seconds())
	if _, err := conn.Exec(ctx, "ANALYZE intents"); err != nil {
		b.Fatal(err)
	}
	var size int64
	if err := conn.QueryRow(ctx, "SELECT pg_total_relation_size('intents')").Scan(&size); err != nil {
		b.Fatal(err)
	}
	fmt.Printf("archive size: %d MiB, %d bytes per intent (table, TOAST and indexes)\n", size>>20, size/int64(n))
	slices.Reverse(first)
	return first
}

// latencies runs call rounds times and returns its p50 and p99.
func latencies(b *testing.B, rounds int, call func() error) (p50, p99 time.Duration) {
	took := make([]time.Duration, rounds)
	for i := range took {
		start := time.Now()
		if err := call(); err != nil {
			b.Fatal(err)
		}
		took[i] = time.Since(start)
	}
	slices.Sort(took)
	return took[rounds/2], took[rounds*99/100]
}

// BenchmarkArchiveReads seeds the archive and measures the reads /v2 makes: the first page (50),
// a page in the middle of an account's intents (by cursor), the first page of one type, a get by
// id; the baseline is a bare round trip (SELECT 1) over the same pool in the same run.
func BenchmarkArchiveReads(b *testing.B) {
	n := rows(b)
	pg := pgtest.Start(b)
	db, err := postgres.Open(context.Background(), pg.URL, postgres.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	store := archive.New(db)
	ids := seed(b, pg.URL, n)
	ctx := context.Background()
	scope := archive.Scope{Namespace: "bench", Account: "acct-0", Environment: "test"}
	middle := ids[len(ids)/2]
	cursor := &archive.Cursor{CreatedAt: intent.IDTime(middle), ID: middle}
	// The intent store as /v2 uses it (an empty live index here): the archive's page, decoded into
	// summaries and merged.
	intents, err := intentstore.New(nil, nil, nil, intentstore.Options{Namespace: "bench", Archive: store})
	if err != nil {
		b.Fatal(err)
	}
	owner := intentstore.Owner{Account: "acct-0", Environment: "test"}
	const rounds = 2000
	cases := []struct {
		name string
		call func() error
	}{
		{"baseline: SELECT 1 round trip", func() error { return db.Ping(ctx) }},
		{"first page (50)", func() error { _, err := store.List(ctx, scope, archive.Filter{}, nil, 51); return err }},
		{"middle page by cursor (50)", func() error { _, err := store.List(ctx, scope, archive.Filter{}, cursor, 51); return err }},
		{"first page, type=swap (50)", func() error { _, err := store.List(ctx, scope, archive.Filter{Type: "swap"}, nil, 51); return err }},
		{"get by id", func() error { _, _, err := store.Get(ctx, scope, middle); return err }},
		{"intent store: first page (50)", func() error { _, _, err := intents.List(ctx, owner, intentstore.Filter{}, "", 50); return err }},
		{"intent store: middle page (50)", func() error { _, _, err := intents.List(ctx, owner, intentstore.Filter{}, middle, 50); return err }},
		{"intent store: get by id", func() error { _, _, err := intents.Get(ctx, owner, middle); return err }},
	}
	b.ResetTimer()
	for b.Loop() {
		var base time.Duration
		fmt.Printf("\n%-32s %10s %10s %14s   (%d rows, %d per account, %d rounds)\n", "read", "p50", "p99", "p99/baseline", n, n/accounts, rounds)
		for i, c := range cases {
			p50, p99 := latencies(b, rounds, c.call)
			if i == 0 {
				base = p99
			}
			fmt.Printf("%-32s %10s %10s %13.1fx\n", c.name, p50.Round(time.Microsecond), p99.Round(time.Microsecond), float64(p99)/float64(base))
			b.ReportMetric(float64(p99.Microseconds()), "p99-us/"+strconv.Itoa(i))
		}
	}
}
