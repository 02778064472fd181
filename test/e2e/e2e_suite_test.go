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

// Package e2e runs the service the way a user does: the real manager binary, built from ./cmd,
// against a real kube-apiserver and etcd (started by envtest from the binaries that
// hack/control-plane.sh builds), with the manifests of config/ applied by kubectl.
//
// Run it with `make test-e2e` (or as part of `make test`). `go test ./test/e2e/` works too: without
// KUBEBUILDER_ASSETS the suite runs hack/control-plane.sh itself.
package e2e

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/transferintent/transfer-intent-service/internal/freeport"
	"github.com/transferintent/transfer-intent-service/internal/service"
)

// managerStopGrace is how long the manager gets to shut down after SIGTERM before it is killed.
const managerStopGrace = 10 * time.Second

// The suite's shared state, set up once in BeforeSuite. Each run gets a fresh control plane and a
// namespace with a random name, which is also the namespace the manager watches.
var (
	projectRoot    string
	assetsDir      string
	kubeconfigPath string
	namespace      string
	k8sClient      client.Client
	apiAddr        string
	probeAddr      string
	manager        *managerProcess
	managerBin     string
	// managerArgs and managerKubeconfig start the manager again after a spec killed it.
	managerArgs       []string
	managerKubeconfig string
	// attesterKey is the key the manager signs bridge fills with (--attester-key-file).
	attesterKey *ecdsa.PrivateKey
)

func TestE2E(t *testing.T) {
	RegisterFailHandler(Fail)
	_, _ = fmt.Fprintf(GinkgoWriter, "Starting the transfer-intent-service end-to-end suite\n")
	RunSpecs(t, "e2e suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(GinkgoLogr)

	var err error
	projectRoot, err = filepath.Abs(filepath.Join("..", ".."))
	Expect(err).NotTo(HaveOccurred())
	artifacts := filepath.Join(projectRoot, "test", "artifacts")
	Expect(os.MkdirAll(artifacts, 0o755)).To(Succeed())
	work := GinkgoT().TempDir()

	By("finding the control plane binaries")
	assetsDir = controlPlaneAssets()

	By("building the manager binary")
	managerBin = os.Getenv("E2E_MANAGER_BIN")
	if managerBin == "" {
		managerBin = filepath.Join(work, "manager")
		// E2E_GO_BUILD_FLAGS=-race (make test sets it) builds a manager that reports data races
		// in its log; the suite fails on any (see the manager's DeferCleanup).
		args := append([]string{"build"}, strings.Fields(os.Getenv("E2E_GO_BUILD_FLAGS"))...)
		build := exec.Command("go", append(args, "-o", managerBin, "./cmd")...)
		build.Dir = projectRoot
		out, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "go build ./cmd:\n%s", out)
	}

	By("starting kube-apiserver and etcd, and installing the CRDs of config/crd/bases")
	testEnv := &envtest.Environment{
		BinaryAssetsDirectory: assetsDir,
		CRDDirectoryPaths:     []string{filepath.Join(projectRoot, "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
	}
	_, err = testEnv.Start()
	// Registered before checking the error: Start can fail after the processes are up.
	DeferCleanup(func() {
		By("stopping the control plane")
		Expect(testEnv.Stop()).To(Succeed())
	})
	Expect(err).NotTo(HaveOccurred())

	admin, err := testEnv.AddUser(envtest.User{Name: "e2e-admin", Groups: []string{"system:masters"}}, &rest.Config{QPS: 50, Burst: 100})
	Expect(err).NotTo(HaveOccurred())
	kubeconfig, err := admin.KubeConfig()
	Expect(err).NotTo(HaveOccurred())
	kubeconfigPath = filepath.Join(work, "kubeconfig")
	Expect(os.WriteFile(kubeconfigPath, kubeconfig, 0o600)).To(Succeed())
	k8sClient, err = client.New(admin.Config(), client.Options{Scheme: service.NewScheme()})
	Expect(err).NotTo(HaveOccurred())

	namespace = "e2e-" + utilrand.String(6)
	By("creating namespace " + namespace)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}})).To(Succeed())

	By("applying config/rbac into " + namespace + " and running the manager as its ServiceAccount")
	managerKubeconfig = managerIdentity(testEnv, work)

	By("starting the manager, watching " + namespace)
	// Ports of its own, so that the suite does not collide with a `make run` on the default ports.
	apiAddr = freeport.MustAddr(GinkgoTB())
	probeAddr = freeport.MustAddr(GinkgoTB())
	logPath := filepath.Join(artifacts, "manager.log")
	attesterKey, err = crypto.GenerateKey()
	Expect(err).NotTo(HaveOccurred())
	attesterKeyFile := filepath.Join(work, "attester.key")
	Expect(os.WriteFile(attesterKeyFile, []byte(hex.EncodeToString(crypto.FromECDSA(attesterKey))), 0o600)).To(Succeed())
	managerArgs = []string{
		"--attester-key-file", attesterKeyFile,
		"--namespace", namespace,
		"--api-bind-address", apiAddr,
		"--health-probe-bind-address", probeAddr,
		"--metrics-bind-address", "0",
		// Progress often enough that a kill -9 a moment after a block finds it recorded.
		"--chain-watch-progress-interval", "200ms",
	}
	manager, err = startManager(managerBin, logPath, managerKubeconfig, managerArgs...)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() {
		By("stopping the manager")
		manager.stop()
		_, _ = fmt.Fprintf(GinkgoWriter, "manager output: %s\n", logPath)
		out, err := os.ReadFile(logPath)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).NotTo(ContainSubstring("WARNING: DATA RACE"), "the race detector found a data race in the manager: see %s", logPath)
	})
})

