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
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/transferintent/transfer-intent-service/internal/pgtest"
)

// The archive of make run: a PostgreSQL server of its own, the programs from hack/postgres.sh
// (Debian's package), its cluster in <state-dir>/postgres, made by initdb on the first run and
// kept from then on. It listens on 127.0.0.1 only (no unix socket), with trust authentication: any
// local user may connect as its superuser postgres, as to the chains' JSON-RPC, so it is for a
// development machine only. The manager gets --archive-url for its "postgres" database.
// As root, initdb and postgres refuse to run: they run as the postgres OS user, who owns the
// cluster's directory, as internal/pgtest does.
const (
	postgresSubdir = "postgres"
	// postgresInitDir is where initdb makes a new cluster, renamed to postgresSubdir once
	// complete: an initdb cut short leaves no half cluster for the next run to trip on.
	postgresInitDir = "postgres.init"
	// postgresLogFile holds the server's output of the last run.
	postgresLogFile = "postgres.log"
	// postgresReadyWithin bounds a start, crash recovery after a killed run included.
	postgresReadyWithin = time.Minute
	// postgresStopGrace is how long a fast shutdown (SIGINT) may take before an immediate one
	// (SIGQUIT, crash recovery at the next start).
	postgresStopGrace = 30 * time.Second
)

// localPostgres is the running server.
type localPostgres struct {
	// url is the manager's --archive-url.
	url     string
	dataDir string
	logPath string
	cmd     *exec.Cmd
	exited  chan struct{} // closed once cmd has exited
}

// postgresURL is the URL of the "postgres" database of the local server on port.
func postgresURL(port int) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
}

// startPostgres runs PostgreSQL on 127.0.0.1:o.postgresPort with the cluster kept in
// <state-dir>/postgres, making it first when there is none, and waits until it answers. It
// returns ctx's error once ctx ends, the server stopped.
func startPostgres(ctx context.Context, o options) (*localPostgres, error) {
	bindir, err := resolvePostgres(o.postgresBindir)
	if err != nil {
		return nil, err
	}
	cred, err := pgtest.Credential()
	if err != nil {
		return nil, err
	}
	stateDir, err := filepath.Abs(o.stateDir)
	if err != nil {
		return nil, err
	}
	if cred != nil {
		if err := letPostgresIn(stateDir, cred); err != nil {
			return nil, err
		}
	}
	pg := &localPostgres{
		url:     postgresURL(o.postgresPort),
		dataDir: filepath.Join(stateDir, postgresSubdir),
		logPath: filepath.Join(stateDir, postgresLogFile),
	}
	kept := "kept from an earlier run"
	if dirIsEmpty(pg.dataDir) {
		kept = "new"
		if err := initPostgres(ctx, bindir, stateDir, cred); err != nil {
			return nil, err
		}
	}
	logFile, err := os.OpenFile(pg.logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", pg.logPath, err)
	}
	defer func() { _ = logFile.Close() }() // the server holds its own descriptor
	log.Printf("starting PostgreSQL from %s on 127.0.0.1:%d; its data (%s) in %s, its log in %s",
		bindir, o.postgresPort, kept, pg.dataDir, pg.logPath)
	// Only what make run needs differs from initdb's defaults: loopback, the port, no unix socket
	// (its default directory, /var/run/postgresql, is the system's server's).
	cmd := exec.Command(filepath.Join(bindir, "postgres"), "-D", pg.dataDir, "-p", strconv.Itoa(o.postgresPort),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=")
	cmd.Dir = pg.dataDir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Credential: cred,
		// Its own process group, as the manager's: a Ctrl-C reaches localcluster only, which
		// stops the server after the manager. Should localcluster be killed, the server shuts
		// down cleanly by itself (SIGINT is PostgreSQL's fast shutdown).
		Setpgid:   true,
		Pdeathsig: syscall.SIGINT,
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting postgres: %w", err)
	}
	pg.cmd, pg.exited = cmd, make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(pg.exited)
	}()
	if err := pg.waitReady(ctx); err != nil {
		pg.stop()
		return nil, err
	}
	return pg, nil
}

// resolvePostgres finds the directory of initdb and postgres: the flag (or POSTGRES_BINDIR), else
// whatever hack/postgres.sh finds or installs.
func resolvePostgres(dir string) (string, error) {
	if dir == "" {
		log.Print("POSTGRES_BINDIR is not set; running hack/postgres.sh")
		cmd := exec.Command("hack/postgres.sh")
		cmd.Stdin = os.Stdin // sudo may ask for a password to install the package
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("hack/postgres.sh: %w", err)
		}
		dir = strings.TrimSpace(string(out))
	}
	for _, name := range []string{"initdb", "postgres"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return "", fmt.Errorf("PostgreSQL's programs: %w (run hack/postgres.sh)", err)
		}
	}
	return dir, nil
}

