// Package chart installs dist/chart with the real helm binary into a local API server (envtest's
// kube-apiserver and etcd, no kubelet: objects are stored, pods never run), as make test-chart
// runs it: HELM names the helm binary the Makefile pins.
package chart

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/test/harness"
)

const (
	crdGroup      = "intents.transferintent.io"
	keepPolicy    = "helm.sh/resource-policy"
	releaseNSAnno = "meta.helm.sh/release-namespace"
)

var (
	chartDir   = filepath.Join(harness.RepoRoot(), "dist", "chart")
	everyValue = filepath.Join(harness.RepoRoot(), "hack", "chart", "testdata", "every-value.yaml")
)

// everyToggleOff turns off every object the chart can leave out.
var everyToggleOff = []string{
	"--set", "crds.enabled=false",
	"--set", "podDisruptionBudget.enabled=false",
	"--set", "networkPolicy.enabled=false",
	"--set", "metrics.enabled=false",
	"--set", "redis.trial.enabled=false",
	"--set", "postgresql.trial.enabled=false",
	"--set", "serviceAccount.create=false",
	"--set", "grafanaDashboard.enabled=false",
}

// TestInstallUpgradeUninstall installs three releases (default values in team-a; every value set,
// same release name, in team-b; every toggle off, beside the first in team-a), upgrades one,
// uninstalls them all, and checks what each step leaves in the cluster.
func TestInstallUpgradeUninstall(t *testing.T) {
	h := newHelm(t)
	c := h.cluster
	// The Prometheus Operator's CRDs (the end-to-end tests' stand-ins), for the ServiceMonitor and
	// PrometheusRule of team-b, and the namespace its Grafana dashboard goes to.
	for _, crd := range []string{"servicemonitor", "prometheusrule"} {
		c.Kubectl(t, "apply", "--server-side", "-f", filepath.Join(harness.RepoRoot(), "test", "e2e", "testdata", crd+"-crd.yaml"))
		c.Kubectl(t, "wait", "--for=condition=Established", "--timeout=60s", "crd/"+crd+"s.monitoring.coreos.com")
	}
	c.Kubectl(t, "create", "namespace", "monitoring")

	t.Run("a misspelt value fails helm install", func(t *testing.T) {
		for _, set := range []string{"nodeSelectr.disk=ssd", "serviceAccount.annotation.x=y", "crds.keep=yes"} {
			out, err := h.run("install", "typo", chartDir, "-n", "typo", "--create-namespace", "--set", set)
			if err == nil || !strings.Contains(out, "values don't meet the specifications of the schema") {
				t.Errorf("helm install --set %s: err %v, want a schema error; output:\n%s", set, err, out)
			}
			if err == nil { // so that the releases below do not meet its objects
				h.mustRun(t, "uninstall", "typo", "-n", "typo")
			}
		}
	})

	a := h.install(t, "tis", "team-a")
	b := h.install(t, "tis", "team-b", "-f", everyValue)
	lean := h.install(t, "lean", "team-a", everyToggleOff...)

	t.Run("cluster-scoped names differ between releases of one name", func(t *testing.T) {
		names := map[string]bool{}
		for _, o := range a.clusterScoped() {
			names[o.GetKind()+"/"+o.GetName()] = true
		}
		for _, o := range b.clusterScoped() {
			if names[o.GetKind()+"/"+o.GetName()] {
				t.Errorf("%s %s is in both releases named tis", o.GetKind(), o.GetName())
			}
		}
		if len(names) == 0 {
			t.Error("release tis in team-a has no cluster-scoped object; the test checks nothing")
		}
	})

	t.Run("each release selects its own pods only", func(t *testing.T) {
		expectSelectsOwnOnly(t, a, lean)
		expectSelectsOwnOnly(t, lean, a)
	})

	t.Run("every toggle off leaves those objects out", func(t *testing.T) {
		for _, o := range lean.objects {
			switch o.GetKind() {
			case "CustomResourceDefinition", "PodDisruptionBudget", "NetworkPolicy", "ServiceAccount",
				"StatefulSet", "Secret", "ServiceMonitor", "PrometheusRule":
				t.Errorf("with every toggle off the chart renders %s %s", o.GetKind(), o.GetName())
			case "Deployment":
				if o.GetName() == "lean-controller-manager" {
					expectField(t, c, o, "default", "spec", "template", "spec", "serviceAccountName")
				}
			}
		}
	})

	t.Run("the values reach the objects", func(t *testing.T) {
		expectEveryValue(t, c, a, b)
		if hooks := h.mustRun(t, "get", "hooks", "tis", "-n", "team-b"); !strings.Contains(hooks, "image: \"registry.example.com/mirror/busybox:1.37\"") {
			t.Errorf("test.image: the helm test hook of team-b is\n%s", hooks)
		}
	})

	t.Run("the trial PostgreSQL password is generated, and given when set", func(t *testing.T) {
		pw, url := postgresSecret(t, c, "team-a", "tis-postgres")
		if !regexp.MustCompile(`^[A-Za-z0-9]{32}$`).MatchString(pw) || !strings.Contains(url, ":"+pw+"@") {
			t.Errorf("generated password %q, url %q: want 32 random letters and digits, in the url", pw, url)
		}
		pw, url = postgresSecret(t, c, "team-b", "tis-postgres")
		if pw != "given p@ss/word" || !strings.Contains(url, ":given+p%40ss%2Fword@") {
			t.Errorf("given password: %q, url %q", pw, url)
		}
	})

	t.Run("the helm test Pod is valid and calls the API's Service", func(t *testing.T) {
		expectTestPod(t, h, "tis", "team-a")
	})

	t.Run("helm upgrade keeps the generated password and upgrades the CRDs in place", func(t *testing.T) {
		pw, _ := postgresSecret(t, c, "team-a", "tis-postgres")
		a = h.upgrade(t, "tis", "team-a", "--set", "replicas=2")
		expectField(t, c, a.get(t, "Deployment", "tis-controller-manager"), int64(2), "spec", "replicas")
		if after, _ := postgresSecret(t, c, "team-a", "tis-postgres"); after != pw {
			t.Errorf("the trial PostgreSQL password changed on helm upgrade: %q, then %q", pw, after)
		}
		for _, crd := range a.ofKind("CustomResourceDefinition") {
			expectField(t, c, crd, "tis", "metadata", "annotations", "meta.helm.sh/release-name")
			expectField(t, c, crd, "keep", "metadata", "annotations", keepPolicy)
		}
	})

	t.Run("helm uninstall leaves nothing but the kept CRDs", func(t *testing.T) {
		for _, r := range []*release{a, b, lean} {
			h.mustRun(t, "uninstall", r.name, "-n", r.namespace)
		}
		for _, r := range []*release{a, b, lean} {
			for _, o := range r.objects {
				gone := !exists(t, c, o)
				if kept := o.GetKind() == "CustomResourceDefinition"; kept == gone {
					t.Errorf("after helm uninstall %s %s: gone %v, want gone %v", o.GetKind(), o.GetName(), gone, !kept)
				}
			}
		}
		left := clusterScopedOf(t, c, "team-a", "team-b")
		if len(left) != len(a.ofKind("CustomResourceDefinition")) {
			t.Errorf("cluster-scoped objects of the releases left after helm uninstall: %v; want only the %d CRDs",
				left, len(a.ofKind("CustomResourceDefinition")))
		}
	})

	t.Run("reinstalled with crds.keep=false, the release adopts the kept CRDs and deletes them", func(t *testing.T) {
		r := h.install(t, "tis", "team-a", "--set", "crds.keep=false")
		crds := r.ofKind("CustomResourceDefinition")
		if len(crds) == 0 {
			t.Fatal("the release has no CRDs")
		}
		h.mustRun(t, "uninstall", "tis", "-n", "team-a")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, crd := range crds {
			err := wait.PollUntilContextCancel(ctx, 200*time.Millisecond, true, func(context.Context) (bool, error) {
				return !exists(t, c, crd), nil
			})
			if err != nil {
				t.Errorf("CRD %s still there a minute after helm uninstall with crds.keep=false", crd.GetName())
			}
		}
	})
}

