package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/transferintent/transfer-intent-service/test/harness"
)

// The installer `make build-installer` writes (hack/render-deploy.sh over config/default) is
// accepted whole by a real API server: applied server-side as a dry run (so the suite's own
// manager keeps its RBAC). Its production settings are there: three replicas with anti-affinity,
// leader election, a PodDisruptionBudget, network policies, the settings ConfigMap, the trial
// Redis behind REDIS_URL and the trial PostgreSQL behind ARCHIVE_URL; the Prometheus Operator's
// kinds are not (config/components/prometheus adds them; test/gitops applies both for real).
var _ = Describe("The installer", func() {
	It("is accepted by the API server and carries the production settings", func() {
		By("rendering it as make build-installer does")
		render := exec.Command(filepath.Join(projectRoot, "hack", "render-deploy.sh"), "registry.example.com/transfer-intent-service:e2e")
		render.Dir = projectRoot
		render.Env = append(os.Environ(), "KUSTOMIZE="+kubectlPath()+" kustomize")
		var stderr bytes.Buffer
		render.Stderr = &stderr
		installer, err := render.Output()
		Expect(err).NotTo(HaveOccurred(), "hack/render-deploy.sh: %s", stderr.String())
		path := writeTemp("install.yaml", string(installer))

		By("applying it server-side (dry run) after its namespace")
		out, err := kubectl("create", "namespace", "transfer-intent-system")
		if err != nil {
			Expect(out).To(ContainSubstring("AlreadyExists"))
		}
		out, err = kubectl("apply", "--server-side", "--dry-run=server", "-f", path)
		Expect(err).NotTo(HaveOccurred(), out)
		objects, err := harness.DecodeObjects(installer)
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Count(out, "serverside-applied (server dry run)")).To(Equal(len(objects)), out)

		By("reading the production settings in it")
		byKind := map[string][]*unstructured.Unstructured{}
		for _, o := range objects {
			byKind[o.GetKind()] = append(byKind[o.GetKind()], o)
		}
		Expect(byKind["PodDisruptionBudget"]).To(HaveLen(1))
		Expect(byKind["NetworkPolicy"]).To(HaveLen(4))
		Expect(byKind["ServiceMonitor"]).To(BeEmpty())
		Expect(byKind["PrometheusRule"]).To(BeEmpty())
		manager := find(byKind["Deployment"], "transfer-intent-controller-manager")
		replicas, _, _ := unstructured.NestedFieldNoCopy(manager.Object, "spec", "replicas")
		Expect(replicas).To(BeNumerically("==", 3))
		_, found, _ := unstructured.NestedMap(manager.Object, "spec", "template", "spec", "affinity", "podAntiAffinity")
		Expect(found).To(BeTrue(), "pod anti-affinity")
		containers, _, _ := unstructured.NestedSlice(manager.Object, "spec", "template", "spec", "containers")
		container := containers[0].(map[string]any)
		Expect(container["args"]).To(ContainElements("--leader-elect", "--base-url=$(BASE_URL)", "--problem-base-url=$(PROBLEM_BASE_URL)"))
		var env []string
		for _, e := range container["env"].([]any) {
			env = append(env, e.(map[string]any)["name"].(string))
		}
		Expect(env).To(ContainElements("BASE_URL", "PROBLEM_BASE_URL", "REDIS_URL", "ARCHIVE_URL"))
		Expect(container["resources"]).To(HaveKey("requests"))
		Expect(container["resources"]).To(HaveKey("limits"))
		Expect(find(byKind["Deployment"], "transfer-intent-redis")).NotTo(BeNil())
		Expect(find(byKind["StatefulSet"], "transfer-intent-postgres")).NotTo(BeNil())
	})
})

// kubectlPath is the kubectl the suite uses.
func kubectlPath() string {
	bin := filepath.Join(assetsDir, "kubectl")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	return "kubectl"
}

func find(objects []*unstructured.Unstructured, name string) *unstructured.Unstructured {
	GinkgoHelper()
	for _, o := range objects {
		if o.GetName() == name {
			return o
		}
	}
	Fail("no object named " + name)
	return nil
}
