package main

import (
	"bytes"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/deploy"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// settlementChain is a devchain making a block every 50 ms, a Chain manifest of it and a funded
// deployer's key file.
func settlementChain(t *testing.T, id int64, finalitySeconds int) (chainFile, keyFile string, deployer common.Address) {
	t.Helper()
	c := devchain.Start(t, id)
	t.Cleanup(c.MineEvery(50 * time.Millisecond))
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	deployer = crypto.PubkeyToAddress(key.PublicKey)
	c.SendValue(t, deployer, big.NewInt(1e18))
	dir := t.TempDir()
	keyFile = filepath.Join(dir, "deployer.key")
	if err := os.WriteFile(keyFile, []byte(common.Bytes2Hex(crypto.FromECDSA(key))), 0o600); err != nil {
		t.Fatal(err)
	}
	chainFile = filepath.Join(dir, "chain.yaml")
	manifest := fmt.Sprintf(`apiVersion: intents.transferintent.io/v1alpha1
kind: Chain
metadata:
  name: testnet
spec:
  chainId: "eip155:%d"
  environment: test
  displayName: A test chain
  nativeSymbol: ETH
  blockTimeSeconds: 1
  finalitySeconds: %d
  defaultGasPriceWei: "1000000000"
  nativeTokenPriceUsd: "3000"
  rpc:
    url: %s
`, id, finalitySeconds, c.URL)
	if err := os.WriteFile(chainFile, []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	return chainFile, keyFile, deployer
}

func address(t *testing.T) common.Address {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return crypto.PubkeyToAddress(k.PublicKey)
}

func TestSettlementDeployFromAChainManifest(t *testing.T) {
	chainFile, keyFile, _ := settlementChain(t, 72001, 3)
	attester, guardian := address(t), address(t)
	want := deploy.Address(deploy.Args{Attester: attester, Guardian: guardian, RefundDelay: settlement.MinRefundDelay, Permit2: deploy.LocalArgs().Permit2})
	argsFile := filepath.Join(t.TempDir(), "args.hex")
	run := func(extra ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		args := append([]string{"deploy", "--chain-file", chainFile, "--key-file", keyFile,
			"--attester", attester.Hex(), "--guardian", guardian.Hex(), "--constructor-args-file", argsFile}, extra...)
		code := runSettlement(args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}

	code, out, errOut := run("--dry-run")
	if code != 0 || !strings.Contains(out, "dry run; nothing sent") || !strings.Contains(out, want.Hex()) {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = run()
	if code != 0 || !strings.Contains(out, "transaction:") || !strings.Contains(out, "gas used:") || !strings.Contains(out, want.Hex()) ||
		!strings.Contains(out, `kubectl patch chain testnet --type merge -p '{"spec":{"settlementAddress":"`+want.Hex()+`"}}'`) {
		t.Fatalf("deploy: exit %d\n%s%s", code, out, errOut)
	}
	t.Logf("first run:\n%s", out)
	written, err := os.ReadFile(argsFile)
	if err != nil || !strings.Contains(out, "constructor args: "+strings.TrimSpace(string(written))) {
		t.Fatalf("the constructor arguments file holds %q (%v), the output:\n%s", written, err, out)
	}
	code, out, errOut = run()
	if code != 0 || !strings.Contains(out, "already deployed") || strings.Contains(out, "transaction:") {
		t.Fatalf("second run: exit %d\n%s%s", code, out, errOut)
	}
}

func TestSettlementDeployRefusals(t *testing.T) {
	// finalitySeconds of two hours: the environment needs more than the contract's one hour.
	chainFile, keyFile, _ := settlementChain(t, 72002, 7200)
	attester, guardian := address(t).Hex(), address(t).Hex()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"refund delay under the chain's finality", []string{"--attester", attester, "--guardian", guardian}, 1, "refund delay too short"},
		{"guardian is the attester", []string{"--attester", attester, "--guardian", attester, "--refund-delay", "3h"}, 1, "the guardian is the attester"},
		{"no Permit2", []string{"--attester", attester, "--guardian", guardian, "--refund-delay", "3h", "--permit2", guardian}, 1, "no Permit2"},
		{"no address", []string{"--attester", "nobody", "--guardian", guardian}, 2, "not an address"},
		{"patch without a cluster", []string{"--attester", attester, "--guardian", guardian, "--patch"}, 2, "--patch needs --chain"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runSettlement(append([]string{"deploy", "--chain-file", chainFile, "--key-file", keyFile}, tc.args...), &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
				t.Fatalf("exit %d, want %d with %q:\n%s%s", code, tc.code, tc.want, stdout.String(), stderr.String())
			}
		})
	}
}

func TestSettlementAddressOfAKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "attester.key")
	if err := os.WriteFile(path, []byte(devchain.WellKnownAttesterKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := runSettlement([]string{"address", "--key-file", path}, &stdout, &stderr); code != 0 || stdout.String() != deploy.LocalArgs().Attester.Hex()+"\n" {
		t.Fatalf("exit %d: %q %q", code, stdout.String(), stderr.String())
	}
}
