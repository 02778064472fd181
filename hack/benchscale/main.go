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
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
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
	archiveN          int
	archiveRate       float64
	archiveOnly       bool
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
	flag.IntVar(&o.archiveN, "archive-n", 100_000, "Intents put through create, expiry and the archive (PostgreSQL from hack/postgres.sh), before the fill; 0: no archive phase.")
	flag.Float64Var(&o.archiveRate, "archive-rate", 100_000, "The manager's --archive-rate in the archive phase (its throughput is measured, so the default lifts the bound).")
	flag.BoolVar(&o.archiveOnly, "archive-only", false, "Run only the archive phase (with -archive-n) and print its figures: drain against create in one run, in minutes.")
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
func run(ctx context.Context, o options) error {
	work, err := workDir(o.work)
	if err != nil {
		return err
	}
	logf("work directory (kubeconfig, manager logs): %s", work)
	rep := &report{o: o, loadStart: loadAverage()}
	if rep.subjects, err = subjects(o); err != nil {
		return err
	}

	logf("starting kube-apiserver and etcd from %s", o.assets)
	cp, err := startControlPlane(o.assets, o.crdDir, work)
	if err != nil {
		return err
	}
	defer cp.stop()
	b := &bench{o: o, rep: rep, cp: cp, work: work}
	if err := b.prepare(ctx); err != nil {
		return err
	}
	if err := b.measureEmpty(ctx); err != nil {
		return err
	}
	if err := b.measureArchive(ctx); err != nil {
		return err
	}
	if o.archiveOnly {
		rep.loadEnd = loadAverage()
		rep.printHeader(os.Stdout)
		rep.printArchive(os.Stdout)
		return nil
	}
	if err := b.seed(ctx); err != nil {
		return err
	}
	if err := b.measureInformer(ctx); err != nil {
		return err
	}
	if err := b.measureStarts(ctx); err != nil {
		return err
	}
	if err := b.measureCreates(ctx); err != nil {
		return err
	}
	rep.loadEnd = loadAverage()
	rep.print(os.Stdout)
	return nil
}

// workDir is the directory of -work, made if need be, or a new temporary directory.
func workDir(dir string) (string, error) {
	if dir == "" {
		return os.MkdirTemp("", "benchscale-")
	}
	return dir, os.MkdirAll(dir, 0o755)
}

// subjects are the managers under test: -before's, if any, then -manager's.
func subjects(o options) ([]*subject, error) {
	var all []*subject
	if o.before != "" {
		all = append(all, &subject{label: "before", bin: o.before})
	}
	label := "manager"
	if o.before != "" {
		label = "after"
	}
	var env []string
	if o.managerEnv != "" {
		env = strings.Split(o.managerEnv, ",")
	}
	all = append(all, &subject{label: label, bin: o.manager, env: env})
	for _, s := range all {
		var err error
		if s.bin, err = filepath.Abs(s.bin); err != nil {
			return nil, err
		}
		if _, err := os.Stat(s.bin); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// bench is a run under way: the control plane, and what each phase leaves for the next.
type bench struct {
	o    options
	rep  *report
	cp   *controlPlane
	work string

	callers      []caller
	rawNamespace string   // the namespace of the raw client-go creates, which no manager watches
	managerArgs  []string // the flags of every manager started
	starts       int      // managers started so far, numbering their logs

	templates map[v1alpha1.IntentType]*v1alpha1.TransferIntent // measureEmpty's, for the fill
	pl        *planner                                         // the fill's, for the raw creates
	ids       []string                                         // the caller's intents, as /v2 serves them
	cursor    string                                           // the cursor of the middle of the caller's list
}

// prepare sets up the namespaces (the accounts and keys of the callers, the chains and tokens)
// and the attester key the managers are started with.
func (b *bench) prepare(ctx context.Context) error {
	var err error
	if b.callers, err = setupNamespace(ctx, b.cp.admin, b.o.namespace, b.o.samples, b.o.accounts); err != nil {
		return err
	}
	b.rawNamespace = b.o.namespace + "-raw"
	if err := b.cp.admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: b.rawNamespace}}); err != nil {
		return err
	}
	// make run's attester: the samples' settlement address is the CREATE2 address of the local
	// arguments, its attester among them (deploy.LocalArgs).
	attester, err := crypto.HexToECDSA(devchain.WellKnownAttesterKey)
	if err != nil {
		return err
	}
	attesterFile := filepath.Join(b.work, "attester.key")
	if err := os.WriteFile(attesterFile, []byte(hex.EncodeToString(crypto.FromECDSA(attester))), 0o600); err != nil {
		return err
	}
	// The bench's local chains have one node each (no witnessRpcs), as make run's: their bridge
	// fills may be attested on that node's word, since the node is this process.
	b.managerArgs = append([]string{"--attester-key-file", attesterFile, "--unsafe-single-rpc-attestation"}, b.o.managerArgs...)
	return nil
}

// launch starts the subject's manager with the run's flags and extra ones, logging to a file named
// after the start and what it is for.
func (b *bench) launch(s *subject, what string, extra ...string) (*managerProcess, error) {
	b.starts++
	logName := fmt.Sprintf("manager-%02d-%s-%s.log", b.starts, s.label, what)
	args := append(slices.Clone(b.managerArgs), extra...)
	return startManager(s.bin, s.env, b.cp.kubeconfig, b.o.namespace, filepath.Join(b.work, logName), args...)
}

// measureEmpty is the baseline: each manager over a store with no intents. The last one also
// creates the templates of the fill.
func (b *bench) measureEmpty(ctx context.Context) error {
	o, rep, cp, callers := b.o, b.rep, b.cp, b.callers
	for i, s := range rep.subjects {
		logf("%s: the manager over an empty store", s.label)
		m, err := b.launch(s, "empty")
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
			if b.templates, err = b.createTemplates(ctx, m); err != nil {
				return err
			}
		}
		m.stop()
	}
	return nil
}

