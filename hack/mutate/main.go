// Command mutate is the settlement contract's mutation test (make mutate-contract). It reads
// contracts/src/Settlement.sol and the libraries it is built from (contracts/src/lib/*.sol),
// generates their mutants from the source, and for each one makes one edit, compiles the mutated
// sources with contracts/compile.js (the pinned solc-js) in a temporary directory, and runs the
// contract tests (internal/chain/contracts, built once) against the mutant's bytecode, which they
// load from SETTLEMENT_BIN_FILE. A mutant the tests still pass on survives, and the command fails:
// every guard and every boundary must be defended by a test, or go.
//
// The mutants, all generated (none listed by hand):
//   - guard: every `if (cond) revert E(...);` (or `if (cond) { revert E(...); }`) removed;
//   - operand: for a guard (or early return) whose condition is a chain of || or &&, each operand
//     dropped in turn;
//   - return: every early `if (cond) return x;` removed (a library's rule that short-cuts);
//   - boundary: every comparison flipped at its boundary, `<` to `<=`, `<=` to `<`, `>` to `>=`
//     and `>=` to `>`, so that a test sits on each edge (a deadline's last second, a floor paid
//     exactly);
//   - require: every require(...) statement removed;
//   - modifier: every nonReentrant, whenNotPaused, whenPaused and onlyRole(...) on a function or
//     constructor header removed.
//
// Flags: -j workers (default 2), -run a regexp of mutant names to run only those, -list to print
// the mutants without running them.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// mutant is one edit of one source file: replace its src[start:end] with repl.
type mutant struct {
	file        string // the path under contracts/, e.g. src/lib/DutchDecayLib.sol
	kind        string
	line        int
	start, end  int
	repl        string
	description string
}

func (m mutant) name() string {
	return fmt.Sprintf("%s@%s:%d", m.kind, strings.TrimSuffix(filepath.Base(m.file), ".sol"), m.line)
}

// apply is the sources with m's edit made in its file.
func (m mutant) apply(sources map[string]string) map[string]string {
	out := make(map[string]string, len(sources))
	for path, src := range sources {
		out[path] = src
	}
	src := sources[m.file]
	out[m.file] = src[:m.start] + m.repl + src[m.end:]
	return out
}

// mutatedFiles are the sources mutated, under contracts/: the contract and its libraries.
func mutatedFiles(contractsDir string) ([]string, error) {
	libs, err := filepath.Glob(filepath.Join(contractsDir, "src", "lib", "*.sol"))
	if err != nil {
		return nil, err
	}
	files := []string{filepath.Join("src", "Settlement.sol")}
	for _, lib := range libs {
		rel, err := filepath.Rel(contractsDir, lib)
		if err != nil {
			return nil, err
		}
		files = append(files, rel)
	}
	return files, nil
}