// managerServiceAccount is the ServiceAccount config/rbac binds manager-role to, after the
// namePrefix config/default gives every object.
const managerServiceAccount = "transfer-intent-controller-manager"

// managerIdentity renders config/rbac the way config/default does (its namePrefix, the test's
// namespace), applies it as the admin, and returns a kubeconfig that authenticates as the
// ServiceAccount it binds. The manager then has exactly the permissions its +kubebuilder:rbac
// markers generate: a missing marker fails the suite, as it would fail a real deployment.
func managerIdentity(testEnv *envtest.Environment, work string) string {
	overlay := filepath.Join(work, "rbac-overlay")
	Expect(os.MkdirAll(overlay, 0o755)).To(Succeed())
	// kustomize takes a base by relative path only.
	base, err := filepath.Rel(overlay, filepath.Join(projectRoot, "config", "rbac"))
	Expect(err).NotTo(HaveOccurred())
	kustomization := fmt.Sprintf("namespace: %s\nnamePrefix: transfer-intent-\nresources:\n- %s\n", namespace, base)
	Expect(os.WriteFile(filepath.Join(overlay, "kustomization.yaml"), []byte(kustomization), 0o600)).To(Succeed())
	rendered, err := runKubectl("kustomize", overlay)
	Expect(err).NotTo(HaveOccurred(), "kubectl kustomize %s:\n%s", overlay, rendered)
	manifest := filepath.Join(work, "rbac.yaml")
	Expect(os.WriteFile(manifest, []byte(rendered), 0o600)).To(Succeed())
	out, err := kubectl("apply", "--server-side", "-f", manifest)
	Expect(err).NotTo(HaveOccurred(), "applying config/rbac:\n%s", out)

	// A client certificate whose user name is the ServiceAccount's: the API server's RBAC
	// authorizer matches ServiceAccount subjects by that name and these groups.
	sa, err := testEnv.AddUser(envtest.User{
		Name:   "system:serviceaccount:" + namespace + ":" + managerServiceAccount,
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated"},
	}, &rest.Config{QPS: 50, Burst: 100})
	Expect(err).NotTo(HaveOccurred())
	kubeconfig, err := sa.KubeConfig()
	Expect(err).NotTo(HaveOccurred())
	path := filepath.Join(work, "manager.kubeconfig")
	Expect(os.WriteFile(path, kubeconfig, 0o600)).To(Succeed())
	return path
}

