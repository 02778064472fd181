// Command benchbinary measures the built manager binary, as it ships (JSON logs with the access
// log on, written to a file), under an external load generator (wrk), against a bare net/http
// server in this process that serves the same bytes, in one run, and prints both and their ratio.
// `make bench-binary` runs it.
//
// It starts a local control plane (KUBEBUILDER_ASSETS), applies config/samples, creates API keys
// whose limits are far above the load (so the limiter's cost is measured, not its refusals), and
// runs the manager against it. With -api it measures a service already running instead, such as
// `make run`'s (`make bench-run`): it creates the keys there through -api-kubeconfig, in -namespace
// under -account, and deletes them at the end.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/transferintent/transfer-intent-service/internal/apikey"
	"github.com/transferintent/transfer-intent-service/internal/freeport"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/service"
)

const namespace = "bench"

// keys is how many API keys the load spreads over: each allows 100,000 requests a minute (the
// CRD's maximum), so together they allow far more than this machine serves.
const keys = 64

type config struct {
	manager     string
	duration    time.Duration
	connections int
	threads     int
	rounds      int
	logPath     string
	wrk         string
	managerArgs string
	// only: the requests to measure ("tokens", "simulate"; empty: both).
	only string
	// profileDir: after the measured rounds, one more round of the manager during which its CPU
	// profile and execution trace are written there (needs the manager's pprof, -pprof).
	profileDir, pprofAddr string
	// api, kubeconfig, namespace and account: a running service to measure instead (-api).
	api, kubeconfig, namespace, account string
}

func main() {
	var c config
	flag.StringVar(&c.manager, "manager", "bin/manager", "The manager binary to measure.")
	flag.DurationVar(&c.duration, "duration", 10*time.Second, "Measured time of each wrk run.")
	flag.IntVar(&c.connections, "connections", 32, "wrk connections.")
	flag.IntVar(&c.threads, "threads", 2, "wrk threads.")
	flag.IntVar(&c.rounds, "rounds", 2, "Runs of each server, interleaved, so drift affects both alike.")
	flag.StringVar(&c.logPath, "log", "", "Where the manager writes its log (default: a temporary file).")
	flag.StringVar(&c.wrk, "wrk", "wrk", "The wrk binary (hack/wrk.sh installs it).")
	flag.StringVar(&c.managerArgs, "manager-args", "", "Extra flags for the manager, space-separated (e.g. --access-log=false to measure the log's cost).")
	flag.StringVar(&c.only, "only", "", "Measure only this request: tokens or simulate (default both).")
	flag.StringVar(&c.profileDir, "profile-dir", "", "After the measured rounds, run one more round of the manager and write its CPU profile (<request>.cpu) and execution trace (<request>.trace) here.")
	flag.StringVar(&c.pprofAddr, "pprof", "127.0.0.1:6061", "With -profile-dir: the manager's pprof address (passed as --pprof-bind-address when it is started here).")
	flag.StringVar(&c.api, "api", "", "Measure the service already serving at this URL (e.g. make run's http://127.0.0.1:8080) instead of starting one.")
	flag.StringVar(&c.kubeconfig, "api-kubeconfig", ".local/kubeconfig", "With -api: the kubeconfig of its cluster, to create the keys.")
	flag.StringVar(&c.namespace, "namespace", "default", "With -api: the service's namespace.")
	flag.StringVar(&c.account, "account", "demo", "With -api: the Account the keys belong to.")
	flag.Parse()
	// Ctrl-C ends the run through its deferred stops (manager, control plane), not around them.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		interrupted.Store(true)
	}()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "bench-binary:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	if _, err := exec.LookPath(c.wrk); err != nil {
		return errors.New("wrk is not installed: run hack/wrk.sh")
	}
	if c.api != "" {
		return runAgainst(c)
	}
	work, err := os.MkdirTemp("", "benchbinary-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(work) }()
	env := &envtest.Environment{CRDDirectoryPaths: []string{"config/crd/bases"}, ErrorIfCRDPathMissing: true}
	if _, err := env.Start(); err != nil {
		return fmt.Errorf("starting the control plane: %w", err)
	}
	defer func() { _ = env.Stop() }()
	admin, err := env.AddUser(envtest.User{Name: "bench", Groups: []string{"system:masters"}}, &rest.Config{QPS: 200, Burst: 400})
	if err != nil {
		return err
	}
	kube, err := client.New(admin.Config(), client.Options{Scheme: service.NewScheme()})
	if err != nil {
		return err
	}
	plaintexts, err := setUp(kube)
	if err != nil {
		return err
	}
	kubeconfig, err := admin.KubeConfig()
	if err != nil {
		return err
	}
	kubeconfigPath := filepath.Join(work, "kubeconfig")
	if err := os.WriteFile(kubeconfigPath, kubeconfig, 0o600); err != nil {
		return err
	}
	if c.logPath == "" {
		c.logPath = filepath.Join(work, "manager.log")
	}
	api, stop, err := startManager(c, kubeconfigPath)
	if err != nil {
		return err
	}
	defer stop()

	if err := compareAll(c, api, plaintexts); err != nil {
		return err
	}
	info, err := os.Stat(c.logPath)
	if err == nil {
		fmt.Printf("the manager's log (access log on, JSON, as shipped) grew to %d bytes\n", info.Size())
	}
	return nil
}

