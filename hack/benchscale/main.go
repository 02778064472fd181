// Command benchscale measures the Transfer Intent Service at scale: it starts a local control plane
// (kube-apiserver and etcd), fills it with N TransferIntents spread over accounts, types and
// phases, starts the real manager binary against it and prints memory, start-up time, read
// latency and create throughput, each next to a baseline measured in the same run: the RSS of a
// manager over an empty store, and a raw client-go create loop against the same API server.
//
// With -before, a second manager binary (an older build, say) is measured in the same run against
// the same store, its starts interleaved with the other's, so that a before/after comparison does
// not depend on what else the machine was doing at the time.
//
// `make bench-scale` runs it; it is not part of `make test`.
//
//	go run ./hack/benchscale -n 5000 -create-duration 10s
package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	mathrand "math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientfeatures "k8s.io/client-go/features"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

type options struct {
	n                 int
	accounts          int
	manager           string
	before            string
	assets            string
	crdDir, samples   string
	namespace         string
	fillWorkers       int
	createDuration    time.Duration
	createConcurrency int
	createRounds      int
	latencyDuration   time.Duration
	latencyWorkers    int
	settle            time.Duration
	readyTimeout      time.Duration
	restarts          int
	work              string
	managerEnv        string
	managerArgs       []string
}

func parseFlags() options {
	var o options
	flag.IntVar(&o.n, "n", 100_000, "TransferIntents to store before the managers under test start.")
	flag.IntVar(&o.accounts, "accounts", 10, "Accounts the intents are spread over (the first is the caller of the read measurements).")
	flag.StringVar(&o.manager, "manager", "bin/manager", "The manager binary to measure.")
	flag.StringVar(&o.before, "before", "", "Another manager binary (an older build) to measure in the same run, against the same store; empty for none.")
	flag.StringVar(&o.assets, "assets", os.Getenv("KUBEBUILDER_ASSETS"), "Directory of kube-apiserver and etcd (default $KUBEBUILDER_ASSETS).")
	flag.StringVar(&o.crdDir, "crd-dir", "config/crd/bases", "CRDs to install.")
	flag.StringVar(&o.samples, "samples", "config/samples", "Directory of the sample Chains and TokenDefinitions.")
	flag.StringVar(&o.namespace, "namespace", "bench", "Namespace of the run.")
	flag.IntVar(&o.fillWorkers, "fill-workers", 16, "Concurrent writers of the fill.")
	flag.DurationVar(&o.createDuration, "create-duration", 60*time.Second, "How long each create run (POST /v2/transfers, and the raw client-go baseline) lasts.")
	flag.IntVar(&o.createConcurrency, "create-concurrency", 32, "Concurrent creates, in both create runs.")
	flag.IntVar(&o.createRounds, "create-rounds", 1, "Create runs of each manager, in ABBA order with -before; the figures add them up.")
	flag.DurationVar(&o.latencyDuration, "latency-duration", 10*time.Second, "How long each read latency run lasts.")
	flag.IntVar(&o.latencyWorkers, "latency-concurrency", 2, "Concurrent readers in the read latency runs (one per core of a small machine).")
	flag.DurationVar(&o.settle, "settle", 10*time.Second, "Pause before memory is sampled, after the manager's first reconcile pass.")
	flag.IntVar(&o.restarts, "restarts", 2, "Further starts of each manager under test, each timed to ready (the table shows the median).")
	flag.DurationVar(&o.readyTimeout, "ready-timeout", 10*time.Minute, "How long a manager may take to become ready.")
	flag.StringVar(&o.managerEnv, "manager-env", "", "Extra environment of the manager under test only (not of -before), KEY=VALUE,..., e.g. GOGC=50.")
	flag.StringVar(&o.work, "work", "", "Directory for the kubeconfig and the managers' logs (default: a new temporary directory).")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: %s [flags] [-- extra manager flags]\n\n", os.Args[0])
		flag.PrintDefaults()
	}
	flag.Parse()
	o.managerArgs = flag.Args()
	return o
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchscale %s  "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

func fatalf(format string, args ...any) {
	logf(format, args...)
	os.Exit(1)
}

