package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/service"
)

// controlPlane is the local kube-apiserver and etcd of one run, started by envtest from the
// binaries of hack/control-plane.sh, with the CRDs of config/crd/bases installed.
type controlPlane struct {
	env        *envtest.Environment
	kubeconfig string // admin kubeconfig file, for the manager
	admin      client.Client
	etcdURL    string
	etcdDB     string // etcd's bbolt file
	apiPID     int
	etcdPID    int
}

func startControlPlane(assets, crdDir, work string) (*controlPlane, error) {
	env := &envtest.Environment{
		BinaryAssetsDirectory: assets,
		CRDDirectoryPaths:     []string{crdDir},
		ErrorIfCRDPathMissing: true,
	}
	// Room for the history of a large fill between compactions (the default quota is 2 GiB).
	etcd := &envtest.Etcd{}
	etcd.Configure().Set("quota-backend-bytes", strconv.Itoa(8<<30))
	env.ControlPlane.Etcd = etcd
	cp := &controlPlane{env: env}
	if _, err := env.Start(); err != nil {
		_ = env.Stop()
		return nil, fmt.Errorf("starting kube-apiserver and etcd: %w", err)
	}
	cp.etcdURL = etcd.URL.String()
	cp.etcdDB = filepath.Join(etcd.DataDir, "member", "snap", "db")
	// Writes as fast as the API server takes them: no client-side rate limit.
	user, err := env.AddUser(envtest.User{Name: "benchscale-admin", Groups: []string{"system:masters"}},
		&rest.Config{QPS: 100_000, Burst: 100_000})
	if err != nil {
		cp.stop()
		return nil, fmt.Errorf("adding the admin user: %w", err)
	}
	kubeconfig, err := user.KubeConfig()
	if err != nil {
		cp.stop()
		return nil, err
	}
	cp.kubeconfig = filepath.Join(work, "kubeconfig")
	if err := os.WriteFile(cp.kubeconfig, kubeconfig, 0o600); err != nil {
		cp.stop()
		return nil, err
	}
	cfg := user.Config()
	cfg.QPS, cfg.Burst = 100_000, 100_000
	if cp.admin, err = client.New(cfg, client.Options{Scheme: service.NewScheme()}); err != nil {
		cp.stop()
		return nil, err
	}
	if cp.apiPID, err = childPID("kube-apiserver"); err != nil {
		cp.stop()
		return nil, err
	}
	if cp.etcdPID, err = childPID("etcd"); err != nil {
		cp.stop()
		return nil, err
	}
	return cp, nil
}

// informerSync measures the floor of a manager's start: a bare controller-runtime cache of
// TransferIntents in the namespace, started and synced, with nothing else running in the process.
func (cp *controlPlane) informerSync(ctx context.Context, namespace string) (time.Duration, error) {
	cfg, err := clientcmd.RESTConfigFromKubeConfig(mustRead(cp.kubeconfig))
	if err != nil {
		return 0, err
	}
	start := time.Now()
	c, err := cache.New(cfg, cache.Options{Scheme: service.NewScheme(), DefaultNamespaces: map[string]cache.Config{namespace: {}}})
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if _, err := c.GetInformer(ctx, &v1alpha1.TransferIntent{}); err != nil {
		return 0, err
	}
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		return 0, errors.New("the bare cache did not sync")
	}
	return time.Since(start), nil
}

func mustRead(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		fatalf("reading %s: %v", path, err)
	}
	return b
}

func (cp *controlPlane) stop() {
	if err := cp.env.Stop(); err != nil {
		logf("stopping the control plane: %v", err)
	}
}

// childPID finds the process this one started with the command name (envtest keeps its
// processes to itself).
func childPID(comm string) (int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'.
		s := string(stat)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < open {
			continue
		}
		fields := strings.Fields(s[closing+1:])
		if len(fields) < 2 || s[open+1:closing] != comm {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == self {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("no child process %q", comm)
}

// memory is a process's resident set now and at its peak, in bytes.
type memory struct{ rss, peak int64 }

func processMemory(pid int) (memory, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return memory{}, err
	}
	defer func() { _ = f.Close() }()
	var m memory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			continue
		}
		kb, _ := strconv.ParseInt(fields[0], 10, 64)
		switch name {
		case "VmRSS":
			m.rss = kb << 10
		case "VmHWM":
			m.peak = kb << 10
		}
	}
	return m, sc.Err()
}

// etcdSize is the size of etcd's database: as its metrics report it, and after a compaction to
// the current revision and a defragmentation (the live data alone, with no history and no free
// pages).
type etcdSize struct {
	total, inUse, compacted int64
	revision                int64
}

