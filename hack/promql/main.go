// Command promql checks the PromQL of the Grafana dashboard and of the alert rules against the
// metrics the manager registers, and turns a PrometheusRule into the plain rule file promtool
// reads. It is a module of its own: github.com/prometheus/prometheus in the service's go.mod
// would raise zap, golang.org/x/time, otel exporters and the go directive of the service
// (docs/decisions.md).
//
//	promql check -metrics inventory.txt -dashboard config/grafana/x.json -rules config/prometheus/alerts.yaml
//	promql rules config/prometheus/alerts.yaml > alerts.rules.yaml
//
// The inventory has a "name type" line per metric; `go test ./internal/service -run
// TestDumpMetrics -metrics-out FILE` writes it from the real registry. A query may also name the
// series recorded by the checked rule files, and those of an explicit allow-list (-external) of
// series other programs serve: Prometheus's up, cAdvisor's and kube-state-metrics' (same format,
// # comments allowed). -require-label makes every selector of a dashboard's panels match that
// label with a variable (the dashboard's cluster), so no panel mixes clusters. -tests names the
// promtool unit tests of the rules: every alert must have a case where it fires and one where it
// does not.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
	"go.yaml.in/yaml/v3"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "check":
		err = check(os.Args[2:])
	case "rules":
		if len(os.Args) != 3 {
			usage()
		}
		err = rules(os.Args[2])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "promql:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: promql check -metrics FILE [-external FILE] [-require-label NAME] [-dashboard FILE]... [-rules FILE]...\n       promql rules PROMETHEUSRULE.yaml")
	os.Exit(2)
}

type files []string

func (f *files) String() string     { return strings.Join(*f, ",") }
func (f *files) Set(v string) error { *f = append(*f, v); return nil }

func check(args []string) error {
	fs := flag.NewFlagSet("check", flag.ExitOnError)
	metricsFile := fs.String("metrics", "", `the inventory: a "name type" line per registered metric`)
	externalFile := fs.String("external", "", `series served by others (Prometheus, cAdvisor, kube-state-metrics), "name type" lines`)
	requireLabel := fs.String("require-label", "", "a label every selector of a dashboard panel must match with a variable")
	testsFile := fs.String("tests", "", "promtool's unit tests of the -rules files: each alert needs a firing and a quiet case")
	var dashboards, ruleFiles files
	fs.Var(&dashboards, "dashboard", "a Grafana dashboard (JSON model); repeatable")
	fs.Var(&ruleFiles, "rules", "a PrometheusRule or a plain rule file; repeatable")
	_ = fs.Parse(args)
	if *metricsFile == "" {
		return errors.New("check: -metrics is required")
	}
	inv, err := readInventory(*metricsFile)
	if err != nil {
		return err
	}
	if *externalFile != "" {
		if err := inv.addExternal(*externalFile); err != nil {
			return err
		}
	}
	var problems []string
	var exprs []expr
	var alerts []string
	for _, r := range ruleFiles {
		e, recorded, err := ruleExprs(r)
		if err != nil {
			return err
		}
		exprs = append(exprs, e...)
		for _, name := range recorded {
			inv[name] = "recorded"
		}
		a, err := alertNames(r)
		if err != nil {
			return err
		}
		alerts = append(alerts, a...)
	}
	if *testsFile != "" {
		p, err := untested(*testsFile, alerts)
		if err != nil {
			return err
		}
		problems = append(problems, p...)
	}
	for _, d := range dashboards {
		e, p, err := dashboardExprs(d, *requireLabel)
		if err != nil {
			return err
		}
		problems = append(problems, p...)
		exprs = append(exprs, e...)
	}
	for _, e := range exprs {
		problems = append(problems, inv.check(e)...)
	}
	n := len(exprs)
	if len(problems) > 0 {
		return fmt.Errorf("%d problem(s):\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	fmt.Printf("promql: %d expressions parse and name only the registered metrics of %s, the allowed external ones and the recorded ones\n", n, *metricsFile)
	return nil
}

// expr is a query and where it was found; label, if set, must be matched by each of its selectors
// with a variable.
type expr struct{ where, query, label string }

// inventory maps each registered metric to its type (counter, gauge, histogram, summary, ...).
type inventory map[string]string

func readInventory(path string) (inventory, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	inv := inventory{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		name, typ, ok := strings.Cut(strings.TrimSpace(s.Text()), " ")
		if !ok {
			return nil, fmt.Errorf("%s: %q is not a \"name type\" line", path, s.Text())
		}
		inv[name] = typ
	}
	if len(inv) == 0 {
		return nil, fmt.Errorf("%s lists no metrics", path)
	}
	return inv, s.Err()
}

// addExternal adds the series of the allow-list at path. A name the service registers itself is
// refused: the list is for what others serve, and must not hide a metric the service dropped.
func (inv inventory) addExternal(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for i, line := range strings.Split(string(b), "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return fmt.Errorf("%s:%d: %q is not a \"name type\" line", path, i+1, line)
		}
		if _, ok := inv[f[0]]; ok {
			return fmt.Errorf("%s:%d: %s is registered by the service itself; remove it from the list", path, i+1, f[0])
		}
		inv[f[0]] = f[1]
	}
	return nil
}

