package pgtest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestKillAndRestart walks the life a fault test relies on: a server that answers, a kill that
// drops a held connection and refuses new ones, and a restart on the same URL and data.
func TestKillAndRestart(t *testing.T) {
	s := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	conn, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close(context.Background()) }()
	if got := selectOne(ctx, t, conn); got != 1 {
		t.Fatalf("select 1 = %d", got)
	}
	// Data written before the kill is there after the restart: the same data directory.
	if _, err := conn.Exec(ctx, "create table survives (n int); insert into survives values (42)"); err != nil {
		t.Fatal(err)
	}

	s.Kill()
	if err := conn.QueryRow(ctx, "select 1").Scan(new(int)); err == nil {
		t.Fatal("a connection held across the kill still answered")
	}
	if c, err := pgx.Connect(ctx, s.URL); err == nil {
		_ = c.Close(ctx)
		t.Fatal("a new connection succeeded to a killed server")
	}
	s.Kill() // killing a dead server is harmless

	s.Restart()
	again, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		t.Fatalf("after restart: %v", err)
	}
	defer func() { _ = again.Close(context.Background()) }()
	if got := selectOne(ctx, t, again); got != 1 {
		t.Fatalf("select 1 = %d after restart", got)
	}
	var n int
	if err := again.QueryRow(ctx, "select n from survives").Scan(&n); err != nil || n != 42 {
		t.Fatalf("the row written before the kill: %d, %v", n, err)
	}
}

func selectOne(ctx context.Context, t *testing.T, conn *pgx.Conn) int {
	t.Helper()
	var one int
	if err := conn.QueryRow(ctx, "select 1").Scan(&one); err != nil {
		t.Fatal(err)
	}
	return one
}

// TestNewDatabase gives each caller an empty database of its own on the one server.
func TestNewDatabase(t *testing.T) {
	s := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	urls := []string{s.NewDatabase(t), s.NewDatabase(t)}
	if urls[0] == urls[1] {
		t.Fatalf("two databases at one URL %s", urls[0])
	}
	for i, url := range urls {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = conn.Close(context.Background()) }()
		if i == 0 {
			if _, err := conn.Exec(ctx, "create table mine (n int)"); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var tables int
		if err := conn.QueryRow(ctx, "select count(*) from pg_tables where tablename = 'mine'").Scan(&tables); err != nil || tables != 0 {
			t.Fatalf("the second database sees %d tables of the first (%v)", tables, err)
		}
	}
}

// TestPauseAndResume: a paused server holds a query unanswered until the client's deadline, and
// answers again once resumed.
func TestPauseAndResume(t *testing.T) {
	s := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close(context.Background()) }()

	s.Pause()
	short, cancelShort := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancelShort()
	if err := conn.QueryRow(short, "select 1").Scan(new(int)); err == nil {
		t.Fatal("a paused server answered")
	}
	s.Resume()
	again, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		t.Fatalf("after resume: %v", err)
	}
	defer func() { _ = again.Close(context.Background()) }()
	if got := selectOne(ctx, t, again); got != 1 {
		t.Fatalf("select 1 = %d after resume", got)
	}
}
