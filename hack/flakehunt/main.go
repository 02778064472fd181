// Command flakehunt runs the unit packages' tests several times while busy loops hold the CPU, and
// lists every test that failed with the rounds it failed in. A test that fails one CI run in twenty
// on a loaded machine (issue 33's allocation figures) shows up here in a few rounds instead of in
// somebody else's submission. `make flake-hunt` runs it with the same services `make test` starts.
//
//	go run ./hack/flakehunt -rounds 3 -load 2 -- -race ./internal/...
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 3, "How many times to run the packages.")
	load := flag.Int("load", 2, "How many busy loops hold the CPU meanwhile (one core each).")
	logDir := flag.String("log-dir", "test/artifacts/flake-hunt", "Where each round's `go test -json` output is kept.")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: flakehunt [flags] -- [go test flags] packages...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || *rounds < 1 || *load < 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := os.MkdirAll(*logDir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	stopLoad := busyLoops(*load)
	failures := map[string][]int{}
	for round := 1; round <= *rounds && ctx.Err() == nil; round++ {
		started := time.Now()
		failed, err := runRound(ctx, round, *logDir, flag.Args())
		if err != nil {
			stopLoad()
			fmt.Fprintf(os.Stderr, "round %d: %v\n", round, err)
			os.Exit(1)
		}
		for _, name := range failed {
			failures[name] = append(failures[name], round)
		}
		fmt.Printf("round %d of %d: %d failed, %s\n", round, *rounds, len(failed), time.Since(started).Round(time.Second))
	}
	stopLoad()
	os.Exit(report(failures, *rounds, *load))
}

// busyLoops spins n goroutines on their own threads until the returned function is called, as n
// other processes would hold n cores.
func busyLoops(n int) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			runtime.LockOSThread()
			for {
				select {
				case <-done:
					return
				default:
				}
				for i := 0; i < 1_000_000; i++ { //nolint:revive // the work is the point
				}
			}
		})
	}
	return func() {
		select {
		case <-done:
		default:
			close(done)
		}
		wg.Wait()
	}
}

// runRound runs `go test -count=1 -json` over the arguments once, keeps its output in the log
// directory, and returns the failed tests (package.Test) and packages (package alone, for a build
// failure, a panic outside a test or a timeout).
func runRound(ctx context.Context, round int, logDir string, args []string) ([]string, error) {
	logPath := fmt.Sprintf("%s/round-%d.json", logDir, round)
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer func() { _ = log.Close() }()
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-count=1", "-json"}, args...)...)
	cmd.Stderr = log
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	failed := failedTests(io.TeeReader(out, log))
	// go test exits non-zero when a test failed; what failed is read from its events.
	if err := cmd.Wait(); err != nil && len(failed) == 0 {
		return nil, fmt.Errorf("go test: %w (see %s)", err, logPath)
	}
	return failed, nil
}

// testEvent is the part of test2json's events that says what failed.
type testEvent struct {
	Action  string
	Package string
	Test    string
}

func failedTests(r io.Reader) []string {
	var failed []string
	failedIn := map[string]bool{}
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	for scanner.Scan() {
		var ev testEvent
		if json.Unmarshal(scanner.Bytes(), &ev) != nil || ev.Action != "fail" {
			continue
		}
		if ev.Test != "" {
			name := ev.Package + "." + ev.Test
			// A failed subtest fails its parent too; the subtest says more.
			if slices.ContainsFunc(failed, func(f string) bool { return strings.HasPrefix(f, name+"/") }) {
				continue
			}
			failed = append(failed, name)
			failedIn[ev.Package] = true
		} else if !failedIn[ev.Package] {
			failed = append(failed, ev.Package+" (the package itself: build, panic or timeout)")
		}
	}
	return failed
}

// report prints the failed tests, most often failed first, and returns the exit code: 1 if anything
// failed.
func report(failures map[string][]int, rounds, load int) int {
	fmt.Printf("\nflake hunt: %d rounds with %d busy loops\n", rounds, load)
	if len(failures) == 0 {
		fmt.Println("no test failed")
		return 0
	}
	names := make([]string, 0, len(failures))
	for name := range failures {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		if d := len(failures[b]) - len(failures[a]); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for _, name := range names {
		fmt.Printf("FAILED in %d of %d rounds (%v): %s\n", len(failures[name]), rounds, failures[name], name)
	}
	return 1
}
