// Package postgres owns the service's PostgreSQL database (--archive-url): it opens the pool, with
// a deadline on every dial, runs every schema migration (migrations/, goose, under an advisory
// lock, so that replicas that start together apply each migration once), and hands the pool to
// the tables' owners: the archive of finished intents (internal/archive, migrations 00001-00003)
// and the webhook outbox (internal/webhook/outbox, migration 00004). Both call through DB.Call,
// so that every call is bounded by Options.Timeout: a server that is gone or stalled costs the
// caller an error, never a hang.
//
// The schema is plain PostgreSQL, so that a PostgreSQL-compatible engine can take over.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Options tunes a DB; the zero value is usable.
type Options struct {
	// Timeout bounds every call, and each connection attempt; DefaultTimeout when zero.
	Timeout time.Duration
	// MigrationTimeout bounds the migrations of Open, the wait for another replica's lock
	// included; default 1 minute.
	MigrationTimeout time.Duration
	// MaxConns caps the pool; 0 keeps pgxpool's default, the greater of 4 and the CPU count.
	MaxConns int32
}

// DefaultTimeout is the default of Options.Timeout.
const DefaultTimeout = 2 * time.Second

const (
	defaultMigrationTimeout = time.Minute

	// versionTable is goose's record of applied migrations. Its name, and the lock's id below,
	// date from when the archive owned the database: renaming either would make the databases
	// already migrated run every migration again.
	versionTable = "archive_goose_version"
	// migrationLockID is the advisory lock the migrations run under: ours, not goose's default,
	// so that another goose user of the database never waits on it.
	migrationLockID int64 = 0x61726368697665 // "archive"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrNotOpen is the error of every call before the database could be opened (PostgreSQL down or
// unreachable when the manager started): callers treat it as a database that does not answer.
var ErrNotOpen = errors.New("postgres: not open yet (PostgreSQL has not answered since the start)")

// DB is the database. Open opens it at once; New returns one that a manager opens in the
// background (Start), so that the service starts, and serves live intents, while PostgreSQL is
// down. Its methods are safe for concurrent use.
type DB struct {
	url  string
	opts Options
	log  logr.Logger
	pool atomic.Pointer[pgxpool.Pool]
}

// New returns the database at url (a postgres:// URL or DSN), not open yet: add it to the manager,
// whose Start opens it.
func New(url string, opts Options, log logr.Logger) *DB {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MigrationTimeout <= 0 {
		opts.MigrationTimeout = defaultMigrationTimeout
	}
	return &DB{url: url, opts: opts, log: log}
}

// Open migrates the database at url to the newest schema and returns it open.
func Open(ctx context.Context, url string, opts Options) (*DB, error) {
	db := New(url, opts, logr.Discard())
	pool, err := db.open(ctx)
	if err != nil {
		return nil, err
	}
	db.pool.Store(pool)
	return db, nil
}

// Start opens the database, unless it is open already, retrying with a backoff from 1 s to 30 s,
// and closes it when ctx ends.
func (d *DB) Start(ctx context.Context) error {
	wait := time.Second
	for d.pool.Load() == nil {
		pool, err := d.open(ctx)
		if err == nil {
			d.pool.Store(pool)
			d.log.Info("PostgreSQL open")
			break
		}
		// The error can quote the server's address but not the password (pgx redacts it).
		d.log.Error(err, "opening PostgreSQL; retrying", "in", wait)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
	<-ctx.Done()
	d.Close()
	return nil
}

// NeedLeaderElection is false: every replica reads the database.
func (d *DB) NeedLeaderElection() bool { return false }

func (d *DB) open(ctx context.Context) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(d.url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	// A dial to a host that drops packets would otherwise wait for the kernel's TCP timeout.
	cfg.ConnConfig.ConnectTimeout = d.opts.Timeout
	if d.opts.MaxConns > 0 {
		cfg.MaxConns = d.opts.MaxConns
	}
	if err := migrate(ctx, cfg.ConnConfig.Copy(), d.opts.MigrationTimeout); err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := ping(ctx, pool, d.opts.Timeout); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// migrate applies the pending migrations. It runs on a database handle of its own, closed at the
// end: the advisory lock belongs to a session, and were its unlock to fail, closing the connection
// still releases it, where a pooled connection would keep it.
func migrate(ctx context.Context, conn *pgx.ConnConfig, timeout time.Duration) error {
	return withMigrations(ctx, conn, timeout, func(ctx context.Context, p *goose.Provider) error {
		_, err := p.Up(ctx)
		return err
	})
}

// MigrateUpTo applies the migrations up to version only, as an older release did: tests of a later
// migration write rows in the schema it finds.
func MigrateUpTo(ctx context.Context, url string, version int64) error {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return withMigrations(ctx, cfg, defaultMigrationTimeout, func(ctx context.Context, p *goose.Provider) error {
		_, err := p.UpTo(ctx, version)
		return err
	})
}

func withMigrations(ctx context.Context, conn *pgx.ConnConfig, timeout time.Duration, run func(context.Context, *goose.Provider) error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	db := stdlib.OpenDB(*conn)
	defer func() { _ = db.Close() }()

	// A replica that finds the lock taken retries each second (goose's shortest period) until
	// the timeout; the one holding it applies the migrations in a few milliseconds.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLockID),
		lock.WithLockTimeout(1, uint64(max(timeout/time.Second, 1))))
	if err != nil {
		return fmt.Errorf("postgres: migration lock: %w", err)
	}
	dir, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	provider, err := goose.NewProvider(goose.DialectPostgres, db, dir,
		goose.WithSessionLocker(locker), goose.WithTableName(versionTable),
		// The migrations are the embedded files alone, whatever else registered with goose.
		goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("postgres: migrations: %w", err)
	}
	if err := run(ctx, provider); err != nil {
		return fmt.Errorf("postgres: migrating: %w", err)
	}
	return nil
}

// Close closes the pool, if open; calls in flight finish first.
func (d *DB) Close() {
	if pool := d.pool.Load(); pool != nil {
		pool.Close()
	}
}

// Call is the pool and the context of one call, bounded by Options.Timeout, or ErrNotOpen. Call
// cancel once the call is over, whatever the error.
func (d *DB) Call(ctx context.Context) (_ context.Context, cancel context.CancelFunc, _ *pgxpool.Pool, _ error) {
	pool := d.pool.Load()
	if pool == nil {
		return ctx, func() {}, nil, ErrNotOpen
	}
	ctx, cancel = context.WithTimeout(ctx, d.opts.Timeout)
	return ctx, cancel, pool, nil
}

// Ping checks that the server answers.
func (d *DB) Ping(ctx context.Context) error {
	pool := d.pool.Load()
	if pool == nil {
		return ErrNotOpen
	}
	return ping(ctx, pool, d.opts.Timeout)
}

func ping(ctx context.Context, pool *pgxpool.Pool, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}
