// Package redistest runs real redis-server processes on loopback for tests: the shared rate
// limiter and the multi-replica harness meet Redis as production does. hack/redis.sh installs the
// server (make test runs it first); a test fails, not skips, without one.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/transferintent/transfer-intent-service/internal/freeport"
)

// Server is a running redis-server with no persistence.
type Server struct {
	// Addr is its host:port on loopback.
	Addr string
	cmd  *exec.Cmd
	port int
	dir  string
	t    testing.TB
}

// Start runs a redis-server on a free loopback port until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{port: freeport.MustPort(t), dir: t.TempDir(), t: t}
	s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
	s.start()
	t.Cleanup(func() { s.kill() })
	return s
}

func binary(t testing.TB) string {
	t.Helper()
	if path := os.Getenv("REDIS_SERVER"); path != "" {
		return path
	}
	path, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server not found: run hack/redis.sh (make test does) or set REDIS_SERVER")
	}
	return path
}

func (s *Server) start() {
	s.t.Helper()
	s.cmd = exec.Command(binary(s.t), "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir, "--protected-mode", "yes")
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
	}
	c := s.Client()
	defer func() { _ = c.Close() }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("redis-server on %s did not answer within 10s: %v", s.Addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Client is a client of the server that keeps to its callers' deadlines; close it when done.
func (s *Server) Client() *redis.Client {
	return redis.NewClient(&redis.Options{Addr: s.Addr, ContextTimeoutEnabled: true})
}

// URL is the server's redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr + "/0" }

// Stop kills the server (SIGKILL): clients meet a closed port.
func (s *Server) Stop() { s.kill() }

// Pause stops the server (SIGSTOP): clients meet a port that accepts and never answers.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume continues a paused server.
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }

// Restart starts a stopped server again on the same port, empty.
func (s *Server) Restart() {
	s.t.Helper()
	s.start()
}

func (s *Server) signal(sig syscall.Signal) {
	if s.cmd != nil && s.cmd.Process != nil {
		if err := s.cmd.Process.Signal(sig); err != nil {
			s.t.Errorf("signalling redis-server: %v", err)
		}
	}
}

func (s *Server) kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// String names the server in failure messages.
func (s *Server) String() string { return fmt.Sprintf("redis-server on %s", s.Addr) }
