package apiserver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/loadgen"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// Latency of the transfer endpoints through the whole HTTP stack on loopback (a real TCP server,
// the production logger writing to a discarding sink, auth gate, rate limiter, metrics), at a
// steady closed-loop load, next to baselines measured in the same run:
//
//   - GET /health on the same server: the cost of the stack and the network alone;
//   - the bare domain call (ParseRequest + Simulate) for simulate;
//   - the plain cache path for the list: the informer's account index, a deep copy of every
//     intent (what the controller-runtime cache's List returns) and a sort, per request.
//
// The list runs with 100,000 intents in the store, 10,000 of them the caller's, fed through the
// informer's event handler (the code path of the operator) rather than created in a cluster.
//
//	go test ./internal/apiserver -run '^$' -bench BenchmarkTransfers -benchtime 1x
//
// TIS_BENCH_DURATION (default 3s) and TIS_BENCH_CONCURRENCY (default 2, one request in flight
// per core of a small machine) shape each run. Targets: simulate p99 < 2ms, list p99 < 10ms.
// Each sub-benchmark is one timed run whatever b.N is; it reports p50/p99 in µs and the ratio of
// its p99 to a baseline measured the same way: HTTP runs against GET /health over HTTP, in-process
// runs against /health through the handler in-process; the list handler against a naive List+sort.

const (
	benchIntentsTotal    = 100_000
	benchIntentsOfCaller = 10_000
	benchAccounts        = 10 // the caller's and nine others, 10,000 each
)

type transferBench struct {
	h        *transferHarness
	base     string
	key      string
	indexer  toolscache.Indexer
	health   loadgen.Result // GET /health over loopback HTTP: the baseline of HTTP runs
	inHealth loadgen.Result // GET /health through the handler in-process: the baseline of in-process runs
	simBody  []byte
	cursorID string // the id in the middle of the caller's list
}

var (
	transferBenchOnce sync.Once
	transferBenchEnv  *transferBench
)

func benchConfig() loadgen.Config {
	cfg := loadgen.Config{Concurrency: 2, Duration: 3 * time.Second, Warmup: 500 * time.Millisecond}
	if d, err := time.ParseDuration(os.Getenv("TIS_BENCH_DURATION")); err == nil && d > 0 {
		cfg.Duration = d
	}
	if n, err := strconv.Atoi(os.Getenv("TIS_BENCH_CONCURRENCY")); err == nil && n > 0 {
		cfg.Concurrency = n
	}
	return cfg
}

// setupTransferBench builds the server once for every sub-benchmark.
func setupTransferBench(b *testing.B) *transferBench {
	transferBenchOnce.Do(func() {
		h := newTransferHarness(b)
		h.http.Close() // served below on a real listener instead
		h.keys.keys[hashOf(testKeyA)] = registry.Key{ID: "key-a", Account: "alice", Environment: registry.EnvironmentTest, RateLimitPerMinute: 1 << 30}
		h.srv.log = zap.New(zap.WriteTo(io.Discard), zap.UseDevMode(false))
		h.srv.deps.Clock = clock.RealClock{} // a fake clock would freeze the rate window
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		go func() { _ = (&http.Server{Handler: h.srv.Handler(), ReadHeaderTimeout: 5 * time.Second}).Serve(l) }()
		env := &transferBench{h: h, base: "http://" + l.Addr().String(), key: testKeyA,
			simBody: []byte(usdcTransfer().String())}
		env.cursorID = env.fillStore(b)
		env.health = loadgen.Run(context.Background(), benchConfig(), loadgen.Request{Method: http.MethodGet, URL: env.base + "/health"})
		env.inHealth = measureDirect(benchConfig(), env.inProcess(http.MethodGet, "/health", nil))
		transferBenchEnv = env
	})
	if transferBenchEnv == nil {
		b.Fatal("setting up the benchmark failed")
	}
	return transferBenchEnv
}

