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

// Command localcluster runs the Transfer Intent Service on a machine with no Kubernetes cluster,
// for `make run`. It starts a control plane (kube-apiserver and etcd, through controller-runtime's
// envtest) on the data kept in its state directory (.local), installs or updates the CRDs, writes
// an admin kubeconfig to .local/kubeconfig, applies config/samples, starts the two local chains
// and a PostgreSQL for the archive of finished intents (both also kept in .local), runs the
// manager binary against it all, and the market's two reference fillers (fillers.go) as
// `manager filler` processes. A manager that stops by itself is started again; the control
// plane, the chains and PostgreSQL keep running. On SIGINT, SIGTERM or SIGHUP it stops the
// manager and the fillers, the chains, PostgreSQL and the control plane, in that order, so that
// nothing is left running; the data stays for the next run. `localcluster --reset` removes it.
//
// Usage:
//
//	localcluster [flags] [-- extra manager flags]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/go-logr/logr/funcr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

type options struct {
	stateDir        string
	reset           bool
	managerPath     string
	noOperator      bool
	kubeconfigPath  string
	namespace       string
	crdDir          string
	samplesDir      string
	apiAddr         string
	probeAddr       string
	assetsDir       string
	controlPlaneLog bool
	devChainAddr    string
	secondChainAddr string
	attesterKeyPath string
	postgresPort    int
	postgresBindir  string
	// fillers are the market fillers to run (marketFillers' names).
	fillers     []string
	managerArgs []string
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("localcluster: ")
	setControllerRuntimeLogger()

	opts := parseFlags(os.Args[1:])
	if opts.reset {
		if err := resetState(opts); err != nil {
			log.Print(err)
			os.Exit(1)
		}
		return
	}

	// Signals are caught from the start: a Ctrl-C while the control plane is still starting must
	// lead to a clean stop once it is up, not to orphaned processes. SIGHUP (the terminal closed)
	// stops cleanly too, so that etcd and the chains write their data before they go.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	ctx, cancel := context.WithCancel(context.Background())
	hurry := make(chan struct{})
	go func() {
		sig := <-signals
		log.Printf("received %s, shutting down (again to kill the manager at once)", sig)
		cancel()
		<-signals
		close(hurry)
	}()
	code := run(ctx, opts, hurry)
	cancel()
	os.Exit(code)
}

// setControllerRuntimeLogger gives envtest a logger; without one it complains after 30 s.
func setControllerRuntimeLogger() {
	ctrllog.SetLogger(funcr.New(func(prefix, args string) { log.Println(prefix, args) }, funcr.Options{}))
}

