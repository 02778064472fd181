package main

import (
	"archive/tar"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/v1/mutate"
)

// TestPlatformImage checks what a node would run: the layer's files (the manager executable at
// /manager, user 65532 in /etc/passwd, the CA bundle), the config the Dockerfile would give, and
// that the same binary gives the same digest (no timestamps anywhere).
func TestPlatformImage(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "manager")
	if err := os.WriteFile(bin, []byte("\x7fELF not really"), 0o755); err != nil {
		t.Fatal(err)
	}
	labels := imageLabels("1.2.3", "abc")
	img, err := platformImage(bin, "linux", "arm64", labels, []byte("CERTS"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := platformImage(bin, "linux", "arm64", labels, []byte("CERTS"))
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := img.Digest()
	d2, _ := again.Digest()
	if d1 != d2 {
		t.Errorf("the same inputs gave two digests, %s and %s", d1, d2)
	}

	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cf.OS != "linux" || cf.Architecture != "arm64" || strings.Join(cf.Config.Entrypoint, " ") != "/manager" ||
		cf.Config.User != "65532:65532" || cf.Config.Labels["org.opencontainers.image.version"] != "1.2.3" {
		t.Errorf("config: %+v %s/%s", cf.Config, cf.OS, cf.Architecture)
	}

	files := map[string]*tar.Header{}
	contents := map[string]string{}
	tr := tar.NewReader(mutate.Extract(img))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(h.Name, "/") // as written, or as Extract cleans it
		files[name] = h
		b, _ := io.ReadAll(tr)
		contents[name] = string(b)
	}
	if h := files["manager"]; h == nil || h.Mode != 0o755 || contents["manager"] != "\x7fELF not really" {
		t.Errorf("/manager: %+v", h)
	}
	if !strings.Contains(contents["etc/passwd"], "nonroot:x:65532:65532:") {
		t.Errorf("/etc/passwd has no user 65532: %q", contents["etc/passwd"])
	}
	if contents["etc/ssl/certs/ca-certificates.crt"] != "CERTS" {
		t.Errorf("the CA bundle is %q", contents["etc/ssl/certs/ca-certificates.crt"])
	}
	if h := files["tmp"]; h == nil || h.Mode != 0o1777 {
		t.Errorf("/tmp: %+v", h)
	}
}
