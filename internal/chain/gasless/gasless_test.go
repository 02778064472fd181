package gasless_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/gasless"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// These tests ask a dev chain's node (real JSON-RPC, the real Permit2 at its canonical address,
// the settlement contract, a Safe for a contract account) about signed orders, as the service will
// before it accepts one.

var tokenABI = contracts.NewTestToken()

const amountIn = 1_000_000

type world struct {
	t          *testing.T
	chain      *devchain.Chain
	node       *jsonrpc.Client
	settlement common.Address
	token      common.Address
	user       *ecdsa.PrivateKey
	userAddr   common.Address
}

func newWorld(t *testing.T) *world {
	t.Helper()
	chain := devchain.Start(t, 1337)
	w := &world{t: t, chain: chain}
	attester := mustKey(t)
	var err error
	if w.settlement, err = chain.DeploySettlement(crypto.PubkeyToAddress(attester.PublicKey), settlement.MinRefundDelay); err != nil {
		t.Fatal(err)
	}
	w.token = chain.DeployTestToken(t, "Test USD", "TUSD", 6)
	w.user = mustKey(t)
	w.userAddr = crypto.PubkeyToAddress(w.user.PublicKey)
	chain.SendValue(t, w.userAddr, big.NewInt(params.Ether)) // for its one approval of Permit2
	chain.Mint(t, w.token, w.userAddr, big.NewInt(10*amountIn))
	chain.Transact(t, w.user, w.token, tokenABI.PackApprove(contracts.CanonicalPermit2, math.MaxBig256))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if w.node, err = jsonrpc.Dial(ctx, "eip155:1337", chain.URL, jsonrpc.Options{Caller: "test"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.node.Close)
	return w
}

func mustKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// order is a swap of user's amountIn TUSD, openable for ten minutes.
func (w *world) order(user common.Address) settlement.GaslessOrder {
	w.t.Helper()
	var nonce [32]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		w.t.Fatal(err)
	}
	now := uint64(time.Now().Unix())
	o := settlement.Order{
		Account: crypto.Keccak256Hash([]byte("acme")), OriginSettler: w.settlement, OriginChainId: w.chain.ID,
		User: user, DestinationChainId: w.chain.ID, Recipient: common.HexToAddress("0x00000000000000000000000000000000000b0b00"),
		TokenIn: w.token, TokenOut: w.token, AmountIn: big.NewInt(amountIn), MinAmountOut: big.NewInt(990_000),
		Deadline: now + 3600, Nonce: nonce, DestinationSettler: w.settlement,
	}
	g, err := settlement.Gasless(o, now+600)
	if err != nil {
		w.t.Fatal(err)
	}
	return g
}

func (w *world) digest(g settlement.GaslessOrder) common.Hash {
	w.t.Helper()
	typed, err := settlement.PermitTypedData(g, contracts.CanonicalPermit2)
	if err != nil {
		w.t.Fatal(err)
	}
	d, err := settlement.PermitDigest(typed)
	if err != nil {
		w.t.Fatal(err)
	}
	return d
}