// parseFlags uses its own FlagSet: controller-runtime registers a global --kubeconfig flag of its
// own, with a different meaning (which cluster to talk to, not where to write).
func parseFlags(args []string) options {
	var o options
	fs := flag.NewFlagSet("localcluster", flag.ExitOnError)
	fs.StringVar(&o.managerPath, "manager", "bin/manager", "path of the manager binary to run")
	fs.BoolVar(&o.noOperator, "no-operator", false,
		"run only the control plane; start the manager yourself (for example in a debugger) with the printed settings")
	fs.StringVar(&o.stateDir, "state-dir", ".local",
		"directory of the data kept from one run to the next: etcd's data, the local chains and their keys, PostgreSQL's data")
	fs.BoolVar(&o.reset, "reset", false,
		"remove the data kept in --state-dir (every object, the local chains and their keys, the archive) and exit; refused while a localcluster uses it")
	fs.StringVar(&o.kubeconfigPath, "kubeconfig", "",
		"where to write the admin kubeconfig of the local control plane (default <state-dir>/kubeconfig)")
	fs.StringVar(&o.namespace, "namespace", "default", "namespace the samples go to and the manager watches")
	fs.StringVar(&o.crdDir, "crd-dir", "config/crd/bases", "directory of the CRD manifests to install")
	fs.StringVar(&o.samplesDir, "samples", "config/samples", "kustomize directory applied after the CRDs; empty to apply nothing")
	fs.StringVar(&o.apiAddr, "api-bind-address", "127.0.0.1:8080", "passed to the manager: address of the HTTP API")
	fs.StringVar(&o.probeAddr, "health-probe-bind-address", "127.0.0.1:8081", "passed to the manager: address of /healthz and /readyz")
	fs.StringVar(&o.assetsDir, "assets", os.Getenv("KUBEBUILDER_ASSETS"),
		"directory holding kube-apiserver and etcd (default $KUBEBUILDER_ASSETS, else the output of hack/control-plane.sh)")
	fs.BoolVar(&o.controlPlaneLog, "control-plane-output", false, "show the output of kube-apiserver and etcd")
	fs.StringVar(&o.devChainAddr, "dev-chain-address", "127.0.0.1:8545",
		"where the local chain eip155:1337 (the Chain sample local-dev's spec.rpc) serves JSON-RPC; empty for no local chains")
	fs.StringVar(&o.secondChainAddr, "second-chain-address", "127.0.0.1:8546",
		"where the second local chain eip155:1338 (the Chain sample local-dev-2's spec.rpc), the other end of bridges, serves JSON-RPC; empty for none")
	fs.StringVar(&o.attesterKeyPath, "attester-key-file", "",
		"the attester key the manager signs bridge fills with: the public development account #3, which the local settlement contracts name, written there when missing (default <state-dir>/chains/attester.key)")
	fs.IntVar(&o.postgresPort, "postgres-port", 5433,
		"port on 127.0.0.1 of the local PostgreSQL that holds the archive of finished intents (passed to the manager as --archive-url); 0 for none. None either when the manager's flags or $ARCHIVE_URL name an archive")
	fs.StringVar(&o.postgresBindir, "postgres-bindir", os.Getenv("POSTGRES_BINDIR"),
		"directory holding PostgreSQL's initdb and postgres (default $POSTGRES_BINDIR, else the output of hack/postgres.sh)")
	o.fillers = fillerNames()
	fs.Func("fillers", fmt.Sprintf("comma-separated reference fillers to run on the local chains, each serving its Filler sample as a `manager filler` process (default %s; empty for none)",
		strings.Join(o.fillers, ",")), func(v string) error {
		o.fillers = nil
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name == "" {
				continue
			}
			if fillerIndex(name) < 0 {
				return fmt.Errorf("no filler %q in make run's market (%s)", name, strings.Join(fillerNames(), ", "))
			}
			o.fillers = append(o.fillers, name)
		}
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s [flags] [-- extra manager flags]\n\n", os.Args[0])
		fs.PrintDefaults()
	}
	_ = fs.Parse(args) // ExitOnError
	o.managerArgs = fs.Args()
	if o.kubeconfigPath == "" {
		o.kubeconfigPath = filepath.Join(o.stateDir, "kubeconfig")
	}
	if o.attesterKeyPath == "" {
		o.attesterKeyPath = filepath.Join(o.stateDir, chainsSubdir, "attester.key")
	}
	return o
}

// run returns the process exit code. Every path out of it after the control plane started goes
// through the cluster's stop, so no kube-apiserver, etcd or chain outlives it. hurry closes when
// the manager is to be killed at once rather than given its grace period.
func run(ctx context.Context, o options, hurry <-chan struct{}) int {
	if !o.noOperator {
		if _, err := os.Stat(o.managerPath); err != nil {
			log.Printf("manager binary: %v (build it with `make build`)", err)
			return 1
		}
	}
	assets, err := resolveAssets(o.assetsDir)
	if err != nil {
		log.Print(err)
		return 1
	}
	release, err := lockState(o.stateDir)
	if err != nil {
		log.Print(err)
		return 1
	}
	defer release()

	lc, err := startCluster(ctx, o, assets)
	defer lc.stop()
	if ctx.Err() != nil {
		return 0 // stopped while starting: whatever failed on the way was told to stop
	}
	if err != nil {
		log.Print(err)
		return 1
	}
	printBanner(o, lc)
	// Deferred after lc.stop, so run before it: the fillers stop before the chains they use.
	defer startMarket(ctx, o, lc)()
	if o.noOperator {
		log.Print("control plane ready; press Ctrl-C to stop it")
		<-ctx.Done()
		return 0
	}
	return superviseManager(ctx, hurry, managerProcess{
		path: o.managerPath, args: lc.managerArgs, kubeconfig: lc.kubeconfig, healthURL: healthURL(o.probeAddr),
	})
}