// compareAll measures the two requests of the benchmark against api.
func compareAll(c config, api string, keys []string) error {
	tokens := request{method: http.MethodGet, path: "/v2/tokens"}
	simulate := request{method: http.MethodPost, path: "/v2/transfers/simulate", body: simulateBody}
	// Every key must be served before the load: the manager learns them from its watch, one
	// reconcile each, and a key it does not know yet is answered 403.
	for _, k := range keys {
		if _, _, _, err := fetchUntilStable(api, tokens, k); err != nil {
			return err
		}
	}
	for _, r := range []request{tokens, simulate} {
		if c.only != "" && c.only != r.name() {
			continue
		}
		if err := compare(c, api, r, keys); err != nil {
			return err
		}
	}
	return nil
}

// runAgainst measures the service at c.api (make run's): the keys are created in its cluster
// through c.kubeconfig and deleted when the run ends.
func runAgainst(c config) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", c.kubeconfig)
	if err != nil {
		return fmt.Errorf("reading %s (is make run running?): %w", c.kubeconfig, err)
	}
	kube, err := client.New(cfg, client.Options{Scheme: service.NewScheme()})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	plaintexts, objs, err := createKeys(ctx, kube, c.namespace, c.account, "bench-run-")
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for _, obj := range objs {
			_ = kube.Delete(ctx, obj)
		}
	}()
	if err != nil {
		return err
	}
	fmt.Printf("measuring %s (keys of Account %s in namespace %s, deleted at the end)\n", c.api, c.account, c.namespace)
	return compareAll(c, strings.TrimSuffix(c.api, "/"), plaintexts)
}

// simulateBody is a USDC transfer on the sample Sepolia chain, which has no node configured: the
// simulation's cost without the node's round trip.
const simulateBody = `{"from":"eip155:11155111:0x70997970C51812dc3A010C7d01b50e0d17dc79C8",` +
	`"to":"eip155:11155111:0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",` +
	`"asset":"eip155:11155111:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238","amount":"1.5"}`

// setUp applies config/samples into the bench namespace and creates the keys; it returns them.
func setUp(kube client.Client) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := kube.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}); err != nil {
		return nil, err
	}
	files, err := filepath.Glob("config/samples/*.yaml")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "kustomization.yaml") {
			continue
		}
		if err := applyFile(ctx, kube, f); err != nil {
			return nil, err
		}
	}
	plaintexts, _, err := createKeys(ctx, kube, namespace, "demo", "bench-")
	return plaintexts, err
}

// createKeys creates the benchmark's keys of account in namespace, named prefix and a number, and
// returns their plaintexts and the objects made (those made before an error too).
func createKeys(ctx context.Context, kube client.Client, namespace, account, prefix string) ([]string, []client.Object, error) {
	var plaintexts []string
	var objs []client.Object
	for i := range keys {
		k, err := apikey.Generate(registry.EnvironmentTest)
		if err != nil {
			return nil, objs, err
		}
		obj := k.Object(namespace, account, fmt.Sprintf("%s%d", prefix, i), nil)
		obj.Spec.RateLimitPerMinute = 100_000
		if err := kube.Create(ctx, obj); err != nil {
			return nil, objs, fmt.Errorf("creating an ApiKey: %w", err)
		}
		objs = append(objs, obj)
		plaintexts = append(plaintexts, k.Plaintext)
	}
	return plaintexts, objs, nil
}

