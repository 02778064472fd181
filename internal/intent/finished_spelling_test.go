package intent

import (
	"bytes"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The lifecycle's home (this file's neighbour) is the one place that says which statuses are
// finished; the API's phase constants (api/v1alpha1) and generated code only name them.
const lifecycleFile = "internal/intent/lifecycle.go"

// TestFinishedIsSpelledOnce fails on shipped code (tests are left out) that spells out which
// statuses are finished instead of asking Finished or FinishedStatuses: one logical expression
// (a && / || chain), one switch case or one composite literal that names two or more statuses,
// all of them finished (confirmed || failed) or all of them not (pending and submitted: the same
// set, by its complement). A status is named by its constant (intent.StatusX,
// v1alpha1.IntentPhaseX) or by its string. One status alone is a specific phase, and a group
// that mixes finished and live ones (every phase, "has a transaction") is another concept:
// both pass.
func TestFinishedIsSpelledOnce(t *testing.T) {
	names := statusNames()
	for _, file := range shippedGoFiles(t) {
		rel := filepath.ToSlash(strings.TrimPrefix(file, moduleRoot(t)+string(filepath.Separator)))
		if rel == lifecycleFile || strings.HasPrefix(rel, "api/") {
			continue
		}
		fset := gotoken.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		reported := map[int]bool{} // a case whose expression is a chain is one finding
		for _, g := range statusGroups(f, names) {
			if line := fset.Position(g.pos).Line; !reported[line] {
				reported[line] = true
				t.Errorf("%s:%d names the statuses %v together: ask intent.Finished or intent.FinishedStatuses (%s)",
					rel, line, g.statuses, lifecycleFile)
			}
		}
	}
}

// statusNames maps each way code names a status (its string, its constants' names) to it.
func statusNames() map[string]Status {
	names := map[string]Status{}
	for _, s := range Statuses {
		title := strings.ToUpper(string(s[:1])) + string(s[1:])
		names[strconv.Quote(string(s))] = s
		names["Status"+title] = s
		names["IntentPhase"+title] = s
	}
	return names
}

type statusGroup struct {
	pos      gotoken.Pos
	statuses []Status
}

// statusGroups are the groups of f that spell out the finished set or its complement.
func statusGroups(f *ast.File, names map[string]Status) []statusGroup {
	var out []statusGroup
	inChain := map[ast.Node]bool{}
	check := func(pos gotoken.Pos, parts ...ast.Node) {
		var named []Status
		for _, p := range parts {
			named = appendNamed(named, p, names)
		}
		if spellsFinished(named) {
			out = append(out, statusGroup{pos, named})
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if !isLogical(n) || inChain[n] {
				return true
			}
			markChain(n, inChain)
			check(n.Pos(), n)
		case *ast.CaseClause:
			check(n.Pos(), exprNodes(n.List)...)
		case *ast.CompositeLit:
			check(n.Pos(), exprNodes(n.Elts)...)
		}
		return true
	})
	return out
}

// spellsFinished reports whether two or more distinct statuses are named, all finished or all not.
func spellsFinished(named []Status) bool {
	slices.Sort(named)
	named = slices.Compact(named)
	if len(named) < 2 {
		return false
	}
	first := Finished(named[0])
	for _, s := range named[1:] {
		if Finished(s) != first {
			return false
		}
	}
	return true
}

// appendNamed adds the statuses n names, leaving out composite literals and function literals:
// they are groups (or code) of their own.
func appendNamed(named []Status, n ast.Node, names map[string]Status) []Status {
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.CompositeLit, *ast.FuncLit:
			return false
		case *ast.Ident:
			if s, ok := names[m.Name]; ok {
				named = append(named, s)
			}
		case *ast.BasicLit:
			if s, ok := names[m.Value]; ok && m.Kind == gotoken.STRING {
				named = append(named, s)
			}
		}
		return true
	})
	return named
}

func isLogical(b *ast.BinaryExpr) bool { return b.Op == gotoken.LAND || b.Op == gotoken.LOR }

// markChain marks the logical expressions under the chain's root as part of it, so that only the
// root is checked.
func markChain(root ast.Node, inChain map[ast.Node]bool) {
	ast.Inspect(root, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.CompositeLit, *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if isLogical(m) {
				inChain[m] = true
			}
		}
		return true
	})
}

func exprNodes(exprs []ast.Expr) []ast.Node {
	out := make([]ast.Node, len(exprs))
	for i, e := range exprs {
		out[i] = e
	}
	return out
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// shippedGoFiles lists the Go files of every package of the module, tests left out.
func shippedGoFiles(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}`, "./...")
	cmd.Dir = moduleRoot(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	files := strings.Fields(string(out))
	if len(files) == 0 {
		t.Fatalf("go list found no Go files under %s", cmd.Dir)
	}
	return files
}
