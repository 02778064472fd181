// Package testenv starts a real Kubernetes API server (envtest) with the service's CRDs for tests.
// It imports nothing of the service, so every package's tests can use it, the controllers' own
// included; internal/servicetest runs the whole service on top of it.
package testenv

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// Cluster is a running API server with the CRDs installed.
type Cluster struct {
	// Config reaches the API server, for managers.
	Config *rest.Config
	// Scheme knows the built-in kinds and the service's.
	Scheme *k8sruntime.Scheme
	// Client talks to the API server directly, with no cache.
	Client client.Client
}

// Start runs the API server until the test ends (in a Ginkgo BeforeSuite pass GinkgoTB(): its
// Cleanup runs at the end of the suite). It fails the test, with what to do, when the envtest
// binaries are missing.
func Start(t testing.TB) *Cluster {
	t.Helper()
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		t.Fatal("KUBEBUILDER_ASSETS is not set: point it at the directory holding kube-apiserver and etcd, " +
			"for example export KUBEBUILDER_ASSETS=$PWD/bin/k8s/1.37.2-linux-amd64 (make test builds and sets it)")
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join(RepoRoot(t), "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting envtest (are the CRDs installable?): %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping envtest: %v", err)
		}
	})
	direct, err := client.New(cfg, client.Options{Scheme: Scheme()})
	must(t, err)
	return &Cluster{Config: cfg, Scheme: Scheme(), Client: direct}
}

// Scheme is the built-in kinds and ours, as the manager has them, built once: the scheme of the
// tests' clients, fake or real (a scheme is safe for concurrent reads).
var Scheme = sync.OnceValue(func() *k8sruntime.Scheme {
	scheme := k8sruntime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(v1alpha1.AddToScheme(scheme))
	return scheme
})

// CreateNamespace creates a namespace with a random name, so that a suite's objects are its own.
func (c *Cluster) CreateNamespace(t testing.TB) string {
	t.Helper()
	name := "tis-" + utilrand.String(6)
	must(t, c.Client.Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}))
	return name
}

// RepoRoot is the module root, found from this file's path: for the CRDs, and for tests that
// write artifacts.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot find the repository root")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