// resolve says whether name is a series the registry serves: a registered metric other than a
// histogram, or a histogram's _bucket, _sum or _count, or a summary's _sum or _count.
func (inv inventory) resolve(name string) error {
	if typ, ok := inv[name]; ok {
		if typ == "histogram" {
			return fmt.Errorf("%s is a histogram: its series are %[1]s_bucket, %[1]s_sum and %[1]s_count", name)
		}
		return nil
	}
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		base, ok := strings.CutSuffix(name, suffix)
		if !ok {
			continue
		}
		switch inv[base] {
		case "histogram":
			return nil
		case "summary":
			if suffix != "_bucket" {
				return nil
			}
		}
	}
	return fmt.Errorf("%s is not registered by the service", name)
}

var parse = parser.NewParser(parser.Options{})

// check parses e and resolves every metric it selects.
func (inv inventory) check(e expr) []string {
	q := substitute(e.query)
	ast, err := parse.ParseExpr(q)
	if err != nil {
		return []string{fmt.Sprintf("%s: %v\n    in %s", e.where, err, q)}
	}
	var problems []string
	parser.Inspect(ast, func(node parser.Node, _ []parser.Node) error {
		vs, ok := node.(*parser.VectorSelector)
		if !ok {
			return nil
		}
		name := vs.Name
		if name == "" {
			for _, m := range vs.LabelMatchers {
				if m.Name == model.MetricNameLabel && m.Type == labels.MatchEqual {
					name = m.Value
				}
			}
		}
		if name == "" {
			problems = append(problems, fmt.Sprintf("%s: %s selects no metric by name, which cannot be checked", e.where, vs))
			return nil
		}
		if err := inv.resolve(name); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", e.where, err))
		}
		if e.label != "" && !matchesVariable(vs, e.label) {
			problems = append(problems, fmt.Sprintf("%s: %s does not match %s with a variable", e.where, vs, e.label))
		}
		return nil
	})
	return problems
}

// matchesVariable says whether the selector matches label against a Grafana variable (which
// substitute turned into the value "var").
func matchesVariable(vs *parser.VectorSelector, label string) bool {
	for _, m := range vs.LabelMatchers {
		if m.Name == label && m.Value == substituted && (m.Type == labels.MatchEqual || m.Type == labels.MatchRegexp) {
			return true
		}
	}
	return false
}

var (
	// Grafana's interval variables ($__rate_interval, $__interval, $__range) stand for durations.
	intervalVar = regexp.MustCompile(`\$__(rate_interval|interval|range)\b`)
	// Every other variable ($job, ${namespace}, ${namespace:regex}, [[job]]) stands in label values.
	templateVar = regexp.MustCompile(`\$\{[A-Za-z0-9_]+(:[A-Za-z0-9_]+)?\}|\$[A-Za-z_][A-Za-z0-9_]*|\[\[[A-Za-z0-9_]+\]\]`)
)

// substituted is what substitute puts in place of a label-value variable.
const substituted = "var"

// substitute replaces Grafana's template variables with values the parser accepts.
func substitute(q string) string {
	q = intervalVar.ReplaceAllString(q, "5m")
	return templateVar.ReplaceAllString(q, substituted)
}

// labelValues is Grafana's variable query label_values(selector, label).
var labelValues = regexp.MustCompile(`^\s*label_values\((.*),\s*[A-Za-z_][A-Za-z0-9_]*\s*\)\s*$`)

type dashboard struct {
	Panels     []panel `json:"panels"`
	Templating struct {
		List []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Query any    `json:"query"`
		} `json:"list"`
	} `json:"templating"`
}

type panel struct {
	Title      string          `json:"title"`
	Type       string          `json:"type"`
	Datasource json.RawMessage `json:"datasource"`
	Targets    []struct {
		RefID      string          `json:"refId"`
		Expr       string          `json:"expr"`
		Datasource json.RawMessage `json:"datasource"`
	} `json:"targets"`
	Panels []panel `json:"panels"` // a collapsed row's
}