// helm runs the helm binary of $HELM against a bare cluster, with its own home directories.
type helm struct {
	bin     string
	env     []string
	cluster *harness.BareCluster
}

func newHelm(t *testing.T) *helm {
	bin := os.Getenv("HELM")
	if bin == "" {
		t.Fatal("HELM is not set: run this test with make test-chart, which builds the pinned helm and names it")
	}
	home := t.TempDir()
	c := harness.StartBareCluster(t)
	return &helm{bin: bin, cluster: c, env: append(os.Environ(), "KUBECONFIG="+c.Kubeconfig,
		"HELM_CACHE_HOME="+filepath.Join(home, "cache"), "HELM_CONFIG_HOME="+filepath.Join(home, "config"),
		"HELM_DATA_HOME="+filepath.Join(home, "data"))}
}

func (h *helm) run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.bin, args...)
	cmd.Env = h.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (h *helm) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, err := h.run(args...)
	if err != nil {
		t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// release is an installed release and the objects of its manifest.
type release struct {
	name, namespace string
	objects         []*unstructured.Unstructured
}

// install installs the chart without waiting (no pod ever becomes ready here) and fails unless
// every object of the release's manifest is stored.
func (h *helm) install(t *testing.T, name, namespace string, args ...string) *release {
	t.Helper()
	h.mustRun(t, append([]string{"install", name, chartDir, "-n", namespace, "--create-namespace"}, args...)...)
	return h.stored(t, name, namespace)
}

func (h *helm) upgrade(t *testing.T, name, namespace string, args ...string) *release {
	t.Helper()
	h.mustRun(t, append([]string{"upgrade", name, chartDir, "-n", namespace}, args...)...)
	return h.stored(t, name, namespace)
}

func (h *helm) stored(t *testing.T, name, namespace string) *release {
	t.Helper()
	objects, err := harness.DecodeObjects([]byte(h.mustRun(t, "get", "manifest", name, "-n", namespace)))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objects {
		if o.GetNamespace() == "" && !h.clusterScopedKind(t, o) {
			o.SetNamespace(namespace) // as helm applies it
		}
	}
	h.cluster.ExpectStored(t, objects)
	t.Logf("release %s in %s: %d objects stored", name, namespace, len(objects))
	return &release{name: name, namespace: namespace, objects: objects}
}

func (h *helm) clusterScopedKind(t *testing.T, o *unstructured.Unstructured) bool {
	t.Helper()
	namespaced, err := h.cluster.Client.IsObjectNamespaced(o)
	if err != nil {
		t.Fatalf("%s: %v", o.GetKind(), err)
	}
	return !namespaced
}

func (r *release) ofKind(kind string) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range r.objects {
		if o.GetKind() == kind {
			out = append(out, o)
		}
	}
	return out
}

