package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/freeport"
)

// managerProcess is bin/manager running against the control plane, with its API, probes and
// plain-HTTP metrics on free loopback ports.
type managerProcess struct {
	cmd     *exec.Cmd
	started time.Time
	exited  chan struct{}
	err     error
	api     string // base URL of the HTTP API
	probes  string // base URL of /readyz
	metrics string // URL of /metrics
	logPath string
}

func startManager(bin string, env []string, kubeconfig, namespace, logPath string, extra ...string) (*managerProcess, error) {
	addrs, err := freeport.Addrs(3)
	if err != nil {
		fatalf("finding a free port: %v", err)
	}
	api, probes, metricsAddr := addrs[0], addrs[1], addrs[2]
	args := append([]string{
		"--namespace", namespace,
		"--api-bind-address", api,
		"--health-probe-bind-address", probes,
		"--metrics-bind-address", metricsAddr,
		"--metrics-secure=false",
	}, extra...)
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), env...), "KUBECONFIG="+kubeconfig)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	m := &managerProcess{cmd: cmd, exited: make(chan struct{}), logPath: logPath,
		api: "http://" + api, probes: "http://" + probes, metrics: "http://" + metricsAddr + "/metrics"}
	m.started = time.Now()
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	go func() {
		m.err = cmd.Wait()
		_ = logFile.Close()
		close(m.exited)
	}()
	return m, nil
}

func (m *managerProcess) pid() int { return m.cmd.Process.Pid }

func (m *managerProcess) alive() error {
	select {
	case <-m.exited:
		return fmt.Errorf("the manager exited (%w); see %s", m.err, m.logPath)
	default:
		return nil
	}
}

// waitReady polls /readyz until it answers 200 and returns the time since the process started.
func (m *managerProcess) waitReady(ctx context.Context, timeout time.Duration) (time.Duration, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if err := m.alive(); err != nil {
			return 0, err
		}
		if status, _, err := get(ctx, m.probes+"/readyz", ""); err == nil && status == http.StatusOK {
			return time.Since(m.started), nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return 0, fmt.Errorf("the manager was not ready within %s; see %s", timeout, m.logPath)
}

// waitReconciled waits until the TransferIntent controller has reconciled at least n intents
// and its queue is empty: the first pass a started leader makes over every intent.
func (m *managerProcess) waitReconciled(ctx context.Context, n int, timeout time.Duration) (time.Duration, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if err := m.alive(); err != nil {
			return 0, err
		}
		ms, err := scrape(ctx, m.metrics)
		if err == nil {
			done := ms.sum("controller_runtime_reconcile_total", map[string]string{"controller": "transferintent"})
			depth := ms.sum("workqueue_depth", map[string]string{"name": "transferintent"})
			if done >= float64(n) && depth == 0 {
				return time.Since(m.started), nil
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	return 0, fmt.Errorf("the TransferIntent controller did not finish its first pass within %s", timeout)
}

// waitDrained waits until the TransferIntent controller's queue has been empty for a second and
// returns how long that took.
func (m *managerProcess) waitDrained(ctx context.Context, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	var emptySince time.Time
	for time.Since(start) < timeout {
		if err := m.alive(); err != nil {
			return 0, err
		}
		ms, err := scrape(ctx, m.metrics)
		switch {
		case err != nil || ms.sum("workqueue_depth", map[string]string{"name": "transferintent"}) > 0:
			emptySince = time.Time{}
		case emptySince.IsZero():
			emptySince = time.Now()
		case time.Since(emptySince) >= time.Second:
			return emptySince.Sub(start), nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return 0, fmt.Errorf("the TransferIntent controller's queue did not empty within %s", timeout)
}

func (m *managerProcess) stop() {
	if m.alive() != nil {
		return
	}
	_ = syscall.Kill(-m.pid(), syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-m.pid(), syscall.SIGKILL)
		<-m.exited
	}
}

// sample is the manager's memory now: RSS and peak from /proc, the Go heap from its metrics.
type managerMemory struct {
	memory
	// heapLive is the heap the last garbage collection found live; heapInuse also holds what
	// was allocated since.
	heapLive, heapInuse, heapAlloc float64
}

func (m *managerProcess) memory(ctx context.Context) (managerMemory, error) {
	mem, err := processMemory(m.pid())
	if err != nil {
		return managerMemory{}, err
	}
	ms, err := scrape(ctx, m.metrics)
	if err != nil {
		return managerMemory{}, err
	}
	live := ms.sum("go_gc_heap_live_bytes", nil)
	if live == 0 {
		// The heap goal is the live heap of the last collection grown by GOGC percent.
		gogc := ms.sum("go_gc_gogc_percent", nil)
		if gogc <= 0 {
			gogc = 100
		}
		live = ms.sum("go_memstats_next_gc_bytes", nil) / (1 + gogc/100)
	}
	return managerMemory{memory: mem, heapLive: live, heapInuse: ms.sum("go_memstats_heap_inuse_bytes", nil),
		heapAlloc: ms.sum("go_memstats_heap_alloc_bytes", nil)}, nil
}

// writes counts the manager's PATCH, PUT and POST requests to the API server so far.
func (m *managerProcess) writes(ctx context.Context) (float64, error) {
	ms, err := scrape(ctx, m.metrics)
	if err != nil {
		return 0, err
	}
	total := 0.0
	for _, method := range []string{"PATCH", "PUT", "POST", "DELETE"} {
		total += ms.sum("rest_client_requests_total", map[string]string{"method": method})
	}
	return total, nil
}

var httpClient = &http.Client{
	Timeout:   30 * time.Second,
	Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256, DisableCompression: true},
}

// get fetches a URL with the API key (none when key is empty).
func get(ctx context.Context, u, key string) (int, []byte, error) {
	return do(ctx, http.MethodGet, u, key, nil, nil)
}

func do(ctx context.Context, method, u, key string, body []byte, header http.Header) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = strings.NewReader(string(body))
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, nil, err
	}
	if key != "" {
		req.Header.Set("api-key", key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if header != nil {
		for k := range header {
			delete(header, k)
		}
		for k, v := range resp.Header {
			header[k] = v
		}
	}
	return resp.StatusCode, data, err
}

// nextCursor is the cursor of the Link header's next page, "" on the last page.
func nextCursor(link string) (string, error) {
	if link == "" {
		return "", nil
	}
	start, end := strings.IndexByte(link, '<'), strings.IndexByte(link, '>')
	if start < 0 || end < start {
		return "", errors.New("malformed Link header " + link)
	}
	u, err := url.Parse(link[start+1 : end])
	if err != nil {
		return "", err
	}
	return u.Query().Get("cursor"), nil
}
