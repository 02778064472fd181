// Package pgtest runs real PostgreSQL servers on loopback for tests: the archive of finished
// intents meets PostgreSQL as production does, its migrations, locks and faults included.
// hack/postgres.sh installs the server (make test runs it first and sets POSTGRES_BINDIR); a test
// fails, not skips, without one.
package pgtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/transferintent/transfer-intent-service/internal/freeport"
)

// readyWithin bounds a start: initdb's fresh cluster starts in well under a second, and crash
// recovery after Kill replays little, but a loaded 2-core machine can be slow.
const readyWithin = 20 * time.Second

// Server is a running PostgreSQL server, its data and sockets in a temporary directory of its own,
// tuned for tests: fsync off, yet what was committed survives Kill.
type Server struct {
	// URL is the postgres:// URL of its "postgres" database as the superuser, over TCP on loopback
	// with trust authentication.
	URL string

	t      testing.TB
	bindir string
	dir    string // holds data/, the unix socket and the server's log
	port   int
	cred   *syscall.Credential // the postgres OS user when the test runs as root, else nil
	cmd    *exec.Cmd           // the postmaster, nil when killed
	exited chan struct{}       // closed when cmd has exited

	mu        sync.Mutex // guards databases: parallel tests may share the server
	databases int        // how many NewDatabase created, to name the next
}

// Start initialises a cluster and runs PostgreSQL on a free loopback port until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, bindir: bindir(t), port: freeport.MustPort(t)}
	s.URL = fmt.Sprintf("postgres://postgres@%s/postgres?sslmode=disable",
		net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)))
	s.cred = credential(t)

	// Not t.TempDir: its parent directory is private to the test's user, and when that is root
	// the postgres user could not reach a directory inside it.
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		t.Fatal(err)
	}
	s.dir = dir
	// Registered before the kill below, so it runs after it: the server's files go once it is dead.
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if s.cred != nil {
		if err := os.Chown(dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			t.Fatalf("handing %s to the postgres user: %v", dir, err)
		}
	}

	s.initdb()
	t.Cleanup(s.kill)
	s.start()
	return s
}

// bindir is where initdb and postgres are: $POSTGRES_BINDIR, else what pg_config says. Debian
// keeps them off PATH, in /usr/lib/postgresql/<major>/bin.
func bindir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("POSTGRES_BINDIR")
	if dir == "" {
		out, err := exec.Command("pg_config", "--bindir").Output()
		if err != nil {
			t.Fatal("PostgreSQL not found: run hack/postgres.sh (make test does) or set POSTGRES_BINDIR")
		}
		dir = strings.TrimSpace(string(out))
	}
	for _, name := range []string{"initdb", "postgres"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Fatalf("PostgreSQL's %s is not in %s: run hack/postgres.sh (make test does) or set POSTGRES_BINDIR", name, dir)
		}
	}
	return dir
}

// credential is who runs the server's programs (see Credential); the test fails without one.
func credential(t testing.TB) *syscall.Credential {
	t.Helper()
	cred, err := Credential()
	if err != nil {
		t.Fatal(err)
	}
	return cred
}

// Credential is who runs PostgreSQL's programs: initdb and postgres refuse to run as root, so for
// a process running as root it is the postgres OS user that Debian's package creates, and nil (the
// process's own user) otherwise. hack/localcluster uses it too.
func Credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL needs the postgres OS user (hack/postgres.sh's package creates it): %w", err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}

func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bindir, name), args...)
	cmd.Dir = s.dir
	// Killed with the test binary, so that a crashed test leaves no server behind (its backends
	// follow the postmaster's death).
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Credential: s.cred}
	return cmd
}

func (s *Server) initdb() {
	s.t.Helper()
	// Trust on loopback and the socket: nothing but the test can reach either. --no-sync: the
	// cluster lives as long as the test.
	cmd := s.command("initdb", "-D", s.dataDir(), "-U", "postgres", "-A", "trust", "-E", "UTF8",
		"--locale=C", "--no-sync", "--no-instructions")
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("initdb: %v\n%s", err, out)
	}
}

func (s *Server) dataDir() string { return filepath.Join(s.dir, "data") }
func (s *Server) logPath() string { return filepath.Join(s.dir, "postgres.log") }

