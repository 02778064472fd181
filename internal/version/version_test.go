package version

import (
	"runtime"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestBuildInfo registers the metric as the service does and reads it back as Prometheus would
// scrape it: one sample of 1 whose labels are what the linker set.
func TestBuildInfo(t *testing.T) {
	version, commit = "1.2.3", "abc123"
	t.Cleanup(func() { version, commit = "dev", "" })
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(NewBuildInfo()); err != nil {
		t.Fatal(err)
	}
	want := `# HELP tis_build_info Always 1; the labels are the version, commit and Go version of the running manager.
# TYPE tis_build_info gauge
tis_build_info{commit="abc123",goversion="` + runtime.Version() + `",version="1.2.3"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "tis_build_info"); err != nil {
		t.Error(err)
	}
	if got := String(); !strings.Contains(got, " 1.2.3 (commit abc123, ") {
		t.Errorf("String() = %q, want the version and commit", got)
	}
}
