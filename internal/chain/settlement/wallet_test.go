package settlement_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// The wallet check: the typed data a gasless order asks its user to sign, as JSON, is signed by
// the wallet libraries dapps use (npm viem and ethers, pinned in test/walletsign/package-lock.json),
// which share no code with go-ethereum, and a filler opens the order on a dev chain with that
// signature. hack/walletsign.sh installs them (make test runs it first); without node or the
// libraries the test fails rather than skips, as the webhook reference check does.

// walletSignDir is test/walletsign, or $WALLETSIGN_DIR.
func walletSignDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("WALLETSIGN_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "test", "walletsign")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not on PATH: the wallet check of gasless orders needs it (apt-get install nodejs npm, then hack/walletsign.sh)")
	}
	for _, lib := range []string{"viem", "ethers"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", lib, "package.json")); err != nil {
			t.Fatalf("the wallet library %s is not installed in %s: run hack/walletsign.sh (make test does): %v", lib, dir, err)
		}
	}
	return dir
}

// walletSignatures are one typed data's signatures by each path of sign.js.
type walletSignatures struct {
	Viem   hexutil.Bytes `json:"viem"`
	Ethers hexutil.Bytes `json:"ethers"`
	RPC    hexutil.Bytes `json:"rpc"`
}

// walletSign runs sign.js once on each typed data (JSON, as the API answers it), signed by key.
func walletSign(t *testing.T, dir string, key *ecdsa.PrivateKey, typed ...json.RawMessage) []walletSignatures {
	t.Helper()
	type request struct {
		TypedData  json.RawMessage `json:"typedData"`
		PrivateKey string          `json:"privateKey"`
	}
	requests := make([]request, len(typed))
	for i, td := range typed {
		requests[i] = request{TypedData: td, PrivateKey: hexutil.Encode(crypto.FromECDSA(key))}
	}
	in, err := json.Marshal(requests)
	if err != nil {
		t.Fatal(err)
	}
	// Loading both libraries and signing takes about a second; a stuck node must not hold the suite.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "sign.js")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node sign.js: %v\n%s", err, stderr.String())
	}
	var sigs []walletSignatures
	if err := json.Unmarshal(out.Bytes(), &sigs); err != nil || len(sigs) != len(typed) {
		t.Fatalf("sign.js answered %q: %v", out.String(), err)
	}
	return sigs
}

// walletWorld is a dev chain with a TestToken and a Settlement, a user who holds the order's input
// and has approved Permit2 once (paying that approval's gas), and a filler who pays for openFor.
type walletWorld struct {
	t                  *testing.T
	chain              *devchain.Chain
	token, settlement  common.Address
	user, filler       *ecdsa.PrivateKey
	userAddr, fillAddr common.Address
}

var walletAmountIn = big.NewInt(250_000_000)

