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
// for `make run`. It starts a throwaway control plane (kube-apiserver and etcd, through
// controller-runtime's envtest), installs the CRDs, writes an admin kubeconfig to .local/kubeconfig,
// applies config/samples and runs the manager binary in the foreground against it. On SIGINT or
// SIGTERM, or when the manager exits by itself, it stops the manager and then the control plane,
// so that nothing is left running. The control plane's data lives in a temporary directory and is
// gone afterwards: every run starts from the samples.
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
	"time"

	"github.com/go-logr/logr/funcr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// managerStopGrace is how long the manager gets to shut down after SIGTERM before it is killed.
const managerStopGrace = 10 * time.Second

type options struct {
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
	managerArgs     []string
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("localcluster: ")

	opts := parseFlags(os.Args[1:])
	os.Exit(run(opts))
}

// parseFlags uses its own FlagSet: controller-runtime registers a global --kubeconfig flag of its
// own, with a different meaning (which cluster to talk to, not where to write).
func parseFlags(args []string) options {
	var o options
	fs := flag.NewFlagSet("localcluster", flag.ExitOnError)
	fs.StringVar(&o.managerPath, "manager", "bin/manager", "path of the manager binary to run")
	fs.BoolVar(&o.noOperator, "no-operator", false,
		"run only the control plane; start the manager yourself (for example in a debugger) with the printed settings")
	fs.StringVar(&o.kubeconfigPath, "kubeconfig", ".local/kubeconfig", "where to write the admin kubeconfig of the local control plane")
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
	fs.StringVar(&o.attesterKeyPath, "attester-key-file", ".local/attester.key",
		"where to write the attester key made for this run, which the manager signs bridge fills with")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s [flags] [-- extra manager flags]\n\n", os.Args[0])
		fs.PrintDefaults()
	}
	_ = fs.Parse(args) // ExitOnError
	o.managerArgs = fs.Args()
	return o
}

// run returns the process exit code. Every path out of it after the control plane started goes
// through the deferred stop, so no kube-apiserver or etcd outlives it.
func run(o options) int {
	// Signals are caught from the start: a Ctrl-C while the control plane is still starting must
	// lead to a clean stop once Start returns, not to orphaned processes.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		sig := <-signals
		log.Printf("received %s, shutting down (again to kill the manager at once)", sig)
		cancel()
	}()

	// envtest logs through controller-runtime's logger; without one it complains after 30 s.
	ctrllog.SetLogger(funcr.New(func(prefix, args string) { log.Println(prefix, args) }, funcr.Options{}))

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

	env := &envtest.Environment{
		BinaryAssetsDirectory:    assets,
		CRDDirectoryPaths:        []string{o.crdDir},
		ErrorIfCRDPathMissing:    true,
		AttachControlPlaneOutput: o.controlPlaneLog,
	}
	log.Printf("starting kube-apiserver and etcd from %s", assets)
	_, startErr := env.Start()
	// Stop even when Start failed: it may have failed after the processes were up (installing CRDs).
	defer func() {
		log.Print("stopping the control plane")
		if err := env.Stop(); err != nil {
			log.Printf("stopping the control plane: %v", err)
		}
		if err := os.Remove(o.kubeconfigPath); err != nil && !errors.Is(err, os.ErrNotExist) {
			log.Printf("removing %s: %v", o.kubeconfigPath, err)
		}
	}()
	if startErr != nil {
		log.Printf("starting the control plane: %v", startErr)
		return 1
	}
	if ctx.Err() != nil {
		return 0
	}

	admin, err := env.AddUser(envtest.User{Name: "localcluster-admin", Groups: []string{"system:masters"}},
		&rest.Config{QPS: 50, Burst: 100})
	if err != nil {
		log.Printf("adding the admin user: %v", err)
		return 1
	}
	kubeconfig, err := admin.KubeConfig()
	if err != nil {
		log.Printf("building the kubeconfig: %v", err)
		return 1
	}
	if err := writePrivateFile(o.kubeconfigPath, kubeconfig); err != nil {
		log.Print(err)
		return 1
	}
	kubeconfigAbs, err := filepath.Abs(o.kubeconfigPath)
	if err != nil {
		log.Print(err)
		return 1
	}

	if err := ensureNamespace(ctx, admin.Config(), o.namespace); err != nil {
		log.Print(err)
		return 1
	}
	if o.samplesDir != "" {
		if err := applySamples(ctx, assets, kubeconfigAbs, o.namespace, o.samplesDir); err != nil {
			log.Print(err)
			return 1
		}
	}
	if ctx.Err() != nil {
		return 0
	}
	managerArgs := []string{
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
			defer chains.stop()
			defer removeIfExists(o.attesterKeyPath)
			attesterKey, err := filepath.Abs(o.attesterKeyPath)
			if err != nil {
				log.Print(err)
				return 1
			}
			managerArgs = append(managerArgs, "--attester-key-file", attesterKey)
		}
	}
	managerArgs = append(managerArgs, o.managerArgs...)

	printBanner(o, kubeconfigAbs, managerArgs)
	if o.noOperator {
		log.Print("control plane ready; press Ctrl-C to stop it")
		<-ctx.Done()
		return 0
	}
	return runManager(ctx, signals, o.managerPath, managerArgs, kubeconfigAbs)
}

