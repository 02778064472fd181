package transferrecord

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// walletDir is test/walletsign (viem, installed by hack/walletsign.sh, which make test runs), or
// $WALLETSIGN_DIR; without node or viem the test fails rather than skips, as the wallet check of
// gasless orders does.
func walletDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("WALLETSIGN_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "test", "walletsign")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not on PATH: the wallet_sendCalls check needs it (apt-get install nodejs npm, then hack/walletsign.sh)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "viem", "package.json")); err != nil {
		t.Fatalf("viem is not installed in %s: run hack/walletsign.sh (make test does): %v", dir, err)
	}
	return dir
}

// A pending ERC-20 bridge's record answers calls, an EIP-5792 wallet_sendCalls request; viem's
// sendCalls takes it as it is (test/walletsign/sendcalls.js: the request viem builds from it is the
// service's, call for call), and a wallet that executes the calls in order on a dev chain approves
// the settlement contract and opens the order: the escrow holds the whole input, and the user's
// allowance is used up.
func TestTheRecordsCallsOpenTheOrderThroughViem(t *testing.T) {
	dir := walletDir(t)
	dev := devchain.Start(t, 1337)
	contract, err := dev.DeploySettlement(common.Address{0xa7}, settlement.MinRefundDelay)
	if err != nil {
		t.Fatal(err)
	}
	token := dev.DeployTestToken(t, "Test USD", "TUSD", 6)
	userKey, _ := crypto.GenerateKey()
	user := crypto.PubkeyToAddress(userKey.PublicKey)
	dev.SendValue(t, user, big.NewInt(1e18))
	amount := big.NewInt(25_000_000)
	dev.Mint(t, token, user, amount)

	order := settlement.Order{
		OriginSettler: contract, OriginChainId: big.NewInt(1337), User: user, DestinationChainId: big.NewInt(1338), Recipient: user,
		TokenIn: token, TokenOut: common.Address{0x70}, AmountIn: amount, MinAmountOut: big.NewInt(24_000_000),
		Deadline: uint64(time.Now().Add(time.Hour).Unix()), Nonce: [32]byte{1}, DestinationSettler: common.Address{0x5e},
	}
	open, err := settlement.OpenData(order)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := settlement.ID(order)
	ti := &v1alpha1.TransferIntent{Spec: v1alpha1.TransferIntentSpec{
		Type: v1alpha1.IntentTypeBridge, FromChain: "eip155:1337", ToChain: "eip155:1338", OrderID: id.Hex(),
		Request: v1alpha1.TransferRequest{From: "eip155:1337:" + user.Hex()},
		Tx:      &v1alpha1.TransactionPayload{To: contract.Hex(), Data: hexutil.Encode(open), Value: "0", ChainID: 1337},
	}}
	calls := Of(ti, nil, time.Now()).Calls
	if calls == nil || len(calls.Calls) != 2 || calls.ChainID != "0x539" || calls.From != user.Hex() || calls.Version != "2.0.0" || calls.AtomicRequired {
		t.Fatalf("calls %+v; want approve and open of %s on 0x539", calls, user.Hex())
	}

	in, err := json.Marshal(map[string]any{"rpcUrl": dev.URL, "privateKey": hexutil.Encode(crypto.FromECDSA(userKey)), "calls": calls})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "sendcalls.js")
	cmd.Dir, cmd.Stdin = dir, bytes.NewReader(in)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// The dev chain makes blocks only when asked: a block every 20 ms while the wallet sends.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for waiting := true; waiting; {
		select {
		case err = <-done:
			waiting = false
		case <-tick.C:
			dev.Commit()
		}
	}
	if err != nil {
		t.Fatalf("node sendcalls.js: %v\n%s", err, stderr.String())
	}
	var sent struct {
		Request  intent.SendCalls `json:"request"`
		Receipts []struct {
			Hash   string `json:"hash"`
			Status string `json:"status"`
		} `json:"receipts"`
	}
	if err := json.Unmarshal(out.Bytes(), &sent); err != nil {
		t.Fatalf("sendcalls.js answered %q: %v", out.String(), err)
	}
	if len(sent.Receipts) != 2 || sent.Receipts[0].Status != "success" || sent.Receipts[1].Status != "success" {
		t.Fatalf("receipts %+v; want the approve and the open, both successful", sent.Receipts)
	}
	erc20 := contracts.NewTestToken()
	node := dev.Backend.Client()
	escrow, err := bind.Call(erc20.Instance(node, token), nil, erc20.PackBalanceOf(contract), erc20.UnpackBalanceOf)
	if err != nil || escrow.Cmp(amount) != 0 {
		t.Errorf("the settlement contract holds %v (%v); want the order's input %v", escrow, err, amount)
	}
	left, err := bind.Call(erc20.Instance(node, token), nil, erc20.PackAllowance(user, contract), erc20.UnpackAllowance)
	if err != nil || left.Sign() != 0 {
		t.Errorf("allowance left %v (%v); want none: the approve was of exactly the input", left, err)
	}
	t.Logf("viem sent %d calls on chain %s from %s: approve %s, open %s", len(sent.Request.Calls), sent.Request.ChainID, sent.Request.From,
		sent.Receipts[0].Hash, sent.Receipts[1].Hash)
}

// The record answers calls only while the user's transaction is awaited, and never for a gasless
// intent; a transfer is its one call, a native order has no approve.
func TestCallsOnlyWhilePending(t *testing.T) {
	user := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	transfer := &v1alpha1.TransferIntent{Spec: v1alpha1.TransferIntentSpec{
		Type: v1alpha1.IntentTypeTransfer, Request: v1alpha1.TransferRequest{From: "eip155:1:" + user.Hex()},
		Tx: &v1alpha1.TransactionPayload{To: common.Address{0xbb}.Hex(), Data: "0x", Value: "1000", ChainID: 1},
	}}
	if c := callsOf(transfer, v1alpha1.IntentPhasePending); c == nil || len(c.Calls) != 1 || c.Calls[0].Value != "0x3e8" || c.ChainID != "0x1" {
		t.Errorf("a pending transfer: %+v", c)
	}
	for _, phase := range []v1alpha1.IntentPhase{v1alpha1.IntentPhaseSubmitted, v1alpha1.IntentPhaseConfirmed, v1alpha1.IntentPhaseExpired} {
		if c := callsOf(transfer, phase); c != nil {
			t.Errorf("%s: calls %+v", phase, c)
		}
	}
	gasless := transfer.DeepCopy()
	gasless.Spec.Gasless = &v1alpha1.GaslessTerms{}
	if c := callsOf(gasless, v1alpha1.IntentPhasePending); c != nil {
		t.Errorf("a gasless intent: %+v", c)
	}
}