func newWalletWorld(t *testing.T) *walletWorld {
	t.Helper()
	chain := devchain.Start(t, 1337)
	w := &walletWorld{t: t, chain: chain, user: newKey(t), filler: newKey(t)}
	w.userAddr, w.fillAddr = crypto.PubkeyToAddress(w.user.PublicKey), crypto.PubkeyToAddress(w.filler.PublicKey)
	w.token = chain.DeployTestToken(t, "Test USD", "TUSD", 6)
	var err error
	if w.settlement, err = chain.DeploySettlement(crypto.PubkeyToAddress(newKey(t).PublicKey), settlement.MinRefundDelay); err != nil {
		t.Fatal(err)
	}
	gas := big.NewInt(1e17)
	chain.SendValue(t, w.userAddr, gas)
	chain.SendValue(t, w.fillAddr, gas)
	chain.Mint(t, w.token, w.userAddr, walletAmountIn)
	maxUint256 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	chain.Transact(t, w.user, w.token, contracts.NewTestToken().PackApprove(contracts.CanonicalPermit2, maxUint256))
	return w
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// now is the latest block's timestamp.
func (w *walletWorld) now() uint64 {
	w.t.Helper()
	head, err := w.chain.Backend.Client().HeaderByNumber(context.Background(), nil)
	if err != nil {
		w.t.Fatal(err)
	}
	return head.Time
}

// order is a bridge of the user's input to chain 1338, due in an hour, with a fresh nonce.
func (w *walletWorld) order() settlement.Order {
	var nonce [32]byte
	copy(nonce[:], crypto.Keccak256(crypto.FromECDSA(newKey(w.t))))
	return settlement.Order{
		Account: crypto.Keccak256Hash([]byte("acme")), OriginSettler: w.settlement, OriginChainId: w.chain.ID,
		User: w.userAddr, DestinationChainId: big.NewInt(1338), Recipient: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
		TokenIn: w.token, TokenOut: common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3"),
		AmountIn: walletAmountIn, MinAmountOut: big.NewInt(249_000_000), Deadline: w.now() + 3600,
		Nonce: nonce, DestinationSettler: common.HexToAddress("0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"),
	}
}

// typedJSON is the typed data the user of g signs, as JSON, as the API answers it
// (settlement.TypedDataJSON), and go-ethereum's signature of it by the user.
func (w *walletWorld) typedJSON(g settlement.GaslessOrder) (json.RawMessage, []byte) {
	w.t.Helper()
	typed, err := settlement.PermitTypedData(g, contracts.CanonicalPermit2)
	if err != nil {
		w.t.Fatal(err)
	}
	raw, err := settlement.TypedDataJSON(typed)
	if err != nil {
		w.t.Fatal(err)
	}
	digest, err := settlement.PermitDigest(typed)
	if err != nil {
		w.t.Fatal(err)
	}
	// A Go wallet (go-ethereum's clef, devwallet) reads the same JSON into the same digest.
	var parsed apitypes.TypedData
	if err := json.Unmarshal(raw, &parsed); err != nil {
		w.t.Fatalf("go-ethereum cannot read the typed data's JSON: %v\n%s", err, raw)
	}
	if again, err := settlement.PermitDigest(parsed); err != nil || again != digest {
		w.t.Fatalf("the typed data's JSON, read back by go-ethereum, hashes to %x (%v); want %x", again, err, digest)
	}
	sig, err := crypto.Sign(digest[:], w.user)
	if err != nil {
		w.t.Fatal(err)
	}
	sig[64] += 27
	return raw, sig
}

// openForCall is an eth_call of openFor(g, sig) from the filler: the error the node answers, if any.
func (w *walletWorld) openForCall(g settlement.GaslessOrder, sig []byte) error {
	w.t.Helper()
	data, err := settlement.OpenForData(g, sig)
	if err != nil {
		w.t.Fatal(err)
	}
	_, err = w.chain.Backend.Client().CallContract(context.Background(), ethereum.CallMsg{From: w.fillAddr, To: &w.settlement, Data: data}, nil)
	return err
}

// call is an eth_call of calldata on to, unpacked.
func call[T any](w *walletWorld, to common.Address, calldata []byte, unpack func([]byte) (T, error)) T {
	w.t.Helper()
	out, err := w.chain.Backend.Client().CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: calldata}, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	v, err := unpack(out)
	if err != nil {
		w.t.Fatal(err)
	}
	return v
}