func (r *release) clusterScoped() []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range r.objects {
		if o.GetNamespace() == "" {
			out = append(out, o)
		}
	}
	return out
}

func (r *release) get(t *testing.T, kind, name string) *unstructured.Unstructured {
	t.Helper()
	for _, o := range r.ofKind(kind) {
		if o.GetName() == name {
			return o
		}
	}
	t.Fatalf("release %s has no %s %s", r.name, kind, name)
	return nil
}

// selectors are the label selectors of a release's objects that pick pods, by object.
func (r *release) selectors() map[string]labels.Selector {
	out := map[string]labels.Selector{}
	paths := map[string][]string{
		"Deployment": {"spec", "selector", "matchLabels"}, "StatefulSet": {"spec", "selector", "matchLabels"},
		"PodDisruptionBudget": {"spec", "selector", "matchLabels"}, "NetworkPolicy": {"spec", "podSelector", "matchLabels"},
		"Service": {"spec", "selector"},
	}
	for _, o := range r.objects {
		if path, ok := paths[o.GetKind()]; ok {
			m, _, _ := unstructured.NestedStringMap(o.Object, path...)
			out[o.GetKind()+"/"+o.GetName()] = labels.SelectorFromSet(m)
		}
	}
	return out
}

// podLabels are the labels of the pod templates of a release's workloads.
func (r *release) podLabels() []labels.Set {
	var out []labels.Set
	for _, o := range append(r.ofKind("Deployment"), r.ofKind("StatefulSet")...) {
		m, _, _ := unstructured.NestedStringMap(o.Object, "spec", "template", "metadata", "labels")
		out = append(out, m)
	}
	return out
}

