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
)

// What localcluster keeps in its state directory (--state-dir, .local for make run) from one run
// to the next:
//
//	etcd/                 the control plane's etcd data: every object, the samples and what the
//	                      manager and its clients created
//	chains/eip155-<id>/   each local chain's blocks and state (go-ethereum's database)
//	chains/attester.key   the settlement contracts' attester: the public development account #3
//	fillers/              the market's fillers (fillers.go): each one's key (a public development
//	                      account), a copy of its Filler's signing secret, and its log
//	postgres/             the archive's PostgreSQL cluster (owned by the postgres OS user when
//	                      localcluster runs as root); postgres.init/ while initdb makes it
//	postgres.log          PostgreSQL's log of the last run
//	kubeconfig            the admin kubeconfig of the running control plane (removed at exit: its
//	                      certificate is signed by a CA made for that run)
//	localcluster.lock     held by the localcluster using the directory
//
// Everything else in the directory (hack/render-deploy.sh's overlays) is left alone.
const (
	etcdSubdir   = "etcd"
	chainsSubdir = "chains"
	lockFile     = "localcluster.lock"
)

// lockState takes the state directory for this process, so that a second make run (or a reset)
// cannot start an etcd or a chain on data that another one is using. The lock is an flock: the
// kernel drops it when the process ends, however it ends.
func lockState(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	path := filepath.Join(dir, lockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is in use by another localcluster (pid %s); stop that make run first",
				dir, strings.TrimSpace(string(holder)))
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	// The pid only feeds the message above; the lock is the flock.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { _ = f.Close() }, nil
}

// resetState removes what localcluster kept in the state directory: etcd's data, the local chains
// and their keys, PostgreSQL's cluster and log, and a kubeconfig left behind. It refuses while a
// localcluster uses the directory.
func resetState(o options) error {
	if _, err := os.Stat(o.stateDir); errors.Is(err, os.ErrNotExist) {
		log.Printf("%s does not exist; nothing to remove", o.stateDir)
		return nil
	}
	release, err := lockState(o.stateDir)
	if err != nil {
		return err
	}
	defer release()
	for _, path := range []string{
		filepath.Join(o.stateDir, etcdSubdir), filepath.Join(o.stateDir, chainsSubdir),
		filepath.Join(o.stateDir, postgresSubdir), filepath.Join(o.stateDir, postgresInitDir),
		filepath.Join(o.stateDir, postgresLogFile), filepath.Join(o.stateDir, fillersSubdir),
		o.attesterKeyPath, o.kubeconfigPath,
	} {
		if err := os.RemoveAll(path); err != nil {
			return fmt.Errorf("removing %s: %w", path, err)
		}
	}
	log.Printf("removed the control plane's data, the local chains and their keys, and the archive's PostgreSQL data from %s; the next make run starts from the samples", o.stateDir)
	return nil
}

// dirIsEmpty says whether dir has no entries (or does not exist).
func dirIsEmpty(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err != nil || len(entries) == 0
}
