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
	problems := inv.check(expr{"q", q, ""})
	if len(problems) != 1 || !strings.Contains(problems[0], "nope_total is not registered") {
		t.Errorf("problems = %q, want one about nope_total", problems)
	}
	if p := inv.check(expr{"bad", "sum(rate(tis_http_requests_total[5m])", ""}); len(p) != 1 {
		t.Errorf("a syntax error gave %q", p)
	}
	if p := inv.check(expr{"regex", `{__name__=~"tis_.*"}`, ""}); len(p) != 1 {
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
	exprs, problems, err := dashboardExprs(dash, "")
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
	rexprs, recorded, err := ruleExprs(rule)
	if err != nil || len(rexprs) != 1 || rexprs[0].query != "tis_archive_backlog > 1" || len(recorded) != 0 {
		t.Errorf("ruleExprs = %v, %v, %v", rexprs, recorded, err)
	}
}

// A recording rule's name may be used by the rules after it; an external series only when the
// allow-list names it, and the list may not name what the service registers.
func TestRecordedAndExternalNames(t *testing.T) {
	dir := t.TempDir()
	rule := filepath.Join(dir, "r.yaml")
	write(t, rule, `groups:
- name: g
  rules:
  - record: slo:sli_error:ratio_rate5m
    expr: sum(rate(tis_http_requests_total{code=~"5.."}[5m])) / sum(rate(tis_http_requests_total[5m]))
  - alert: Burn
    expr: slo:sli_error:ratio_rate5m > 0.01 and on() up == 1
`)
	metrics := filepath.Join(dir, "inventory.txt")
	write(t, metrics, "tis_http_requests_total counter\n")
	external := filepath.Join(dir, "external.txt")

	write(t, external, "# Prometheus\nup gauge # one per target\n")
	if err := check([]string{"-metrics", metrics, "-external", external, "-rules", rule}); err != nil {
		t.Errorf("the recorded name and the allowed up were refused: %v", err)
	}
	if err := check([]string{"-metrics", metrics, "-rules", rule}); err == nil || !strings.Contains(err.Error(), "up is not registered") {
		t.Errorf("without the allow-list, up passed: %v", err)
	}
	write(t, external, "up gauge\ntis_http_requests_total counter\n")
	if err := check([]string{"-metrics", metrics, "-external", external, "-rules", rule}); err == nil ||
		!strings.Contains(err.Error(), "registered by the service itself") {
		t.Errorf("an allow-list naming the service's own metric passed: %v", err)
	}
}

// With -require-label, every selector of a panel must match the label with a variable.
func TestRequireLabel(t *testing.T) {
	for q, ok := range map[string]bool{
		`sum(rate(tis_http_requests_total{cluster=~"$cluster", namespace=~"$namespace"}[5m]))`:                    true,
		`tis_archive_backlog{cluster="$cluster"}`:                                                                 true,
		`sum(rate(tis_http_requests_total{namespace=~"$namespace"}[5m]))`:                                         false,
		`tis_archive_backlog{cluster="prod"}`:                                                                     false,
		`tis_archive_backlog{cluster=~"$cluster"} / on() group_left tis_archive_backlog{namespace=~"$namespace"}`: false,
	} {
		if p := inv.check(expr{"q", q, "cluster"}); (len(p) == 0) != ok {
			t.Errorf("%s: problems %q, want ok=%v", q, p, ok)
		}
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Every alert of the rules needs a test case where it fires and one where it stays quiet.
func TestUntestedAlerts(t *testing.T) {
	tests := filepath.Join(t.TempDir(), "alerts_test.yaml")
	write(t, tests, `tests:
- alert_rule_test:
  - {alertname: Both, eval_time: 1m, exp_alerts: []}
  - {alertname: Both, eval_time: 9m, exp_alerts: [{exp_labels: {severity: warning}}]}
  - {alertname: OnlyFires, eval_time: 9m, exp_alerts: [{exp_labels: {severity: warning}}]}
- alert_rule_test:
  - {alertname: OnlyQuiet, eval_time: 1m}
`)
	problems, err := untested(tests, []string{"Both", "OnlyFires", "OnlyQuiet", "Never"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"no case where OnlyFires stays quiet", "no case where OnlyQuiet fires",
		"no case where Never fires", "no case where Never stays quiet"}
	if len(problems) != len(want) {
		t.Fatalf("problems %q, want %d", problems, len(want))
	}
	for i, w := range want {
		if !strings.HasSuffix(problems[i], w) {
			t.Errorf("problem %d is %q, want one ending %q", i, problems[i], w)
		}
	}
}
