package controlplane

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// kubeVersion is the release the tests ask for: the one the Makefile's ENVTEST_K8S_VERSION names,
// so that KUBEBUILDER_ASSETS (which make test sets) holds its binaries.
const kubeVersion = "1.37.2"

// script is hack/control-plane.sh, from this package's directory.
var script = filepath.Join("..", "control-plane.sh")

// runScript runs the script with env added to the test's environment and returns its stdout,
// its stderr and its error.
func runScript(t *testing.T, env ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command("bash", script)
	cmd.Env = append(os.Environ(), "KUBE_VERSION="+kubeVersion)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// assets is the directory of the control plane this machine already has (make test's
// KUBEBUILDER_ASSETS), whose binaries the loopback index serves.
func assets(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("KUBEBUILDER_ASSETS")
	if dir == "" {
		t.Fatal("KUBEBUILDER_ASSETS is not set: run make test, or KUBEBUILDER_ASSETS=$(make -s envtest-assets) go test ./hack/controlplane/")
	}
	return dir
}

// envtestArchive packs the named binaries of dir as controller-tools publishes them
// (controller-tools/envtest/NAME in a gzipped tar), following symbolic links.
func envtestArchive(t *testing.T, dir string, names ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	// The fastest level: the archive is only read back on loopback, and the binaries are 150 MB.
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(gz)
	for _, name := range names {
		content, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		hdr := &tar.Header{Name: "controller-tools/envtest/" + name, Mode: 0o755, Size: int64(len(content)), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(content); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// envtestIndex is an envtest-releases.yaml listing one archive, with its SHA-512 in hex as
// setup-envtest checks it.
func envtestIndex(archiveName, selfLink string, archive []byte) string {
	sum := sha512.Sum512(archive)
	return fmt.Sprintf("releases:\n  v%s:\n    %s:\n      hash: %s\n      selfLink: %s\n",
		kubeVersion, archiveName, hex.EncodeToString(sum[:]), selfLink)
}

// installSetupEnvtest installs the script's setup-envtest into bin/ (once: later calls find it
// there), with the ordinary Go environment, before a test runs the script offline.
func installSetupEnvtest(t *testing.T) {
	t.Helper()
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`SETUP_ENVTEST_VERSION="\$\{SETUP_ENVTEST_VERSION:-(v[^}]+)\}"`).FindSubmatch(src)
	if m == nil {
		t.Fatal("no SETUP_ENVTEST_VERSION default in " + script)
	}
	out, err := exec.Command(filepath.Join("..", "gotool.sh"), "sigs.k8s.io/controller-runtime/tools/setup-envtest", string(m[1])).CombinedOutput()
	if err != nil {
		t.Fatalf("installing setup-envtest %s: %v\n%s", m[1], err, out)
	}
}

// offline is the environment of a run in which Go may not download or build anything: GOPROXY=off
// and an empty module cache make a build from modules fail at once, so that a test of the fallback
// sees the build entered without waiting for it. setup-envtest must be installed already.
func offline(t *testing.T) []string {
	return []string{"GOPROXY=off", "GOMODCACHE=" + t.TempDir(), "GOFLAGS=-modcacherw"}
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

func TestDownloadRouteInstallsTheArchiveOfALoopbackIndex(t *testing.T) {
	src := assets(t)
	archiveName := fmt.Sprintf("envtest-v%s-%s-%s.tar.gz", kubeVersion, runtime.GOOS, runtime.GOARCH)
	names := []string{"kube-apiserver", "etcd"}
	if _, err := os.Stat(filepath.Join(src, "kubectl")); err == nil {
		names = append(names, "kubectl")
	}
	archive := envtestArchive(t, src, names...)
	installSetupEnvtest(t)

	var indexGets, archiveGets atomic.Int32
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.HandleFunc("GET /envtest-releases.yaml", func(w http.ResponseWriter, _ *http.Request) {
		indexGets.Add(1)
		_, _ = io.WriteString(w, envtestIndex(archiveName, srv.URL+"/"+archiveName, archive))
	})
	mux.HandleFunc("GET /"+archiveName, func(w http.ResponseWriter, _ *http.Request) {
		archiveGets.Add(1)
		_, _ = w.Write(archive)
	})

	binDir := filepath.Join(t.TempDir(), "k8s", kubeVersion)
	env := append(offline(t), "BIN_DIR="+binDir, "ENVTEST_INDEX_URL="+srv.URL+"/envtest-releases.yaml")
	stdout, stderr, err := runScript(t, env...)
	if err != nil {
		t.Fatalf("control-plane.sh: %v\n%s", err, stderr)
	}
	if got := strings.TrimSpace(stdout); got != binDir {
		t.Errorf("printed %q, want the directory %q", got, binDir)
	}
	if !strings.Contains(stderr, "route: download with setup-envtest") || strings.Contains(stderr, "route: build") {
		t.Errorf("stderr does not say it took the download route only:\n%s", stderr)
	}
	if archiveGets.Load() != 1 {
		t.Errorf("the archive was fetched %d times, want 1", archiveGets.Load())
	}
	for _, name := range []string{"kube-apiserver", "etcd"} {
		if got, want := fileSHA256(t, filepath.Join(binDir, name)), fileSHA256(t, filepath.Join(src, name)); got != want {
			t.Errorf("%s: installed sha256 %s, want the archived binary's %s", name, got, want)
		}
		if info, err := os.Stat(filepath.Join(binDir, name)); err != nil || info.Mode()&0o100 == 0 {
			t.Errorf("%s is not an executable file: %v %v", name, info, err)
		}
	}

	// A second run finds the binaries by their stamps and asks the network nothing.
	before := indexGets.Load()
	stdout, stderr, err = runScript(t, env...)
	if err != nil || strings.TrimSpace(stdout) != binDir {
		t.Fatalf("second run: %v, printed %q\n%s", err, stdout, stderr)
	}
	if indexGets.Load() != before || archiveGets.Load() != 1 {
		t.Errorf("second run fetched the index %d more times and the archive %d times in all, want none and 1",
			indexGets.Load()-before, archiveGets.Load())
	}
}

func TestDownloadRouteRefusesAnArchiveWhoseChecksumDiffers(t *testing.T) {
	archiveName := fmt.Sprintf("envtest-v%s-%s-%s.tar.gz", kubeVersion, runtime.GOOS, runtime.GOARCH)
	// A small archive: setup-envtest checks the sum before it unpacks anything.
	archive := envtestArchive(t, t.TempDir())
	installSetupEnvtest(t)
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.HandleFunc("GET /envtest-releases.yaml", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, envtestIndex(archiveName, srv.URL+"/"+archiveName, []byte("other bytes")))
	})
	mux.HandleFunc("GET /"+archiveName, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(archive) })

	binDir := filepath.Join(t.TempDir(), "k8s")
	_, stderr, err := runScript(t, append(offline(t), "BIN_DIR="+binDir, "ENVTEST_INDEX_URL="+srv.URL+"/envtest-releases.yaml")...)
	if err == nil {
		t.Fatalf("control-plane.sh succeeded with GOPROXY=off after a bad archive:\n%s", stderr)
	}
	if !strings.Contains(stderr, "route: build from Go modules, because setup-envtest failed") ||
		!strings.Contains(stderr, "checksum mismatch") {
		t.Errorf("stderr does not give the checksum as the reason for the fallback:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(binDir, "kube-apiserver")); err == nil {
		t.Error("kube-apiserver was installed from an archive whose checksum differs")
	}
}

// TestFallbackWhenTheIndexIsUnreachable: the build from modules is entered (its first log line),
// and fails at once, as the test lets go download nothing; what is checked is the decision, its
// reason, and that an index that does not answer costs the deadline and no more.
func TestFallbackWhenTheIndexIsUnreachable(t *testing.T) {
	refused, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedURL := "http://" + refused.Addr().String() + "/envtest-releases.yaml"
	_ = refused.Close()

	// A server that accepts the connection and never answers, like a black-holed proxy.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = silent.Close() })
	go func() {
		var conns []net.Conn
		defer func() {
			for _, conn := range conns {
				_ = conn.Close()
			}
		}()
		for {
			conn, err := silent.Accept()
			if err != nil {
				return
			}
			conns = append(conns, conn)
		}
	}()

	for _, tc := range []struct {
		name, url, reason string
	}{
		{"refused", refusedURL, "Failed to connect"},
		{"silent", "http://" + silent.Addr().String() + "/envtest-releases.yaml", "timed out"},
		{"empty", "", "ENVTEST_INDEX_URL is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			binDir := filepath.Join(t.TempDir(), "k8s")
			start := time.Now()
			_, stderr, err := runScript(t, append(offline(t), "BIN_DIR="+binDir, "ENVTEST_INDEX_URL="+tc.url,
				"ENVTEST_INDEX_TIMEOUT=2")...)
			elapsed := time.Since(start)
			if err == nil {
				t.Fatalf("control-plane.sh succeeded with GOPROXY=off:\n%s", stderr)
			}
			if !strings.Contains(stderr, "route: build from Go modules, because ") || !strings.Contains(stderr, tc.reason) {
				t.Errorf("stderr does not say it fell back to the build, because of %q:\n%s", tc.reason, stderr)
			}
			if !strings.Contains(stderr, "building kube-apiserver") {
				t.Errorf("the build from modules was not entered:\n%s", stderr)
			}
			if strings.Contains(stderr, "route: download") {
				t.Errorf("the download route was announced:\n%s", stderr)
			}
			// 2 s of deadline, plus the failing go commands; far below a build.
			if elapsed > 30*time.Second {
				t.Errorf("the fallback decision took %v, want about the 2 s deadline", elapsed)
			}
		})
	}
}
