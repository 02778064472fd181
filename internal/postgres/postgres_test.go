package postgres

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/jackc/pgx/v5"

	"github.com/transferintent/transfer-intent-service/internal/pgtest"
)

// TestMigrations runs the migrations on one server, each case in a database of its own.
func TestMigrations(t *testing.T) {
	srv := pgtest.Start(t)
	t.Run("MigratesAnEmptyDatabase", func(t *testing.T) {
		url := srv.NewDatabase(t)
		db, err := Open(context.Background(), url, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.Close)
		if got := appliedVersions(t, url); !reflect.DeepEqual(got, eachOnce(t)) {
			t.Fatalf("applied migrations (version: times) = %v, want each file once", got)
		}
		// Opening a migrated database changes nothing.
		again, err := Open(context.Background(), url, Options{})
		if err != nil {
			t.Fatal(err)
		}
		again.Close()
		if got := appliedVersions(t, url); !reflect.DeepEqual(got, eachOnce(t)) {
			t.Fatalf("after a second Open: %v", got)
		}
		if err := db.Ping(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("MigratesFromTheFirstVersion", func(t *testing.T) {
		url := srv.NewDatabase(t)
		if err := MigrateUpTo(context.Background(), url, 1); err != nil {
			t.Fatal(err)
		}
		if got := appliedVersions(t, url); !reflect.DeepEqual(got, map[int64]int{1: 1}) {
			t.Fatalf("after MigrateUpTo 1: %v", got)
		}
		db, err := Open(context.Background(), url, Options{})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		if got := appliedVersions(t, url); !reflect.DeepEqual(got, eachOnce(t)) {
			t.Fatalf("applied migrations (version: times) = %v, want each file once", got)
		}
	})
	t.Run("StartOpensInTheBackground", func(t *testing.T) { testStart(t, srv.NewDatabase(t)) })
}

// testStart checks that calls fail with ErrNotOpen until Start opened the database, and succeed
// after.
func testStart(t *testing.T, url string) {
	db := New(url, Options{}, logr.Discard())
	if _, cancel, _, err := db.Call(context.Background()); !errors.Is(err, ErrNotOpen) {
		t.Fatalf("Call before Start: %v, want ErrNotOpen", err)
	} else {
		cancel()
	}
	if err := db.Ping(context.Background()); !errors.Is(err, ErrNotOpen) {
		t.Fatalf("Ping before Start: %v, want ErrNotOpen", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- db.Start(ctx) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for db.Ping(context.Background()) != nil {
		if time.Now().After(deadline) {
			t.Fatal("Start did not open the database")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := appliedVersions(t, url); !reflect.DeepEqual(got, eachOnce(t)) {
		t.Fatalf("applied migrations after Start = %v, want each file once", got)
	}
}

// TestConcurrentOpensMigrateOnce starts three replicas together on a fresh database: the advisory
// lock lets one apply the migrations, and the others find them applied.
func TestConcurrentOpensMigrateOnce(t *testing.T) {
	srv := pgtest.Start(t)
	url := srv.NewDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() {
			db, err := Open(context.Background(), url, Options{})
			if err == nil {
				db.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("replica %d: %v", i, err)
		}
	}
	if got := appliedVersions(t, url); !reflect.DeepEqual(got, eachOnce(t)) {
		t.Fatalf("applied migrations (version: times) = %v, want each file once", got)
	}
}

// TestOpenFailsWithoutAServer returns an error, within the timeouts, where no server listens.
func TestOpenFailsWithoutAServer(t *testing.T) {
	srv := pgtest.Start(t)
	srv.Kill()
	start := time.Now()
	_, err := Open(context.Background(), srv.URL, Options{Timeout: 500 * time.Millisecond, MigrationTimeout: 2 * time.Second})
	if err == nil {
		t.Fatal("Open succeeded without a server")
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Fatalf("Open took %s to fail", took)
	}
}

// appliedVersions counts goose's applied rows per migration version (its own version 0 aside).
func appliedVersions(t *testing.T, url string) map[int64]int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close(context.Background()) }()
	rows, err := conn.Query(context.Background(),
		`SELECT version_id, count(*) FROM `+versionTable+` WHERE is_applied AND version_id > 0 GROUP BY version_id`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]int{}
	var version int64
	var n int
	if _, err := pgx.ForEachRow(rows, []any{&version, &n}, func() error { out[version] = n; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// eachOnce is what appliedVersions should read: every embedded migration, applied once.
func eachOnce(t *testing.T) map[int64]int {
	t.Helper()
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations embedded: %v", err)
	}
	out := map[int64]int{}
	for _, f := range files {
		digits, _, _ := strings.Cut(path.Base(f), "_")
		version, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			t.Fatalf("migration %s: %v", f, err)
		}
		out[version] = 1
	}
	return out
}

// A database that ran the migrations before they moved here knows them by this table and this
// lock: renaming either would run every migration again, or let two replicas migrate at once.
func TestTheMigrationsKeepTheirTableAndLock(t *testing.T) {
	if versionTable != "archive_goose_version" || migrationLockID != 0x61726368697665 {
		t.Errorf("version table %q, lock id %#x; existing databases know archive_goose_version and 0x61726368697665",
			versionTable, migrationLockID)
	}
}