// localCluster is a running control plane with the CRDs and samples, and the local chains.
type localCluster struct {
	env *envtest.Environment
	// admin is the admin user's client configuration; kubeconfig the absolute path of its kubeconfig.
	admin      *rest.Config
	kubeconfig string
	// chains are the local chains, nil when there are none.
	chains *devChains
	// postgres is the archive's PostgreSQL, nil when there is none.
	postgres *localPostgres
	// managerArgs are the manager's flags for this cluster.
	managerArgs []string
	o           options
}

// startCluster starts the control plane on the data kept in o.stateDir, installs or updates the
// CRDs, applies the samples and starts the local chains. Each step is idempotent, so a restart on
// kept data ends where a first run does. The returned cluster is never nil: stop it even on error,
// since the processes may be up when a later step fails. It returns ctx's error once ctx ends.
func startCluster(ctx context.Context, o options, assets string) (*localCluster, error) {
	lc := &localCluster{o: o}
	etcdDir, err := filepath.Abs(filepath.Join(o.stateDir, etcdSubdir))
	if err != nil {
		return lc, err
	}
	if err := os.MkdirAll(etcdDir, 0o700); err != nil {
		return lc, fmt.Errorf("creating %s: %w", etcdDir, err)
	}
	kept := "new"
	if !dirIsEmpty(etcdDir) {
		kept = "kept from an earlier run"
	}
	lc.env = &envtest.Environment{
		BinaryAssetsDirectory: assets,
		// With a DataDir of our own, envtest neither makes a temporary one nor removes it at Stop.
		ControlPlane: envtest.ControlPlane{Etcd: &envtest.Etcd{DataDir: etcdDir}},
		// Installing the CRDs creates each missing one and updates each present one.
		CRDDirectoryPaths:        []string{o.crdDir},
		ErrorIfCRDPathMissing:    true,
		AttachControlPlaneOutput: o.controlPlaneLog,
	}
	stopLeftovers(o.stateDir)
	log.Printf("starting kube-apiserver and etcd from %s; etcd's data (%s) in %s", assets, kept, etcdDir)
	_, err = lc.env.Start()
	recordControlPlane(o.stateDir) // even after an error: Start may fail with the processes up
	if err != nil {
		return lc, fmt.Errorf("starting the control plane: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return lc, err
	}

	admin, err := lc.env.AddUser(envtest.User{Name: "localcluster-admin", Groups: []string{"system:masters"}},
		&rest.Config{QPS: 50, Burst: 100})
	if err != nil {
		return lc, fmt.Errorf("adding the admin user: %w", err)
	}
	lc.admin = admin.Config()
	kubeconfig, err := admin.KubeConfig()
	if err != nil {
		return lc, fmt.Errorf("building the kubeconfig: %w", err)
	}
	if err := writePrivateFile(o.kubeconfigPath, kubeconfig); err != nil {
		return lc, err
	}
	if lc.kubeconfig, err = filepath.Abs(o.kubeconfigPath); err != nil {
		return lc, err
	}

	if err := ensureNamespace(ctx, lc.admin, o.namespace); err != nil {
		return lc, err
	}
	if o.samplesDir != "" {
		if err := applySamples(ctx, assets, lc.kubeconfig, o.namespace, o.samplesDir); err != nil {
			return lc, err
		}
	}
	if err := ctx.Err(); err != nil {
		return lc, err
	}
	lc.managerArgs = []string{
		"--namespace", o.namespace,
		"--api-bind-address", o.apiAddr,
		"--metrics-bind-address", "0",
		"--health-probe-bind-address", o.probeAddr,
	}
	if o.devChainAddr != "" {
		// Without them the sample Chains local-dev and local-dev-2 are served on their static
		// defaults (RPCReachable False), which is how a chain whose node is down behaves.
		chains, err := startLocalChains(ctx, o)
		if err != nil {
			log.Printf("local chains not started: %v", err)
		} else {
			lc.chains = chains
			attesterKey, err := filepath.Abs(o.attesterKeyPath)
			if err != nil {
				return lc, err
			}
			// The local chains have one node each (no witnessRpcs): their bridge fills are attested
			// on that node's word, which is only acceptable because the node is this process.
			lc.managerArgs = append(lc.managerArgs, "--attester-key-file", attesterKey, "--unsafe-single-rpc-attestation")
		}
	}
	if o.postgresPort != 0 && !setsFlag(o.managerArgs, "archive-url") && os.Getenv("ARCHIVE_URL") == "" {
		// Without it the manager keeps finished intents as TransferIntents until their retention
		// ends, as a small install does.
		pg, err := startPostgres(ctx, o)
		if err := ctx.Err(); err != nil {
			return lc, err
		}
		if err != nil {
			log.Printf("PostgreSQL not started, so the manager runs without the archive: %v", err)
		} else {
			lc.postgres = pg
			lc.managerArgs = append(lc.managerArgs, "--archive-url="+pg.url)
		}
	}
	// The sample WebhookEndpoint receives on 127.0.0.1: development only, never in a cluster.
	lc.managerArgs = append(lc.managerArgs, "--webhook-allow-loopback")
	lc.managerArgs = append(lc.managerArgs, marketManagerArgs...)
	lc.managerArgs = append(lc.managerArgs, o.managerArgs...)
	return lc, nil
}

// stop stops the chains, PostgreSQL, then the control plane, and removes the kubeconfig, whose
// certificate only the stopped control plane's CA signed. The data stays in the state directory.
func (lc *localCluster) stop() {
	if lc.chains != nil {
		lc.chains.stop()
		lc.chains = nil
	}
	if lc.postgres != nil {
		lc.postgres.stop()
		lc.postgres = nil
	}
	if lc.env == nil {
		return
	}
	log.Print("stopping the control plane")
	if err := lc.env.Stop(); err != nil {
		log.Printf("stopping the control plane: %v", err)
	} else {
		forgetControlPlane(lc.o.stateDir)
	}
	lc.env = nil
	if err := os.Remove(lc.o.kubeconfigPath); err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Printf("removing %s: %v", lc.o.kubeconfigPath, err)
	}
}

