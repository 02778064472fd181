package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
)

// TestTheSamplesNameTheLocalSettlementAddress fails when contracts/src/Settlement.sol (or the
// development constructor arguments) changed and the files naming make run's settlement contract
// were not regenerated: make run would deploy it elsewhere than the samples say.
func TestTheSamplesNameTheLocalSettlementAddress(t *testing.T) {
	stale, err := rewrite("../..", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("%s name another settlement address than %s, where make run deploys this release's contract (its CREATE2 address moves with contracts/src/Settlement.sol's bytecode): run make samples-address",
			strings.Join(stale, ", "), deploy.LocalAddress().Hex())
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("../..", f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), deploy.LocalAddress().Hex()) {
			t.Errorf("%s does not name make run's settlement address %s", f, deploy.LocalAddress().Hex())
		}
	}
}

// rewrite puts the address in place of the samples' old one everywhere, and only there.
func TestRewriteReplacesTheOldAddress(t *testing.T) {
	root := t.TempDir()
	old := "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
	other := "0x5FbDB2315678afecb367f032d93F642f64180aa3"
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		text := "see " + old + " and " + other + "\n"
		if f == files[0] {
			text = "settlementAddress: \"" + old + "\"\n---\nsettlementAddress: \"" + old + "\"\npriceFeed: \"" + other + "\"\n"
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stale, err := rewrite(root, true)
	if err != nil || len(stale) != len(files) {
		t.Fatalf("rewrite = %v, %v; want every file changed", stale, err)
	}
	for _, f := range files {
		data, _ := os.ReadFile(filepath.Join(root, f))
		if strings.Contains(string(data), old) || !strings.Contains(string(data), deploy.LocalAddress().Hex()) || !strings.Contains(string(data), other) {
			t.Errorf("%s after rewrite: %s", f, data)
		}
	}
	if stale, err := rewrite(root, false); err != nil || len(stale) != 0 {
		t.Fatalf("after rewrite: %v, %v; want nothing stale", stale, err)
	}
}
