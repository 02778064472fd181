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
// KUBEBUILDER_ASSETS the suite runs hack/control-plane.sh itself. The webhooks' spec runs a
// PostgreSQL (internal/pgtest): POSTGRES_BINDIR=$(hack/postgres.sh), as make test-e2e sets it.
package e2e

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	"github.com/transferintent/transfer-intent-service/test/harness"
)

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
	manager        *harness.Manager
	managerBin     string
	// managerArgs and managerKubeconfig start the manager again after a spec killed it.
	managerArgs       []string
	managerKubeconfig string
	// attesterKey is the key the manager signs bridge fills with (--attester-key-file).
	attesterKey *ecdsa.PrivateKey
)

// TestMain removes the manager binary the suite built.
func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }

func TestE2E(t *testing.T) {
	RegisterFailHandler(Fail)
	_, _ = fmt.Fprintf(GinkgoWriter, "Starting the transfer-intent-service end-to-end suite\n")
	RunSpecs(t, "e2e suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(GinkgoLogr)

	var err error
	projectRoot = harness.RepoRoot()
	artifacts := harness.Artifacts(GinkgoTB())
	work := GinkgoT().TempDir()

	By("finding the control plane binaries")
	assetsDir = harness.Assets(GinkgoTB())

	By("building the manager binary")
	// E2E_GO_BUILD_FLAGS=-race (make test sets it) builds a manager that reports data races in its
	// log; the suite fails on any (see the manager's DeferCleanup).
	managerBin = harness.ManagerBinary(GinkgoTB(), "E2E_MANAGER_BIN", strings.Fields(os.Getenv("E2E_GO_BUILD_FLAGS"))...)

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
		// Market terms short enough for a spec: a winner's exclusivity of 4s, then 10s of decay
		// (the reference fillers wait for it: in chain time, which the specs' blocks run ahead),
		// quote endpoints on loopback, and the Fillers' counters written every second.
		"--rfq-exclusivity", "4s", "--auction-decay-window", "10s", "--rfq-allow-loopback", "--filler-status-interval", "1s", "--rfq-fade-threshold", "1",
	}
	manager = harness.RunManager(GinkgoTB(), managerBin, managerKubeconfig, logPath, GinkgoWriter, managerArgs...)
	DeferCleanup(func() {
		By("stopping the manager")
		manager.Stop()
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
