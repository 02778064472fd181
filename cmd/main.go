// Command manager runs the Transfer Intent Service operator: the controllers that turn the custom
// resources into in-memory read models, and the HTTP API that serves from them.
//
//	manager [flags]                 run the operator
//	manager keygen --env test ...   print a new API key once, then an ApiKey manifest holding its hash
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	_ "k8s.io/client-go/plugin/pkg/client/auth"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	intentsv1alpha1 "github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/openapi"
)

var (
	scheme   = runtime.NewScheme()
	setupLog = ctrl.Log.WithName("setup")
)

func init() {
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(intentsv1alpha1.AddToScheme(scheme))
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "keygen" {
		os.Exit(runKeygen(os.Args[2:], os.Stdout, os.Stderr))
	}
	if err := run(); err != nil {
		setupLog.Error(err, "manager stopped")
		os.Exit(1)
	}
}

// config is everything the flags set.
type config struct {
	metricsAddr   string
	metricsSecure bool
	probeAddr     string
	leaderElect   bool
	enableHTTP2   bool
	namespace     string
	api           apiserver.Options
	web           webAuthConfig
	transfers     transferConfig
}

func parseFlags() config {
	c := config{api: apiserver.DefaultOptions()}
	flag.StringVar(&c.metricsAddr, "metrics-bind-address", "0",
		"Address of the metrics endpoint, e.g. :8443 (https) or :8080 (http); 0 disables it.")
	flag.BoolVar(&c.metricsSecure, "metrics-secure", true, "Serve metrics over https with authentication and authorization.")
	flag.StringVar(&c.probeAddr, "health-probe-bind-address", ":8081", "Address of the /healthz and /readyz probes.")
	flag.BoolVar(&c.leaderElect, "leader-elect", false, "Elect a leader among replicas; only the leader writes status and events.")
	flag.BoolVar(&c.enableHTTP2, "enable-http2", false, "Allow HTTP/2 on the metrics server (off: HTTP/2 rapid-reset and stream-cancel CVEs).")
	flag.StringVar(&c.namespace, "namespace", defaultNamespace(), "Namespace whose resources this instance serves.")
	flag.StringVar(&c.api.BindAddress, "api-bind-address", c.api.BindAddress, "Address of the HTTP API.")
	flag.StringVar(&c.api.BaseURL, "base-url", c.api.BaseURL, "External URL of the API; prefixes problem instances and the OpenAPI servers entry.")
	flag.StringVar(&c.api.ProblemBaseURL, "problem-base-url", c.api.ProblemBaseURL, "Prefix of problem type URIs.")
	flag.Int64Var(&c.api.MaxBodyBytes, "max-body-bytes", c.api.MaxBodyBytes, "Largest accepted request body; larger ones get 413.")
	flag.DurationVar(&c.api.ShutdownTimeout, "api-shutdown-timeout", c.api.ShutdownTimeout, "Time allowed for in-flight API requests at shutdown.")
	flag.BoolVar(&c.api.AccessLog, "access-log", c.api.AccessLog, "Log every API request at info level (otherwise only 5xx; the rest at -v=1).")
	bindWebAuthFlags(flag.CommandLine, &c.web)
	bindTransferFlags(flag.CommandLine, &c.transfers)
	opts := zap.Options{Development: false}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
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
	mgr, err := newManager(c)
	if err != nil {
		return err
	}
	readModels := controller.NewReadModels()
	if err := controller.SetupWithManager(mgr, readModels, controller.WithIntentRetention(c.transfers.retention)); err != nil {
		return err
	}
	catalog, transfers, intents, err := newTransfers(c, mgr, readModels)
	if err != nil {
		return err
	}
	full, v2, err := openapi.Documents(c.api.BaseURL)
	if err != nil {
		return fmt.Errorf("loading the OpenAPI document: %w", err)
	}
	web, sessions, err := newWebAuth(c, mgr, readModels)
	if err != nil {
		return err
	}
	if err := mgr.Add(sessions); err != nil {
		return err
	}
	api := apiserver.New(c.api, apiserver.Deps{
		Keys:      readModels.Keys,
		Tokens:    readModels.Tokens,
		OpenAPI:   full,
		OpenAPIV2: v2,
		Metrics:   apiserver.NewMetrics(metrics.Registry),
		Web:       web,
		Catalog:   catalog,
		Transfers: transfers,
		Intents:   intents,
	}, ctrl.Log.WithName("api"))
	if err := mgr.Add(api.Runnable(nil)); err != nil {
		return err
	}
	if err := mgr.Add(api.ReadinessGate(mgr.GetCache())); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("readyz", api.ReadyzCheck); err != nil {
		return err
	}
	setupLog.Info("starting manager", "namespace", c.namespace, "api", c.api.BindAddress)
	return mgr.Start(ctrl.SetupSignalHandler())
}

func newManager(c config) (ctrl.Manager, error) {
	var tlsOpts []func(*tls.Config)
	if !c.enableHTTP2 {
		tlsOpts = append(tlsOpts, func(cfg *tls.Config) { cfg.NextProtos = []string{"http/1.1"} })
	}
	metricsOpts := metricsserver.Options{BindAddress: c.metricsAddr, SecureServing: c.metricsSecure, TLSOpts: tlsOpts}
	if c.metricsSecure {
		metricsOpts.FilterProvider = filters.WithAuthenticationAndAuthorization
	}
	restConfig, err := ctrl.GetConfig()
	if err != nil {
		return nil, fmt.Errorf("finding the cluster (KUBECONFIG or in-cluster): %w", err)
	}
	return ctrl.NewManager(restConfig, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsOpts,
		HealthProbeBindAddress: c.probeAddr,
		LeaderElection:         c.leaderElect,
		LeaderElectionID:       "transfer-intent-service.intents.transferintent.io",
		// Only this instance's namespace is watched: several instances (staging, prod) can share a cluster.
		Cache: cache.Options{DefaultNamespaces: map[string]cache.Config{c.namespace: {}}},
	})
}
