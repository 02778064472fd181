// Package layers holds the import rule of the project: each package has a level, and a package
// imports only packages of lower levels. A package missing from the table fails the test, so a new
// package is placed on purpose.
package layers

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/transferintent/transfer-intent-service/"

// levels places every package of the module, lowest first. Why the chain tree spans several
// levels: the contract's bindings (chain/contracts) and its order codec (chain/settlement) are the
// vocabulary the domain speaks (an intent's orderId is the contract's order hash) and do no I/O,
// and the one node client (chain/jsonrpc) knows nothing of the domain; the simulation's reads
// (chain/chaindata) and the watcher use the domain and sit above it.
var levels = map[string]int{
	// Vocabulary and leaves: no project imports.
	"api/openapi":              0,
	"api/v1alpha1":             0,
	"internal/allocs":          0,
	"internal/apihealth":       0,
	"internal/caip":            0,
	"internal/chain/contracts": 0,
	"internal/chain/txnonce":   0,
	"internal/defaults":        0,
	"internal/freeport":        0,
	"internal/ssetest":         0,
	"internal/kubeapi":         0,
	"internal/loadgen":         0,
	"internal/postgres":        0,
	"internal/problem":         0,
	"internal/strictjson":      0,
	"internal/tracing":         0,
	"internal/version":         0,
	"internal/webhook/policy":  0,
	"internal/webhook/signing": 0,
	"internal/webhook/ssrf":    0,
	// The generated /v2 client for integrators: it imports nothing of the project.
	"pkg/client": 0,

	// Read models, the contract's Go side, the node client, generic mechanisms.
	"internal/chain/jsonrpc":    1,
	"internal/chain/reverts":    1,
	"internal/chain/settlement": 1,
	"internal/fieldrule":        1,
	"internal/openapi":          1,
	"internal/pgtest":           1,
	"internal/ratelimit":        1,
	"internal/redistest":        1,
	"internal/registry":         1,
	"internal/testenv":          1,
	"internal/webhook/outbox":   1,
	"internal/webhook/sender":   1,

	// The domain, and what builds on the vocabulary alone.
	"internal/apikey":              2,
	"internal/chain/deploy":        2,
	"internal/chain/gasless":       2,
	"internal/filler":              2,
	"internal/intent":              2,
	"internal/rfq":                 2,
	"internal/webhook/endpoint":    2,
	"internal/quotestore":          3,
	"internal/openapi/openapitest": 2,

	// The one owner of a TransferIntent's status (lifecycle transitions on the object).
	"internal/intentstatus":   3,
	"internal/transferrecord": 3,

	// The archive of finished intents: which statuses are finished is the lifecycle's rule.
	"internal/archive": 3,

	// The development chain of tests and make run: it signs gasless orders (chain/settlement)
	// and deploys the settlement contract as a user does (chain/deploy).
	"internal/chain/devchain": 3,

	// Adapters of the domain: the store, the simulation's reads, the controllers.
	"internal/chain/chaindata": 4,
	"internal/controller":      4,
	"internal/intentstore":     4,
	"internal/orderbook":       4,

	// What follows intents on chain, and the HTTP API.
	"internal/apiserver":        5,
	"internal/archiver":         5,
	"internal/chain/watcher":    5,
	"internal/webhook/delivery": 5,

	// Browser sign-in (its pages and assets, internal/webauth/web, are embedded files).
	"internal/webauth": 6,

	// The composition root, and what runs it: the binary, tools, harnesses and suites.
	"internal/service":     7,
	"internal/servicetest": 8,
	"test/harness":         8,
	"test/webhooks":        8,
	"cmd":                  9,
	"hack/bench":           9,
	"hack/benchbinary":     9,
	"hack/benchscale":      9,
	"hack/chart":           9,
	"hack/controlplane":    9,
	"hack/flakehunt":       9,
	"hack/mutate":          9,
	"hack/localcluster":    9,
	"hack/samplesaddress":  9,
	"internal/layers":      9,
	"test/apicost":         9,
	"test/archive":         9,
	"test/archivebench":    9,
	"test/browser":         9,
	"test/chart":           9,
	"test/e2e":             9,
	"test/faults":          9,
	"test/faults/long":     9,
	"test/gitops":          9,
	"test/integration":     9,
	"test/release":         9,
}

// readersOnly names packages a level does not place well enough: what they hold is for the
// packages listed, and for the composition root and what runs it (level 7 and up), and no other
// package imports them, whatever its level. The OpenAPI representation of an intent
// (transferrecord) is for the readers of intents (docs/architecture.md); a chain follower that
// needs an intent's order reads it from the domain (intent.OpenedOrder), so that a change of the
// representation never reaches what signs or matches on chain.
var readersOnly = map[string][]string{
	"internal/transferrecord": {"internal/intentstore", "internal/orderbook", "internal/apiserver", "internal/webauth", "internal/webhook/delivery"},
}

// compositionLevel is the lowest level that may import any package below it.
const compositionLevel = 7

// readerAllowed reports whether pkg may import dep under readersOnly.
func readerAllowed(pkg string, level int, dep string) bool {
	readers, restricted := readersOnly[dep]
	if !restricted || level >= compositionLevel {
		return true
	}
	for _, r := range readers {
		if r == pkg {
			return true
		}
	}
	return false
}

func TestReadersOnly(t *testing.T) {
	if readerAllowed("internal/chain/watcher", levels["internal/chain/watcher"], "internal/transferrecord") {
		t.Fatal("the watcher may import the intent's OpenAPI representation")
	}
	if !readerAllowed("internal/apiserver", levels["internal/apiserver"], "internal/transferrecord") ||
		!readerAllowed("internal/service", levels["internal/service"], "internal/transferrecord") {
		t.Fatal("a reader, or the composition root, may not import the representation")
	}
}

// TestNoImportPointsBackUp lists every package of the module with the imports of its code and
// fails on an import of a package at the same or a higher level. Tests are left out: a test may
// use any harness (servicetest assembles the whole service), and no binary contains it.
func TestNoImportPointsBackUp(t *testing.T) {
	cmd := exec.Command("go", "list", "-test=false", "-f",
		`{{.ImportPath}} {{join .Imports " "}}`, module+"...")
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	listed := map[string]bool{}
	scanner := bufio.NewScanner(bytes.NewReader(out))
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		pkg := strings.TrimPrefix(fields[0], module)
		level, ok := levels[pkg]
		if !ok {
			t.Errorf("package %s has no level: place it in the table of %s", pkg, "internal/layers")
			continue
		}
		listed[pkg] = true
		for _, imp := range fields[1:] {
			dep, ours := strings.CutPrefix(imp, module)
			if !ours || dep == pkg {
				continue
			}
			depLevel, ok := levels[dep]
			if !ok {
				continue // reported as a package of its own
			}
			if depLevel >= level {
				t.Errorf("%s (level %d) imports %s (level %d): an import points back up", pkg, level, dep, depLevel)
			}
			if !readerAllowed(pkg, level, dep) {
				t.Errorf("%s imports %s, which only %v (and the composition root) may", pkg, dep, readersOnly[dep])
			}
		}
	}
	for pkg := range levels {
		if !listed[pkg] {
			t.Errorf("%s has a level but is no package of the module: remove it from the table", pkg)
		}
	}
}
