// Package archive is the store of finished TransferIntents (confirmed, failed, expired) in
// PostgreSQL: they leave etcd, which should hold only what is live, and the /v2 API serves the
// live resources and the archive as one collection, newest first.
//
// Its table is the intents table of the service's database (internal/postgres, migrations
// 00001-00003). Every call is bounded by the database's timeout: a server that is gone or stalled
// costs the caller an error, never a hang.
package archive

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
)

// Record is one finished intent as the archive keeps it: the columns the API filters and orders
// by, and the whole object.
type Record struct {
	ID          string // the API id, int_transfer_…
	Namespace   string
	Account     string
	Environment string // test or live
	Type        string // transfer, swap or bridge
	Status      string // confirmed, failed or expired
	OrderID     string
	Hash        string // empty when the intent never reached the chain
	// FillHash and RefundHash are the fill's and the refund's transactions (lower case, empty
	// when there was none) and From the request's from account in lower case: the list filters
	// by them (migration 00003).
	FillHash   string
	RefundHash string
	From       string
	// IdempotencyKeyHash is the intent's spec.idempotencyKeyHash (empty: created without a key),
	// so that a retry with the key finds the intent after it left the API server.
	IdempotencyKeyHash string
	// CreatedAt and UpdatedAt are kept to the microsecond, PostgreSQL's precision: Upsert
	// truncates them, so what is read back equals what was written.
	CreatedAt time.Time
	UpdatedAt time.Time
	// Object is the TransferIntent as JSON. PostgreSQL keeps it as jsonb: it reads back as the
	// same value, not byte for byte (key order and spacing are the server's).
	Object []byte
}

// Scope is whose intents a read sees: one account in one environment of one namespace.
type Scope struct {
	Namespace   string
	Account     string
	Environment string
}

// Filter narrows a List; its zero value lists everything in scope. The conditions combine (AND).
type Filter struct {
	Type string // transfer, swap or bridge; empty for all
	// Statuses are the statuses wanted, any of them; empty for all.
	Statuses []string
	// Hash (lower case) matches the open, the fill or the refund transaction.
	Hash string
	// OrderID is lower-case bytes32 hex.
	OrderID string
	// From is the request's from account, in lower case.
	From string
	// CreatedAfter and CreatedBefore bound created_at, both exclusive; zero for no bound.
	CreatedAfter, CreatedBefore time.Time
}

// Cursor is the position of the last record of a page: List continues strictly after it.
type Cursor struct {
	CreatedAt time.Time
	ID        string
}

// CursorOf is the cursor after r.
func CursorOf(r Record) Cursor { return Cursor{CreatedAt: r.CreatedAt, ID: r.ID} }

// Store is the archive, on the service's database (internal/postgres, which creates its table).
// Its methods are safe for concurrent use.
type Store struct {
	db *postgres.DB
}

// New returns the archive in db.
func New(db *postgres.DB) *Store { return &Store{db: db} }

const columns = `id, namespace, account, environment, type, status, order_id, hash, created_at, updated_at, object, idempotency_key_hash, fill_hash, refund_hash, from_account`

// upsertSQL replaces an archived row only with one updated as late or later: a replica archiving
// from a stale cache cannot roll a record back, and writing the same record again changes nothing.
const upsertSQL = `INSERT INTO intents (` + columns + `)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
ON CONFLICT (id) DO UPDATE SET
	namespace = EXCLUDED.namespace, account = EXCLUDED.account,
	environment = EXCLUDED.environment, type = EXCLUDED.type, status = EXCLUDED.status,
	order_id = EXCLUDED.order_id, hash = EXCLUDED.hash, created_at = EXCLUDED.created_at,
	updated_at = EXCLUDED.updated_at, object = EXCLUDED.object,
	idempotency_key_hash = EXCLUDED.idempotency_key_hash, fill_hash = EXCLUDED.fill_hash,
	refund_hash = EXCLUDED.refund_hash, from_account = EXCLUDED.from_account
WHERE intents.updated_at <= EXCLUDED.updated_at`