// startLocalChains starts the local chains with the settlement demo, their data and keys under
// <state-dir>/chains.
func startLocalChains(ctx context.Context, o options) (*devChains, error) {
	ids, addrs := []int64{devChainID}, []string{o.devChainAddr}
	if o.secondChainAddr != "" {
		ids, addrs = append(ids, secondChainID), append(addrs, o.secondChainAddr)
	}
	return startDevChains(ctx, filepath.Join(o.stateDir, chainsSubdir), o.attesterKeyPath, ids, addrs)
}

// startMarket starts the market's fillers (fillers.go) on the local chains, with the manager
// binary; it returns what stops them. Without local chains, fillers or a manager binary (make
// run-control-plane builds none) there are none.
func startMarket(ctx context.Context, o options, lc *localCluster) (stop func()) {
	none := func() {}
	if lc.chains == nil || len(o.fillers) == 0 {
		return none
	}
	if _, err := os.Stat(o.managerPath); err != nil {
		log.Printf("the market's fillers are not started: %v (build it with `make build`)", err)
		return none
	}
	run, err := newFillerRun(lc, o.managerPath)
	if err == nil {
		stop, err = run.start(ctx, o.fillers)
	}
	if err != nil {
		log.Printf("the market's fillers are not started: %v", err)
		return none
	}
	return stop
}

