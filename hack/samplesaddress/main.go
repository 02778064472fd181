// Command samplesaddress writes make run's settlement contract address, deploy.LocalAddress()
// (computed from the compiled contract and the development constructor arguments), into every
// file that names it: the local Chains of config/samples, the README's and the filler's examples,
// the runbook. Run it (`make samples-address`, also part of `make contracts`) after a change of
// contracts/src/Settlement.sol: the contract's CREATE2 address moves with its bytecode. With
// -check it changes nothing and fails when a file names another address.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
)

// files name make run's settlement address, relative to the repository's root. The samples' local
// Chains hold it as settlementAddress; the others repeat whatever the samples say.
var files = []string{
	"config/samples/intents_v1alpha1_chain.yaml",
	"README.md",
	"cmd/filler.go",
	"docs/runbooks.md",
}

// localChainAddress finds the settlementAddress of the samples' local Chains (the only ones
// with one).
var localChainAddress = regexp.MustCompile(`settlementAddress: "(0x[0-9a-fA-F]{40})"`)

func main() {
	check := flag.Bool("check", false, "change nothing; fail if a file names another address")
	root := flag.String("root", ".", "the repository's root")
	flag.Parse()
	stale, err := rewrite(*root, !*check)
	if err != nil {
		fmt.Fprintln(os.Stderr, "samplesaddress:", err)
		os.Exit(1)
	}
	want := deploy.LocalAddress().Hex()
	if *check && len(stale) > 0 {
		fmt.Fprintf(os.Stderr, "samplesaddress: %s name another settlement address than make run's %s (contracts/src/Settlement.sol changed?): run make samples-address\n",
			strings.Join(stale, ", "), want)
		os.Exit(1)
	}
	for _, f := range stale {
		fmt.Printf("samplesaddress: %s now names %s\n", f, want)
	}
}

// rewrite replaces, in every file, the address the samples' local Chains name with
// deploy.LocalAddress(), and returns the files that named another one (changed when write).
func rewrite(root string, write bool) (stale []string, err error) {
	want := deploy.LocalAddress().Hex()
	samples, err := os.ReadFile(filepath.Join(root, files[0]))
	if err != nil {
		return nil, err
	}
	old := map[string]bool{}
	for _, m := range localChainAddress.FindAllStringSubmatch(string(samples), -1) {
		if m[1] != want {
			old[m[1]] = true
		}
	}
	if n := len(localChainAddress.FindAllString(string(samples), -1)); n != 2 {
		return nil, fmt.Errorf("%s names a settlementAddress %d times, want twice (local-dev and local-dev-2)", files[0], n)
	}
	for _, f := range files {
		path := filepath.Join(root, f)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		text := string(data)
		for o := range old {
			text = strings.ReplaceAll(text, o, want)
		}
		if text == string(data) {
			continue
		}
		stale = append(stale, f)
		if write {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil { //nolint:gosec // a tracked source file
				return nil, err
			}
		}
	}
	return stale, nil
}