// controlPlaneAssets returns the directory of kube-apiserver and etcd: KUBEBUILDER_ASSETS as set by
// make, or what hack/control-plane.sh prints (building the binaries if this machine has none yet).
func controlPlaneAssets() string {
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		return dir
	}
	cmd := exec.Command(filepath.Join(projectRoot, "hack", "control-plane.sh"))
	cmd.Stderr = GinkgoWriter
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "hack/control-plane.sh failed; see its output above")
	return strings.TrimSpace(string(out))
}

// kubectl runs kubectl against the suite's control plane and returns its combined output, which
// it also writes to the spec's log.
func kubectl(args ...string) (string, error) {
	out, err := runKubectl(args...)
	_, _ = fmt.Fprint(GinkgoWriter, out)
	return out, err
}

// runKubectl is kubectl without the log, for output that is data rather than news (a rendered
// kustomization). The kubectl next to the control plane binaries is preferred
// (hack/control-plane.sh links or builds one), so the suite needs nothing installed but Go.
func runKubectl(args ...string) (string, error) {
	bin := filepath.Join(assetsDir, "kubectl")
	if _, err := os.Stat(bin); err != nil {
		bin = "kubectl"
	}
	_, _ = fmt.Fprintf(GinkgoWriter, "$ kubectl %s\n", strings.Join(args, " "))
	cmd := exec.Command(bin, append([]string{"--kubeconfig", kubeconfigPath}, args...)...)
	cmd.Dir = projectRoot
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// managerProcess is the manager binary running as a child of the test process.
type managerProcess struct {
	cmd    *exec.Cmd
	log    *os.File
	exited chan struct{}
	err    error // set before exited is closed
}

func startManager(bin, logPath, kubeconfig string, args ...string) (*managerProcess, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = projectRoot
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	cmd.Stdout = io.MultiWriter(logFile, GinkgoWriter)
	cmd.Stderr = cmd.Stdout
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid: true,
		// If the test binary dies (a -timeout panic, say), the manager must not outlive it.
		Pdeathsig: syscall.SIGKILL,
	}
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	m := &managerProcess{cmd: cmd, log: logFile, exited: make(chan struct{})}
	go func() {
		m.err = cmd.Wait()
		close(m.exited)
	}()
	return m, nil
}

// running returns an error once the manager has exited: a crash must fail the waiting spec at once
// with the reason, not after its whole deadline.
func (m *managerProcess) running() error {
	select {
	case <-m.exited:
		return fmt.Errorf("the manager exited (%w); its output is in test/artifacts/manager.log", m.err)
	default:
		return nil
	}
}

// kill ends the manager at once (SIGKILL): no shutdown hook runs, as when a node dies.
func (m *managerProcess) kill() {
	if m.running() != nil {
		return
	}
	_ = syscall.Kill(-m.cmd.Process.Pid, syscall.SIGKILL)
	<-m.exited
	_ = m.log.Close()
}

func (m *managerProcess) stop() {
	if m == nil {
		return
	}
	defer func() { _ = m.log.Close() }()
	if m.running() != nil {
		return
	}
	_ = syscall.Kill(-m.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(managerStopGrace):
		_ = syscall.Kill(-m.cmd.Process.Pid, syscall.SIGKILL)
		<-m.exited
	}
	var exitErr *exec.ExitError
	if m.err != nil && !errors.As(m.err, &exitErr) {
		_, _ = fmt.Fprintf(GinkgoWriter, "waiting for the manager: %v\n", m.err)
	}
}