// expectSelectsOwnOnly: each selector of r picks some pod template of r and none of other's.
func expectSelectsOwnOnly(t *testing.T, r, other *release) {
	t.Helper()
	for obj, sel := range r.selectors() {
		if sel.Empty() {
			t.Errorf("%s of release %s has an empty selector", obj, r.name)
		}
		own, theirs := 0, 0
		for _, l := range r.podLabels() {
			if sel.Matches(l) {
				own++
			}
		}
		for _, l := range other.podLabels() {
			if sel.Matches(l) {
				theirs++
			}
		}
		if own == 0 || theirs > 0 {
			t.Errorf("%s of release %s (%s) selects %d of its own pod templates and %d of release %s's; want some and none",
				obj, r.name, sel, own, theirs, other.name)
		}
	}
}

// expectEveryValue checks what hack/chart/testdata/every-value.yaml sets on release b, against
// release a with the defaults.
func expectEveryValue(t *testing.T, c *harness.BareCluster, a, b *release) {
	t.Helper()
	dep := b.get(t, "Deployment", "tis-controller-manager")
	pod := []string{"spec", "template", "spec"}
	container := func(o *unstructured.Unstructured) map[string]any {
		cs, _, _ := unstructured.NestedSlice(o.Object, append(pod, "containers")...)
		return cs[0].(map[string]any)
	}
	checks := []struct {
		value string
		got   any
		want  string // in the JSON of got
	}{
		{"podAnnotations", field(dep, "spec", "template", "metadata", "annotations"), `"example.com/owner":"payments"`},
		{"podLabels", field(dep, "spec", "template", "metadata", "labels"), `"team":"payments"`},
		{"nodeSelector", field(dep, append(pod, "nodeSelector")...), `{"kubernetes.io/os":"linux"}`},
		{"priorityClassName", field(dep, append(pod, "priorityClassName")...), `"system-cluster-critical"`},
		{"serviceAccount.name", field(dep, append(pod, "serviceAccountName")...), `"payments-transfer-intent"`},
		{"imagePullSecrets", field(dep, append(pod, "imagePullSecrets")...), `[{"name":"registry-credentials"}]`},
		{"tolerations", field(dep, append(pod, "tolerations")...), `"key":"dedicated"`},
		{"affinity", field(dep, append(pod, "affinity")...), `{"nodeAffinity":`},
		{"topologySpreadConstraints", field(dep, append(pod, "topologySpreadConstraints")...), `"topologyKey":"topology.kubernetes.io/zone"`},
		{"extraArgs", container(dep)["args"], `"--zap-log-level=debug"`},
		{"extraEnv", container(dep)["env"], `{"name":"GOMEMLIMIT","value":"400MiB"}`},
		{"extraVolumeMounts", container(dep)["volumeMounts"], `"mountPath":"/etc/ssl/certs/extra"`},
		{"extraVolumes", field(dep, append(pod, "volumes")...), `"configMap":{"name":"ca-bundle"}`},
		{"serviceAccount.annotations", field(b.get(t, "ServiceAccount", "payments-transfer-intent"), "metadata", "annotations"), `"eks.amazonaws.com/role-arn":`},
	}
	for _, ch := range checks {
		if got := jsonOf(ch.got); !strings.Contains(got, ch.want) {
			t.Errorf("%s: the manager's objects have %s, want %s in it", ch.value, got, ch.want)
		}
	}
	// The defaults keep config/'s affinity; every-value.yaml replaces it.
	if field(a.get(t, "Deployment", "tis-controller-manager"), append(pod, "affinity", "podAntiAffinity")...) == nil {
		t.Error("with the default affinity the manager's pods are not spread over nodes (config/'s podAntiAffinity)")
	}
	if field(dep, append(pod, "affinity", "podAntiAffinity")...) != nil {
		t.Error("the affinity value is added to config/'s instead of replacing it")
	}
	for _, rb := range b.ofKind("RoleBinding") {
		expectField(t, c, rb, "payments-transfer-intent", "subjects", "0", "name")
	}
	for _, kind := range []string{"ServiceMonitor", "PrometheusRule"} {
		for _, o := range b.ofKind(kind) {
			expectField(t, c, o, "kube-prometheus-stack", "metadata", "labels", "release")
		}
		if len(b.ofKind(kind)) != 1 {
			t.Errorf("every-value.yaml renders %d %ss, want 1", len(b.ofKind(kind)), kind)
		}
	}
	dash := b.get(t, "ConfigMap", "team-b-tis-grafana-dashboard")
	expectField(t, c, dash, "1", "metadata", "labels", "grafana_dashboard")
	expectField(t, c, dash, "Payments", "metadata", "annotations", "grafana_folder")
	var board struct{ Title string }
	if err := json.Unmarshal([]byte(field(dash, "data", "transfer-intent-service.json").(string)), &board); err != nil || board.Title == "" {
		t.Errorf("the dashboard ConfigMap's JSON: %v, title %q", err, board.Title)
	}
	if dash.GetNamespace() != "monitoring" {
		t.Errorf("grafanaDashboard.namespace: the ConfigMap is in %q", dash.GetNamespace())
	}
}

