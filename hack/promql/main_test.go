package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var inv = inventory{
	"tis_http_requests_total":           "counter",
	"tis_http_request_duration_seconds": "histogram",
	"rpc_latency":                       "summary",
	"tis_archive_backlog":               "gauge",
}

func TestResolveAcceptsOnlyRegisteredSeries(t *testing.T) {
	for name, ok := range map[string]bool{
		"tis_http_requests_total":                  true,
		"tis_http_request_duration_seconds_bucket": true,
		"tis_http_request_duration_seconds_sum":    true,
		"tis_http_request_duration_seconds_count":  true,
		"rpc_latency":                       true,
		"rpc_latency_sum":                   true,
		"rpc_latency_count":                 true,
		"rpc_latency_bucket":                false, // a summary has no buckets
		"tis_http_request_duration_seconds": false, // a histogram's base name has no series
		"tis_archive_backlog_bucket":        false, // a gauge has no buckets
		"tis_http_requests_total_count":     false,
		"tis_http_requests":                 false,
	} {
		if err := inv.resolve(name); (err == nil) != ok {
			t.Errorf("resolve(%s) = %v, want ok=%v", name, err, ok)
		}
	}
}

func TestCheckSubstitutesGrafanaVariablesAndFindsEveryName(t *testing.T) {
	q := `sum by (route) (rate(tis_http_requests_total{job=~"$job", namespace=~"${namespace:regex}"}[$__rate_interval]))
	  / on() group_left max({__name__="tis_archive_backlog"} offset $__interval) + nope_total`
	problems := inv.check(expr{"q", q})
	if len(problems) != 1 || !strings.Contains(problems[0], "nope_total is not registered") {
		t.Errorf("problems = %q, want one about nope_total", problems)
	}
	if p := inv.check(expr{"bad", "sum(rate(tis_http_requests_total[5m])"}); len(p) != 1 {
		t.Errorf("a syntax error gave %q", p)
	}
	if p := inv.check(expr{"regex", `{__name__=~"tis_.*"}`}); len(p) != 1 {
		t.Errorf("a selector without a name gave %q", p)
	}
}

func TestDashboardAndRules(t *testing.T) {
	dir := t.TempDir()
	dash := filepath.Join(dir, "d.json")
	write(t, dash, `{"panels": [
	  {"type": "row", "title": "r", "panels": [
	    {"type": "timeseries", "title": "nested", "datasource": {"type": "prometheus", "uid": "${datasource}"},
	     "targets": [{"refId": "A", "expr": "tis_archive_backlog_total"}]}]},
	  {"type": "stat", "title": "fixed", "datasource": {"uid": "prom-1"}, "targets": [{"refId": "A", "expr": "tis_archive_backlog"}]}],
	 "templating": {"list": [{"name": "ns", "type": "query", "query": {"query": "label_values(missing_metric{job=\"x\"}, namespace)"}}]}}`)
	exprs, problems, err := dashboardExprs(dash)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], `"fixed"`) {
		t.Errorf("datasource problems = %q, want the fixed one", problems)
	}
	var found []string
	for _, e := range exprs {
		found = append(found, inv.check(e)...)
	}
	if len(exprs) != 3 || len(found) != 2 {
		t.Errorf("%d expressions, problems %q; want 3 and two unknown metrics", len(exprs), found)
	}

	rule := filepath.Join(dir, "r.yaml")
	write(t, rule, `apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata: {name: x}
spec:
  groups:
  - name: g
    rules:
    - alert: A
      expr: tis_archive_backlog > 1
`)
	rexprs, err := ruleExprs(rule)
	if err != nil || len(rexprs) != 1 || rexprs[0].query != "tis_archive_backlog > 1" {
		t.Errorf("ruleExprs = %v, %v", rexprs, err)
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