func applyFile(ctx context.Context, kube client.Client, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	for {
		var obj unstructured.Unstructured
		if err := dec.Decode(&obj.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		if len(obj.Object) == 0 {
			continue
		}
		obj.SetNamespace(namespace)
		if obj.GetKind() == "Account" {
			// An Account holds 25 keys unless it says more; the load uses keys of its own.
			if err := unstructured.SetNestedField(obj.Object, int64(keys+8), "spec", "maxApiKeys"); err != nil {
				return err
			}
		}
		if err := kube.Create(ctx, &obj); err != nil {
			return fmt.Errorf("%s: creating %s %s: %w", path, obj.GetKind(), obj.GetName(), err)
		}
	}
}

// startManager runs the manager as it ships (default flags: JSON logs, access log on) with its
// log in a file, and waits until it serves the sample tokens.
func startManager(c config, kubeconfig string) (string, func(), error) {
	addrs, err := freeport.Addrs(2)
	if err != nil {
		panic(err)
	}
	api, probe := addrs[0], addrs[1]
	logFile, err := os.Create(c.logPath)
	if err != nil {
		return "", nil, err
	}
	args := append([]string{"--kubeconfig", kubeconfig, "--namespace", namespace, "--api-bind-address", api,
		"--health-probe-bind-address", probe, "--metrics-bind-address", "0"}, strings.Fields(c.managerArgs)...)
	if c.profileDir != "" {
		args = append(args, "--pprof-bind-address", c.pprofAddr)
	}
	cmd := exec.Command(c.manager, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		_ = logFile.Close()
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get("http://" + probe + "/readyz")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("the manager was not ready within 60 s; its log: %s", c.logPath)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return "http://" + api, stop, nil
}

type request struct {
	method, path, body string
}

// name is what -only and the profiles call r.
func (r request) name() string {
	if r.body != "" {
		return "simulate"
	}
	return "tokens"
}

// compare measures r against the manager and against a bare server answering r's bytes.
func compare(c config, api string, r request, keys []string) error {
	status, contentType, body, err := fetchUntilStable(api, r, keys[0])
	if err != nil {
		return err
	}
	bare, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_, _ = w.Write(body)
	})}
	go func() { _ = srv.Serve(bare) }()
	defer func() { _ = srv.Close() }()

	script, err := wrkScript(r, keys)
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(script) }()
	fmt.Printf("%s %s (%d bytes, status %d), wrk -t%d -c%d -d%s, %d keys, %d rounds\n",
		r.method, r.path, len(body), status, c.threads, c.connections, c.duration, len(keys), c.rounds)
	var bestBare, bestFull wrkResult
	var bareP50, bareP99, fullP50, fullP99 []time.Duration
	var roundRatios []string
	for i := range c.rounds {
		b, err := runWrk(c, script, "http://"+bare.Addr().String()+r.path)
		if err != nil {
			return err
		}
		f, err := runWrk(c, script, api+r.path)
		if err != nil {
			return err
		}
		fmt.Printf("  round %d bare    %s\n  round %d binary  %s\n", i+1, b, i+1, f)
		if f.non2xx > 0 || f.errors > 0 {
			return fmt.Errorf("the manager answered %d non-2xx and %d errors", f.non2xx, f.errors)
		}
		bestBare, bestFull = best(bestBare, b), best(bestFull, f)
		bareP50, bareP99 = append(bareP50, b.p50), append(bareP99, b.p99)
		fullP50, fullP99 = append(fullP50, f.p50), append(fullP99, f.p99)
		roundRatios = append(roundRatios, fmt.Sprintf("%.2f", ratio(f.p99, b.p99)))
	}
	fmt.Printf("  ratio binary/bare = %.2f (requests/s %.0f / %.0f); p99 %s / %s\n",
		bestFull.rps/bestBare.rps, bestFull.rps, bestBare.rps, bestFull.p99, bestBare.p99)
	// The tail, per round against the bare round just before it, and the medians of the rounds.
	fmt.Printf("  p50 binary/bare median %.2f (%s / %s); p99 binary/bare median %.2f (%s / %s), per round %s\n",
		ratio(median(fullP50), median(bareP50)), median(fullP50), median(bareP50),
		ratio(median(fullP99), median(bareP99)), median(fullP99), median(bareP99), strings.Join(roundRatios, ", "))
	if c.profileDir != "" {
		if err := profileRound(c, script, api, r); err != nil {
			return err
		}
	}
	fmt.Println()
	return nil
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// profileRound loads the manager once more while taking its CPU profile and execution trace
// (over the round but its first and last second), outside the measured rounds.
func profileRound(c config, script, api string, r request) error {
	secs := max(int(c.duration.Seconds())-2, 1)
	base := "http://" + c.pprofAddr + "/debug/pprof/"
	errs := make(chan error, 2)
	for _, p := range []struct{ url, file string }{
		{fmt.Sprintf("%sprofile?seconds=%d", base, secs), r.name() + ".cpu"},
		{fmt.Sprintf("%strace?seconds=%d", base, secs), r.name() + ".trace"},
	} {
		go func() {
			time.Sleep(time.Second)
			errs <- download(p.url, filepath.Join(c.profileDir, p.file))
		}()
	}
	f, err := runWrk(c, script, api+r.path)
	if err != nil {
		return err
	}
	fmt.Printf("  profiled round %s (profile and trace in %s)\n", f, c.profileDir)
	return errors.Join(<-errs, <-errs)
}

