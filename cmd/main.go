// Command manager runs the Transfer Intent Service operator: the controllers that turn the custom
// resources into in-memory read models, and the HTTP API that serves from them.
//
//	manager [flags]                 run the operator
//	manager keygen --env test ...   print a new API key once, then an ApiKey manifest holding its hash
//	manager devwallet send ID       sign and send an intent's tx with a development wallet (local chains)
//	manager devwallet sign ID       sign a gasless intent's typed data and post the signature (local chains)
//	manager devwallet price ...     move a local TestPriceFeed (make run's ETH/USD and USDC/USD)
//	manager filler --chain ...      run the reference filler of swaps and bridges (local chains)
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"time"

	"github.com/KimMachineGun/automemlimit/memlimit"
	clientfeatures "k8s.io/client-go/features"
	_ "k8s.io/client-go/plugin/pkg/client/auth"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/transferintent/transfer-intent-service/internal/archiver"
	"github.com/transferintent/transfer-intent-service/internal/service"
	"github.com/transferintent/transfer-intent-service/internal/tracing"
	"github.com/transferintent/transfer-intent-service/internal/version"
	"github.com/transferintent/transfer-intent-service/internal/webauth"
	"github.com/transferintent/transfer-intent-service/internal/webhook/delivery"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/policy"
	"github.com/transferintent/transfer-intent-service/internal/webhook/sender"
)

var setupLog = ctrl.Log.WithName("setup")

