// Package release tests the release as a platform team meets it: make release-local builds the
// multi-arch image without a container engine and pushes it and the chart to a real OCI registry
// (the CNCF Distribution registry, on loopback), then helm installs the chart from that registry
// by version into a real kube-apiserver (no nodes: nothing runs, the objects are stored), and the
// Deployment it stored must name the image the registry serves, for both platforms.
package release

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/test/harness"
)

// A pre-release, so that it can never be mistaken for a published version.
const version = "0.0.0-test.1"

// The platforms make release-local builds by default.
var platforms = []string{"linux/amd64", "linux/arm64"}

func TestReleaseInstallsFromRegistry(t *testing.T) {
	root := harness.RepoRoot()
	registryDir, releaseDir := t.TempDir(), t.TempDir()
	// The first start on a machine builds the registry from Go modules (hack/gotool.sh): a couple
	// of minutes cold, with its module downloads; then it binds within seconds.
	registry := strings.TrimSpace(command(t, budget(t, 15*time.Minute), root, "hack/registry.sh", "start", registryDir))
	t.Cleanup(func() { command(t, 30*time.Second, root, "hack/registry.sh", "stop", registryDir) })

	// Cold (an empty build cache for both platforms) this takes many minutes on a loaded machine;
	// warm, about a minute.
	command(t, budget(t, 50*time.Minute), root, "make", "--no-print-directory", "release-local",
		"VERSION="+version, "REGISTRY="+registry, "RELEASE_DIR="+releaseDir)
	if out := command(t, 10*time.Second, root, filepath.Join(releaseDir, "manager-linux-amd64"), "--version"); !strings.Contains(out, " "+version+" (commit ") {
		t.Errorf("manager --version printed %q, want version %s and a commit", out, version)
	}

	digest := checkServed(t, registry, "transfer-intent-service", version)

	// A bare API server, as a new cluster is: the chart installs its CRDs itself (templates that a
	// release owns), which it refuses to do over CRDs some other tool put there.
	cp := harness.StartBareCluster(t)
	helm := helmCommand(t, root, cp.Kubeconfig)
	ns := "tis-release"
	helm("install", "transfer-intent", "oci://"+registry+"/charts/transfer-intent-service", "--version", version,
		"--plain-http", "--namespace", ns, "--create-namespace", "--wait=false")

	var deployments appsv1.DeploymentList
	if err := cp.Client.List(context.Background(), &deployments, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	want := registry + "/transfer-intent-service@" + digest
	var found bool
	for _, d := range deployments.Items {
		for _, c := range d.Spec.Template.Spec.Containers {
			if c.Name == "manager" {
				found = true
				if c.Image != want {
					t.Errorf("deployment %s runs %q, want the image the registry serves, %q", d.Name, c.Image, want)
				}
			}
		}
	}
	if !found {
		t.Fatalf("no Deployment in %s has a manager container (%d deployments)", ns, len(deployments.Items))
	}

	var releases []struct {
		Chart      string
		AppVersion string `json:"app_version"`
	}
	if err := json.Unmarshal([]byte(helm("list", "--namespace", ns, "-o", "json")), &releases); err != nil {
		t.Fatal(err)
	}
	if len(releases) != 1 || releases[0].Chart != "transfer-intent-service-"+version || releases[0].AppVersion != version {
		t.Errorf("helm list: %+v, want chart transfer-intent-service-%s, app version %s", releases, version, version)
	}
}

// budget is limit, or less if the test's own deadline (go test -timeout) comes sooner: a minute
// before it, so that the test fails with the command's output rather than go test's panic.
func budget(t *testing.T, limit time.Duration) time.Duration {
	if deadline, ok := t.Deadline(); ok {
		return min(limit, time.Until(deadline)-time.Minute)
	}
	return limit
}

// checkServed checks that the registry serves repository:tag as an OCI index with an image for
// each platform, whose config says that platform and whose layers are all stored; it returns the
// index's digest.
func checkServed(t *testing.T, registry, repository, tag string) string {
	t.Helper()
	var index struct {
		MediaType string
		Manifests []struct {
			Digest   string
			Platform struct{ OS, Architecture string }
		}
	}
	digest := get(t, registry, repository, "manifests/"+tag, "application/vnd.oci.image.index.v1+json", &index)
	if index.MediaType != "application/vnd.oci.image.index.v1+json" {
		t.Errorf("%s:%s is a %q, want an OCI image index", repository, tag, index.MediaType)
	}
	var got []string
	for _, m := range index.Manifests {
		platform := m.Platform.OS + "/" + m.Platform.Architecture
		got = append(got, platform)
		var manifest struct {
			Config struct{ Digest string }
			Layers []struct{ Digest string }
		}
		get(t, registry, repository, "manifests/"+m.Digest, "application/vnd.oci.image.manifest.v1+json", &manifest)
		var config struct {
			OS, Architecture string
			Config           struct {
				Entrypoint []string
				User       string
			}
		}
		get(t, registry, repository, "blobs/"+manifest.Config.Digest, "", &config)
		if config.OS+"/"+config.Architecture != platform || !slices.Equal(config.Config.Entrypoint, []string{"/manager"}) || config.Config.User != "65532:65532" {
			t.Errorf("the %s image's config: %+v, want that platform, entrypoint /manager, user 65532:65532", platform, config)
		}
		if len(manifest.Layers) == 0 {
			t.Errorf("the %s image has no layers", platform)
		}
		for _, l := range manifest.Layers {
			head(t, registry, repository, "blobs/"+l.Digest)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, platforms) {
		t.Errorf("%s:%s has images for %v, want %v", repository, tag, got, platforms)
	}
	return digest
}

var httpClient = &http.Client{Timeout: 10 * time.Second}

// get fetches path of the repository's /v2 API into v and returns the digest the registry names
// it by.
func get(t *testing.T, registry, repository, path, accept string, v any) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+registry+"/v2/"+repository+"/"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", req.URL, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", req.URL, err)
	}
	return resp.Header.Get("Docker-Content-Digest")
}

