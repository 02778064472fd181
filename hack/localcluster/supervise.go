/*
Copyright 2026 The Transfer Intent Service Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package main

import (
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// How localcluster keeps the manager running, as a kubelet keeps a container: a manager that
// exits, is killed or crashes after it came up is started again, while the control plane and the
// chains keep running; one that never came up after its first start (a bad flag, a port in use)
// ends make run with its exit code, since starting it again would fail the same way.
const (
	// managerStopGrace is how long the manager gets to shut down after SIGTERM before it is killed.
	managerStopGrace = 10 * time.Second
	// restartDelayMin is the pause before restarting a manager that had come up; each restart of
	// one that did not come up in between doubles it, up to restartDelayMax.
	restartDelayMin = time.Second
	restartDelayMax = 30 * time.Second
	// upAfter is how long a manager must run to count as up when its health probe cannot be read.
	upAfter = 30 * time.Second
	// probeInterval is how often the health probe is read until the manager is up.
	probeInterval = 200 * time.Millisecond
)

// managerProcess is how to run the manager.
type managerProcess struct {
	path       string
	args       []string
	kubeconfig string
	// healthURL is the manager's /healthz; empty when its probes are not served.
	healthURL string
}

// superviseManager runs the manager until ctx ends, restarting it when it stops by itself (see
// above), and then stops it: SIGTERM, SIGKILL after managerStopGrace or at once when hurry closes.
// It returns the exit code of make run.
func superviseManager(ctx context.Context, hurry <-chan struct{}, m managerProcess) int {
	delay := restartDelayMin
	everUp := false
	for {
		cmd, exited, err := m.start()
		if err != nil {
			log.Printf("starting the manager: %v", err)
			return 1
		}
		watch, stopWatching := context.WithCancel(ctx)
		up := m.watchUp(watch)
		select {
		case <-ctx.Done():
			stopWatching()
			stopManager(cmd, exited, hurry)
			return 0
		case err := <-exited:
			stopWatching()
			wasUp := isClosed(up)
			everUp = everUp || wasUp
			if !everUp {
				log.Print("the manager stopped before it came up; stopping (fix what it said and run make run again)")
				return managerExitCode(err)
			}
			if wasUp {
				delay = restartDelayMin
			} else {
				delay = min(2*delay, restartDelayMax)
			}
			log.Printf("the manager stopped (%s); the control plane and the local chains keep running; starting it again in %s (Ctrl-C stops make run)",
				describeExit(err), delay)
		}
		select {
		case <-ctx.Done():
			return 0
		case <-time.After(delay):
		}
	}
}

// start starts the manager in its own process group: a Ctrl-C in the terminal reaches only
// localcluster, which then stops the manager, the chains and the control plane in that order,
// instead of all of them racing. exited receives the result of Wait.
func (m managerProcess) start() (*exec.Cmd, <-chan error, error) {
	cmd := exec.Command(m.path, m.args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+m.kubeconfig)
	cmd.Stdin = nil
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid: true,
		// Should localcluster itself be killed (SIGKILL cannot be caught), the manager goes too.
		Pdeathsig: syscall.SIGTERM,
	}
	log.Printf("starting %s %s", m.path, strings.Join(m.args, " "))
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	log.Printf("the manager runs as pid %d", cmd.Process.Pid)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return cmd, exited, nil
}

// watchUp returns a channel that is closed once the manager is up: its /healthz answered 200, or,
// without a probe address, it has run for upAfter. Watching ends with ctx.
func (m managerProcess) watchUp(ctx context.Context) <-chan struct{} {
	up := make(chan struct{})
	go func() {
		start := time.Now()
		client := &http.Client{Timeout: time.Second}
		t := time.NewTicker(probeInterval)
		defer t.Stop()
		for {
			if m.healthURL == "" && time.Since(start) >= upAfter || m.healthURL != "" && probeOK(ctx, client, m.healthURL) {
				close(up)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return up
}

// probeOK says whether GET url answered 200.
func probeOK(ctx context.Context, client *http.Client, url string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// healthURL is the /healthz of a manager whose probes listen on addr ("" or port 0: none).
func healthURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "0" {
		return ""
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz"
}

// stopManager stops the manager's process group: SIGTERM, then SIGKILL after managerStopGrace or
// as soon as hurry closes.
func stopManager(cmd *exec.Cmd, exited <-chan error, hurry <-chan struct{}) {
	log.Print("stopping the manager")
	signalGroup(cmd.Process.Pid, syscall.SIGTERM)
	timer := time.NewTimer(managerStopGrace)
	defer timer.Stop()
	select {
	case err := <-exited:
		logExit(err)
	case <-timer.C:
		log.Printf("the manager did not stop within %s; killing it", managerStopGrace)
		signalGroup(cmd.Process.Pid, syscall.SIGKILL)
		logExit(<-exited)
	case <-hurry:
		log.Print("second signal; killing the manager")
		signalGroup(cmd.Process.Pid, syscall.SIGKILL)
		logExit(<-exited)
	}
}

// signalGroup signals the manager's whole process group, so that anything it started goes as well.
func signalGroup(pid int, sig syscall.Signal) {
	if err := syscall.Kill(-pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		log.Printf("signalling the manager: %v", err)
	}
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// describeExit says how the manager ended: "exit status 1", "signal: killed", "exited".
func describeExit(err error) string {
	if err == nil {
		return "exited"
	}
	return err.Error()
}

func managerExitCode(err error) int {
	if err == nil {
		log.Print("the manager exited")
		return 0
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		log.Printf("the manager exited: %v", err)
		if code := exitErr.ExitCode(); code > 0 {
			return code
		}
		return 1
	}
	log.Printf("waiting for the manager: %v", err)
	return 1
}

// logExit records how a manager that was asked to stop ended.
func logExit(err error) {
	if err != nil {
		log.Printf("the manager stopped: %v", err)
	}
}
