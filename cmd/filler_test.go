package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func TestChainFlag(t *testing.T) {
	var chains []fillerChain
	f := chainFlags{&chains}
	if err := f.Set("1337,http://127.0.0.1:8545,0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"); err != nil {
		t.Fatal(err)
	}
	want := fillerChain{id: 1337, rpc: "http://127.0.0.1:8545", settlement: common.HexToAddress("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512")}
	if len(chains) != 1 || chains[0] != want {
		t.Fatalf("chains %+v, want [%+v]", chains, want)
	}
	for _, bad := range []string{
		"1337,http://127.0.0.1:8545",                                         // no settlement
		"0,http://127.0.0.1:8545,0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", // chain id 0
		"x,http://127.0.0.1:8545,0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", // not a number
		"1337,127.0.0.1:8545,0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",     // not a URL
		"1337,http://127.0.0.1:8545,0xe7f1",                                  // not an address
	} {
		if err := f.Set(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if len(chains) != 1 {
		t.Errorf("a refused flag was kept: %+v", chains)
	}
}

// A key file that is not a key is refused without quoting its content.
func TestFillerKeyFileNotQuoted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "filler.key")
	secret := "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff8" // one digit short
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := loadFillerKey(path)
	if err == nil || strings.Contains(err.Error(), secret[:16]) {
		t.Fatalf("err = %v; want a refusal that does not quote the file", err)
	}
}

func TestFillerNeedsChainsKeyAndAPIKey(t *testing.T) {
	var stderr bytes.Buffer
	if code := runFiller([]string{"--api-key", "k"}, &stderr); code != 2 || !strings.Contains(stderr.String(), "Usage: manager filler") {
		t.Errorf("exit %d, output %q; want 2 and the usage", code, stderr.String())
	}
}