func main() {
	o := parseFlags()
	if o.assets == "" {
		fatalf("set KUBEBUILDER_ASSETS or -assets (make bench-scale does)")
	}
	if o.n < 200*o.accounts || o.accounts < 1 {
		fatalf("-n must be at least 200 intents per account (-accounts), so that the caller has a middle page")
	}
	ctrllog.SetLogger(logr.Discard())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		logf("failed: %v", err)
		os.Exit(1)
	}
}

// subject is one manager binary under test and what was measured of it.
type subject struct {
	label, bin string
	env        []string // extra environment

	emptyReady            time.Duration
	emptyMgr, fullMgr     managerMemory
	fullReady, reconciled []time.Duration // one per start
	startWrites           float64
	servedAt              time.Duration
	first, middle         loadResult
	filtered, getByID     loadResult
	createHTTP, createRaw loadResult
	// createCPU is the CPU the /v2 create runs cost, until every new intent's status was written;
	// rawCPU the raw loop's.
	createCPU, rawCPU cpuUse
	drained           []time.Duration // per create run: from its end until the controller's queue was empty
}

// run is the whole measurement; see the package comment.
func run(ctx context.Context, o options) (err error) {
	work := o.work
	if work == "" {
		if work, err = os.MkdirTemp("", "benchscale-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	logf("work directory (kubeconfig, manager logs): %s", work)
	rep := &report{o: o, loadStart: loadAverage()}
	if o.before != "" {
		rep.subjects = append(rep.subjects, &subject{label: "before", bin: o.before})
	}
	label := "manager"
	if o.before != "" {
		label = "after"
	}
	var env []string
	if o.managerEnv != "" {
		env = strings.Split(o.managerEnv, ",")
	}
	rep.subjects = append(rep.subjects, &subject{label: label, bin: o.manager, env: env})
	for _, s := range rep.subjects {
		if s.bin, err = filepath.Abs(s.bin); err != nil {
			return err
		}
		if _, err := os.Stat(s.bin); err != nil {
			return err
		}
	}

	logf("starting kube-apiserver and etcd from %s", o.assets)
	cp, err := startControlPlane(o.assets, o.crdDir, work)
	if err != nil {
		return err
	}
	defer cp.stop()
	callers, err := setupNamespace(ctx, cp.admin, o.namespace, o.samples, o.accounts)
	if err != nil {
		return err
	}
	rawNamespace := o.namespace + "-raw"
	if err := cp.admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: rawNamespace}}); err != nil {
		return err
	}
	attester, err := crypto.GenerateKey()
	if err != nil {
		return err
	}
	attesterFile := filepath.Join(work, "attester.key")
	if err := os.WriteFile(attesterFile, []byte(hex.EncodeToString(crypto.FromECDSA(attester))), 0o600); err != nil {
		return err
	}
	managerArgs := append([]string{"--attester-key-file", attesterFile}, o.managerArgs...)
	starts := 0
	launch := func(s *subject, what string) (*managerProcess, error) {
		starts++
		logName := fmt.Sprintf("manager-%02d-%s-%s.log", starts, s.label, what)
		return startManager(s.bin, s.env, cp.kubeconfig, o.namespace, filepath.Join(work, logName), managerArgs...)
	}

	// 1. The baseline: each manager over a store with no intents.
	var templates map[v1alpha1.IntentType]*v1alpha1.TransferIntent
	for i, s := range rep.subjects {
		logf("%s: the manager over an empty store", s.label)
		m, err := launch(s, "empty")
		if err != nil {
			return err
		}
		defer m.stop()
		if s.emptyReady, err = m.waitReady(ctx, o.readyTimeout); err != nil {
			return err
		}
		if err := waitKeys(ctx, m, callers); err != nil {
			return err
		}
		sleep(ctx, o.settle)
		if s.emptyMgr, err = m.memory(ctx); err != nil {
			return err
		}
		if i == len(rep.subjects)-1 {
			if rep.emptyAPI, rep.emptyEtcd, rep.emptyDB, err = controlPlaneMemory(ctx, cp); err != nil {
				return err
			}
			if templates, err = createTemplates(ctx, m, cp.admin, o.namespace, callers[0]); err != nil {
				return err
			}
		}
		m.stop()
	}

	// 2. The fill, with a raw client.
	logf("storing %d intents over %d accounts with %d writers", o.n, o.accounts, o.fillWorkers)
	pl := &planner{namespace: o.namespace, templates: templates, callers: callers, now: time.Now(), rng: mathrand.New(mathrand.NewPCG(1, 2))}
	rep.fill, err = fill(ctx, cp.admin, pl, o.n, o.fillWorkers, func(done int) { logf("  %d stored", done) })
	if err != nil {
		return err
	}
	logf("stored %d intents in %s (%.0f intents/s, a create and a status write each)", rep.fill.n, rep.fill.elapsed.Round(time.Millisecond),
		float64(rep.fill.n)/rep.fill.elapsed.Seconds())

	// The floor of a start: a bare informer's first sync in this process, streamed (client-go's
	// default, WatchListClient) and as one list.
	gates := clientfeatures.FeatureGates()
	for _, streamed := range []bool{true, false} {
		clientfeatures.ReplaceFeatureGates(watchList{gates, streamed})
		for range o.restarts + 1 {
			d, err := cp.informerSync(ctx, o.namespace)
			if err != nil {
				return err
			}
			if streamed {
				rep.informerStream = append(rep.informerStream, d)
			} else {
				rep.informerList = append(rep.informerList, d)
			}
			runtime.GC()
		}
	}
	clientfeatures.ReplaceFeatureGates(gates)
	logf("a bare TransferIntent informer syncs in %s streamed, %s listed", durations(rep.informerStream), durations(rep.informerList))

	// 3. Start-up: each manager started 1 + restarts times, the subjects' starts interleaved.
	// The last start of each is kept for its memory and its reads.
	caller := callers[0]
	var ids []string
	var cursor string
	for round := 0; round <= o.restarts; round++ {
		for _, s := range rep.subjects {
			logf("%s: starting the manager over %d intents (start %d of %d)", s.label, o.n, round+1, o.restarts+1)
			m, err := launch(s, "full")
			if err != nil {
				return err
			}
			defer m.stop()
			ready, err := m.waitReady(ctx, o.readyTimeout)
			if err != nil {
				return err
			}
			s.fullReady = append(s.fullReady, ready)
			logf("%s: ready after %s", s.label, ready.Round(time.Millisecond))
			if round == 0 {
				// Readiness waits for the caches, not for the first reconcile of every key.
				if err := waitKeys(ctx, m, callers); err != nil {
					return err
				}
				var served int
				if ids, cursor, served, err = pageAll(ctx, m, callers); err != nil {
					return err
				}
				s.servedAt = time.Since(m.started)
				if served != o.n {
					return fmt.Errorf("%s: the manager serves %d intents, not %d", s.label, served, o.n)
				}
				rep.callerIntents = len(ids)
				logf("%s: all %d intents served over /v2 after %s", s.label, served, s.servedAt.Round(time.Millisecond))
			}
			reconciled, err := m.waitReconciled(ctx, o.n, o.readyTimeout)
			if err != nil {
				return err
			}
			s.reconciled = append(s.reconciled, reconciled)
			if s.startWrites, err = m.writes(ctx); err != nil {
				return err
			}
			logf("%s: first reconcile pass done after %s (%.0f writes to the API server)", s.label, reconciled.Round(time.Millisecond), s.startWrites)
			if round == o.restarts {
				if err := measureFull(ctx, o, rep, s, m, caller, ids, cursor, cp); err != nil {
					return err
				}
			}
			m.stop()
		}
	}

	// 4. Creates, last (they grow the store): through each manager's API, then, once that
	// manager's controller has written the status of every intent created (so the next manager
	// inherits no backlog), the raw client-go loop against the same API server, with the manager
	// running, into a namespace it does not watch: the API server's own rate for these objects.
	for round := range o.createRounds {
		order := slices.Clone(rep.subjects)
		if round%2 == 1 {
			slices.Reverse(order) // ABBA: a drift of the machine's load weighs on both alike
		}
		for _, s := range order {
			if err := createRound(ctx, o, s, launch, callers, pl, rawNamespace, cp); err != nil {
				return err
			}
		}
	}
	rep.loadEnd = loadAverage()
	rep.print(os.Stdout)
	return nil
}

