package harness

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/freeport"
)

// managerStopGrace is how long the manager gets after SIGTERM before it is killed.
const managerStopGrace = 10 * time.Second

var (
	buildOnce sync.Once
	buildDir  string
	built     string
	buildErr  error
)

// Main runs the tests of a package that builds the manager and removes the binary it built: call
// it from TestMain, os.Exit(harness.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	return code
}

// ManagerBinary builds the manager from ./cmd with the go build flags once per test binary (later
// calls get the first one's binary), unless the environment variable binEnv names a prebuilt one;
// Main removes it.
func ManagerBinary(t testing.TB, binEnv string, flags ...string) string {
	t.Helper()
	if bin := os.Getenv(binEnv); bin != "" {
		return bin
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "manager-")
		if err != nil {
			buildErr = err
			return
		}
		buildDir, built = dir, filepath.Join(dir, "manager")
		args := append(append([]string{"build"}, flags...), "-o", built, "./cmd")
		cmd := exec.Command("go", args...)
		cmd.Dir = RepoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

// Manager is the manager binary running as a child of the test.
type Manager struct {
	// API is the base URL of the HTTP API, Probe of /healthz and /readyz (set by
	// ControlPlane.StartManager, which chooses them).
	API, Probe string
	LogPath    string

	bin, kubeconfig string
	args            []string
	echo            io.Writer
	cmd             *exec.Cmd
	log             *os.File
	exited          chan struct{}
	err             error // set before exited is closed
}

// RunManager runs bin with args as the identity of kubeconfig, its output in logPath (replaced)
// and copied to echo unless that is nil. It runs until Stop or Kill.
func RunManager(t testing.TB, bin, kubeconfig, logPath string, echo io.Writer, args ...string) *Manager {
	t.Helper()
	m := &Manager{LogPath: logPath, bin: bin, kubeconfig: kubeconfig, args: args, echo: echo}
	_ = os.Remove(logPath)
	m.Start(t)
	return m
}

// StartManager runs the manager against the control plane, serving namespace on loopback ports
// of its own, with its output in test/artifacts/<name>.log. It stops when the test ends; its log
// must show no data race.
func (cp *ControlPlane) StartManager(t testing.TB, namespace, name string, extraArgs ...string) *Manager {
	t.Helper()
	api, probe := freeport.MustAddr(t), freeport.MustAddr(t)
	m := RunManager(t, ManagerBinary(t, "FAULTS_MANAGER_BIN", raceFlags...), cp.Kubeconfig, filepath.Join(Artifacts(t), name+".log"), nil,
		append([]string{"--namespace", namespace, "--api-bind-address", api, "--health-probe-bind-address", probe,
			"--metrics-bind-address", "0", "--base-url", "http://" + api}, extraArgs...)...)
	m.API, m.Probe = "http://"+api, "http://"+probe
	t.Cleanup(func() {
		m.Stop()
		out, err := os.ReadFile(m.LogPath)
		if err == nil && strings.Contains(string(out), "WARNING: DATA RACE") {
			t.Errorf("the race detector found a data race in the manager: see %s", m.LogPath)
		}
	})
	return m
}

// Start runs the manager (again, after Kill or Stop) with the same arguments and ports, appending
// to its log.
func (m *Manager) Start(t testing.TB) {
	t.Helper()
	logFile, err := os.OpenFile(m.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	must(t, err)
	cmd := exec.Command(m.bin, m.args...)
	cmd.Dir = RepoRoot()
	cmd.Env = append(os.Environ(), "KUBECONFIG="+m.kubeconfig)
	cmd.Stdout = logFile
	if m.echo != nil {
		cmd.Stdout = io.MultiWriter(logFile, m.echo)
	}
	cmd.Stderr = cmd.Stdout
	// Its own process group, so that a kill reaches nothing else; it dies with the test binary.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		t.Fatalf("starting %s: %v", m.bin, err)
	}
	m.cmd, m.log, m.exited, m.err = cmd, logFile, make(chan struct{}), nil
	exited := m.exited
	go func() {
		m.err = cmd.Wait()
		close(exited)
	}()
}

// Running returns an error once the manager has exited.
func (m *Manager) Running() error {
	select {
	case <-m.exited:
		return fmt.Errorf("the manager exited (%w); see %s", m.err, m.LogPath)
	default:
		return nil
	}
}

// Kill ends the manager at once (SIGKILL): no shutdown hook runs, as when a node dies.
func (m *Manager) Kill() {
	if m.Running() != nil {
		return
	}
	_ = syscall.Kill(-m.cmd.Process.Pid, syscall.SIGKILL)
	<-m.exited
	_ = m.log.Close()
}

// Stop asks the manager to stop (SIGTERM) and kills it after the grace.
func (m *Manager) Stop() {
	defer func() { _ = m.log.Close() }()
	if m.Running() != nil {
		return
	}
	_ = syscall.Kill(-m.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(managerStopGrace):
		_ = syscall.Kill(-m.cmd.Process.Pid, syscall.SIGKILL)
		<-m.exited
	}
	var exitErr *exec.ExitError
	if m.err != nil && !errors.As(m.err, &exitErr) {
		w := io.Writer(os.Stderr)
		if m.echo != nil {
			w = m.echo
		}
		_, _ = fmt.Fprintf(w, "waiting for the manager: %v\n", m.err)
	}
}

// WaitReady waits until /readyz answers 200, failing the test at the deadline or when the manager
// exits.
func (m *Manager) WaitReady(t testing.TB, within time.Duration) {
	t.Helper()
	c := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(within)
	for {
		if err := m.Running(); err != nil {
			t.Fatal(err)
		}
		resp, err := c.Get(m.Probe + "/readyz")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the manager was not ready within %s; see %s", within, m.LogPath)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// KeyStatus is the status of GET /v2/tokens with key (0 without an answer): 200 once the manager
// serves the key.
func (m *Manager) KeyStatus(t testing.TB, key string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, m.API+"/v2/tokens", nil)
	must(t, err)
	req.Header.Set("api-key", key)
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return 0
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}