// dashboardExprs reads every target of every panel and every label_values variable; it also
// reports a panel or target whose data source is not the ${datasource} variable. The panels'
// queries must match requireLabel (if set) with a variable; the variables' own queries need not, as
// the first variable has none to match.
func dashboardExprs(path, requireLabel string) ([]expr, []string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var exprs []expr
	var problems []string
	var walk func([]panel)
	walk = func(panels []panel) {
		for _, p := range panels {
			walk(p.Panels)
			if p.Type == "row" || p.Type == "text" {
				continue
			}
			if !usesVariable(p.Datasource) {
				problems = append(problems, fmt.Sprintf("%s: panel %q: its datasource is not ${datasource}", path, p.Title))
			}
			if len(p.Targets) == 0 {
				problems = append(problems, fmt.Sprintf("%s: panel %q has no query", path, p.Title))
			}
			for _, t := range p.Targets {
				if len(t.Datasource) > 0 && !usesVariable(t.Datasource) {
					problems = append(problems, fmt.Sprintf("%s: panel %q, query %s: its datasource is not ${datasource}", path, p.Title, t.RefID))
				}
				exprs = append(exprs, expr{fmt.Sprintf("%s: panel %q, query %s", path, p.Title, t.RefID), t.Expr, requireLabel})
			}
		}
	}
	walk(d.Panels)
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		q, _ := v.Query.(string)
		if m, ok := v.Query.(map[string]any); ok {
			q, _ = m["query"].(string)
		}
		if sm := labelValues.FindStringSubmatch(q); sm != nil {
			exprs = append(exprs, expr{fmt.Sprintf("%s: variable %s", path, v.Name), sm[1], ""})
		}
	}
	return exprs, problems, nil
}

func usesVariable(ds json.RawMessage) bool {
	var v struct {
		UID string `json:"uid"`
	}
	if json.Unmarshal(ds, &v) == nil && v.UID == "${datasource}" {
		return true
	}
	var s string
	return json.Unmarshal(ds, &s) == nil && s == "${datasource}"
}

// ruleGroups is the part of a rule file this command reads.
type ruleGroups struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert  string `yaml:"alert"`
			Record string `yaml:"record"`
			Expr   string `yaml:"expr"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// ruleExprs returns the expressions of the rule file at path and the names its recording rules
// record, which the file's (and the dashboards') queries may name.
func ruleExprs(path string) (exprs []expr, recorded []string, err error) {
	groups, err := groupsNode(path)
	if err != nil {
		return nil, nil, err
	}
	var rg ruleGroups
	if err := groups.Decode(&rg); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, g := range rg.Groups {
		for _, r := range g.Rules {
			name := r.Alert + r.Record
			exprs = append(exprs, expr{fmt.Sprintf("%s: group %s, rule %s", path, g.Name, name), r.Expr, ""})
			if r.Record != "" {
				recorded = append(recorded, r.Record)
			}
		}
	}
	return exprs, recorded, nil
}

func alertNames(path string) ([]string, error) {
	groups, err := groupsNode(path)
	if err != nil {
		return nil, err
	}
	var rg ruleGroups
	if err := groups.Decode(&rg); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var names []string
	for _, g := range rg.Groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				names = append(names, r.Alert)
			}
		}
	}
	return names, nil
}

// untested lists the alerts that promtool's test file at path never expects to fire, or never
// expects to stay quiet: a test of only one side passes for a rule that always, or never, fires.
func untested(path string, alerts []string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var tf struct {
		Tests []struct {
			AlertRuleTest []struct {
				Alertname string `yaml:"alertname"`
				ExpAlerts []any  `yaml:"exp_alerts"`
			} `yaml:"alert_rule_test"`
		} `yaml:"tests"`
	}
	if err := yaml.Unmarshal(b, &tf); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	fires, quiet := map[string]bool{}, map[string]bool{}
	for _, t := range tf.Tests {
		for _, c := range t.AlertRuleTest {
			if len(c.ExpAlerts) > 0 {
				fires[c.Alertname] = true
			} else {
				quiet[c.Alertname] = true
			}
		}
	}
	var problems []string
	for _, a := range alerts {
		if !fires[a] {
			problems = append(problems, fmt.Sprintf("%s: no case where %s fires", path, a))
		}
		if !quiet[a] {
			problems = append(problems, fmt.Sprintf("%s: no case where %s stays quiet", path, a))
		}
	}
	return problems, nil
}

// groupsNode is the mapping holding `groups:` of a plain rule file, or the spec of a
// PrometheusRule (monitoring.coreos.com/v1), whose spec is a rule file.
func groupsNode(path string) (*yaml.Node, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: not one YAML mapping", path)
	}
	root := doc.Content[0]
	if kind := value(root, "kind"); kind != nil {
		if kind.Value != "PrometheusRule" {
			return nil, fmt.Errorf("%s: a %s, not a PrometheusRule", path, kind.Value)
		}
		root = value(root, "spec")
		if root == nil || root.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%s: the PrometheusRule has no spec", path)
		}
	}
	if value(root, "groups") == nil {
		return nil, fmt.Errorf("%s: no groups", path)
	}
	return root, nil
}

func value(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// rules writes the spec of the PrometheusRule at path as a plain rule file, in its own order.
func rules(path string) error {
	groups, err := groupsNode(path)
	if err != nil {
		return err
	}
	groups.Content = slices.Clone(groups.Content)
	enc := yaml.NewEncoder(os.Stdout)
	enc.SetIndent(2)
	if err := enc.Encode(groups); err != nil {
		return err
	}
	return enc.Close()
}