func (s *Server) start() {
	s.t.Helper()
	deadline := time.Now().Add(readyWithin)
	s.launch()
	for {
		err := s.query()
		if err == nil {
			return
		}
		select {
		case <-s.exited:
			// After Kill a backend may still hold the old shared memory for a moment, and the
			// postmaster refuses to start beside it: try again until the deadline.
			s.cmd = nil
			if time.Now().After(deadline) {
				s.t.Fatalf("postgres on port %d exited while starting: %v\n%s", s.port, err, s.log())
			}
			time.Sleep(100 * time.Millisecond)
			s.launch()
			continue
		default:
		}
		if time.Now().After(deadline) {
			s.kill()
			s.t.Fatalf("postgres on port %d did not answer within %s: %v\n%s", s.port, readyWithin, err, s.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *Server) launch() {
	s.t.Helper()
	logFile, err := os.OpenFile(s.logPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	defer func() { _ = logFile.Close() }()
	// fsync and full-page writes off, for speed: they guard against a crash of the machine, which
	// a test does not have. Synchronous commit stays on: with it off a commit may sit in shared
	// memory, and Kill, a crash of the server, would lose it.
	// The unix socket goes in the server's own directory, not /var/run/postgresql.
	cmd := s.command("postgres", "-D", s.dataDir(), "-p", strconv.Itoa(s.port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+s.dir,
		"-c", "fsync=off", "-c", "full_page_writes=off", "-c", "shared_buffers=16MB")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("starting postgres: %v", err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	s.cmd, s.exited = cmd, exited
}

// query runs select 1 on a new connection, as a client would.
func (s *Server) query() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(ctx) }()
	var one int
	return conn.QueryRow(ctx, "select 1").Scan(&one)
}

// NewDatabase creates an empty database and returns its URL: tests that share one server (a
// cluster costs a second to create) each get a schema of their own.
func (s *Server) NewDatabase(t testing.TB) string {
	t.Helper()
	s.mu.Lock()
	s.databases++
	name := fmt.Sprintf("test_%d", s.databases)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	defer func() { _ = conn.Close(ctx) }()
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("%s: creating database %s: %v", s, name, err)
	}
	return fmt.Sprintf("postgres://postgres@%s/%s?sslmode=disable",
		net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)), name)
}

// Kill kills the postmaster and its backends (SIGKILL), as a crash of the server's machine does:
// held connections drop, the port is closed, and nothing is shut down cleanly.
func (s *Server) Kill() { s.kill() }

// Pause stops the postmaster and its backends (SIGSTOP): clients meet a server that accepts
// connections and queries and never answers, as behind a partition or a stalled disk.
func (s *Server) Pause() { s.signalAll(syscall.SIGSTOP) }

// Resume continues a paused server.
func (s *Server) Resume() { s.signalAll(syscall.SIGCONT) }

// signalAll signals the postmaster and its backends, the postmaster first when stopping (it
// forks no more) and last when continuing.
func (s *Server) signalAll(sig syscall.Signal) {
	if s.cmd == nil {
		return
	}
	pid := s.cmd.Process.Pid
	if sig == syscall.SIGSTOP {
		_ = syscall.Kill(pid, sig)
	}
	for _, child := range children(pid) {
		_ = syscall.Kill(child, sig)
	}
	if sig != syscall.SIGSTOP {
		_ = syscall.Kill(pid, sig)
	}
}

// Restart starts the server again on the same port and data, after crash recovery when it was
// killed. A running server is killed first.
func (s *Server) Restart() {
	s.t.Helper()
	s.kill()
	s.start()
}

func (s *Server) kill() {
	if s.cmd == nil {
		return
	}
	// Killing the postmaster alone would leave its backends serving the connections they hold
	// until they notice, and each backend calls setsid, so no process group holds them all. So:
	// stop the postmaster (it forks no more), kill its children, then it.
	pid := s.cmd.Process.Pid
	_ = syscall.Kill(pid, syscall.SIGSTOP)
	for _, child := range children(pid) {
		_ = syscall.Kill(child, syscall.SIGKILL)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	<-s.exited
	s.cmd = nil
}

// children lists the processes whose parent is pid, from /proc.
func children(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // exited meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses, so parse after the last ')'.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

func (s *Server) log() []byte {
	out, err := os.ReadFile(s.logPath())
	if err != nil {
		return []byte(err.Error())
	}
	return out
}

// String names the server in failure messages.
func (s *Server) String() string { return fmt.Sprintf("postgres on 127.0.0.1:%d", s.port) }
