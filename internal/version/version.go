// Package version is the release this binary was built as: its version and commit, set at build
// time with -ldflags -X by make build, make release-local and the Dockerfile (the version from
// the VERSION file or make VERSION=...), and the tis_build_info metric that carries them, so that
// a dashboard or alert can tell which release every replica runs.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus"
)

// Set by the linker: go build -ldflags "-X <this package>.version=0.2.0 -X <this package>.commit=abc123".
var (
	version = "dev"
	commit  = ""
)

// Version is the release, "dev" for a build without -ldflags.
func Version() string { return version }

// Commit is the git commit built: the one given at link time, else the one go build stamped
// into the binary (a build inside a clone), else "unknown".
func Commit() string {
	if commit != "" {
		return commit
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return "unknown"
}

// String is what manager --version prints.
func String() string {
	return fmt.Sprintf("transfer-intent-service %s (commit %s, %s %s/%s)",
		Version(), Commit(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// NewBuildInfo is the tis_build_info gauge: always 1, its labels the version, commit and Go
// version of this binary (the Prometheus convention for build information).
func NewBuildInfo() prometheus.Collector {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "tis_build_info",
		Help: "Always 1; the labels are the version, commit and Go version of the running manager.",
		ConstLabels: prometheus.Labels{
			"version": Version(), "commit": Commit(), "goversion": runtime.Version(),
		},
	})
	g.Set(1)
	return g
}
