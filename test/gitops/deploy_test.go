package gitops

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/transferintent/transfer-intent-service/test/harness"
)

// The image make deploy would set; nothing runs it (envtest has no kubelet).
const deployImage = "registry.example.com/transfer-intent-service:deploy-test"

// TestDeployStoresEveryObject applies config/default as make deploy does (hack/render-deploy.sh,
// kubectl apply --server-side) to a bare API server, one without the Prometheus Operator's CRDs
// as most clusters are, and reads every rendered object back. Then, with the operator's CRDs
// (the stand-ins of test/e2e/testdata) installed, the same with config/components/prometheus
// turned on the way config/default's comment says.
func TestDeployStoresEveryObject(t *testing.T) {
	cluster := harness.StartBareCluster(t)

	t.Run("config/default on a cluster without the Prometheus Operator", func(t *testing.T) {
		objects := deploy(t, cluster, harness.RepoRoot())
		for _, o := range objects {
			if o.GroupVersionKind().Group == "monitoring.coreos.com" {
				t.Errorf("config/default renders %s %s, which a cluster without the Prometheus Operator refuses", o.GetKind(), o.GetName())
			}
		}
	})

	t.Run("config/default with the Prometheus component", func(t *testing.T) {
		for _, crd := range []string{"servicemonitor", "prometheusrule"} {
			cluster.Kubectl(t, "apply", "--server-side", "-f", filepath.Join(harness.RepoRoot(), "test", "e2e", "testdata", crd+"-crd.yaml"))
			cluster.Kubectl(t, "wait", "--for=condition=Established", "--timeout=60s", "crd/"+crd+"s.monitoring.coreos.com")
		}
		objects := deploy(t, cluster, withPrometheusComponent(t))
		kinds := map[string]int{}
		for _, o := range objects {
			kinds[o.GetKind()]++
		}
		if kinds["ServiceMonitor"] != 1 || kinds["PrometheusRule"] != 1 {
			t.Errorf("with the component on, config/default renders %d ServiceMonitors and %d PrometheusRules, want 1 of each",
				kinds["ServiceMonitor"], kinds["PrometheusRule"])
		}
	})
}

// deploy renders root's config/default with hack/render-deploy.sh, applies it server-side and
// fails unless every rendered object can be read back; it returns the rendered objects.
func deploy(t *testing.T, c *harness.BareCluster, root string) []*unstructured.Unstructured {
	t.Helper()
	render := exec.Command(filepath.Join(root, "hack", "render-deploy.sh"), deployImage)
	render.Env = append(os.Environ(), "KUSTOMIZE="+c.KubectlBin+" kustomize")
	var stderr bytes.Buffer
	render.Stderr = &stderr
	rendered, err := render.Output()
	if err != nil {
		t.Fatalf("hack/render-deploy.sh: %v\n%s", err, stderr.String())
	}
	manifest := filepath.Join(t.TempDir(), "deploy.yaml")
	if err := os.WriteFile(manifest, rendered, 0o600); err != nil {
		t.Fatal(err)
	}
	c.Kubectl(t, "apply", "--server-side", "-f", manifest)

	objects, err := harness.DecodeObjects(rendered)
	if err != nil {
		t.Fatalf("decoding the render: %v", err)
	}
	if len(objects) == 0 {
		t.Fatal("config/default renders nothing")
	}
	c.ExpectStored(t, objects)
	t.Logf("%d objects rendered, applied and read back", len(objects))
	return objects
}

// withPrometheusComponent copies config/ and hack/render-deploy.sh into a scratch tree and turns
// the Prometheus component on there as config/default's comment tells a user to: by uncommenting
// its line. It returns the scratch tree's root.
func withPrometheusComponent(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "config"), os.DirFS(filepath.Join(harness.RepoRoot(), "config"))); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(harness.RepoRoot(), "hack", "render-deploy.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "hack"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "hack", "render-deploy.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "config", "default", "kustomization.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const commented = "\n# - ../components/prometheus\n"
	if !bytes.Contains(b, []byte(commented)) {
		t.Fatalf("config/default/kustomization.yaml has no line %q to uncomment", strings.TrimSpace(commented))
	}
	b = bytes.Replace(b, []byte(commented), []byte("\n- ../components/prometheus\n"), 1)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return root
}