func download(url, path string) error {
	resp, err := http.Get(url) //nolint:gosec,noctx // the manager's loopback pprof, for a benchmark
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// fetchUntilStable asks once the answer is what the load will meet: the manager's read models
// fill from the watch after /readyz.
func fetchUntilStable(api string, r request, key string) (int, string, []byte, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		req, err := http.NewRequest(r.method, api+r.path, strings.NewReader(r.body))
		if err != nil {
			return 0, "", nil, err
		}
		req.Header.Set("api-key", key)
		if r.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, "", nil, err
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return 0, "", nil, err
		}
		if resp.StatusCode == http.StatusOK && !bytes.Equal(body, []byte("[]")) {
			return resp.StatusCode, resp.Header.Get("Content-Type"), body, nil
		}
		if time.Now().After(deadline) {
			return 0, "", nil, fmt.Errorf("%s %s: %d %s", r.method, r.path, resp.StatusCode, body)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// wrkScript writes a Lua script that sends r, each request with the next key.
func wrkScript(r request, keys []string) (string, error) {
	var b strings.Builder
	b.WriteString("local keys = {")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(strconv.Quote(k))
	}
	b.WriteString("}\nlocal i = 0\n")
	fmt.Fprintf(&b, "local body = %s\n", strconv.Quote(r.body))
	fmt.Fprintf(&b, "request = function()\n  i = i + 1\n  local h = {[\"api-key\"] = keys[(i %% #keys) + 1]}\n")
	if r.body != "" {
		b.WriteString("  h[\"Content-Type\"] = \"application/json\"\n")
		fmt.Fprintf(&b, "  return wrk.format(%q, nil, h, body)\n", r.method)
	} else {
		fmt.Fprintf(&b, "  return wrk.format(%q, nil, h, nil)\n", r.method)
	}
	b.WriteString("end\n")
	f, err := os.CreateTemp("", "bench-*.lua")
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	_, err = f.WriteString(b.String())
	return f.Name(), err
}

type wrkResult struct {
	rps            float64
	p50, p99       time.Duration
	non2xx, errors int
}

func (r wrkResult) String() string {
	return fmt.Sprintf("%8.0f req/s  p50 %-9s p99 %-9s non-2xx %d  errors %d", r.rps, r.p50, r.p99, r.non2xx, r.errors)
}

func best(a, b wrkResult) wrkResult {
	if b.rps > a.rps {
		return b
	}
	return a
}

var (
	rpsLine     = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	latencyLine = regexp.MustCompile(`^\s+(50|99)%\s+([0-9.]+)(us|ms|s)\s*$`)
	non2xxLine  = regexp.MustCompile(`Non-2xx or 3xx responses:\s+(\d+)`)
	errorsLine  = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
)

// interrupted is set by Ctrl-C: the next step returns instead of starting.
var interrupted atomic.Bool

func runWrk(c config, script, url string) (wrkResult, error) {
	if interrupted.Load() {
		return wrkResult{}, errors.New("interrupted")
	}
	out, err := exec.Command(c.wrk, "-t", strconv.Itoa(c.threads), "-c", strconv.Itoa(c.connections),
		"-d", c.duration.String(), "--latency", "-s", script, url).CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %w: %s", err, out)
	}
	var r wrkResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if m := rpsLine.FindStringSubmatch(line); m != nil {
			r.rps, _ = strconv.ParseFloat(m[1], 64)
		}
		if m := latencyLine.FindStringSubmatch(line); m != nil {
			d := parseWrkDuration(m[2], m[3])
			if m[1] == "50" {
				r.p50 = d
			} else {
				r.p99 = d
			}
		}
		if m := non2xxLine.FindStringSubmatch(line); m != nil {
			r.non2xx, _ = strconv.Atoi(m[1])
		}
		if m := errorsLine.FindStringSubmatch(line); m != nil {
			for _, s := range m[1:] {
				n, _ := strconv.Atoi(s)
				r.errors += n
			}
		}
	}
	if r.rps == 0 {
		return r, fmt.Errorf("no Requests/sec in wrk's output: %s", out)
	}
	return r, nil
}

func parseWrkDuration(v, unit string) time.Duration {
	f, _ := strconv.ParseFloat(v, 64)
	switch unit {
	case "us":
		return time.Duration(f * float64(time.Microsecond)).Round(time.Microsecond)
	case "ms":
		return time.Duration(f * float64(time.Millisecond)).Round(time.Microsecond)
	default:
		return time.Duration(f * float64(time.Second)).Round(time.Millisecond)
	}
}