func sign(t *testing.T, key *ecdsa.PrivateKey, digest common.Hash) []byte {
	t.Helper()
	sig, err := devchain.SignDigest(key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

func (w *world) verify(g settlement.GaslessOrder, sig []byte) error {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return gasless.Verify(ctx, w.node, gasless.Signed{Order: g, Signature: sig, Permit2: contracts.CanonicalPermit2})
}

func wantRefusal(t *testing.T, err error, kind gasless.Kind) {
	t.Helper()
	var r *gasless.Refusal
	if !errors.As(err, &r) || r.Kind != kind {
		t.Fatalf("Verify = %v; want a refusal %s", err, kind)
	}
}

func TestVerifyAcceptsTheUsersSignature(t *testing.T) {
	w := newWorld(t)
	g := w.order(w.userAddr)
	if err := w.verify(g, sign(t, w.user, w.digest(g))); err != nil {
		t.Fatalf("Verify = %v; want nil", err)
	}
}

func TestVerifyRefusals(t *testing.T) {
	w := newWorld(t)

	t.Run("a signature by another key", func(t *testing.T) {
		g := w.order(w.userAddr)
		wantRefusal(t, w.verify(g, sign(t, mustKey(t), w.digest(g))), gasless.KindBadSignature)
	})
	t.Run("a malformed signature", func(t *testing.T) {
		g := w.order(w.userAddr)
		wantRefusal(t, w.verify(g, []byte{1, 2, 3}), gasless.KindBadSignature)
	})
	t.Run("a nonce already used", func(t *testing.T) {
		g := w.order(w.userAddr)
		sig := sign(t, w.user, w.digest(g))
		w.chain.Transact(t, w.user, contracts.CanonicalPermit2, settlement.CancelData(g.Nonce))
		wantRefusal(t, w.verify(g, sig), gasless.KindNonceUsed)
	})
	t.Run("a balance short of the input", func(t *testing.T) {
		poor := mustKey(t)
		poorAddr := crypto.PubkeyToAddress(poor.PublicKey)
		w.chain.Mint(t, w.token, poorAddr, big.NewInt(amountIn-1))
		g := w.order(poorAddr)
		wantRefusal(t, w.verify(g, sign(t, poor, w.digest(g))), gasless.KindBalanceShort)
	})
	t.Run("no allowance to Permit2", func(t *testing.T) {
		fresh := mustKey(t)
		freshAddr := crypto.PubkeyToAddress(fresh.PublicKey)
		w.chain.Mint(t, w.token, freshAddr, big.NewInt(amountIn))
		g := w.order(freshAddr)
		wantRefusal(t, w.verify(g, sign(t, fresh, w.digest(g))), gasless.KindAllowanceShort)
	})
	t.Run("an open that reverts for another reason", func(t *testing.T) {
		w.chain.Transact(t, w.chain.Funder, w.settlement, contracts.NewSettlement().PackPause())
		defer w.chain.Transact(t, w.chain.Funder, w.settlement, contracts.NewSettlement().PackUnpause())
		g := w.order(w.userAddr)
		err := w.verify(g, sign(t, w.user, w.digest(g)))
		wantRefusal(t, err, gasless.KindOpenReverts)
		var r *gasless.Refusal
		if errors.As(err, &r) && r.Detail != "openFor would revert: EnforcedPause()" {
			t.Errorf("detail %q; want the contract's error named", r.Detail)
		}
	})
}

// A Safe's signature is checked by the Safe itself (EIP-1271), through the node.
func TestVerifyAContractAccount(t *testing.T) {
	w := newWorld(t)
	owner := mustKey(t)
	safe, err := w.chain.DeploySafe(owner)
	if err != nil {
		t.Fatal(err)
	}
	w.chain.Mint(t, w.token, safe.Address, big.NewInt(amountIn))
	if err := safe.Exec(w.token, tokenABI.PackApprove(contracts.CanonicalPermit2, math.MaxBig256)); err != nil {
		t.Fatal(err)
	}
	g := w.order(safe.Address)
	sig, err := safe.Sign(w.digest(g))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.verify(g, sig); err != nil {
		t.Fatalf("Verify of the Safe's signature = %v; want nil", err)
	}
	// The owner's bare ECDSA signature is not the Safe's.
	wantRefusal(t, w.verify(g, sign(t, owner, w.digest(g))), gasless.KindBadSignature)
}

// A node that does not answer is not a refusal: the caller answers 503, not 422.
func TestVerifyWithTheNodeGone(t *testing.T) {
	w := newWorld(t)
	g := w.order(w.userAddr)
	sig := sign(t, w.user, w.digest(g))
	if err := w.chain.Close(); err != nil {
		t.Fatal(err)
	}
	err := w.verify(g, sig)
	var r *gasless.Refusal
	if err == nil || errors.As(err, &r) {
		t.Fatalf("Verify with the node gone = %v; want a node error, not nil or a refusal", err)
	}
}

// greedyWallet is the runtime of an EIP-1271 wallet that accepts any signature when it is given
// more than 1,000,000 gas and loops (until its gas runs out) otherwise: a user's contract whose
// answer costs what the caller lets it burn. Hand-assembled, so that no Solidity build is needed:
//
//	GAS PUSH3 1000000 LT PUSH1 ok JUMPI            ; 1,000,000 < gasleft()?
//	loop: JUMPDEST PUSH1 loop JUMP                 ; no: burn every gas left
//	ok: JUMPDEST PUSH4 0x1626ba7e PUSH1 224 SHL PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN ; yes: the magic value
const greedyWallet = "5a620f424010600d575b6009565b631626ba7e60e01b60005260206000f3"

// deployRuntime deploys a contract whose code is runtime (hex) and returns its address.
func (w *world) deployRuntime(runtime string) common.Address {
	w.t.Helper()
	code := common.FromHex(runtime)
	initcode := append([]byte{0x60, byte(len(code)), 0x60, 0x0c, 0x60, 0x00, 0x39, 0x60, byte(len(code)), 0x60, 0x00, 0xf3}, code...)
	addr, tx, err := bind.DeployContract(w.chain.Transactor(w.chain.Funder), initcode, w.chain.Backend.Client(), nil)
	if err != nil {
		w.t.Fatal(err)
	}
	w.chain.Mine(w.t, tx)
	return addr
}

// The user's contract runs under an explicit gas bound, not the node's cap: a wallet whose
// answer needs more gas than the bound is refused, and one that loops costs the bound, not 50M.
func TestVerifyBoundsTheGasOfTheUsersContract(t *testing.T) {
	w := newWorld(t)
	wallet := w.deployRuntime(greedyWallet)
	g := w.order(wallet)
	began := time.Now()
	wantRefusal(t, w.verify(g, sign(t, w.user, w.digest(g))), gasless.KindBadSignature)
	t.Logf("Verify with a looping wallet took %s", time.Since(began))
}

// The bounds leave a Safe (its isValidSignature, and an openFor that runs it through Permit2)
// four times the gas it needs, measured on the devchain's Safe.
func TestGasBoundsCoverASafe(t *testing.T) {
	w := newWorld(t)
	owner := mustKey(t)
	safe, err := w.chain.DeploySafe(owner)
	if err != nil {
		t.Fatal(err)
	}
	w.chain.Mint(t, w.token, safe.Address, big.NewInt(amountIn))
	if err := safe.Exec(w.token, tokenABI.PackApprove(contracts.CanonicalPermit2, math.MaxBig256)); err != nil {
		t.Fatal(err)
	}
	g := w.order(safe.Address)
	sig, err := safe.Sign(w.digest(g))
	if err != nil {
		t.Fatal(err)
	}
	isValid, err := abi.JSON(strings.NewReader(`[{"type":"function","name":"isValidSignature","stateMutability":"view",
		"inputs":[{"type":"bytes32"},{"type":"bytes"}],"outputs":[{"type":"bytes4"}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	data, err := isValid.Pack("isValidSignature", w.digest(g), sig)
	if err != nil {
		t.Fatal(err)
	}
	openFor, err := settlement.OpenForData(g, sig)
	if err != nil {
		t.Fatal(err)
	}
	client := w.chain.Backend.Client()
	for _, c := range []struct {
		name  string
		to    common.Address
		data  []byte
		bound uint64
	}{
		{"isValidSignature", safe.Address, data, gasless.SignerGas},
		{"openFor", w.settlement, openFor, gasless.OpenForGas},
	} {
		used, err := client.EstimateGas(context.Background(), ethereum.CallMsg{To: &c.to, Data: c.data})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Logf("%s of a Safe: %d gas, bound %d", c.name, used, c.bound)
		if used*4 > c.bound {
			t.Errorf("%s of a Safe uses %d gas: the bound %d leaves less than 4x", c.name, used, c.bound)
		}
	}
	if err := w.verify(g, sig); err != nil {
		t.Fatalf("Verify of the Safe's signature under the bounds = %v", err)
	}
}