// A dapp hands the API's typed data straight to viem or ethers; the user's signature is the one
// go-ethereum makes, a filler opens the order with it, and a signature of an altered order is
// refused on chain.
func TestWalletLibrariesSignGaslessOrders(t *testing.T) {
	dir := walletSignDir(t)
	w := newWalletWorld(t)
	o := w.order()
	g, err := settlement.Gasless(o, w.now()+600)
	if err != nil {
		t.Fatal(err)
	}
	typed, goSig := w.typedJSON(g)
	altered := o
	altered.Recipient = crypto.PubkeyToAddress(newKey(t).PublicKey)
	ga, err := settlement.Gasless(altered, uint64(g.OpenDeadline))
	if err != nil {
		t.Fatal(err)
	}
	alteredTyped, alteredGoSig := w.typedJSON(ga)

	sigs := walletSign(t, dir, w.user, typed, alteredTyped)
	for name, sig := range map[string][]byte{"viem": sigs[0].Viem, "ethers": sigs[0].Ethers, "viem over eth_signTypedData_v4": sigs[0].RPC} {
		if !bytes.Equal(sig, goSig) {
			t.Errorf("%s signed %x; go-ethereum %x", name, sig, goSig)
		}
	}
	if t.Failed() {
		t.Logf("the typed data signed: %s", typed)
	}

	// The user signed another recipient: that signature, the user's own, does not open the order.
	if !bytes.Equal(sigs[1].Ethers, alteredGoSig) {
		t.Fatalf("ethers signed the altered order %x; go-ethereum %x", sigs[1].Ethers, alteredGoSig)
	}
	err = w.openForCall(g, sigs[1].Ethers)
	invalidSigner := contracts.NewPermit2().GetABI().Errors["InvalidSigner"].ID
	if data, ok := revertData(err); !ok || len(data) < 4 || !bytes.Equal(data[:4], invalidSigner[:4]) {
		t.Errorf("openFor with the signature of another recipient answered %v (revert data %x); want Permit2's InvalidSigner", err, data)
	}

	if err := w.openForCall(g, sigs[0].Viem); err != nil {
		data, _ := revertData(err)
		t.Fatalf("openFor with viem's signature reverts: %v (revert data %x)", err, data)
	}
	openFor, err := settlement.OpenForData(g, sigs[0].Viem)
	if err != nil {
		t.Fatal(err)
	}
	userETH := w.ethOf(w.userAddr)
	w.chain.Transact(t, w.filler, w.settlement, openFor)
	if after := w.ethOf(w.userAddr); after.Cmp(userETH) != 0 {
		t.Errorf("the user's ether went from %s to %s in openFor; the filler pays its gas", userETH, after)
	}
	id, err := settlement.ID(o)
	if err != nil {
		t.Fatal(err)
	}
	binding := contracts.NewSettlement()
	if status := call(w, w.settlement, binding.PackOrders(id), binding.UnpackOrders); status != 1 {
		t.Errorf("orders(%x) = %d after openFor; want 1 (Opened)", id, status)
	}
	token := contracts.NewTestToken()
	if held := call(w, w.token, token.PackBalanceOf(w.settlement), token.UnpackBalanceOf); held.Cmp(walletAmountIn) != 0 {
		t.Errorf("the settlement holds %s in escrow; want %s", held, walletAmountIn)
	}
}

// ethOf is addr's balance of ether.
func (w *walletWorld) ethOf(addr common.Address) *big.Int {
	w.t.Helper()
	balance, err := w.chain.Backend.Client().BalanceAt(context.Background(), addr, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	return balance
}

// The wallet form of the typed data: the domain holds exactly what EIP712Domain names (no empty
// version or salt), the chain id as a JSON number, and a chain id JavaScript would round is refused.
func TestTypedDataJSONDomain(t *testing.T) {
	o := sampleOrder()
	o.TokenIn = common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
	g, err := settlement.Gasless(o, o.Deadline-600)
	if err != nil {
		t.Fatal(err)
	}
	typed, err := settlement.PermitTypedData(g, contracts.CanonicalPermit2)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := settlement.TypedDataJSON(typed)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Domain map[string]json.RawMessage `json:"domain"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"name": `"Permit2"`, "chainId": "1337", "verifyingContract": `"` + contracts.CanonicalPermit2.Hex() + `"`}
	if len(got.Domain) != len(want) {
		t.Errorf("domain %s; want exactly %v", raw, want)
	}
	for k, v := range want {
		if string(got.Domain[k]) != v {
			t.Errorf("domain.%s = %s; want %s", k, got.Domain[k], v)
		}
	}
	typed.Domain.ChainId = (*math.HexOrDecimal256)(big.NewInt(1 << 53))
	if _, err := settlement.TypedDataJSON(typed); err == nil {
		t.Error("a chain id of 2^53 was written as a JSON number, which JavaScript rounds")
	}
}

// revertData is the revert data in an eth_call's error, if it carries any.
func revertData(err error) ([]byte, bool) {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return nil, false
	}
	if d, ok := de.ErrorData().(string); ok {
		b, err := hexutil.Decode(d)
		return b, err == nil
	}
	return nil, false
}