// resolveAssets finds the directory of kube-apiserver and etcd: the flag (or KUBEBUILDER_ASSETS),
// else whatever hack/control-plane.sh builds or already built.
func resolveAssets(dir string) (string, error) {
	if dir == "" {
		log.Print("KUBEBUILDER_ASSETS is not set; running hack/control-plane.sh")
		cmd := exec.Command("hack/control-plane.sh")
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("hack/control-plane.sh: %w", err)
		}
		dir = strings.TrimSpace(string(out))
	}
	for _, name := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return "", fmt.Errorf("control plane binaries: %w (run hack/control-plane.sh)", err)
		}
	}
	return dir, nil
}

// writePrivateFile writes a file readable by its owner only (the kubeconfig, the attester key).
// The write goes through a temporary file so a reader never sees half a kubeconfig.
func writePrivateFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("creating the directory of %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) //nolint:errcheck // gone after the rename in the normal case
	if err := tmp.Chmod(0o600); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func ensureNamespace(ctx context.Context, cfg *rest.Config, name string) error {
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		return fmt.Errorf("creating a client: %w", err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if err := c.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", name, err)
	}
	return nil
}

// applySamples uses kubectl so that the samples go through exactly what a user would run. The
// kubectl next to the control plane binaries is preferred (hack/control-plane.sh links or builds it).
func applySamples(ctx context.Context, assets, kubeconfig, namespace, dir string) error {
	kubectl := filepath.Join(assets, "kubectl")
	if _, err := os.Stat(kubectl); err != nil {
		if kubectl, err = exec.LookPath("kubectl"); err != nil {
			return errors.New("kubectl not found next to the control plane binaries nor on PATH; rerun hack/control-plane.sh")
		}
	}
	log.Printf("applying %s", dir)
	cmd := exec.CommandContext(ctx, kubectl, "--kubeconfig", kubeconfig, "--namespace", namespace, "apply", "-k", dir)
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("kubectl apply -k %s: %w", dir, err)
	}
	return nil
}

func printBanner(o options, lc *localCluster) {
	kubeconfig, managerArgs := lc.kubeconfig, lc.managerArgs
	var b strings.Builder
	fmt.Fprintf(&b, "\n  kubeconfig:  %s\n", kubeconfig)
	fmt.Fprintf(&b, "  try:         kubectl --kubeconfig %s get chains,tokendefinitions -n %s\n", o.kubeconfigPath, o.namespace)
	if o.noOperator {
		fmt.Fprintf(&b, "  run the manager yourself with:\n    KUBECONFIG=%s %s %s\n", kubeconfig, o.managerPath, strings.Join(managerArgs, " "))
	} else {
		fmt.Fprintf(&b, "  HTTP API:    http://%s\n", o.apiAddr)
		fmt.Fprintf(&b, "  probes:      http://%s/readyz\n", o.probeAddr)
	}
	if o.devChainAddr != "" {
		fmt.Fprintf(&b, "  local chain: http://%s (eip155:%d), demo wallet %s\n", o.devChainAddr, devChainID, devWallet().Hex())
	}
	if o.devChainAddr != "" && o.secondChainAddr != "" {
		fmt.Fprintf(&b, "  2nd chain:   http://%s (eip155:%d), for bridges\n", o.secondChainAddr, secondChainID)
	}
	if lc.chains != nil && len(o.fillers) > 0 {
		fmt.Fprintf(&b, "  fillers:     %s (%s), once the manager generated their Filler secrets; logs in %s\n",
			strings.Join(o.fillers, ", "), fillerInventory(), filepath.Join(o.stateDir, fillersSubdir))
	}
	if lc.postgres != nil {
		fmt.Fprintf(&b, "  archive:     %s (PostgreSQL, data in %s)\n", lc.postgres.url, filepath.Join(o.stateDir, postgresSubdir))
	}
	fmt.Fprintf(&b, "  data:        %s, kept across runs (make run-reset wipes it)\n", o.stateDir)
	if !o.noOperator {
		b.WriteString("  the manager is started again if it stops; Ctrl-C stops everything\n")
	}
	fmt.Fprintln(os.Stderr, b.String())
}