// Upsert writes records in one transaction: all or none. Writing a record again is harmless, so a
// caller that does not know whether a batch landed sends it again.
func (s *Store) Upsert(ctx context.Context, records []Record) error {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return err
	}
	if len(records) == 0 {
		return nil
	}
	for i := range records {
		if err := validate(&records[i]); err != nil {
			return err
		}
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		// One batch: the statements go in one round trip, not one each.
		batch := &pgx.Batch{}
		for _, r := range records {
			batch.Queue(upsertSQL, r.ID, r.Namespace, r.Account, r.Environment, r.Type, r.Status,
				r.OrderID, r.Hash, r.CreatedAt.Truncate(time.Microsecond),
				r.UpdatedAt.Truncate(time.Microsecond), r.Object, r.IdempotencyKeyHash,
				r.FillHash, r.RefundHash, r.From)
		}
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil {
		return fmt.Errorf("archive: upsert of %d records: %w", len(records), err)
	}
	return nil
}

// finishedList names the finished statuses for validate's message: "(confirmed, failed, expired)".
var finishedList = func() string {
	names := make([]string, 0, len(intent.FinishedStatuses()))
	for _, st := range intent.FinishedStatuses() {
		names = append(names, string(st))
	}
	return "(" + strings.Join(names, ", ") + ")"
}()

// validate refuses what the schema would, with the record's id in the message rather than a
// constraint's name.
func validate(r *Record) error {
	bad := func(what string) error { return fmt.Errorf("archive: record %q: %s", r.ID, what) }
	switch {
	case r.ID == "":
		return errors.New("archive: record without id")
	case r.Namespace == "" || r.Account == "":
		return bad("namespace and account are required")
	case r.Environment != "test" && r.Environment != "live":
		return bad("environment " + r.Environment + " is neither test nor live")
	case r.Type != "transfer" && r.Type != "swap" && r.Type != "bridge":
		return bad("type " + r.Type + " is not transfer, swap or bridge")
	case !intent.Finished(r.Status):
		return bad("status " + r.Status + " is not a finished one " + finishedList)
	case r.CreatedAt.IsZero() || r.UpdatedAt.IsZero():
		return bad("created and updated times are required")
	case len(r.Object) == 0:
		return bad("no object")
	}
	return nil
}

// Get reads the record with id, if it is in scope.
func (s *Store) Get(ctx context.Context, scope Scope, id string) (Record, bool, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return Record{}, false, err
	}
	rows, err := pool.Query(ctx, `SELECT `+columns+` FROM intents
		WHERE id = $1 AND namespace = $2 AND account = $3 AND environment = $4`,
		id, scope.Namespace, scope.Account, scope.Environment)
	if err != nil {
		return Record{}, false, fmt.Errorf("archive: get %s: %w", id, err)
	}
	records, err := pgx.CollectRows(rows, scanRecord)
	if err != nil {
		return Record{}, false, fmt.Errorf("archive: get %s: %w", id, err)
	}
	if len(records) == 0 {
		return Record{}, false, nil
	}
	return records[0], true, nil
}

// ByIdempotencyKey reads the record of namespace created with the idempotency key hash (which
// names the account and environment too: intentstore.IdempotencyKeyHash).
func (s *Store) ByIdempotencyKey(ctx context.Context, namespace, keyHash string) (Record, bool, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return Record{}, false, err
	}
	if keyHash == "" {
		return Record{}, false, nil
	}
	rows, err := pool.Query(ctx, `SELECT `+columns+` FROM intents
		WHERE namespace = $1 AND idempotency_key_hash = $2 AND idempotency_key_hash <> '' LIMIT 1`, namespace, keyHash)
	if err != nil {
		return Record{}, false, fmt.Errorf("archive: by idempotency key: %w", err)
	}
	records, err := pgx.CollectRows(rows, scanRecord)
	if err != nil {
		return Record{}, false, fmt.Errorf("archive: by idempotency key: %w", err)
	}
	if len(records) == 0 {
		return Record{}, false, nil
	}
	return records[0], true, nil
}

// ByOrderID reads the records of namespace whose order id is orderID (lower-case bytes32 hex), in
// any account: an order's filler is not its owner.
func (s *Store) ByOrderID(ctx context.Context, namespace, orderID string) ([]Record, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return nil, err
	}
	rows, err := pool.Query(ctx, `SELECT `+columns+` FROM intents WHERE order_id = $1 AND namespace = $2 LIMIT 10`, orderID, namespace)
	if err != nil {
		return nil, fmt.Errorf("archive: by order id: %w", err)
	}
	records, err := pgx.CollectRows(rows, scanRecord)
	if err != nil {
		return nil, fmt.Errorf("archive: by order id: %w", err)
	}
	return records, nil
}