// fillStore feeds 100,000 intents through the store's informer event handler, and the same
// objects into a client-go indexer with the AccountIndexField index, for the baseline.
func (e *transferBench) fillStore(b *testing.B) string {
	handler := e.h.store.EventHandler()
	e.indexer = toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, toolscache.Indexers{
		"field:" + intentstore.AccountIndexField: func(obj any) ([]string, error) {
			return intentstore.IndexByAccount(obj.(client.Object)), nil
		},
	})
	rng := rand.New(rand.NewPCG(1, 2))
	types := []v1alpha1.IntentType{v1alpha1.IntentTypeTransfer, v1alpha1.IntentTypeSwap, v1alpha1.IntentTypeBridge}
	start := time.Now().Add(-benchIntentsTotal * time.Millisecond)
	var callerIDs []string
	for i := range benchIntentsTotal {
		account := "alice"
		if i%benchAccounts != 0 {
			account = fmt.Sprintf("account-%d", i%benchAccounts)
		}
		obj := benchIntent(start.Add(time.Duration(i)*time.Millisecond), account, types[rng.IntN(3)])
		handler.OnAdd(obj, true)
		if err := e.indexer.Add(obj); err != nil {
			b.Fatal(err)
		}
		if account == "alice" {
			callerIDs = append(callerIDs, obj.Spec.ID)
		}
	}
	if e.h.store.Len() != benchIntentsTotal || len(callerIDs) != benchIntentsOfCaller {
		b.Fatalf("store holds %d intents, %d of the caller", e.h.store.Len(), len(callerIDs))
	}
	return callerIDs[len(callerIDs)/2]
}

func benchIntent(at time.Time, account string, typ v1alpha1.IntentType) *v1alpha1.TransferIntent {
	id := intent.NewIntentID(at)
	name, _ := intent.ObjectNameFromID(id)
	return &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, AccountRef: v1alpha1.LocalObjectReference{Name: account}, Environment: v1alpha1.EnvironmentTest,
			Type: typ, ResolvedPath: []v1alpha1.IntentType{typ}, FromChain: sepolia, ToChain: sepolia,
			OrderID: "0x" + strings.Repeat("ab", 32),
			Request: v1alpha1.TransferRequest{From: caip10(sepolia, aliceAddr), To: caip10(sepolia, bobAddr),
				Asset: v1alpha1.TransferAsset{In: caip10(sepolia, usdcSepolia)}, Amount: "12.5"},
			Tx: &v1alpha1.TransactionPayload{To: eip55(usdcSepolia), Data: "0xa9059cbb" + strings.Repeat("00", 64), Value: "0", ChainID: 11155111},
		},
		Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhasePending},
	}
}

// inProcess returns a call of the API's handler with no network in between, for in-process runs
// that must be compared with in-process baselines.
func (e *transferBench) inProcess(method, target string, body []byte) func() error {
	handler := e.h.srv.Handler()
	return func() error {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req := httptest.NewRequest(method, target, rd)
		req.Header.Set(APIKeyHeader, e.key)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			return fmt.Errorf("%s %s: status %d", method, target, rec.Code)
		}
		return nil
	}
}