func main() {
	if len(os.Args) > 1 && os.Args[1] == "keygen" {
		os.Exit(runKeygen(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "devwallet" {
		os.Exit(runDevwallet(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "settlement" {
		os.Exit(runSettlement(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "filler" {
		os.Exit(runFiller(os.Args[2:], os.Stderr))
	}
	err := run()
	if err != nil {
		setupLog.Error(err, "manager stopped")
	}
	if logOutput != nil {
		_ = logOutput.Stop() // flushes the buffered log
	}
	if err != nil {
		os.Exit(1)
	}
}

// config is everything the flags set.
type config struct {
	metrics       metricsFlags
	probeAddr     string
	pprofAddr     string
	leaderElect   bool
	leaseDuration time.Duration
	renewDeadline time.Duration
	retryPeriod   time.Duration
	// trustedProxies is --trusted-proxies as written; run parses it into service.Web.
	trustedProxies string
	service        service.Options
	tracing        tracing.Options
}

func parseFlags() config {
	c := config{service: service.DefaultOptions(), tracing: tracing.Options{SamplingRatio: tracing.DefaultSamplingRatio}}
	bindMetricsFlags(flag.CommandLine, &c.metrics)
	flag.StringVar(&c.probeAddr, "health-probe-bind-address", ":8081", "Address of the /healthz and /readyz probes.")
	flag.StringVar(&c.pprofAddr, "pprof-bind-address", "",
		"Address of Go's /debug/pprof profiles, e.g. 127.0.0.1:6060; empty disables them. Profiles show the process's code and data: bind to loopback.")
	flag.BoolVar(&c.leaderElect, "leader-elect", false, "Elect a leader among replicas; only the leader runs the reconcilers and the chain watcher.")
	flag.DurationVar(&c.leaseDuration, "leader-elect-lease-duration", 15*time.Second,
		"How long a replica waits after the leader's last renewal before taking the lease (kill -9 of the leader costs this much).")
	flag.DurationVar(&c.renewDeadline, "leader-elect-renew-deadline", 10*time.Second, "How long the leader keeps trying to renew before it stops leading.")
	flag.DurationVar(&c.retryPeriod, "leader-elect-retry-period", 2*time.Second, "How often candidates try to take, and the leader to renew, the lease.")
	flag.StringVar(&c.service.Namespace, "namespace", defaultNamespace(), "Namespace whose resources this instance serves.")
	api := &c.service.API
	flag.StringVar(&api.BindAddress, "api-bind-address", api.BindAddress, "Address of the HTTP API.")
	site := &c.service.Site
	flag.StringVar(&site.BaseURL, "base-url", site.BaseURL, "External URL of the API; prefixes problem instances and the OpenAPI servers entry.")
	flag.StringVar(&site.ProblemBaseURL, "problem-base-url", site.ProblemBaseURL, "Prefix of problem type URIs.")
	flag.Int64Var(&site.MaxBodyBytes, "max-body-bytes", site.MaxBodyBytes, "Largest accepted request body; larger ones get 413.")
	flag.DurationVar(&api.ShutdownTimeout, "api-shutdown-timeout", api.ShutdownTimeout, "Time allowed for in-flight API requests at shutdown.")
	flag.BoolVar(&api.AccessLog, "access-log", api.AccessLog, "Log every API request at info level (otherwise only 5xx; the rest at -v=1).")
	flag.IntVar(&api.Streams.MaxPerKey, "events-max-streams-per-key", api.Streams.MaxPerKey,
		"Most event streams (GET /v2/transfers/{id}/events) one API key may hold open on this replica; beyond, 429 too-many-streams.")
	flag.IntVar(&api.Streams.MaxPerAccount, "events-max-streams-per-account", api.Streams.MaxPerAccount,
		"Most event streams the keys of one account may hold open together on this replica (at most --events-max-streams / --events-account-share); beyond, 429 too-many-streams.")
	flag.IntVar(&api.Streams.AccountShare, "events-account-share", api.Streams.AccountShare,
		"N of the per-account share of --events-max-streams: no account holds more than events-max-streams/N streams of a replica.")
	flag.IntVar(&api.Streams.MaxPerServer, "events-max-streams", api.Streams.MaxPerServer,
		"Most event streams this replica holds open in all; beyond, 429 too-many-streams.")
	flag.DurationVar(&api.Streams.Heartbeat, "events-heartbeat", api.Streams.Heartbeat,
		"Interval of the comment line an idle event stream carries, so that proxies keep it open.")
	redisOpts := &c.service.Redis
	// The URL may hold a password: its default is read from $REDIS_URL after parsing, so that
	// -help never prints it.
	flag.StringVar(&redisOpts.URL, "redis-url", "",
		"Redis holding the rate-limit windows, sign-in throttle and simulations (firm quotes) shared by all replicas, redis://[:password@]host:port/db (default $REDIS_URL; empty: each replica counts its own and honours only its own simulations).")
	flag.DurationVar(&redisOpts.Timeout, "redis-timeout", redisOpts.Timeout,
		"Deadline of each Redis call on the request path; past it the replica counts on its own until Redis answers again.")
	archiveOpts := &c.service.Archive
	// Like the Redis URL, the archive's may hold a password: its default is read from
	// $ARCHIVE_URL after parsing.
	flag.StringVar(&archiveOpts.URL, "archive-url", "",
		"PostgreSQL that holds finished intents, postgres://user:password@host:port/db (default $ARCHIVE_URL; empty: finished intents stay TransferIntents until --intent-retention, for small installs).")
	flag.DurationVar(&archiveOpts.After, "archive-after", archiveOpts.After,
		"How long a confirmed, failed or expired intent stays a TransferIntent before it moves to the archive.")
	flag.DurationVar(&archiveOpts.Timeout, "archive-timeout", archiveOpts.Timeout, "Deadline of each archive call on the request path.")
	flag.Float64Var(&archiveOpts.Rate, "archive-rate", archiver.DefaultRate,
		"Most intents moved to the archive per second: each is a delete on the API server, so this bounds the archiver's share of it.")
	flag.DurationVar(&c.service.Webhooks.FirstRetry, "webhook-first-retry", policy.Default.FirstRetry,
		"Wait after a webhook delivery's first failed attempt; each later wait is 6 times the one before (8 attempts, about 3 days with the default).")
	flag.DurationVar(&c.service.Webhooks.AttemptTimeout, "webhook-attempt-timeout", sender.DefaultTimeout,
		"Deadline of one webhook delivery attempt; a delivery whose deliverer died mid-attempt is taken again after twice this plus 5s. Also the most one account's backlog delays another account's events.")
	flag.DurationVar(&c.service.Webhooks.EventRetention, "event-retention", delivery.DefaultEventRetention,
		"How long GET /v2/events lists an event (and replays can send it again); ended deliveries leave the database after it.")
	flag.IntVar(&c.service.Webhooks.EndpointsPerAccount, "webhook-endpoints-per-account", endpoint.DefaultLimit,
		"Most WebhookEndpoints of one account that receive deliveries; newer ones beyond it are Stalled (EndpointLimitExceeded) and the /webhooks page creates none. -1: no limit.")
	flag.BoolVar(&c.service.Webhooks.AllowLoopback, "webhook-allow-loopback", false,
		"Let test-environment WebhookEndpoints receive on loopback addresses (http://127.0.0.1:…), for development (make run sets it). Never in a cluster: the pod's loopback serves pprof, probes and sidecars.")
	bindWebAuthFlags(flag.CommandLine, &c.service, &c.trustedProxies)
	bindTransferFlags(flag.CommandLine, &c.service.Transfers)
	bindMarketFlags(flag.CommandLine, &c.service.Market)
	bindTracingFlags(flag.CommandLine, &c.tracing)
	opts := zap.Options{Development: false}
	opts.BindFlags(flag.CommandLine)
	showVersion := flag.Bool("version", false, "Print the version and commit of this binary, and exit.")
	flag.Parse()
	if *showVersion {
		// Like -help, answered before anything starts.
		fmt.Println(version.String())
		os.Exit(0)
	}
	if redisOpts.URL == "" {
		redisOpts.URL = os.Getenv("REDIS_URL")
	}
	if archiveOpts.URL == "" {
		archiveOpts.URL = os.Getenv("ARCHIVE_URL")
	}
	tracingFromEnv(&c.tracing, os.Getenv)
	logOutput = newLogOutput(os.Stderr)
	opts.DestWriter = logOutput
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
	c.service.AccessLog = newAccessLogger(&opts, logOutput)
	return c
}

// defaultNamespace is the pod's own namespace in a cluster, "default" elsewhere.
func defaultNamespace() string {
	if ns := os.Getenv("POD_NAMESPACE"); ns != "" {
		return ns
	}
	return "default"
}

func run() error {
	c := parseFlags()
	setMemoryLimit(memlimit.FromCgroup, setupLog)
	chooseFirstSync(debug.SetMemoryLimit(-1) < math.MaxInt64)
	proxies, err := webauth.ParseTrustedProxies(c.trustedProxies)
	if err != nil {
		return fmt.Errorf("--trusted-proxies: %w", err)
	}
	c.service.Web.TrustedProxies = proxies
	if c.service.Archive.Rate <= 0 {
		return fmt.Errorf("--archive-rate must be above 0 (intents per second), not %v", c.service.Archive.Rate)
	}
	c.service.Metrics = metrics.Registry
	stopTracing, err := startTracing(c.tracing, ctrl.Log.WithName("tracing"))
	if err != nil {
		return fmt.Errorf("tracing: %w", err)
	}
	defer stopTracing() // after the manager has stopped: the last requests' spans are flushed
	restConfig, err := ctrl.GetConfig()
	if err != nil {
		return fmt.Errorf("finding the cluster (KUBECONFIG or in-cluster): %w", err)
	}
	mgr, err := newManager(c, restConfig)
	if err != nil {
		return err
	}
	if _, err := service.Setup(mgr, c.service, nil, ctrl.Log); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	setupLog.Info("starting manager", "version", version.Version(), "commit", version.Commit(), "namespace", c.service.Namespace, "api", c.service.API.BindAddress)
	return mgr.Start(ctrl.SetupSignalHandler())
}

// newManager builds the manager of the flags, with its metrics server and, when given a
// certificate directory, the watcher that reloads the metrics certificate.
func newManager(c config, restConfig *rest.Config) (ctrl.Manager, error) {
	metricsOpts, certWatcher, err := metricsServer(c.metrics)
	if err != nil {
		return nil, fmt.Errorf("metrics certificate: %w", err)
	}
	opts := service.ManagerOptions(c.service.Namespace)
	opts.Metrics = metricsOpts
	opts.HealthProbeBindAddress = c.probeAddr
	opts.PprofBindAddress = c.pprofAddr
	opts.LeaderElection = c.leaderElect
	opts.LeaseDuration, opts.RenewDeadline, opts.RetryPeriod = &c.leaseDuration, &c.renewDeadline, &c.retryPeriod
	mgr, err := ctrl.NewManager(restConfig, opts)
	if err != nil {
		return nil, err
	}
	if certWatcher != nil {
		setupLog.Info("serving metrics with the certificate of --metrics-cert-path, reloaded when it changes", "path", c.metrics.certPath)
		if err := mgr.Add(certWatcher); err != nil {
			return nil, err
		}
	}
	return mgr, nil
}

// chooseFirstSync keeps client-go's streamed watch-list for the informers' first sync when the
// process has a memory limit, and lists first otherwise. With 100,000 intents under a 460 MiB soft
// limit, the list peaked at 9.8 KB per intent (1 GB: killed in a 512 MiB container) and the
// streamed watch-list at 4.7 KB, ready in 27-29 s against 25-32 s (docs/capacity.md).
func chooseFirstSync(memoryLimited bool) {
	if !memoryLimited {
		listFirst()
	}
}

// listFirst makes the informers' first sync one list rather than client-go's streamed watch
// (WatchListClient, on by default since Kubernetes 1.35), unless KUBE_FEATURE_WatchListClient says
// otherwise. Measured with make bench-scale (docs/capacity.md): the list costs the API server and
// the manager about half the CPU per object, so a replica over 100,000 intents is ready in about
// half the time; the price is a higher peak of memory during that first list, which holds the
// whole untransformed list at once.
func listFirst() {
	if os.Getenv("KUBE_FEATURE_"+string(clientfeatures.WatchListClient)) != "" {
		return
	}
	clientfeatures.ReplaceFeatureGates(withoutWatchList{clientfeatures.FeatureGates()})
}

// withoutWatchList is client-go's feature gates with WatchListClient off.
type withoutWatchList struct{ clientfeatures.Gates }

func (g withoutWatchList) Enabled(f clientfeatures.Feature) bool {
	return f != clientfeatures.WatchListClient && g.Gates.Enabled(f)
}