// List reads up to limit records in scope, newest first by (created_at, id), strictly after the
// cursor when there is one. Keyset pagination: a page costs the same however deep it is, and
// records archived meanwhile neither shift nor repeat the later pages.
func (s *Store) List(ctx context.Context, scope Scope, filter Filter, after *Cursor, limit int) ([]Record, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, fmt.Errorf("archive: list limit %d is not positive", limit)
	}
	// The statement is put together from fixed pieces, so that each shape matches its index
	// exactly rather than through "$n = '' OR …" that a generic plan cannot use.
	query := `SELECT ` + columns + ` FROM intents WHERE namespace = $1 AND account = $2 AND environment = $3`
	args := []any{scope.Namespace, scope.Account, scope.Environment}
	if filter.Type != "" {
		args = append(args, filter.Type)
		query += fmt.Sprintf(` AND type = $%d`, len(args))
	}
	if len(filter.Statuses) > 0 {
		args = append(args, filter.Statuses)
		query += fmt.Sprintf(` AND status = ANY($%d)`, len(args))
	}
	if filter.Hash != "" {
		args = append(args, filter.Hash)
		n := len(args)
		// The "<> ''" terms say what the partial indexes of migration 00003 need to be used by a
		// generic plan; the hash asked for is never empty.
		query += fmt.Sprintf(` AND (hash = $%d OR (fill_hash = $%d AND fill_hash <> '') OR (refund_hash = $%d AND refund_hash <> ''))`, n, n, n)
	}
	if filter.OrderID != "" {
		args = append(args, filter.OrderID)
		query += fmt.Sprintf(` AND order_id = $%d`, len(args))
	}
	if filter.From != "" {
		args = append(args, filter.From)
		query += fmt.Sprintf(` AND from_account = $%d`, len(args))
	}
	if !filter.CreatedAfter.IsZero() {
		args = append(args, filter.CreatedAfter)
		query += fmt.Sprintf(` AND created_at > $%d`, len(args))
	}
	if !filter.CreatedBefore.IsZero() {
		args = append(args, filter.CreatedBefore)
		query += fmt.Sprintf(` AND created_at < $%d`, len(args))
	}
	if after != nil {
		args = append(args, after.CreatedAt.Truncate(time.Microsecond), after.ID)
		query += fmt.Sprintf(` AND (created_at, id) < ($%d, $%d)`, len(args)-1, len(args))
	}
	args = append(args, limit)
	query += fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT $%d`, len(args))

	rows, err := pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("archive: list: %w", err)
	}
	records, err := pgx.CollectRows(rows, scanRecord)
	if err != nil {
		return nil, fmt.Errorf("archive: list: %w", err)
	}
	return records, nil
}

// DeleteUpdatedBefore deletes up to batch records last updated before t, oldest first, and says
// how many it deleted: retention calls it until that is less than batch, each call a short
// transaction rather than one that holds locks over the whole table.
func (s *Store) DeleteUpdatedBefore(ctx context.Context, t time.Time, batch int) (int, error) {
	ctx, cancel, pool, err := s.db.Call(ctx)
	defer cancel()
	if err != nil {
		return 0, err
	}
	if batch <= 0 {
		return 0, fmt.Errorf("archive: delete batch %d is not positive", batch)
	}
	tag, err := pool.Exec(ctx, `DELETE FROM intents WHERE id IN (
		SELECT id FROM intents WHERE updated_at < $1 ORDER BY updated_at LIMIT $2)`,
		t.Truncate(time.Microsecond), batch)
	if err != nil {
		return 0, fmt.Errorf("archive: delete updated before %s: %w", t.Format(time.RFC3339), err)
	}
	return int(tag.RowsAffected()), nil
}

func scanRecord(row pgx.CollectableRow) (Record, error) {
	var r Record
	err := row.Scan(&r.ID, &r.Namespace, &r.Account, &r.Environment, &r.Type, &r.Status,
		&r.OrderID, &r.Hash, &r.CreatedAt, &r.UpdatedAt, &r.Object, &r.IdempotencyKeyHash,
		&r.FillHash, &r.RefundHash, &r.From)
	// UTC, whatever the session's time zone: records compare equal however they were read.
	r.CreatedAt, r.UpdatedAt = r.CreatedAt.UTC(), r.UpdatedAt.UTC()
	return r, err
}
