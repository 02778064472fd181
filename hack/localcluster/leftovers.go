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
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A localcluster killed outright (SIGKILL cannot be caught) leaves its etcd and kube-apiserver
// running: envtest starts them without a parent-death signal. With a temporary data directory
// they only leaked; with a kept one the leftover etcd holds the data directory, and the next
// etcd on it never comes up. So localcluster records its control plane's processes in the state
// directory once they run, and the next localcluster (which holds the lock, so the recorder is
// gone) stops those that still run before it starts its own. A process is known by its pid, its
// start time and its name, so that a reused pid is never signalled. Linux only (/proc); elsewhere
// nothing is recorded.
const (
	controlPlanePIDsFile = "control-plane.pids"
	// leftoverStopGrace is how long a leftover gets to exit after SIGTERM before SIGKILL.
	leftoverStopGrace = 10 * time.Second
)

// controlPlaneNames are the processes of the control plane, as /proc/<pid>/stat names them.
var controlPlaneNames = map[string]bool{"etcd": true, "kube-apiserver": true}

// process identifies one process across time.
type process struct {
	pid   int
	start string // start time in clock ticks after boot, field 22 of /proc/<pid>/stat
	name  string
}

func (p process) String() string { return fmt.Sprintf("%s (pid %d)", p.name, p.pid) }

// procStat is what localcluster reads of /proc/<pid>/stat.
type procStat struct {
	process
	state string // R, S, D, Z...
	ppid  int
}

// readProcess reads /proc/<pid>/stat.
func readProcess(pid int) (procStat, error) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procStat{}, err
	}
	// "pid (name) state ppid ...", the name in parentheses possibly holding ") " itself.
	s := string(data)
	open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || closing < open {
		return procStat{}, fmt.Errorf("malformed /proc/%d/stat", pid)
	}
	fields := strings.Fields(s[closing+1:])
	if len(fields) < 20 {
		return procStat{}, fmt.Errorf("malformed /proc/%d/stat", pid)
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return procStat{}, fmt.Errorf("malformed /proc/%d/stat: %w", pid, err)
	}
	return procStat{process: process{pid: pid, start: fields[19], name: s[open+1 : closing]}, state: fields[0], ppid: ppid}, nil
}

// controlPlaneChildren are this process's etcd and kube-apiserver children.
func controlPlaneChildren() []process {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var out []process
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := readProcess(pid)
		if err == nil && st.ppid == self && controlPlaneNames[st.name] {
			out = append(out, st.process)
		}
	}
	return out
}

// recordControlPlane writes the control plane's processes to the state directory.
func recordControlPlane(stateDir string) {
	procs := controlPlaneChildren()
	if len(procs) == 0 {
		return
	}
	var b strings.Builder
	for _, p := range procs {
		fmt.Fprintf(&b, "%d %s %s\n", p.pid, p.start, p.name)
	}
	if err := writePrivateFile(filepath.Join(stateDir, controlPlanePIDsFile), []byte(b.String())); err != nil {
		log.Printf("recording the control plane's processes: %v", err)
	}
}

// forgetControlPlane removes the record once the control plane stopped.
func forgetControlPlane(stateDir string) {
	if err := os.Remove(filepath.Join(stateDir, controlPlanePIDsFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Printf("removing %s: %v", controlPlanePIDsFile, err)
	}
}

// stopLeftovers stops the recorded processes of an earlier localcluster that still run:
// kube-apiserver with SIGKILL, etcd with SIGTERM, then SIGKILL after leftoverStopGrace. Call it
// holding the state directory's lock.
func stopLeftovers(stateDir string) {
	data, err := os.ReadFile(filepath.Join(stateDir, controlPlanePIDsFile))
	if err != nil {
		return
	}
	var alive []process
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		pid, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		if p := (process{pid: pid, start: f[1], name: f[2]}); isRunning(p) {
			alive = append(alive, p)
		}
	}
	for _, p := range alive {
		log.Printf("stopping %s, left running by a localcluster that was killed", p)
		// kube-apiserver keeps nothing of its own and, without its localcluster, may wait long
		// for a graceful end; etcd gets the chance to close its data cleanly.
		sig := syscall.SIGTERM
		if p.name == "kube-apiserver" {
			sig = syscall.SIGKILL
		}
		_ = syscall.Kill(p.pid, sig)
	}
	deadline := time.Now().Add(leftoverStopGrace)
	for _, p := range alive {
		for isRunning(p) && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		if isRunning(p) {
			log.Printf("%s did not stop within %s; killing it", p, leftoverStopGrace)
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
			for end := time.Now().Add(5 * time.Second); isRunning(p) && time.Now().Before(end); {
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
	forgetControlPlane(stateDir)
}

// isRunning says whether p is still there: the same pid, start time and name, and not a zombie
// (which holds no files) waiting to be reaped.
func isRunning(p process) bool {
	st, err := readProcess(p.pid)
	return err == nil && st.process == p && st.state != "Z"
}