func head(t *testing.T, registry, repository, path string) {
	t.Helper()
	resp, err := httpClient.Head("http://" + registry + "/v2/" + repository + "/" + path)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD %s: %s", resp.Request.URL, resp.Status)
	}
}

// helmCommand returns a runner of the pinned helm (the Makefile's) against kubeconfig, with its
// cache and configuration in temporary directories rather than the user's.
func helmCommand(t *testing.T, root, kubeconfig string) func(args ...string) string {
	helm := strings.TrimSpace(command(t, 10*time.Minute, root, "make", "-s", "--no-print-directory", "print-helm"))
	home := t.TempDir()
	env := []string{"KUBECONFIG=" + kubeconfig, "HELM_CACHE_HOME=" + filepath.Join(home, "cache"),
		"HELM_CONFIG_HOME=" + filepath.Join(home, "config"), "HELM_DATA_HOME=" + filepath.Join(home, "data")}
	return func(args ...string) string {
		t.Helper()
		return commandEnv(t, time.Minute, root, env, helm, args...)
	}
}

func command(t *testing.T, timeout time.Duration, dir, name string, args ...string) string {
	t.Helper()
	return commandEnv(t, timeout, dir, nil, name, args...)
}

// commandEnv runs name in dir with env added, within timeout, and returns its standard output;
// on failure the test stops with both outputs.
func commandEnv(t *testing.T, timeout time.Duration, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v (after %s)\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err,
			time.Since(start).Round(time.Second), stdout.String(), stderr.String())
	}
	t.Logf("%s %s: %s", filepath.Base(name), strings.Join(args, " "), time.Since(start).Round(100*time.Millisecond))
	return stdout.String()
}