// field reads a nested field of a rendered object; a number in the path indexes a list.
func field(o *unstructured.Unstructured, path ...string) any {
	var cur any = o.Object
	for _, p := range path {
		switch v := cur.(type) {
		case map[string]any:
			cur = v[p]
		case []any:
			i := 0
			for _, ch := range p {
				i = i*10 + int(ch-'0')
			}
			if i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	return cur
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// expectField checks a field of the stored object (not the rendered one).
func expectField(t *testing.T, c *harness.BareCluster, o *unstructured.Unstructured, want any, path ...string) {
	t.Helper()
	stored := &unstructured.Unstructured{}
	stored.SetGroupVersionKind(o.GroupVersionKind())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Client.Get(ctx, client.ObjectKeyFromObject(o), stored); err != nil {
		t.Fatalf("%s %s: %v", o.GetKind(), o.GetName(), err)
	}
	if got := field(stored, path...); jsonOf(got) != jsonOf(want) {
		t.Errorf("%s %s/%s %s: %v, want %v", o.GetKind(), o.GetNamespace(), o.GetName(), strings.Join(path, "."), got, want)
	}
}

func exists(t *testing.T, c *harness.BareCluster, o *unstructured.Unstructured) bool {
	t.Helper()
	got := &unstructured.Unstructured{}
	got.SetGroupVersionKind(o.GroupVersionKind())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := c.Client.Get(ctx, client.ObjectKeyFromObject(o), got)
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("%s %s: %v", o.GetKind(), o.GetName(), err)
	}
	return err == nil && got.GetDeletionTimestamp() == nil
}

func postgresSecret(t *testing.T, c *harness.BareCluster, namespace, name string) (password, url string) {
	t.Helper()
	s := &unstructured.Unstructured{}
	s.SetGroupVersionKind(schema.GroupVersionKind{Version: "v1", Kind: "Secret"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, s); err != nil {
		t.Fatal(err)
	}
	data, _, _ := unstructured.NestedStringMap(s.Object, "data")
	return decode(t, data["password"]), decode(t, data["url"])
}

func decode(t *testing.T, b64 string) string {
	t.Helper()
	var b []byte
	if err := json.Unmarshal([]byte(`"`+b64+`"`), &b); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// clusterScopedOf lists every cluster-scoped object in the cluster that helm recorded as a
// release's of one of the namespaces, by discovery: whatever kind the chart may add later.
func clusterScopedOf(t *testing.T, c *harness.BareCluster, namespaces ...string) []string {
	t.Helper()
	lists, err := c.Discovery.ServerPreferredResources()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var left []string
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range l.APIResources {
			if r.Namespaced || !strings.Contains(strings.Join(r.Verbs, ","), "list") {
				continue
			}
			objs := &unstructured.UnstructuredList{}
			objs.SetGroupVersionKind(gv.WithKind(r.Kind + "List"))
			if err := c.Client.List(ctx, objs); err != nil {
				t.Fatalf("listing %s: %v", r.Name, err)
			}
			for _, o := range objs.Items {
				for _, ns := range namespaces {
					if o.GetAnnotations()[releaseNSAnno] == ns && o.GetDeletionTimestamp() == nil {
						left = append(left, r.Kind+"/"+o.GetName())
					}
				}
			}
		}
	}
	for _, o := range left {
		if !strings.HasPrefix(o, "CustomResourceDefinition/") || !strings.HasSuffix(o, "."+crdGroup) {
			t.Errorf("%s is left after helm uninstall", o)
		}
	}
	return left
}

// expectTestPod has the API server validate the helm test hook (a dry run: no pod runs here) and
// checks that the URL it calls is the release's API Service.
func expectTestPod(t *testing.T, h *helm, name, namespace string) {
	t.Helper()
	hooks := h.mustRun(t, "get", "hooks", name, "-n", namespace)
	objects, err := harness.DecodeObjects([]byte(hooks))
	if err != nil {
		t.Fatal(err)
	}
	var pods []*unstructured.Unstructured
	for _, o := range objects {
		if o.GetKind() == "Pod" && o.GetAnnotations()["helm.sh/hook"] == "test" {
			pods = append(pods, o)
		}
	}
	if len(pods) != 1 {
		t.Fatalf("release %s has %d helm test Pods, want 1:\n%s", name, len(pods), hooks)
	}
	file := filepath.Join(t.TempDir(), "test-pod.yaml")
	b, _ := json.Marshal(pods[0].Object)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	h.cluster.Kubectl(t, "create", "--dry-run=server", "-n", namespace, "-f", file)

	cmd, _, _ := unstructured.NestedSlice(pods[0].Object, "spec", "containers")
	args, _ := cmd[0].(map[string]any)["command"].([]any)
	url, _ := args[len(args)-1].(string)
	m := regexp.MustCompile(`^http://([a-z0-9-]+)\.([a-z0-9-]+)\.svc:(\d+)/health$`).FindStringSubmatch(url)
	if m == nil || m[2] != namespace {
		t.Fatalf("the helm test Pod calls %q, want http://<service>.%s.svc:<port>/health", url, namespace)
	}
	svc := &unstructured.Unstructured{}
	svc.SetGroupVersionKind(schema.GroupVersionKind{Version: "v1", Kind: "Service"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.cluster.Client.Get(ctx, client.ObjectKey{Namespace: m[2], Name: m[1]}, svc); err != nil {
		t.Fatalf("the helm test Pod calls Service %s: %v", m[1], err)
	}
	if ports := jsonOf(field(svc, "spec", "ports")); !bytes.Contains([]byte(ports), []byte(`"port":`+m[3])) {
		t.Errorf("Service %s has no port %s: %s", m[1], m[3], ports)
	}
}
