// The inventory of the metrics the manager serves: TestDumpMetrics builds the service with Setup
// on controller-runtime's metrics.Registry, as cmd/ does, and writes the name and type of every
// registered metric, registered at init by controller-runtime or client_golang or by the
// service's own packages. The dashboard (config/grafana) and the alert rules (config/prometheus)
// are checked against that list by hack/promql (make metrics-inventory, make test-dashboard,
// make test-alerts), so a panel or rule cannot name a metric the service does not serve. It lives
// with the package it assembles (it was internal/observability, a package of one test).
package service_test

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/transferintent/transfer-intent-service/internal/service"
)

// out is where TestDumpMetrics writes the inventory; empty: it only checks that it can be built.
var out = flag.String("metrics-out", "", "file to write the inventory of registered metrics to (name and type per line)")

// TestDumpMetrics assembles the service as cmd/main.go does, with every optional part on (Redis,
// the archive), on controller-runtime's metrics.Registry, and lists every metric of every
// collector registered there. The manager is never started and its API server is never asked:
// building it and registering the service contact no one. Vec metrics appear in Gather only once
// observed, so names come from each collector's Describe; types from the collector's Go type
// (the Vecs) or from Gather (the rest).
func TestDumpMetrics(t *testing.T) {
	opts := service.DefaultOptions()
	opts.Namespace = "inventory"
	opts.Metrics = metrics.Registry
	// Neither is dialled before the manager starts; set, they register their metrics.
	opts.Redis.URL = "redis://127.0.0.1:1/0"
	opts.Archive.URL = "postgres://inventory@127.0.0.1:1/inventory"
	mgrOpts := service.ManagerOptions(opts.Namespace)
	mgrOpts.Metrics = metricsserver.Options{BindAddress: "0"}
	mgrOpts.HealthProbeBindAddress = "0"
	// A static mapper, so that building the cache asks no API server which kinds are namespaced.
	mgrOpts.MapperProvider = func(*rest.Config, *http.Client) (meta.RESTMapper, error) {
		m := meta.NewDefaultRESTMapper(nil)
		for gvk := range mgrOpts.Scheme.AllKnownTypes() {
			m.Add(gvk, meta.RESTScopeNamespace)
		}
		return m, nil
	}
	mgr, err := ctrl.NewManager(&rest.Config{Host: "http://127.0.0.1:1"}, mgrOpts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := service.Setup(mgr, opts, nil, logr.Discard()); err != nil {
		t.Fatal(err)
	}

	inventory, err := Inventory(metrics.Registry)
	if err != nil {
		t.Fatal(err)
	}
	// The service's own, and controller-runtime's that the dashboard relies on: if any is
	// missing, the inventory (not the dashboard) is wrong.
	for _, want := range []string{
		"tis_http_requests_total counter", "tis_http_request_duration_seconds histogram",
		"tis_ratelimit_degraded gauge", "tis_chain_rpc_degraded gauge", "tis_chain_watch_head_block gauge",
		"tis_archive_backlog gauge", "tis_build_info gauge", "workqueue_depth gauge", "controller_runtime_reconcile_errors_total counter",
	} {
		if !slices.Contains(inventory, want) {
			t.Errorf("the inventory lacks %q", want)
		}
	}
	t.Logf("%d metrics registered", len(inventory))
	if *out != "" {
		if err := os.WriteFile(*out, []byte(strings.Join(inventory, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Inventory lists "name type" for every metric of every collector registered with reg, sorted.
func Inventory(reg prometheus.Gatherer) ([]string, error) {
	collectors, err := registered(reg)
	if err != nil {
		return nil, err
	}
	families, err := reg.Gather()
	if err != nil {
		return nil, err
	}
	gathered := map[string]string{}
	for _, f := range families {
		gathered[f.GetName()] = strings.ToLower(dto.MetricType_name[int32(f.GetType())])
	}
	types := map[string]string{}
	for _, c := range collectors {
		typ := vecType(c)
		descs := make(chan *prometheus.Desc)
		go func() { c.Describe(descs); close(descs) }()
		for d := range descs {
			name, err := fqName(d)
			if err != nil {
				return nil, err
			}
			switch {
			case typ != "":
				types[name] = typ
			case gathered[name] != "":
				types[name] = gathered[name]
			default:
				types[name] = "unknown"
			}
		}
	}
	list := make([]string, 0, len(types))
	for name, typ := range types {
		list = append(list, name+" "+typ)
	}
	slices.Sort(list)
	return list, nil
}

func vecType(c prometheus.Collector) string {
	switch c.(type) {
	case *prometheus.HistogramVec:
		return "histogram"
	case *prometheus.SummaryVec:
		return "summary"
	case *prometheus.CounterVec:
		return "counter"
	case *prometheus.GaugeVec:
		return "gauge"
	}
	return ""
}

// registered reads the collectors of a *prometheus.Registry. client_golang offers no way to list
// them (only Gather, which leaves out every Vec not yet observed), so this reads its unexported
// collectorsByID and uncheckedCollectors; a client_golang that renames them fails here, loudly.
func registered(g prometheus.Gatherer) ([]prometheus.Collector, error) {
	reg, ok := g.(*prometheus.Registry)
	if !ok {
		return nil, fmt.Errorf("the registry is a %T, not a *prometheus.Registry", g)
	}
	v := reflect.ValueOf(reg).Elem()
	byID := v.FieldByName("collectorsByID")
	unchecked := v.FieldByName("uncheckedCollectors")
	if byID.Kind() != reflect.Map || unchecked.Kind() != reflect.Slice {
		return nil, fmt.Errorf("prometheus.Registry has no collectorsByID map and uncheckedCollectors slice: update registered()")
	}
	byID = reflect.NewAt(byID.Type(), unsafe.Pointer(byID.UnsafeAddr())).Elem()
	unchecked = reflect.NewAt(unchecked.Type(), unsafe.Pointer(unchecked.UnsafeAddr())).Elem()
	var list []prometheus.Collector
	for it := byID.MapRange(); it.Next(); {
		list = append(list, it.Value().Interface().(prometheus.Collector))
	}
	for i := range unchecked.Len() {
		list = append(list, unchecked.Index(i).Interface().(prometheus.Collector))
	}
	return list, nil
}

// fqName is the metric name of d. Desc keeps it unexported; its String form is
// `Desc{fqName: "name", help: ...}`.
func fqName(d *prometheus.Desc) (string, error) {
	s := d.String()
	const prefix = `Desc{fqName: "`
	rest, ok := strings.CutPrefix(s, prefix)
	end := strings.IndexByte(rest, '"')
	if !ok || end < 0 {
		return "", fmt.Errorf("unexpected Desc form %q", s)
	}
	return rest[:end], nil
}
