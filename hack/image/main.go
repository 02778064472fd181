// Command image builds the manager's container image without a container engine and pushes it
// (make release-local): for each platform, one layer holding the static manager binary, an
// /etc/passwd and /etc/group naming the unprivileged user 65532 it runs as, and the CA
// certificates of the build host, on an empty base (FROM scratch); the same entrypoint, user and
// working directory as the Dockerfile. The platforms' images are pushed as one OCI index under the
// tag, whose digest is written to -out/image-digest, and each platform's compressed size to
// -out/image-sizes.txt.
//
// The image is reproducible: the layer's files carry no timestamps and the config no creation
// time, so the same binaries give the same digest.
//
// It is a module of its own (like hack/promql), so that go-containerregistry stays out of the
// service's module graph.
package main

import (
	"archive/tar"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The user of the Dockerfile's base (distroless/static:nonroot), so that the chart's
// securityContext (runAsNonRoot) holds for either image.
const (
	uid  = 65532
	user = "nonroot"
)

// binaries is -binary os/arch=path, repeated.
type binaries []string

func (b *binaries) String() string     { return strings.Join(*b, ",") }
func (b *binaries) Set(v string) error { *b = append(*b, v); return nil }

func main() {
	var bins binaries
	flag.Var(&bins, "binary", "os/arch=path of the static manager for that platform (repeat per platform)")
	ref := flag.String("image", "", "repository:tag to push the index to, e.g. 127.0.0.1:5000/transfer-intent-service:0.1.0")
	version := flag.String("version", "", "org.opencontainers.image.version label")
	commit := flag.String("commit", "", "org.opencontainers.image.revision label")
	cacerts := flag.String("ca-certificates", "/etc/ssl/certs/ca-certificates.crt", "CA bundle copied into the image (for the manager's outbound TLS: chain RPC, webhooks, tracing)")
	out := flag.String("out", ".", "directory for image-digest and image-sizes.txt")
	flag.Parse()
	if err := run(*ref, bins, imageLabels(*version, *commit), *cacerts, *out); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func imageLabels(version, commit string) map[string]string {
	return map[string]string{
		"org.opencontainers.image.title":    "transfer-intent-service",
		"org.opencontainers.image.version":  version,
		"org.opencontainers.image.revision": commit,
		"org.opencontainers.image.licenses": "Apache-2.0",
	}
}

func run(ref string, bins []string, labels map[string]string, cacerts, out string) error {
	tag, err := name.NewTag(ref, name.StrictValidation)
	if err != nil {
		return fmt.Errorf("-image: %w", err)
	}
	if len(bins) == 0 {
		return fmt.Errorf("no -binary given")
	}
	certs, err := os.ReadFile(cacerts)
	if err != nil {
		return err
	}
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	var sizes strings.Builder
	for _, b := range bins {
		platform, path, ok := strings.Cut(b, "=")
		osName, arch, ok2 := strings.Cut(platform, "/")
		if !ok || !ok2 {
			return fmt.Errorf("-binary %q: want os/arch=path", b)
		}
		img, err := platformImage(path, osName, arch, labels, certs)
		if err != nil {
			return fmt.Errorf("%s: %w", platform, err)
		}
		size, err := compressedSize(img)
		if err != nil {
			return err
		}
		fmt.Fprintf(&sizes, "%s %d\n", platform, size)
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: osName, Architecture: arch}}})
	}
	// Loopback registries (127.0.0.1, localhost) are spoken to over plain HTTP; others over
	// HTTPS with the credentials of docker login / helm registry login.
	if err := remote.WriteIndex(tag, idx, remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
		return fmt.Errorf("pushing %s: %w", tag, err)
	}
	digest, err := idx.Digest()
	if err != nil {
		return err
	}
	fmt.Printf("pushed %s@%s\n%s", tag, digest, sizes.String())
	if err := os.WriteFile(filepath.Join(out, "image-digest"), []byte(digest.String()+"\n"), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "image-sizes.txt"), []byte(sizes.String()), 0o644)
}

// platformImage is the image of one platform: the one layer on an empty base, and the config
// the Dockerfile would give it.
func platformImage(binary, osName, arch string, labels map[string]string, certs []byte) (v1.Image, error) {
	manager, err := os.ReadFile(binary)
	if err != nil {
		return nil, err
	}
	layerTar, err := rootfs(manager, certs)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	base := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err := mutate.AppendLayers(base, layer)
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = osName, arch
	cf.Config.Entrypoint = []string{"/manager"}
	cf.Config.User = fmt.Sprintf("%d:%d", uid, uid)
	cf.Config.WorkingDir = "/"
	cf.Config.Env = []string{"SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"}
	cf.Config.Labels = labels
	return mutate.ConfigFile(img, cf)
}

// rootfs is the layer: what distroless/static:nonroot provides that the manager uses (the
// user, a writable /tmp, CA certificates), and the manager at /manager as the Dockerfile puts it.
func rootfs(manager, certs []byte) ([]byte, error) {
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\n%s:x:%d:%d:%s:/home/%s:/sbin/nologin\n", user, uid, uid, user, user)
	group := fmt.Sprintf("root:x:0:\n%s:x:%d:\n", user, uid)
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	entries := []struct {
		name string
		mode int64
		data []byte
		dir  bool
		uid  int
	}{
		{name: "etc/", mode: 0o755, dir: true},
		{name: "etc/passwd", mode: 0o644, data: []byte(passwd)},
		{name: "etc/group", mode: 0o644, data: []byte(group)},
		{name: "etc/ssl/", mode: 0o755, dir: true},
		{name: "etc/ssl/certs/", mode: 0o755, dir: true},
		{name: "etc/ssl/certs/ca-certificates.crt", mode: 0o644, data: certs},
		{name: "home/", mode: 0o755, dir: true},
		{name: "home/" + user + "/", mode: 0o700, dir: true, uid: uid},
		{name: "tmp/", mode: 0o1777, dir: true},
		{name: "manager", mode: 0o755, data: manager},
	}
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.uid, Typeflag: tar.TypeReg, Size: int64(len(e.data)), Format: tar.FormatPAX}
		if e.dir {
			h.Typeflag, h.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// compressedSize is what a node pulls for the image: its layers as stored (gzip), its config
// and manifest.
func compressedSize(img v1.Image) (int64, error) {
	layers, err := img.Layers()
	if err != nil {
		return 0, err
	}
	var total int64
	for _, l := range layers {
		n, err := l.Size()
		if err != nil {
			return 0, err
		}
		total += n
	}
	raw, err := img.RawConfigFile()
	if err != nil {
		return 0, err
	}
	manifest, err := img.RawManifest()
	if err != nil {
		return 0, err
	}
	return total + int64(len(raw)) + int64(len(manifest)), nil
}
