package contracts_test

import (
	"bytes"
	"crypto/ecdsa"
	"math/big"
	"strings"
	"testing"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// Gasless orders (ERC-7683 openFor): the user signs, a filler opens and pays the gas, and the real
// Permit2 (compiled from Uniswap's sources, at its canonical address in the dev chain's genesis)
// pulls the input on the signature. Signatures are made over go-ethereum's EIP-712 encoding of
// the typed data the service hands out (settlement.PermitTypedData), not over the contract's.

var permit2ABI = contracts.NewPermit2()

// gaslessWorld is a swapWorld whose user has approved Permit2 (once, for any amount).
type gaslessWorld struct {
	*swapWorld
}

func newGaslessWorld(t *testing.T) *gaslessWorld {
	t.Helper()
	w := &gaslessWorld{swapWorld: newSwapWorld(t)}
	w.transact(w.user, w.tokenIn, nil, tokenABI.PackApprove(contracts.CanonicalPermit2, math.MaxBig256))
	return w
}

// gasless is the gasless order carrying o, openable for ten minutes.
func (w *gaslessWorld) gasless(o contracts.Order) contracts.GaslessCrossChainOrder {
	w.t.Helper()
	g, err := settlement.Gasless(o, w.now()+600)
	if err != nil {
		w.t.Fatal(err)
	}
	return g
}

// typedData is what the user of g is asked to sign.
func (w *gaslessWorld) typedData(g contracts.GaslessCrossChainOrder) apitypes.TypedData {
	w.t.Helper()
	typed, err := settlement.PermitTypedData(g, contracts.CanonicalPermit2)
	if err != nil {
		w.t.Fatal(err)
	}
	return typed
}

// signTyped is key's signature of typed data, hashed by go-ethereum's EIP-712 encoder.
func signTyped(t *testing.T, key *ecdsa.PrivateKey, typed apitypes.TypedData) []byte {
	t.Helper()
	digest, err := settlement.PermitDigest(typed)
	if err != nil {
		t.Fatal(err)
	}
	return sign(t, key, digest[:])
}

// signed is g and its user's signature (w.user's key).
func (w *gaslessWorld) signed(o contracts.Order) (contracts.GaslessCrossChainOrder, []byte) {
	w.t.Helper()
	g := w.gasless(o)
	return g, signTyped(w.t, w.user, w.typedData(g))
}

func openForCalldata(g contracts.GaslessCrossChainOrder, sig []byte) []byte {
	return settlementABI.PackOpenFor(g, sig, []byte{})
}

// refusedByPermit2 asserts that sending calldata to the Settlement from key reverts with Permit2's
// error `want` (bubbled up through openFor).
func (w *gaslessWorld) refusedByPermit2(key *ecdsa.PrivateKey, calldata []byte, want string) {
	w.t.Helper()
	wantErr, ok := permit2ABI.GetABI().Errors[want]
	if !ok {
		w.t.Fatalf("Permit2 has no error %s", want)
	}
	tx, err := bind.Transact(w.bound(w.settlement), w.opts(key, nil), calldata)
	if err == nil {
		w.Backend.Commit()
		w.t.Fatalf("transaction %s was accepted; want Permit2's %s", tx.Hash(), want)
	}
	data, ok := revertData(err)
	if !ok || len(data) < 4 || !bytes.Equal(data[:4], wantErr.ID[:4]) {
		w.t.Fatalf("reverted with %v (data %x); want Permit2's %s", err, data, want)
	}
}

// The Go side's typed data is the contract's: the same witness type, the same struct hash, and the
// Permit2 type string Permit2 builds from the contract's WITNESS_TYPE_STRING.
func TestGaslessTypedDataAgreesWithTheContract(t *testing.T) {
	w := newGaslessWorld(t)
	g := w.gasless(w.order())
	typed := w.typedData(g)

	if got, want := get(w.testChain, w.settlement, settlementABI.PackGASLESSORDERTYPEHASH(), settlementABI.UnpackGASLESSORDERTYPEHASH),
		common.BytesToHash(typed.TypeHash("GaslessCrossChainOrder")); common.Hash(got) != want {
		t.Errorf("GASLESS_ORDER_TYPEHASH = %x; go-ethereum's type hash %x", got, want)
	}
	witness, ok := typed.Message["witness"].(map[string]any)
	if !ok {
		t.Fatal("the typed data has no witness")
	}
	wantHash, err := typed.HashStruct("GaslessCrossChainOrder", witness)
	if err != nil {
		t.Fatal(err)
	}
	if got := get(w.testChain, w.settlement, settlementABI.PackGaslessOrderHash(g), settlementABI.UnpackGaslessOrderHash); !bytes.Equal(got[:], wantHash) {
		t.Errorf("gaslessOrderHash = %x; go-ethereum's hashStruct %x", got, wantHash)
	}
	witnessType := get(w.testChain, w.settlement, settlementABI.PackWITNESSTYPESTRING(), settlementABI.UnpackWITNESSTYPESTRING)
	const stub = "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,"
	if got, want := stub+witnessType, string(typed.EncodeType("PermitWitnessTransferFrom")); got != want {
		t.Errorf("Permit2's type string from WITNESS_TYPE_STRING\n%s\ngo-ethereum's\n%s", got, want)
	}
	if got := get(w.testChain, w.settlement, settlementABI.PackPermit2(), settlementABI.UnpackPermit2); got != contracts.CanonicalPermit2 {
		t.Errorf("permit2() = %s; want %s", got, contracts.CanonicalPermit2)
	}
	// resolveFor is resolve of the same order.
	resolved := get(w.testChain, w.settlement, settlementABI.PackResolveFor(g, []byte{}), settlementABI.UnpackResolveFor)
	onchain := get(w.testChain, w.settlement, settlementABI.PackResolve(contracts.OnchainCrossChainOrder{
		FillDeadline: g.FillDeadline, OrderDataType: g.OrderDataType, OrderData: g.OrderData,
	}), settlementABI.UnpackResolve)
	if resolved.OrderId != onchain.OrderId || resolved.OrderId != idOf(t, w.order0(g)) {
		t.Errorf("resolveFor's orderId %x, resolve's %x", resolved.OrderId, onchain.OrderId)
	}
}

// order0 is the Order g carries.
func (w *gaslessWorld) order0(g contracts.GaslessCrossChainOrder) contracts.Order {
	w.t.Helper()
	o, err := settlement.Decode(g.OrderData)
	if err != nil {
		w.t.Fatal(err)
	}
	return o
}

// A filler opens the user's signed order: the escrow is pulled from the user, who pays no gas,
// the order and its events are those of open, and the swap then fills and settles as any other.
// The gas of openFor is logged beside the user's approve + open of the same kind of order.
func TestGaslessOpenByFiller(t *testing.T) {
	w := newGaslessWorld(t)
	o := w.order()
	g, sig := w.signed(o)
	id := idOf(t, o)
	userETH := w.balance(native, w.userAddr)
	userIn := w.balance(w.tokenIn, w.userAddr)

	receipt := w.transact(w.filler, w.settlement, nil, openForCalldata(g, sig))

	w.wantStatus(id, statusOpened)
	w.wantBalance(w.tokenIn, w.settlement, amountIn, "settlement")
	w.wantBalance(w.tokenIn, w.userAddr, new(big.Int).Sub(userIn, amountIn), "user")
	w.wantBalance(native, w.userAddr, userETH, "user (native, for gas)")
	opened := eventsOf(t, receipt, w.settlement, settlementABI.UnpackOpenedEvent)
	if len(opened) != 1 || opened[0].OrderId != id || opened[0].User != w.userAddr || idOf(t, opened[0].Order) != id {
		t.Fatalf("Opened events %+v; want one of %x by the user", opened, id)
	}
	if open := eventsOf(t, receipt, w.settlement, settlementABI.UnpackOpenEvent); len(open) != 1 || open[0].OrderId != id {
		t.Fatalf("Open events %+v; want one of %x", open, id)
	}
	w.fill(w.filler, o, minOut, common.Address{})
	w.wantStatus(id, statusSettled)
	w.wantBalance(w.tokenIn, w.fillAddr, amountIn, "filler")

	// The same kind of order the transaction way, in the same run: approve, then open.
	classic := w.order()
	approve := w.transact(w.user, w.tokenIn, nil, tokenABI.PackApprove(w.settlement, amountIn))
	_, open := w.open0(w.user, classic)
	t.Logf("gas: openFor %d (paid by the filler); approve %d + open %d = %d (paid by the user)",
		receipt.GasUsed, approve.GasUsed, open.GasUsed, approve.GasUsed+open.GasUsed)
}

// open0 opens o from user without approving (the caller did).
func (w *gaslessWorld) open0(user *ecdsa.PrivateKey, o contracts.Order) ([32]byte, *types.Receipt) {
	w.t.Helper()
	return idOf(w.t, o), w.transact(user, w.settlement, nil, openCalldata(w.t, o))
}

// Every way to misuse a signature is refused on chain: by the settlement's own checks, or by
// Permit2's check of the signature, the nonce and the deadline.
func TestGaslessRefusals(t *testing.T) {
	w := newGaslessWorld(t)

	t.Run("a replayed signature", func(t *testing.T) {
		o := w.order()
		g, sig := w.signed(o)
		w.transact(w.filler, w.settlement, nil, openForCalldata(g, sig))
		w.refused(w.filler, nil, openForCalldata(g, sig), "AlreadyOpened")
	})
	t.Run("a nonce already used by another order", func(t *testing.T) {
		first := w.order()
		g, sig := w.signed(first)
		w.transact(w.filler, w.settlement, nil, openForCalldata(g, sig))
		second := w.order()
		second.Nonce = first.Nonce
		second.AmountIn = plus(amountIn, 1)
		g2, sig2 := w.signed(second)
		w.refusedByPermit2(w.filler, openForCalldata(g2, sig2), "InvalidNonce")
	})
	t.Run("a signature for another chain", func(t *testing.T) {
		g := w.gasless(w.order())
		typed := w.typedData(g)
		typed.Domain.ChainId = math.NewHexOrDecimal256(1338)
		w.refusedByPermit2(w.filler, openForCalldata(g, signTyped(t, w.user, typed)), "InvalidSigner")
	})
	t.Run("a signature for another spender", func(t *testing.T) {
		g := w.gasless(w.order())
		typed := w.typedData(g)
		typed.Message["spender"] = bystander.Hex()
		w.refusedByPermit2(w.filler, openForCalldata(g, signTyped(t, w.user, typed)), "InvalidSigner")
	})
	t.Run("a signature by another key", func(t *testing.T) {
		g := w.gasless(w.order())
		w.refusedByPermit2(w.filler, openForCalldata(g, signTyped(t, newKey(t), w.typedData(g))), "InvalidSigner")
	})
	t.Run("an order signed for another settler", func(t *testing.T) {
		o := w.order()
		o.OriginSettler = bystander
		g := w.gasless(o)
		w.refused(w.filler, nil, openForCalldata(g, signTyped(t, w.user, w.typedData(g))), "WrongOriginSettler")
		// Only the gasless order names another settler, or only its Order does.
		g = w.gasless(w.order())
		g.OriginSettler = bystander
		w.refused(w.filler, nil, openForCalldata(g, signTyped(t, w.user, w.typedData(g))), "WrongOriginSettler")
	})
	t.Run("altered outputs or recipient", func(t *testing.T) {
		o := w.order()
		g, sig := w.signed(o)
		for name, alter := range map[string]func(*contracts.Order){
			"recipient":    func(o *contracts.Order) { o.Recipient = bystander },
			"minAmountOut": func(o *contracts.Order) { o.MinAmountOut = big.NewInt(1) },
			"tokenOut":     func(o *contracts.Order) { o.TokenOut = w.tokenIn },
		} {
			altered := o
			alter(&altered)
			g2 := g
			g2.OrderData = encodeOrder(t, altered)
			t.Run(name, func(t *testing.T) { w.refusedByPermit2(w.filler, openForCalldata(g2, sig), "InvalidSigner") })
		}
	})
	t.Run("a filler adding originFillerData", func(t *testing.T) {
		g, sig := w.signed(w.order())
		redirect := common.LeftPadBytes(bystander.Bytes(), 32)
		w.refused(w.filler, nil, settlementABI.PackOpenFor(g, sig, redirect), "FillerDataNotAccepted")
		if _, err := w.Backend.Client().CallContract(t.Context(), callTo(w.settlement, settlementABI.PackResolveFor(g, redirect)), nil); err == nil {
			t.Error("resolveFor accepted originFillerData")
		}
	})
	t.Run("opened after its openDeadline", func(t *testing.T) {
		g, sig := w.signed(w.order())
		w.warpTo(uint64(g.OpenDeadline) + 1)
		w.refused(w.filler, nil, openForCalldata(g, sig), "OpenDeadlinePassed")
	})
	t.Run("opened after its hard cancel", func(t *testing.T) {
		g, sig := w.signed(w.order())
		w.transact(w.user, contracts.CanonicalPermit2, nil, settlement.CancelData(g.Nonce))
		bitmap := get(w.testChain, contracts.CanonicalPermit2, settlement.NonceBitmapData(w.userAddr, g.Nonce), permit2ABI.UnpackNonceBitmap)
		if !settlement.NonceUsed(g.Nonce, bitmap) {
			t.Errorf("nonceBitmap %x does not show nonce %s spent", bitmap, g.Nonce)
		}
		w.refusedByPermit2(w.filler, openForCalldata(g, sig), "InvalidNonce")
	})
	t.Run("fields of the gasless order that disagree with its Order", func(t *testing.T) {
		o := w.order()
		for _, c := range []struct {
			want  string
			alter func(*contracts.GaslessCrossChainOrder)
		}{
			{"WrongUser", func(g *contracts.GaslessCrossChainOrder) { g.User = bystander }},
			{"NonceMismatch", func(g *contracts.GaslessCrossChainOrder) { g.Nonce = plus(g.Nonce, 1) }},
			{"DeadlineMismatch", func(g *contracts.GaslessCrossChainOrder) { g.FillDeadline-- }},
			{"OpenDeadlineAfterFill", func(g *contracts.GaslessCrossChainOrder) { g.OpenDeadline = g.FillDeadline + 1 }},
			{"WrongChain", func(g *contracts.GaslessCrossChainOrder) { g.OriginChainId = big.NewInt(1338) }},
			{"WrongOrderDataType", func(g *contracts.GaslessCrossChainOrder) { g.OrderDataType = [32]byte{1} }},
			{"MalformedOrder", func(g *contracts.GaslessCrossChainOrder) { g.OrderData = append(g.OrderData, make([]byte, 32)...) }},
		} {
			t.Run(c.want, func(t *testing.T) {
				g := w.gasless(o)
				c.alter(&g)
				// Signed as altered: only the contract's check stands in the way.
				w.refused(w.filler, nil, openForCalldata(g, signTyped(t, w.user, w.typedDataLoose(g))), c.want)
			})
		}
	})
	t.Run("the native token", func(t *testing.T) {
		o := w.swapOrder(w.userAddr, w.recipient, native, w.tokenOut)
		erc20 := o
		erc20.TokenIn = w.tokenIn
		g := w.gasless(erc20) // settlement.Gasless itself refuses the native token
		g.OrderData = encodeOrder(t, o)
		w.refused(w.filler, nil, openForCalldata(g, signTyped(t, w.user, w.typedDataLoose(g))), "NativeNotGasless")
	})
	t.Run("while paused", func(t *testing.T) {
		g, sig := w.signed(w.order())
		w.guardianDoes(settlementABI.PackPause())
		defer w.guardianDoes(settlementABI.PackUnpause())
		w.refused(w.filler, nil, openForCalldata(g, sig), "EnforcedPause")
	})
}

// typedDataLoose is the typed data of g even where g is inconsistent (a malformed Order is signed
// as the well-formed prefix it starts with): for tests that sign what an attacker would.
func (w *gaslessWorld) typedDataLoose(g contracts.GaslessCrossChainOrder) apitypes.TypedData {
	w.t.Helper()
	well := g
	well.OrderData = g.OrderData[:22*32]
	typed := w.typedData(well)
	witness := typed.Message["witness"].(map[string]any)
	witness["orderDataType"] = common.Hash(g.OrderDataType).Hex()
	return typed
}

func callTo(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}

// The pull through Permit2 cannot re-enter the contract: a token whose transferFrom calls refund
// of a refundable order gets nothing (openFor's reentrancy guard).
func TestGaslessPullCannotReenter(t *testing.T) {
	w := newGaslessWorld(t)
	h := w.deployHostile()
	w.Mint(t, h.addr, w.userAddr, amountIn)
	w.transact(w.user, h.addr, nil, hostileABI.PackApprove(contracts.CanonicalPermit2, amountIn))
	x, idX := w.refundableByAnyone()

	a := w.swapOrder(w.userAddr, w.recipient, h.addr, w.tokenOut)
	g, sig := w.signed(a)
	h.arm(w.settlement, settlementABI.PackRefund(x))
	w.transactFixedGas(w.filler, w.settlement, openForCalldata(g, sig))
	h.wantAttempts(1)
	w.wantStatus(idOf(t, a), statusOpened)
	w.wantStatus(idX, statusOpened)
	w.wantBalance(h.addr, w.settlement, amountIn, "settlement")
}

// The pull through Permit2 must move exactly amountIn into escrow.
func TestGaslessRefusesInexactEscrow(t *testing.T) {
	w := newGaslessWorld(t)
	h := w.deployHostile()
	w.Mint(t, h.addr, w.userAddr, amountIn)
	w.Mint(t, h.addr, h.addr, big.NewInt(1))
	w.transact(w.user, h.addr, nil, hostileABI.PackApprove(contracts.CanonicalPermit2, amountIn))
	o := w.swapOrder(w.userAddr, w.recipient, h.addr, w.tokenOut)
	g, sig := w.signed(o)

	h.arm(h.addr, hostileABI.PackTransfer(w.settlement, big.NewInt(1)))
	args := w.refused(w.filler, nil, openForCalldata(g, sig), "TransferShort")
	got, err := settlementABI.UnpackTransferShortError(args)
	if err != nil || got.Received.Cmp(plus(amountIn, 1)) != 0 || got.Expected.Cmp(amountIn) != 0 {
		t.Errorf("TransferShort%+v, %v; want (%s, %s)", got, err, plus(amountIn, 1), amountIn)
	}
	w.wantStatus(idOf(t, o), statusNone)
}

// A Safe smart account owned by a dev key signs its order through EIP-1271 (Permit2 asks the
// Safe's isValidSignature), and a filler opens it; a signature by a key that does not own the
// Safe is refused.
func TestGaslessSafeAccount(t *testing.T) {
	w := newGaslessWorld(t)
	owner := newKey(t)
	safe, err := w.DeploySafe(owner)
	if err != nil {
		t.Fatal(err)
	}
	w.Mint(t, w.tokenIn, safe.Address, amountIn)
	if err := safe.Exec(w.tokenIn, tokenABI.PackApprove(contracts.CanonicalPermit2, math.MaxBig256)); err != nil {
		t.Fatal(err)
	}
	o := w.swapOrder(safe.Address, w.recipient, w.tokenIn, w.tokenOut)
	g := w.gasless(o)
	digest, err := settlement.PermitDigest(w.typedData(g))
	if err != nil {
		t.Fatal(err)
	}

	stranger, err := w.DeploySafe(newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	forged, err := stranger.Sign(digest) // a real Safe signature, of another Safe's owner
	if err != nil {
		t.Fatal(err)
	}
	// The Safe refuses both (GS026: not an owner's signature of its SafeMessage), and Permit2 with it.
	for name, bad := range map[string][]byte{
		"another Safe owner's signature":                 forged,
		"the owner's signature of the bare EIP-712 hash": sign(t, owner, digest[:]),
	} {
		if _, err := bind.Transact(w.bound(w.settlement), w.opts(w.filler, nil), openForCalldata(g, bad)); err == nil ||
			!strings.Contains(describe(err), "GS026") {
			t.Fatalf("openFor with %s: %v; want the Safe's refusal GS026", name, err)
		}
	}

	sig, err := safe.Sign(digest)
	if err != nil {
		t.Fatal(err)
	}
	w.transact(w.filler, w.settlement, nil, openForCalldata(g, sig))
	w.wantStatus(idOf(t, o), statusOpened)
	w.wantBalance(w.tokenIn, safe.Address, new(big.Int), "the Safe")
	w.wantBalance(w.tokenIn, w.settlement, amountIn, "settlement")
}