func (cp *controlPlane) measureEtcd(ctx context.Context) (etcdSize, error) {
	var s etcdSize
	m, err := scrape(ctx, cp.etcdURL+"/metrics")
	if err != nil {
		return s, err
	}
	s.total = int64(m.sum("etcd_mvcc_db_total_size_in_bytes", nil))
	s.inUse = int64(m.sum("etcd_mvcc_db_total_size_in_use_in_bytes", nil))
	// The gRPC gateway of etcd: the current revision, then compact to it and defragment.
	var rng struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
	}
	if err := etcdCall(ctx, cp.etcdURL+"/v3/kv/range", map[string]any{"key": base64.StdEncoding.EncodeToString([]byte("/"))}, &rng); err != nil {
		return s, err
	}
	s.revision, _ = strconv.ParseInt(rng.Header.Revision, 10, 64)
	// A compaction the API server already made to a later revision is an error here: harmless.
	_ = etcdCall(ctx, cp.etcdURL+"/v3/kv/compaction", map[string]any{"revision": rng.Header.Revision, "physical": true}, nil)
	if err := etcdCall(ctx, cp.etcdURL+"/v3/maintenance/defragment", map[string]any{}, nil); err != nil {
		return s, err
	}
	st, err := os.Stat(cp.etcdDB)
	if err != nil {
		return s, err
	}
	s.compacted = st.Size()
	return s, nil
}

func etcdCall(ctx context.Context, url string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("etcd %s: %s: %s", url, resp.Status, data)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(data, out)
}

// metrics is a scraped Prometheus text exposition: each sample line as its series and value.
type metrics []sample

type sample struct {
	name   string
	labels map[string]string
	value  float64
}

func scrape(ctx context.Context, url string) (metrics, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	var m metrics
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		series, value, ok := cutLast(line, ' ')
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		s := sample{name: series, value: v}
		if i := strings.IndexByte(series, '{'); i >= 0 {
			s.name = series[:i]
			s.labels = parseLabels(strings.TrimSuffix(series[i+1:], "}"))
		}
		m = append(m, s)
	}
	return m, sc.Err()
}

func cutLast(s string, sep byte) (string, string, bool) {
	i := strings.LastIndexByte(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// parseLabels reads a="x",b="y"; values in these metrics hold no quotes or commas.
func parseLabels(s string) map[string]string {
	labels := map[string]string{}
	for part := range strings.SplitSeq(s, ",") {
		k, v, ok := strings.Cut(part, "=")
		if ok {
			labels[k] = strings.Trim(v, `"`)
		}
	}
	return labels
}

// sum adds the samples of the metric whose labels include every one of match.
func (m metrics) sum(name string, match map[string]string) float64 {
	total := 0.0
	for _, s := range m {
		if s.name != name {
			continue
		}
		ok := true
		for k, v := range match {
			if s.labels[k] != v {
				ok = false
			}
		}
		if ok {
			total += s.value
		}
	}
	return total
}

// clockTicks is the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux).
const clockTicks = 100

// cpuTime is the CPU (user and system) a process has used so far.
func cpuTime(pid int) (time.Duration, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(stat)
	// After "(comm)": state is field 3 of stat; utime and stime are fields 14 and 15.
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(fields))
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
}

// cpuUse is the CPU each process of a measurement used.
type cpuUse struct{ manager, apiServer, etcd, loadGen time.Duration }

func (c cpuUse) total() time.Duration { return c.manager + c.apiServer + c.etcd + c.loadGen }

func (c cpuUse) add(o cpuUse) cpuUse {
	return cpuUse{c.manager + o.manager, c.apiServer + o.apiServer, c.etcd + o.etcd, c.loadGen + o.loadGen}
}

// cpuSnapshot reads the CPU used so far by the manager, the control plane and this process (the
// load generator); a process that cannot be read counts as 0.
func cpuSnapshot(managerPID int, cp *controlPlane) cpuUse {
	read := func(pid int) time.Duration {
		d, err := cpuTime(pid)
		if err != nil {
			logf("reading the CPU time of process %d: %v", pid, err)
		}
		return d
	}
	return cpuUse{read(managerPID), read(cp.apiPID), read(cp.etcdPID), read(os.Getpid())}
}

func (c cpuUse) since(start cpuUse) cpuUse {
	return cpuUse{c.manager - start.manager, c.apiServer - start.apiServer, c.etcd - start.etcd, c.loadGen - start.loadGen}
}