// createRound starts the subject's manager and measures creates through it, then the raw loop.
func createRound(ctx context.Context, o options, s *subject, launch func(*subject, string) (*managerProcess, error),
	callers []caller, pl *planner, rawNamespace string, cp *controlPlane) error {
	m, err := launch(s, "creates")
	if err != nil {
		return err
	}
	defer m.stop()
	if _, err := m.waitReady(ctx, o.readyTimeout); err != nil {
		return err
	}
	if err := waitKeys(ctx, m, callers); err != nil {
		return err
	}
	if _, err := m.waitReconciled(ctx, o.n, o.readyTimeout); err != nil {
		return err
	}
	logf("%s: creates over POST /v2/transfers for %s, %d concurrent", s.label, o.createDuration, o.createConcurrency)
	body := []byte(templateRequests[v1alpha1.IntentTypeTransfer])
	cpuStart := cpuSnapshot(m.pid(), cp)
	s.createHTTP = merge(s.createHTTP, closedLoop(ctx, o.createConcurrency, 0, o.createDuration, func(ctx context.Context, w, seq int) error {
		return expect(ctx, http.MethodPost, m.api+"/v2/transfers", callers[w%len(callers)].keyFor(seq), body, http.StatusCreated)
	}))
	drained, err := m.waitDrained(ctx, o.readyTimeout)
	if err != nil {
		return err
	}
	s.drained = append(s.drained, drained)
	s.createCPU = s.createCPU.add(cpuSnapshot(m.pid(), cp).since(cpuStart))
	logf("%s: the controller wrote the status of every new intent %s after the run", s.label, drained.Round(time.Millisecond))
	logf("%s: raw client-go creates for %s, %d concurrent, into namespace %s", s.label, o.createDuration, o.createConcurrency, rawNamespace)
	planners := make([]*planner, o.createConcurrency)
	for w := range planners {
		p := *pl
		p.namespace = rawNamespace
		p.rng = mathrand.New(mathrand.NewPCG(uint64(w), uint64(len(s.label))))
		planners[w] = &p
	}
	cpuStart = cpuSnapshot(m.pid(), cp)
	s.createRaw = merge(s.createRaw, closedLoop(ctx, o.createConcurrency, 0, o.createDuration, func(ctx context.Context, w, _ int) error {
		obj := planners[w].clone(v1alpha1.IntentTypeTransfer, callers[w%len(callers)], time.Now())
		return cp.admin.Create(ctx, obj)
	}))
	s.rawCPU = s.rawCPU.add(cpuSnapshot(m.pid(), cp).since(cpuStart))
	if err := m.alive(); err != nil {
		return err
	}
	m.stop()
	return nil
}