// report publishes a run's percentiles and its p99 against a baseline p99 measured the same way
// (HTTP against HTTP, in-process against in-process) in the same run.
func report(b *testing.B, res loadgen.Result, baseline time.Duration, target time.Duration) {
	b.Helper()
	if res.Errors > 0 || res.Requests == 0 {
		b.Fatalf("run failed: %s", res)
	}
	for status, n := range res.Statuses {
		if status != http.StatusOK {
			b.Fatalf("%d answers with status %d", n, status)
		}
	}
	b.ReportMetric(float64(res.P50.Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(res.P99.Nanoseconds())/1e3, "p99-µs")
	b.ReportMetric(res.RPS(), "req/s")
	b.ReportMetric(float64(res.P99)/float64(baseline), "p99/baseline")
	b.ReportMetric(0, "ns/op")
	verdict := "meets"
	if res.P99 >= target {
		verdict = "MISSES"
	}
	b.Logf("%s\n    baseline p99 %s; p99 %s %s the target of %s", res, baseline, res.P99, verdict, target)
}

func BenchmarkTransfersSimulate(b *testing.B) {
	e := setupTransferBench(b)
	cfg := benchConfig()
	b.Run("health-baseline", func(b *testing.B) {
		res := loadgen.Run(context.Background(), cfg, loadgen.Request{Method: http.MethodGet, URL: e.base + "/health"})
		report(b, res, e.health.P99, 2*time.Millisecond)
	})
	b.Run("domain-call", func(b *testing.B) {
		res := measureDirect(cfg, func() error {
			req, p := decodeTransferRequest(e.simBody, false)
			if p != nil {
				return p
			}
			parsed, err := intent.ParseRequest(req)
			if err != nil {
				return err
			}
			_, err = e.h.srv.deps.Transfers.Simulate(context.Background(), "alice", parsed)
			return err
		})
		report(b, res, e.inHealth.P99, 2*time.Millisecond)
	})
	b.Run("handler-in-process", func(b *testing.B) {
		res := measureDirect(cfg, e.inProcess(http.MethodPost, simulatePath, e.simBody))
		report(b, res, e.inHealth.P99, 2*time.Millisecond)
	})
	b.Run("http", func(b *testing.B) {
		res := loadgen.Run(context.Background(), cfg, loadgen.Request{
			Method: http.MethodPost, URL: e.base + simulatePath, Body: e.simBody,
			Header: http.Header{APIKeyHeader: {e.key}, "Content-Type": {"application/json"}},
		})
		report(b, res, e.health.P99, 2*time.Millisecond)
	})
}

func BenchmarkTransfersList(b *testing.B) {
	e := setupTransferBench(b)
	cfg := benchConfig()
	header := http.Header{APIKeyHeader: {e.key}}
	for _, bc := range []struct{ name, query string }{
		{"first-page", "?limit=100"},
		{"middle-page", "?limit=100&cursor=" + encodeCursor(e.cursorID)},
		{"type-filter", "?limit=100&type=swap"},
	} {
		b.Run("http-"+bc.name, func(b *testing.B) {
			res := loadgen.Run(context.Background(), cfg, loadgen.Request{Method: http.MethodGet, URL: e.base + transfersPath + bc.query, Header: header})
			report(b, res, e.health.P99, 10*time.Millisecond)
		})
	}
	// The plain cache path, without HTTP: what a handler doing List + sort per request would
	// spend before it writes a byte. It is compared with the in-process /health, and the list
	// handler in-process is compared with it: in-process against in-process.
	var naive loadgen.Result
	b.Run("cache-list-sort-baseline", func(b *testing.B) {
		naive = measureDirect(loadgen.Config{Concurrency: cfg.Concurrency, Duration: cfg.Duration}, func() error {
			objs, err := e.indexer.ByIndex("field:"+intentstore.AccountIndexField, "alice")
			if err != nil {
				return err
			}
			items := make([]*v1alpha1.TransferIntent, 0, len(objs))
			for _, o := range objs {
				items = append(items, o.(*v1alpha1.TransferIntent).DeepCopy())
			}
			slices.SortFunc(items, func(a, b *v1alpha1.TransferIntent) int { return strings.Compare(b.Spec.ID, a.Spec.ID) })
			page := make([]transferrecord.Summary, 0, 100)
			for _, it := range items[:100] {
				page = append(page, transferrecord.SummaryOf(it))
			}
			_ = appendSummaries(nil, page, func(string) string { return "" })
			return nil
		})
		report(b, naive, e.inHealth.P99, 10*time.Millisecond)
	})
	b.Run("handler-in-process-first-page", func(b *testing.B) {
		res := measureDirect(cfg, e.inProcess(http.MethodGet, transfersPath+"?limit=100", nil))
		report(b, res, naive.P99, 10*time.Millisecond)
	})
}

// measureDirect runs fn from cfg.Concurrency goroutines for cfg.Duration and returns its latency
// distribution in loadgen's terms.
func measureDirect(cfg loadgen.Config, fn func() error) loadgen.Result {
	var mu sync.Mutex
	var lat []time.Duration
	errs := 0
	deadline := time.Now().Add(cfg.Duration)
	start := time.Now()
	var wg sync.WaitGroup
	for range cfg.Concurrency {
		wg.Go(func() {
			var mine []time.Duration
			bad := 0
			for time.Now().Before(deadline) {
				t := time.Now()
				if fn() != nil {
					bad++
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			lat, errs = append(lat, mine...), errs+bad
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(lat)
	at := func(p int) time.Duration { return lat[max((p*len(lat)+99)/100, 1)-1] }
	return loadgen.Result{Requests: len(lat), Elapsed: time.Since(start), Statuses: map[int]int{http.StatusOK: len(lat)},
		Errors: errs, P50: at(50), P90: at(90), P99: at(99), Max: lat[len(lat)-1]}
}