func main() {
	root := flag.String("root", ".", "the repository root")
	workers := flag.Int("j", 2, "mutants compiled and tested at once")
	only := flag.String("run", "", "run only the mutants whose name or description matches this regexp")
	list := flag.Bool("list", false, "list the mutants and exit")
	flag.Parse()
	if err := run(*root, *workers, *only, *list); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

func run(root string, workers int, only string, list bool) error {
	started := time.Now()
	contractsDir, err := filepath.Abs(filepath.Join(root, "contracts"))
	if err != nil {
		return err
	}
	files, err := mutatedFiles(contractsDir)
	if err != nil {
		return err
	}
	sources := map[string]string{}
	var mutants []mutant
	for _, file := range files {
		raw, err := os.ReadFile(filepath.Join(contractsDir, file))
		if err != nil {
			return err
		}
		sources[file] = string(raw)
		mutants = append(mutants, generate(file, string(raw))...)
	}
	if only != "" {
		re, err := regexp.Compile(only)
		if err != nil {
			return err
		}
		var kept []mutant
		for _, m := range mutants {
			if re.MatchString(m.name()) || re.MatchString(m.description) {
				kept = append(kept, m)
			}
		}
		mutants = kept
	}
	if list {
		for i, m := range mutants {
			fmt.Printf("%3d  %-16s %s\n", i+1, m.name(), m.description)
		}
		return nil
	}

	tmp, err := os.MkdirTemp("", "mutate-settlement-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	if _, err := os.Stat(filepath.Join(contractsDir, "node_modules", "solc")); err != nil {
		return errors.New("contracts/node_modules is missing: run make contracts once")
	}

	// The contract tests, built once; every mutant runs the same binary.
	testBin := filepath.Join(tmp, "contracts.test")
	build := exec.Command("go", "test", "-c", "-o", testBin, "./internal/chain/contracts")
	build.Dir, build.Stdout, build.Stderr = root, os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the contract tests: %w", err)
	}

	// The unmutated source first: it must compile to the committed bytecode and pass.
	base, err := compile(contractsDir, filepath.Join(tmp, "base"), sources)
	if err != nil {
		return fmt.Errorf("compiling the unmutated contract: %w", err)
	}
	committed, err := os.ReadFile(filepath.Join(contractsDir, "build", "Settlement.bin"))
	if err != nil {
		return err
	}
	if !bytes.Equal(bytes.TrimSpace(committed), bytes.TrimSpace(mustRead(base))) {
		return errors.New("contracts/build/Settlement.bin is not the compiled contracts/src/Settlement.sol: run make contracts")
	}
	if killed, out := runTests(testBin, base); killed {
		return fmt.Errorf("the contract tests fail on the unmutated contract:\n%s", out)
	}
	fmt.Printf("baseline: the unmutated contract passes (%s)\n\n", time.Since(started).Round(time.Second))

	type result struct {
		status string
		took   time.Duration
		detail string
	}
	results := make([]result, len(mutants))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range max(workers, 1) {
		wg.Go(func() {
			for i := range jobs {
				t0 := time.Now()
				m := mutants[i]
				var r result
				bin, err := compile(contractsDir, filepath.Join(tmp, fmt.Sprint(i)), m.apply(sources))
				switch {
				case err != nil:
					r = result{status: "NOT COMPILED", detail: err.Error()}
				default:
					killed, out := runTests(testBin, bin)
					r.status = "killed"
					if !killed {
						r.status = "SURVIVED"
					} else {
						r.detail = firstFailure(out)
					}
				}
				r.took = time.Since(t0)
				results[i] = r
				mu.Lock()
				fmt.Printf("  %3d/%d %-34s %-8s %s\n", i+1, len(mutants), m.name(), r.status, r.took.Round(100*time.Millisecond))
				mu.Unlock()
			}
		})
	}
	for i := range mutants {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	fmt.Printf("\n%-4s %-9s %-26s %-10s %s\n", "#", "mutant", "location", "result", "edit / killed by")
	killed, survived, broken := 0, 0, 0
	for i, m := range mutants {
		r := results[i]
		switch r.status {
		case "killed":
			killed++
		case "SURVIVED":
			survived++
		default:
			broken++
		}
		fmt.Printf("%-4d %-9s %-26s %-10s %s\n", i+1, m.kind, fmt.Sprintf("%s:%d", filepath.Base(m.file), m.line), r.status, m.description)
		if r.detail != "" {
			fmt.Printf("%-52s -> %s\n", "", r.detail)
		}
	}
	wall := time.Since(started).Round(time.Second)
	fmt.Printf("\nmutants %d, killed %d, survived %d, not compiled %d; wall time %s (%d workers)\n",
		len(mutants), killed, survived, broken, wall, max(workers, 1))
	if survived > 0 || broken > 0 {
		return fmt.Errorf("%d mutants survived, %d did not compile", survived, broken)
	}
	return nil
}

func mustRead(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return b
}

// compile writes sources (paths under contracts/) into dir, runs contracts/compile.js there
// (node_modules linked from contracts/) and returns the path of the Settlement creation bytecode
// it wrote.
func compile(contractsDir, dir string, sources map[string]string) (string, error) {
	for path, src := range sources {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(path)), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, path), []byte(src), 0o644); err != nil {
			return "", err
		}
	}
	script, err := os.ReadFile(filepath.Join(contractsDir, "compile.js"))
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "compile.js"), script, 0o644); err != nil {
		return "", err
	}
	if err := os.Symlink(filepath.Join(contractsDir, "node_modules"), filepath.Join(dir, "node_modules")); err != nil && !os.IsExist(err) {
		return "", err
	}
	cmd := exec.Command("node", "compile.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "COMPILE_UNITS=project", "STANDARD_INPUT=none") // only our contracts: not Permit2 or Safe; no second compile for the explorer's input

	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%w: %s", err, lastLines(out.String(), 5))
	}
	return filepath.Join(dir, "build", "Settlement.bin"), nil
}