// measureFull samples the memory of a started manager over the full store and measures its reads.
func measureFull(ctx context.Context, o options, rep *report, s *subject, m *managerProcess, caller caller, ids []string, cursor string, cp *controlPlane) error {
	logf("%s: settling %s, then memory and read latency", s.label, o.settle)
	sleep(ctx, o.settle)
	var err error
	if s.fullMgr, err = m.memory(ctx); err != nil {
		return err
	}
	if s == rep.subjects[len(rep.subjects)-1] {
		if rep.fullAPI, rep.fullEtcd, rep.fullDB, err = controlPlaneMemory(ctx, cp); err != nil {
			return err
		}
	}
	list := func(query string) func(ctx context.Context, w, seq int) error {
		u := m.api + "/v2/transfers" + query
		return func(ctx context.Context, w, seq int) error {
			return expect(ctx, http.MethodGet, u, caller.keyFor(seq*o.latencyWorkers+w), nil, http.StatusOK)
		}
	}
	warm := time.Second
	s.first = closedLoop(ctx, o.latencyWorkers, warm, o.latencyDuration, list("?limit=50"))
	s.middle = closedLoop(ctx, o.latencyWorkers, warm, o.latencyDuration, list("?limit=50&cursor="+url.QueryEscape(cursor)))
	s.filtered = closedLoop(ctx, o.latencyWorkers, warm, o.latencyDuration, list("?limit=50&type=swap"))
	order := mathrand.New(mathrand.NewPCG(3, 4)).Perm(len(ids))
	s.getByID = closedLoop(ctx, o.latencyWorkers, warm, o.latencyDuration, func(ctx context.Context, w, seq int) error {
		id := ids[order[(seq*o.latencyWorkers+w)%len(order)]]
		return expect(ctx, http.MethodGet, m.api+"/v2/transfers/"+id, caller.keyFor(seq*o.latencyWorkers+w), nil, http.StatusOK)
	})
	return m.alive()
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// loadAverage is the first field of /proc/loadavg: how busy the machine was besides this run.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func controlPlaneMemory(ctx context.Context, cp *controlPlane) (api, etcd memory, db etcdSize, err error) {
	if api, err = processMemory(cp.apiPID); err != nil {
		return
	}
	if etcd, err = processMemory(cp.etcdPID); err != nil {
		return
	}
	db, err = cp.measureEtcd(ctx)
	return
}

