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
		checkMetricsTLS(t, objects)
	})
}

// checkMetricsTLS checks that the ServiceMonitor verifies what the manager serves: the CA of the
// Secret the Deployment mounts at --metrics-cert-path, for the metrics Service's DNS name, and
// never skips verification.
func checkMetricsTLS(t *testing.T, objects []*unstructured.Unstructured) {
	t.Helper()
	var monitor, service, manager *unstructured.Unstructured
	for _, o := range objects {
		switch {
		case o.GetKind() == "ServiceMonitor":
			monitor = o
		case o.GetKind() == "Service" && strings.HasSuffix(o.GetName(), "controller-manager-metrics-service"):
			service = o
		case o.GetKind() == "Deployment" && strings.HasSuffix(o.GetName(), "controller-manager"):
			manager = o
		}
	}
	if monitor == nil || service == nil || manager == nil {
		t.Fatal("the render lacks the ServiceMonitor, the metrics Service or the manager's Deployment")
	}
	endpoints, _, _ := unstructured.NestedSlice(monitor.Object, "spec", "endpoints")
	if len(endpoints) != 1 {
		t.Fatalf("the ServiceMonitor has %d endpoints, want 1", len(endpoints))
	}
	tlsConfig, _, _ := unstructured.NestedMap(endpoints[0].(map[string]any), "tlsConfig")
	if skip, found := tlsConfig["insecureSkipVerify"]; found {
		t.Errorf("the ServiceMonitor sets insecureSkipVerify: %v", skip)
	}
	if want := service.GetName() + "." + service.GetNamespace() + ".svc"; tlsConfig["serverName"] != want {
		t.Errorf("the ServiceMonitor verifies the name %v, want the metrics Service's %s", tlsConfig["serverName"], want)
	}
	caSecret, _, _ := unstructured.NestedString(tlsConfig, "ca", "secret", "name")

	pod, _, _ := unstructured.NestedMap(manager.Object, "spec", "template", "spec")
	containers, _, _ := unstructured.NestedSlice(pod, "containers")
	container := containers[0].(map[string]any)
	args, _, _ := unstructured.NestedStringSlice(container, "args")
	var certPath string
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--metrics-cert-path="); ok {
			certPath = v
		}
	}
	mounts, _, _ := unstructured.NestedSlice(container, "volumeMounts")
	volumes, _, _ := unstructured.NestedSlice(pod, "volumes")
	var mounted string
	for _, m := range mounts {
		m := m.(map[string]any)
		if m["mountPath"] != certPath {
			continue
		}
		for _, v := range volumes {
			if v := v.(map[string]any); v["name"] == m["name"] {
				mounted, _, _ = unstructured.NestedString(v, "secret", "secretName")
			}
		}
	}
	if certPath == "" || mounted == "" || mounted != caSecret {
		t.Errorf("the manager serves the Secret %q mounted at --metrics-cert-path=%q; the ServiceMonitor trusts the CA of %q",
			mounted, certPath, caSecret)
	}
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