// startLocalChains starts the local chains with the settlement demo: their contracts, the run's
// attester key (written where the manager reads it) and the reference filler.
func startLocalChains(ctx context.Context, o options) (*devChains, error) {
	ids, addrs := []int64{devChainID}, []string{o.devChainAddr}
	if o.secondChainAddr != "" {
		ids, addrs = append(ids, secondChainID), append(addrs, o.secondChainAddr)
	}
	chains, err := startDevChains(ctx, ids, addrs)
	if err != nil {
		return nil, err
	}
	if err := chains.writeAttesterKey(o.attesterKeyPath); err != nil {
		chains.stop()
		return nil, err
	}
	if err := chains.runFiller(ctx, "http://"+o.apiAddr); err != nil {
		chains.stop()
		removeIfExists(o.attesterKeyPath)
		return nil, fmt.Errorf("starting the reference filler: %w", err)
	}
	return chains, nil
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

func printBanner(o options, kubeconfig string, managerArgs []string) {
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
	fmt.Fprintln(os.Stderr, b.String())
}

// runManager runs the manager until it exits or ctx is cancelled, then makes sure it is gone.
// The manager gets its own process group: a Ctrl-C in the terminal reaches only localcluster, which
// then stops the manager and the control plane in that order, instead of all of them racing.
func runManager(ctx context.Context, signals <-chan os.Signal, path string, args []string, kubeconfig string) int {
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	cmd.Stdin = nil
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid: true,
		// Should localcluster itself be killed (SIGKILL cannot be caught), the manager goes too.
		Pdeathsig: syscall.SIGTERM,
	}
	log.Printf("starting %s %s", path, strings.Join(args, " "))
	if err := cmd.Start(); err != nil {
		log.Printf("starting the manager: %v", err)
		return 1
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	select {
	case err := <-exited:
		return managerExitCode(err)
	case <-ctx.Done():
	}

	log.Print("stopping the manager")
	signalGroup(cmd.Process.Pid, syscall.SIGTERM)
	timer := time.NewTimer(managerStopGrace)
	defer timer.Stop()
	select {
	case err := <-exited:
		logExit(err)
	case <-timer.C:
		log.Printf("the manager did not stop within %s; killing it", managerStopGrace)
		signalGroup(cmd.Process.Pid, syscall.SIGKILL)
		logExit(<-exited)
	case <-signals:
		log.Print("second signal; killing the manager")
		signalGroup(cmd.Process.Pid, syscall.SIGKILL)
		logExit(<-exited)
	}
	return 0
}

// signalGroup signals the manager's whole process group, so that anything it started goes as well.
func signalGroup(pid int, sig syscall.Signal) {
	if err := syscall.Kill(-pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		log.Printf("signalling the manager: %v", err)
	}
}

func managerExitCode(err error) int {
	if err == nil {
		log.Print("the manager exited")
		return 0
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		log.Printf("the manager exited: %v", err)
		if code := exitErr.ExitCode(); code > 0 {
			return code
		}
		return 1
	}
	log.Printf("waiting for the manager: %v", err)
	return 1
}

// logExit records how a manager that was asked to stop ended.
func logExit(err error) {
	if err != nil {
		log.Printf("the manager stopped: %v", err)
	}
}