// runTests runs the contract tests against the bytecode in bin; killed is whether they failed.
func runTests(testBin, bin string) (killed bool, output string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testBin, "-test.failfast", "-test.count=1", "-test.timeout=5m")
	cmd.Dir = filepath.Dir(bin)
	cmd.Env = append(os.Environ(), "SETTLEMENT_BIN_FILE="+bin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return err != nil, out.String()
}

var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

// firstFailure names the innermost failing test of a test run's output.
func firstFailure(out string) string {
	all := failLine.FindAllStringSubmatch(out, -1)
	if len(all) == 0 {
		return lastLines(out, 1)
	}
	return all[0][1]
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], " | ")
}

// ---- generating the mutants ----

// mask is src with comments and string literals blanked (same length, newlines kept), so that
// searching it finds only code.
func mask(src string) string {
	b := []byte(src)
	for i := 0; i < len(b); {
		switch {
		case strings.HasPrefix(src[i:], "//"):
			for i < len(b) && b[i] != '\n' {
				b[i] = ' '
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			stop := len(b)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
		case b[i] == '"':
			b[i] = ' '
			i++
			for i < len(b) && src[i] != '"' {
				if src[i] == '\\' {
					b[i] = ' '
					i++
				}
				b[i] = ' '
				i++
			}
			if i < len(b) {
				b[i] = ' '
				i++
			}
		default:
			i++
		}
	}
	return string(b)
}

// matching is the index just past the bracket that closes the one at open.
func matching(code string, open int) int {
	pair := map[byte]byte{'(': ')', '{': '}', '[': ']'}
	want := pair[code[open]]
	depth := 0
	for i := open; i < len(code); i++ {
		switch code[i] {
		case code[open]:
			depth++
		case want:
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

func skipSpace(code string, i int) int {
	for i < len(code) && (code[i] == ' ' || code[i] == '\n' || code[i] == '\t' || code[i] == '\r') {
		i++
	}
	return i
}

var (
	ifKeyword      = regexp.MustCompile(`\bif\s*\(`)
	requireCall    = regexp.MustCompile(`\brequire\s*\(`)
	functionHeader = regexp.MustCompile(`\b(function\s+\w+|constructor)\s*\(`)
	modifierUse    = regexp.MustCompile(`\b(nonReentrant|whenNotPaused|whenPaused)\b|\bonlyRole\s*\(`)
	revertStmt     = regexp.MustCompile(`^revert\s+\w+\s*\(`)
	returnStmt     = regexp.MustCompile(`^return\b`)
)

func lineOf(src string, at int) int { return strings.Count(src[:at], "\n") + 1 }

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

func generate(file, src string) []mutant {
	code := mask(src)
	var out []mutant
	defer func() {
		for i := range out {
			out[i].file = file
		}
	}()

	// if (cond) revert E(...);   and   if (cond) { revert E(...); }
	for _, loc := range ifKeyword.FindAllStringIndex(code, -1) {
		open := loc[1] - 1
		closeParen := matching(code, open)
		if closeParen < 0 {
			continue
		}
		cond := code[open+1 : closeParen-1]
		body := skipSpace(code, closeParen)
		var end int
		var stmt string
		kind := "guard"
		switch {
		case revertStmt.MatchString(code[body:]):
			semi := strings.IndexByte(code[body:], ';')
			end, stmt = body+semi+1, code[body:body+semi+1]
		case returnStmt.MatchString(code[body:]):
			semi := strings.IndexByte(code[body:], ';')
			end, stmt, kind = body+semi+1, code[body:body+semi+1], "return"
		case body < len(code) && code[body] == '{':
			blockEnd := matching(code, body)
			inner := strings.TrimSpace(code[body+1 : blockEnd-1])
			if !revertStmt.MatchString(inner) || strings.Count(inner, ";") != 1 || !strings.HasSuffix(inner, ";") {
				continue
			}
			end, stmt = blockEnd, inner
		default:
			continue // not a guard (an if that does something else)
		}
		line := lineOf(src, loc[0])
		out = append(out, mutant{
			kind: kind, line: line, start: loc[0], end: end, repl: "",
			description: fmt.Sprintf("if (%s) %s", squash(cond), squash(stmt)),
		})
		// Drop each operand of a top-level || or && chain.
		ops, op := splitTopLevel(cond)
		if len(ops) < 2 {
			continue
		}
		for k := range ops {
			rest := make([]string, 0, len(ops)-1)
			for j, o := range ops {
				if j != k {
					rest = append(rest, strings.TrimSpace(o))
				}
			}
			out = append(out, mutant{
				kind: "operand", line: line, start: open + 1, end: closeParen - 1,
				repl:        strings.Join(rest, " "+op+" "),
				description: fmt.Sprintf("drop `%s` from the guard of %s", squash(ops[k]), squash(stmt)),
			})
		}
	}

	out = append(out, boundaries(src, code)...)

	// require(...);
	for _, loc := range requireCall.FindAllStringIndex(code, -1) {
		closeParen := matching(code, loc[1]-1)
		semi := skipSpace(code, closeParen)
		if closeParen < 0 || semi >= len(code) || code[semi] != ';' {
			continue
		}
		out = append(out, mutant{
			kind: "require", line: lineOf(src, loc[0]), start: loc[0], end: semi + 1, repl: "",
			description: squash(code[loc[0] : semi+1]),
		})
	}

	// Guarding modifiers on function and constructor headers.
	for _, loc := range functionHeader.FindAllStringSubmatchIndex(code, -1) {
		params := matching(code, loc[1]-1)
		bodyAt := strings.IndexAny(code[params:], "{;")
		if params < 0 || bodyAt < 0 {
			continue
		}
		header := code[params : params+bodyAt]
		fn := squash(code[loc[2]:loc[3]])
		for _, m := range modifierUse.FindAllStringIndex(header, -1) {
			start, end := params+m[0], params+m[1]
			if code[end-1] == '(' {
				end = matching(code, end-1)
			}
			out = append(out, mutant{
				kind: "modifier", line: lineOf(src, start), start: start, end: end, repl: "",
				description: fmt.Sprintf("%s of %s", squash(code[start:end]), fn),
			})
		}
	}
	return out
}

// splitTopLevel splits cond at its top-level || (or else &&) operators, outside any brackets;
// op is the operator, or "" when cond is a single operand (or mixes both at the top level).
func splitTopLevel(cond string) ([]string, string) {
	for _, op := range []string{"||", "&&"} {
		var parts []string
		depth, last := 0, 0
		mixed := false
		for i := 0; i < len(cond); i++ {
			switch cond[i] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
			if depth != 0 || i+1 >= len(cond) {
				continue
			}
			two := cond[i : i+2]
			if two == op {
				parts = append(parts, cond[last:i])
				last = i + 2
				i++
			} else if (two == "||" || two == "&&") && two != op {
				mixed = true
			}
		}
		if len(parts) > 0 && !mixed {
			return append(parts, cond[last:]), op
		}
	}
	return []string{cond}, ""
}

// flipped is each comparison operator's boundary flip.
var flipped = map[string]string{"<": "<=", "<=": "<", ">": ">=", ">=": ">"}

// boundaries is a mutant per comparison of code: the operator flipped at its boundary. Shifts (<<,
// >>, <<=, >>=) and mapping arrows (=>) are not comparisons.
func boundaries(src, code string) []mutant {
	var out []mutant
	for i := 0; i < len(code); i++ {
		c := code[i]
		if c != '<' && c != '>' {
			continue
		}
		prev, next := byte(0), byte(0)
		if i > 0 {
			prev = code[i-1]
		}
		if i+1 < len(code) {
			next = code[i+1]
		}
		if prev == '=' || prev == '<' || prev == '>' || next == c {
			continue
		}
		op := string(c)
		if next == '=' {
			op += "="
		}
		out = append(out, mutant{
			kind: "boundary", line: lineOf(src, i), start: i, end: i + len(op), repl: flipped[op],
			description: fmt.Sprintf("`%s` to `%s` in %s", op, flipped[op], squash(lineAround(code, i))),
		})
		i += len(op) - 1
	}
	return out
}

// lineAround is the line of code that holds position i.
func lineAround(code string, i int) string {
	start := strings.LastIndexByte(code[:i], '\n') + 1
	end := strings.IndexByte(code[i:], '\n')
	if end < 0 {
		return code[start:]
	}
	return code[start : i+end]
}