// expect makes one request and fails unless it is answered with want.
func expect(ctx context.Context, method, u, key string, body []byte, want int) error {
	status, data, err := do(ctx, method, u, key, body, nil)
	if err != nil {
		return err
	}
	if status != want {
		return fmt.Errorf("%s %s: %d %s", method, u, status, truncate(data, 300))
	}
	return nil
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// waitKeys waits until every key of every caller is served (its Account and ApiKey reconciled).
func waitKeys(ctx context.Context, m *managerProcess, callers []caller) error {
	deadline := time.Now().Add(time.Minute)
	for _, c := range callers {
		for _, key := range c.keys {
			for {
				status, _, err := get(ctx, m.api+"/v2/transfers?limit=1", key)
				if err == nil && status == http.StatusOK {
					break
				}
				if err := m.alive(); err != nil {
					return err
				}
				if time.Now().After(deadline) {
					return fmt.Errorf("a key of %s is not served (status %d, %w)", c.account, status, err)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
	return nil
}

// createTemplates creates one intent of each type through the API, reads the stored objects
// back as the templates of the fill, and deletes them.
func createTemplates(ctx context.Context, m *managerProcess, c client.Client, namespace string, who caller) (map[v1alpha1.IntentType]*v1alpha1.TransferIntent, error) {
	templates := map[v1alpha1.IntentType]*v1alpha1.TransferIntent{}
	for _, typ := range intentTypes {
		status, data, err := do(ctx, http.MethodPost, m.api+"/v2/transfers", who.key, []byte(templateRequests[typ]), nil)
		if err != nil {
			return nil, err
		}
		if status != http.StatusCreated {
			return nil, fmt.Errorf("creating a %s template: %d %s", typ, status, data)
		}
		var created struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(data, &created); err != nil {
			return nil, err
		}
		name, err := intent.ObjectNameFromID(created.ID)
		if err != nil {
			return nil, err
		}
		var obj v1alpha1.TransferIntent
		if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, &obj); err != nil {
			return nil, err
		}
		if obj.Spec.Type != typ {
			return nil, fmt.Errorf("the %s template was stored as a %s", typ, obj.Spec.Type)
		}
		templates[typ] = &obj
		if err := c.Delete(ctx, obj.DeepCopy()); err != nil {
			return nil, err
		}
	}
	return templates, nil
}

// pageAll pages through every caller's intents, 100 at a time, and returns the first caller's
// ids, the cursor of the middle of its list, and how many intents the callers have in all.
func pageAll(ctx context.Context, m *managerProcess, callers []caller) (ids []string, middle string, total int, err error) {
	for i, c := range callers {
		var cursors []string
		cursor := ""
		for {
			u := m.api + "/v2/transfers?limit=100"
			if cursor != "" {
				u += "&cursor=" + url.QueryEscape(cursor)
			}
			header := http.Header{}
			status, data, err := do(ctx, http.MethodGet, u, c.keyFor(len(cursors)), nil, header)
			if err != nil {
				return nil, "", 0, err
			}
			if status != http.StatusOK {
				return nil, "", 0, fmt.Errorf("GET %s: %d %s", u, status, truncate(data, 300))
			}
			var page []struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(data, &page); err != nil {
				return nil, "", 0, err
			}
			total += len(page)
			if i == 0 {
				for _, it := range page {
					ids = append(ids, it.ID)
				}
			}
			if cursor, err = nextCursor(header.Get("Link")); err != nil {
				return nil, "", 0, err
			}
			if cursor == "" {
				break
			}
			cursors = append(cursors, cursor)
		}
		if i == 0 && len(cursors) > 0 {
			middle = cursors[len(cursors)/2]
		}
	}
	if middle == "" {
		return nil, "", 0, errors.New("the caller has a single page of intents: raise -n")
	}
	return ids, middle, total, nil
}

// report is every figure of a run.
type report struct {
	o                   options
	subjects            []*subject
	loadStart, loadEnd  string
	fill                fillResult
	callerIntents       int
	informerStream      []time.Duration
	informerList        []time.Duration
	emptyAPI, fullAPI   memory
	emptyEtcd, fullEtcd memory
	emptyDB, fullDB     etcdSize
}

func (r *report) print(w *os.File) {
	p := &table{}
	n := float64(r.o.n)
	fmt.Fprintf(w, "\nbench-scale: %d intents over %d accounts (the caller has %d), Go %s, %d CPUs, load average %s at the start and %s at the end\n",
		r.o.n, r.o.accounts, r.callerIntents, runtime.Version(), runtime.NumCPU(), r.loadStart, r.loadEnd)
	for _, s := range r.subjects {
		fmt.Fprintf(w, "  %s: %s %s %s\n", s.label, strings.Join(s.env, " "), s.bin, strings.Join(r.o.managerArgs, " "))
	}
	fmt.Fprintln(w)

	head := []string{"FIGURE"}
	for _, s := range r.subjects {
		head = append(head, strings.ToUpper(s.label))
	}
	if len(r.subjects) == 2 {
		head = append(head, "AFTER/BEFORE")
	}
	p.row(append(head, "BASELINE AND TARGET")...)
	// single adds a row of one figure for the whole run (the control plane's).
	single := func(name, value, note string) {
		cols := []string{name, value}
		for range len(r.subjects) - 1 {
			cols = append(cols, "")
		}
		if len(r.subjects) == 2 {
			cols = append(cols, "")
		}
		p.row(append(cols, note)...)
	}
	// each adds a row of one figure per subject, their ratio, and a note.
	each := func(name string, value func(*subject) float64, format func(float64) string, note string) {
		cols := []string{name}
		var vals []float64
		for _, s := range r.subjects {
			v := value(s)
			vals = append(vals, v)
			cols = append(cols, format(v))
		}
		if len(vals) == 2 {
			cols = append(cols, ratio(vals[1], vals[0]))
		}
		p.row(append(cols, note)...)
	}
	seconds := func(v float64) string {
		return time.Duration(v * float64(time.Second)).Round(10 * time.Millisecond).String()
	}
	bytes := func(v float64) string { return fmt.Sprintf("%.0f B", v) }
	mebi := func(v float64) string { return fmt.Sprintf("%.1f MiB", v/(1<<20)) }
	micro := func(v float64) string { return round(time.Duration(v * float64(time.Second))).String() }
	perSec := func(v float64) string { return fmt.Sprintf("%.0f/s", v) }

	single("fill: raw client, create + status write", fmt.Sprintf("%.0f intents/s", float64(r.fill.n)/r.fill.elapsed.Seconds()),
		fmt.Sprintf("%d writers, %s for %d", r.o.fillWorkers, r.fill.elapsed.Round(time.Second), r.fill.n))
	each("time to ready, empty store", func(s *subject) float64 { return s.emptyReady.Seconds() }, seconds, "")
	each("time to ready (/readyz 200), median", func(s *subject) float64 { return median(s.fullReady).Seconds() }, seconds,
		fmt.Sprintf("target < 30s; %d starts each", r.o.restarts+1))
	single("  bare informer sync, streamed, median", median(r.informerStream).Round(10*time.Millisecond).String(),
		"a controller-runtime cache of TransferIntents alone, WatchListClient on (client-go's default): "+durations(r.informerStream))
	single("  bare informer sync, one list, median", median(r.informerList).Round(10*time.Millisecond).String(),
		"the same, WatchListClient off: "+durations(r.informerList))
	for i, s := range r.subjects {
		cols := []string{"  " + s.label + ": each start"}
		for j := range r.subjects {
			if j == i {
				cols = append(cols, durations(s.fullReady))
			} else {
				cols = append(cols, "")
			}
		}
		if len(r.subjects) == 2 {
			cols = append(cols, "")
		}
		p.row(append(cols, "")...)
	}
	each("all intents served over /v2 (1st start)", func(s *subject) float64 { return s.servedAt.Seconds() }, seconds, "paging every account")
	each("first reconcile pass done, median", func(s *subject) float64 { return median(s.reconciled).Seconds() }, seconds, "")
	each("  API writes at start-up (last start)", func(s *subject) float64 { return s.startWrites }, func(v float64) string { return fmt.Sprintf("%.0f", v) }, "")
	each("manager RSS, empty store", func(s *subject) float64 { return float64(s.emptyMgr.rss) }, mebi, "")
	each("manager RSS", func(s *subject) float64 { return float64(s.fullMgr.rss) }, mebi, "target < 400 MiB at 100,000")
	each("manager RSS per intent", func(s *subject) float64 { return float64(s.fullMgr.rss-s.emptyMgr.rss) / n }, bytes,
		"(RSS - empty-store RSS) / N; target < 2,560 B")
	each("manager peak RSS (VmHWM) per intent", func(s *subject) float64 { return float64(s.fullMgr.peak-s.emptyMgr.peak) / n }, bytes, "")
	each("manager Go heap live", func(s *subject) float64 { return s.fullMgr.heapLive }, mebi, "as the last garbage collection found it")
	each("manager Go heap live per intent", func(s *subject) float64 { return (s.fullMgr.heapLive - s.emptyMgr.heapLive) / n }, bytes, "")
	each("manager Go heap in use per intent", func(s *subject) float64 { return (s.fullMgr.heapInuse - s.emptyMgr.heapInuse) / n }, bytes,
		"go_memstats_heap_inuse_bytes: live and garbage not yet collected")
	single("kube-apiserver RSS", mebi(float64(r.fullAPI.rss)), fmt.Sprintf("%s empty store; %s per intent", mebi(float64(r.emptyAPI.rss)),
		bytes(float64(r.fullAPI.rss-r.emptyAPI.rss)/n)))
	single("etcd RSS", mebi(float64(r.fullEtcd.rss)), fmt.Sprintf("%s empty store; %s per intent", mebi(float64(r.emptyEtcd.rss)),
		bytes(float64(r.fullEtcd.rss-r.emptyEtcd.rss)/n)))
	single("etcd db size (metrics)", mebi(float64(r.fullDB.total)), fmt.Sprintf("%s per intent, with history since the last compaction; in use %s per intent",
		bytes(float64(r.fullDB.total-r.emptyDB.total)/n), bytes(float64(r.fullDB.inUse-r.emptyDB.inUse)/n)))
	single("etcd db compacted + defragmented", mebi(float64(r.fullDB.compacted)), fmt.Sprintf("%s per intent: the live data alone",
		bytes(float64(r.fullDB.compacted-r.emptyDB.compacted)/n)))
	reads := []struct {
		name string
		res  func(*subject) loadResult
	}{
		{"GET /v2/transfers first page (50)", func(s *subject) loadResult { return s.first }},
		{"GET /v2/transfers middle page (cursor)", func(s *subject) loadResult { return s.middle }},
		{"GET /v2/transfers?type=swap first page", func(s *subject) loadResult { return s.filtered }},
		{"GET /v2/transfers/{id} (random ids)", func(s *subject) loadResult { return s.getByID }},
	}
	for _, rd := range reads {
		each(rd.name+" p50", func(s *subject) float64 { return rd.res(s).p50.Seconds() }, micro, "")
		each("  p99", func(s *subject) float64 { return rd.res(s).p99.Seconds() }, micro,
			fmt.Sprintf("%d readers, %s closed loop%s", r.o.latencyWorkers, r.o.latencyDuration, r.failures(rd.res)))
	}
	each("POST /v2/transfers sustained", func(s *subject) float64 { return s.createHTTP.rate() }, perSec,
		fmt.Sprintf("%d concurrent, %d run(s) of %s%s", r.o.createConcurrency, r.o.createRounds, r.o.createDuration, r.failures(func(s *subject) loadResult { return s.createHTTP })))
	each("  p99 of a create", func(s *subject) float64 { return s.createHTTP.p99.Seconds() }, micro, "")
	each("  status of every new intent written", func(s *subject) float64 { return median(s.drained).Seconds() }, seconds,
		"after the run ended: the controller's backlog (the pending status of each new intent)")
	each("raw client-go create loop, same API server", func(s *subject) float64 { return s.createRaw.rate() }, perSec,
		"into a namespace no manager watches, that manager running"+r.failures(func(s *subject) loadResult { return s.createRaw }))
	each("  p99 of a raw create", func(s *subject) float64 { return s.createRaw.p99.Seconds() }, micro, "")
	perCreate := func(use func(*subject) (cpuUse, loadResult), part func(cpuUse) time.Duration) func(*subject) float64 {
		return func(s *subject) float64 {
			c, res := use(s)
			if res.n == 0 {
				return 0
			}
			return part(c).Seconds() / float64(res.n)
		}
	}
	httpUse := func(s *subject) (cpuUse, loadResult) { return s.createCPU, s.createHTTP }
	rawUse := func(s *subject) (cpuUse, loadResult) { return s.rawCPU, s.createRaw }
	cores := float64(runtime.NumCPU())
	for _, c := range []struct {
		name string
		use  func(*subject) (cpuUse, loadResult)
		note string
	}{
		{"CPU per /v2 create, all processes", httpUse, "until every new intent's status was written"},
		{"CPU per raw create, all processes", rawUse, ""},
	} {
		each(c.name, perCreate(c.use, cpuUse.total), micro, c.note)
		each("  manager", perCreate(c.use, func(u cpuUse) time.Duration { return u.manager }), micro, "")
		each("  kube-apiserver", perCreate(c.use, func(u cpuUse) time.Duration { return u.apiServer }), micro, "")
		each("  etcd", perCreate(c.use, func(u cpuUse) time.Duration { return u.etcd }), micro, "")
		each("  load generator (this process)", perCreate(c.use, func(u cpuUse) time.Duration { return u.loadGen }), micro, "")
		each("  bound: creates/s the CPUs allow", func(s *subject) float64 {
			if per := perCreate(c.use, cpuUse.total)(s); per > 0 {
				return cores / per
			}
			return 0
		}, perSec, fmt.Sprintf("%d cores / CPU per create, if nothing else ran", runtime.NumCPU()))
	}
	each("POST /v2/transfers / raw client-go", func(s *subject) float64 { return s.createHTTP.rate() / s.createRaw.rate() },
		func(v float64) string { return fmt.Sprintf("%.2fx", v) }, "how close create gets to what the API server allows")
	p.write(w)
}

func (r *report) failures(res func(*subject) loadResult) string {
	var parts []string
	for _, s := range r.subjects {
		if f := res(s); f.failures > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d FAILED (%v)", s.label, f.failures, f.firstErr))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, "; ")
}

func ratio(after, before float64) string {
	if before == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", after/before)
}

// table aligns columns without tabwriter's trouble with multi-byte characters.
type table struct{ rows [][]string }

func (t *table) row(cols ...string) { t.rows = append(t.rows, cols) }

func (t *table) write(w *os.File) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r[:len(r)-1] {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func durations(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Round(100 * time.Millisecond).String()
	}
	return strings.Join(parts, ", ")
}

// watchList is client-go's feature gates with WatchListClient set.
type watchList struct {
	clientfeatures.Gates
	on bool
}

func (g watchList) Enabled(f clientfeatures.Feature) bool {
	if f == clientfeatures.WatchListClient {
		return g.on
	}
	return g.Gates.Enabled(f)
}