// seed fills the store, with a raw client.
func (b *bench) seed(ctx context.Context) error {
	o, rep := b.o, b.rep
	logf("storing %d intents over %d accounts with %d writers", o.n, o.accounts, o.fillWorkers)
	b.pl = &planner{namespace: o.namespace, templates: b.templates, callers: b.callers, now: time.Now(), rng: mathrand.New(mathrand.NewPCG(1, 2))}
	var err error
	rep.fill, err = fill(ctx, b.cp.admin, b.pl, o.n, o.fillWorkers, func(done int) { logf("  %d stored", done) })
	if err != nil {
		return err
	}
	logf("stored %d intents in %s (%.0f intents/s, a create and a status write each)", rep.fill.n, rep.fill.elapsed.Round(time.Millisecond),
		float64(rep.fill.n)/rep.fill.elapsed.Seconds())
	return nil
}

// measureInformer is the floor of a start: a bare informer's first sync in this process, streamed
// (client-go's default, WatchListClient) and as one list.
func (b *bench) measureInformer(ctx context.Context) error {
	rep := b.rep
	gates := clientfeatures.FeatureGates()
	for _, streamed := range []bool{true, false} {
		clientfeatures.ReplaceFeatureGates(watchList{gates, streamed})
		for range b.o.restarts + 1 {
			d, err := b.cp.informerSync(ctx, b.o.namespace)
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
	return nil
}

// measureStarts is start-up: each manager started 1 + restarts times, the subjects' starts
// interleaved. The last start of each is kept for its memory and its reads.
func (b *bench) measureStarts(ctx context.Context) error {
	for round := 0; round <= b.o.restarts; round++ {
		for _, s := range b.rep.subjects {
			if err := b.measureStart(ctx, s, round); err != nil {
				return err
			}
		}
	}
	return nil
}

// measureStart starts the subject's manager over the full store and times it to ready and to
// the end of its first reconcile pass; the first round also pages through every intent over
// /v2, the last measures memory and reads.
func (b *bench) measureStart(ctx context.Context, s *subject, round int) error {
	o := b.o
	logf("%s: starting the manager over %d intents (start %d of %d)", s.label, o.n, round+1, o.restarts+1)
	m, err := b.launch(s, "full")
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
		if err := b.measureServed(ctx, s, m); err != nil {
			return err
		}
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
		if err := measureFull(ctx, o, b.rep, s, m, b.callers[0], b.ids, b.cursor, b.cp); err != nil {
			return err
		}
	}
	m.stop()
	return nil
}

// measureServed times a started manager until it serves every intent over /v2, and keeps the
// caller's intents and the cursor of the middle of its list for the reads.
func (b *bench) measureServed(ctx context.Context, s *subject, m *managerProcess) error {
	// Readiness waits for the caches, not for the first reconcile of every key.
	if err := waitKeys(ctx, m, b.callers); err != nil {
		return err
	}
	var served int
	var err error
	if b.ids, b.cursor, served, err = pageAll(ctx, m, b.callers); err != nil {
		return err
	}
	s.servedAt = time.Since(m.started)
	if served != b.o.n {
		return fmt.Errorf("%s: the manager serves %d intents, not %d", s.label, served, b.o.n)
	}
	b.rep.callerIntents = len(b.ids)
	logf("%s: all %d intents served over /v2 after %s", s.label, served, s.servedAt.Round(time.Millisecond))
	return nil
}

// measureCreates runs the creates, last (they grow the store): through each manager's API, then,
// once that manager's controller has written the status of every intent created (so the next
// manager inherits no backlog), the raw client-go loop against the same API server, with the
// manager running, into a namespace it does not watch: the API server's own rate for these
// objects.
func (b *bench) measureCreates(ctx context.Context) error {
	for round := range b.o.createRounds {
		order := slices.Clone(b.rep.subjects)
		if round%2 == 1 {
			slices.Reverse(order) // ABBA: a drift of the machine's load weighs on both alike
		}
		for _, s := range order {
			if err := createRound(ctx, b.o, s, b.launch, b.callers, b.pl, b.rawNamespace, b.cp); err != nil {
				return err
			}
		}
	}
	return nil
}

// createRound starts the subject's manager and measures creates through it, then the raw loop.
func createRound(ctx context.Context, o options, s *subject, launch func(*subject, string, ...string) (*managerProcess, error),
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

// createTemplates creates the templates of the fill with the manager m, the swap's and the
// bridge's on the local chains, run only meanwhile.
func (b *bench) createTemplates(ctx context.Context, m *managerProcess) (map[v1alpha1.IntentType]*v1alpha1.TransferIntent, error) {
	chains, err := startOrderChains(ctx, b.cp.admin, b.o.namespace, b.o.samples)
	if err != nil {
		return nil, err
	}
	templates, err := func() (map[v1alpha1.IntentType]*v1alpha1.TransferIntent, error) {
		if err := waitOffered(ctx, m, b.callers[0].key); err != nil {
			return nil, err
		}
		return createTemplatesOf(ctx, m, b.cp.admin, b.o.namespace, b.callers[0])
	}()
	return templates, errors.Join(err, chains.stop(ctx))
}

// createTemplatesOf creates one intent of each type through the API, reads the stored objects
// back as the templates of the fill, and deletes them.
func createTemplatesOf(ctx context.Context, m *managerProcess, c client.Client, namespace string, who caller) (map[v1alpha1.IntentType]*v1alpha1.TransferIntent, error) {
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
