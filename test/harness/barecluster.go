package harness

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// BareCluster is a kube-apiserver and etcd with nothing installed, and an admin's kubeconfig, for
// tests that install the service as a user does (make deploy, helm install). There is no kubelet:
// objects are stored, pods never run.
type BareCluster struct {
	// Client reads objects back as unstructured, their kinds found by discovery (which learns the
	// CRDs an install adds).
	Client     client.Client
	Discovery  discovery.DiscoveryInterface
	Kubeconfig string
	KubectlBin string
}

// StartBareCluster starts one for the test and stops it at the end.
func StartBareCluster(t *testing.T) *BareCluster {
	t.Helper()
	assets := Assets(t)
	env := &envtest.Environment{BinaryAssetsDirectory: assets}
	_, err := env.Start()
	// Registered before checking the error: Start can fail after the processes are up.
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping the control plane: %v", err)
		}
	})
	if err != nil {
		t.Fatalf("starting envtest: %v", err)
	}
	admin, err := env.AddUser(envtest.User{Name: "cluster-admin", Groups: []string{"system:masters"}}, &rest.Config{})
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig, err := admin.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	c := &BareCluster{Kubeconfig: filepath.Join(t.TempDir(), "kubeconfig"), KubectlBin: kubectlIn(assets)}
	if err := os.WriteFile(c.Kubeconfig, kubeconfig, 0o600); err != nil {
		t.Fatal(err)
	}
	if c.Client, err = client.New(admin.Config(), client.Options{}); err != nil {
		t.Fatal(err)
	}
	if c.Discovery, err = discovery.NewDiscoveryClientForConfig(admin.Config()); err != nil {
		t.Fatal(err)
	}
	return c
}

// Kubectl runs kubectl as the admin, with a deadline, and fails the test on an error, with
// kubectl's output; it returns the output.
func (c *BareCluster) Kubectl(t testing.TB, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, c.KubectlBin, append([]string{"--kubeconfig", c.Kubeconfig}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// ExpectStored fails the test unless every object can be read back from the API server.
func (c *BareCluster) ExpectStored(t testing.TB, objects []*unstructured.Unstructured) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, want := range objects {
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(want.GroupVersionKind())
		if err := c.Client.Get(ctx, client.ObjectKeyFromObject(want), got); err != nil {
			t.Errorf("%s %s/%s was rendered but not stored: %v", want.GetKind(), want.GetNamespace(), want.GetName(), err)
		}
	}
}

// kubectlIn is the kubectl next to the control plane binaries (hack/control-plane.sh links or
// builds one), else the one on PATH.
func kubectlIn(assets string) string {
	bin := filepath.Join(assets, "kubectl")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	return "kubectl"
}