// letPostgresIn lets the postgres OS user reach the state directory, where the cluster is: it
// may pass through it (o+x; its files and other directories stay private to their owner), and
// every directory above it must let it pass already.
func letPostgresIn(stateDir string, cred *syscall.Credential) error {
	info, err := os.Stat(stateDir)
	if err != nil {
		return err
	}
	if info.Mode().Perm()&0o001 == 0 {
		if err := os.Chmod(stateDir, info.Mode().Perm()|0o001); err != nil {
			return fmt.Errorf("letting the postgres user through %s: %w", stateDir, err)
		}
	}
	for dir := filepath.Dir(stateDir); ; dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		if err != nil {
			return err
		}
		st, _ := info.Sys().(*syscall.Stat_t)
		perm := info.Mode().Perm()
		passes := perm&0o001 != 0 ||
			st != nil && st.Uid == cred.Uid && perm&0o100 != 0 ||
			st != nil && st.Gid == cred.Gid && perm&0o010 != 0
		if !passes {
			return fmt.Errorf("PostgreSQL refuses to run as root, so it runs as the postgres user, who cannot pass through %s (mode %s): choose a --state-dir it can reach, or --postgres-port 0 for no archive",
				dir, perm)
		}
		if dir == filepath.Dir(dir) {
			return nil
		}
	}
}

// initPostgres makes a new cluster in <stateDir>/postgres.init and renames it to
// <stateDir>/postgres once complete. Its superuser is postgres, trusted on connections from
// loopback.
func initPostgres(ctx context.Context, bindir, stateDir string, cred *syscall.Credential) error {
	initDir := filepath.Join(stateDir, postgresInitDir)
	dataDir := filepath.Join(stateDir, postgresSubdir)
	for _, dir := range []string{initDir, dataDir} { // an empty dataDir would block the rename
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("removing %s: %w", dir, err)
		}
	}
	// Made here and handed over: the postgres user may not write in the state directory.
	if err := os.Mkdir(initDir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", initDir, err)
	}
	if cred != nil {
		if err := os.Chown(initDir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("handing %s to the postgres user: %w", initDir, err)
		}
	}
	log.Printf("creating a PostgreSQL cluster in %s", dataDir)
	cmd := exec.CommandContext(ctx, filepath.Join(bindir, "initdb"), "-D", initDir, "-U", "postgres",
		"-A", "trust", "-E", "UTF8", "--locale=C", "--no-instructions")
	cmd.Dir = initDir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	if out, err := cmd.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("initdb: %w\n%s", err, out)
	}
	if err := os.Rename(initDir, dataDir); err != nil {
		return fmt.Errorf("moving the new cluster to %s: %w", dataDir, err)
	}
	return nil
}

// waitReady waits until the server answers a query, as the manager would ask it.
func (pg *localPostgres) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(postgresReadyWithin)
	for {
		err := pingPostgres(ctx, pg.url)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-pg.exited:
			return fmt.Errorf("postgres exited while starting: %v; its log %s says:\n%s%s",
				pg.cmd.ProcessState, pg.logPath, pg.logTail(), pg.hint())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not answer within %s: %w; its log %s says:\n%s",
				postgresReadyWithin, err, pg.logPath, pg.logTail())
		}
	}
}

// pingPostgres runs select 1 on a new connection.
func pingPostgres(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(ctx) }()
	return conn.QueryRow(ctx, "select 1").Scan(new(int))
}

// logTail is the end of the server's log.
func (pg *localPostgres) logTail() string {
	f, err := os.Open(pg.logPath)
	if err != nil {
		return err.Error()
	}
	defer func() { _ = f.Close() }()
	if info, err := f.Stat(); err == nil && info.Size() > 4096 {
		_, _ = f.Seek(-4096, io.SeekEnd)
	}
	data, _ := io.ReadAll(f)
	return string(data)
}

// hint is the way out of a cluster that a server cannot use, as the log says: one made by another
// major version of PostgreSQL, or owned by another user.
func (pg *localPostgres) hint() string {
	logged := pg.logTail()
	if strings.Contains(logged, "incompatible with server") || strings.Contains(logged, "wrong ownership") {
		return "(`make run-reset` wipes " + pg.dataDir + ", with the control plane's data and the local chains)"
	}
	return ""
}

// stop shuts the server down: SIGINT (a fast shutdown: sessions end, the data is written), then
// SIGQUIT (an immediate one) after postgresStopGrace.
func (pg *localPostgres) stop() {
	if pg == nil || pg.cmd == nil {
		return
	}
	log.Print("stopping PostgreSQL")
	_ = syscall.Kill(pg.cmd.Process.Pid, syscall.SIGINT)
	select {
	case <-pg.exited:
	case <-time.After(postgresStopGrace):
		log.Printf("PostgreSQL did not stop within %s; stopping it at once", postgresStopGrace)
		_ = syscall.Kill(pg.cmd.Process.Pid, syscall.SIGQUIT)
		select {
		case <-pg.exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(pg.cmd.Process.Pid, syscall.SIGKILL)
			<-pg.exited
		}
	}
	pg.cmd = nil
}

// setsFlag says whether the manager's extra flags (what follows -- on localcluster's command line)
// set the flag name, in any of the forms Go's flag package accepts.
func setsFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false // the manager's flags end there
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if n, _, _ := strings.Cut(a, "="); n == name {
			return true
		}
	}
	return false
}
