package contracts_test

import (
	"bytes"
	"crypto/ecdsa"
	"math/big"
	"testing"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
)

// These tests defend the guards that hack/mutate (make mutate-contract) removes one by one: the
// swap refusal of settle, the guardian's powers and their limits, the originSettler in the
// orderId, the minimum refund delay, re-entry through native payouts, and tokens that blocklist a
// party.

var (
	receiverABI  = contracts.NewReentrantReceiver()
	blocklistABI = contracts.NewBlocklistToken()

	guardianRole = crypto.Keccak256Hash([]byte("GUARDIAN_ROLE"))
)

// fund gives addr one ether for gas.
func (c *testChain) fund(addr common.Address) {
	c.t.Helper()
	c.SendValue(c.t, addr, big.NewInt(params.Ether))
}

// guardianDoes sends a guardian call (pause, unpause, allowRefund, allowAllRefunds) from the guardian.
func (c *testChain) guardianDoes(calldata []byte) {
	c.t.Helper()
	c.transact(c.guardian, c.settlement, nil, calldata)
}

// revertsWith asserts that sending calldata to `to` from key reverts with the error whose
// selector is id (an error of any contract), without mining anything.
func (c *testChain) revertsWith(to common.Address, key *ecdsa.PrivateKey, value *big.Int, calldata []byte, id []byte, name string) {
	c.t.Helper()
	tx, err := bind.Transact(c.bound(to), c.opts(key, value), calldata)
	if err == nil {
		c.Backend.Commit()
		c.t.Fatalf("transaction %s was accepted; want revert %s", tx.Hash(), name)
	}
	data, ok := revertData(err)
	if !ok || len(data) < 4 || !bytes.Equal(data[:4], id[:4]) {
		c.t.Fatalf("refused with %s; want revert %s", describe(err), name)
	}
}

// deployRefused asserts that deploying a Settlement with the constructor arguments reverts with
// the Settlement error want, and returns the error's arguments.
func (c *testChain) deployRefused(constructorInput []byte, want string) []byte {
	c.t.Helper()
	wantErr := settlementABI.GetABI().Errors[want]
	_, tx, err := bind.DeployContract(c.Transactor(c.Funder), common.FromHex(settlementBin(c.t)), c.Backend.Client(), constructorInput)
	if err == nil {
		c.Backend.Commit()
		c.t.Fatalf("deployment %s was accepted; want revert %s", tx.Hash(), want)
	}
	data, ok := revertData(err)
	if !ok || len(data) < 4 || !bytes.Equal(data[:4], wantErr.ID[:4]) {
		c.t.Fatalf("deployment refused with %s; want %s", describe(err), want)
	}
	return data[4:]
}

// callRefused asserts that an eth_call of calldata on the chain's Settlement reverts with want.
func (c *testChain) callRefused(calldata []byte, want string) {
	c.t.Helper()
	wantErr := settlementABI.GetABI().Errors[want]
	_, err := c.Backend.Client().CallContract(c.t.Context(), ethereum.CallMsg{To: &c.settlement, Data: calldata}, nil)
	data, ok := revertData(err)
	if err == nil || !ok || len(data) < 4 || !bytes.Equal(data[:4], wantErr.ID[:4]) {
		c.t.Fatalf("call answered %v; want revert %s", err, want)
	}
}

func (w *swapWorld) attesterAddr() common.Address {
	return crypto.PubkeyToAddress(w.attester.PublicKey)
}

// bridgeAway is a bridge order from the world's user to a remote chain's settler.
func (w *swapWorld) bridgeAway() contracts.Order {
	w.t.Helper()
	return w.bridgeOrder(w.userAddr, w.recipient, w.tokenIn, w.tokenOut, big.NewInt(31338), common.HexToAddress("0x4444"))
}

// ======== settle refuses swaps ========

// A same-chain swap is released by its fill alone: an attestation of a fill that never happened,
// signed by the real attester key for a thief, does not release its escrow.
func TestSettleRefusesSwaps(t *testing.T) {
	w := newSwapWorld(t)
	relayer, _ := w.newAccount()
	thief := common.HexToAddress("0x00000000000000000000000000000000000071ef")
	for _, o := range []contracts.Order{w.order(), w.swapOrder(w.userAddr, w.recipient, native, w.tokenOut)} {
		if o.TokenIn == native {
			o.AmountIn = big.NewInt(params.GWei)
		}
		id, _ := w.open(w.user, o)
		sig := w.attestHere(w.attester, o, thief, minOut)
		w.refused(relayer, nil, settlementABI.PackSettle(o, thief, minOut, sig), "SwapSettlesByFill")
		w.wantStatus(id, statusOpened)
		w.wantBalance(o.TokenIn, thief, new(big.Int), "thief")

		w.fill(w.filler, o, minOut, common.Address{})
		w.wantStatus(id, statusSettled)
	}
	w.wantBalance(w.tokenIn, w.fillAddr, amountIn, "filler")
}

// ======== the guardian ========

// The guardian's pause stops open, fill and settle, never refund; unpause resumes them. Nobody
// else (the attester, the user, a filler) can pause or unpause.
func TestGuardianPause(t *testing.T) {
	w := newSwapWorld(t)
	w.fund(w.attesterAddr())
	relayer, _ := w.newAccount()

	bridge := w.bridgeAway()
	bridgeID, _ := w.open(w.user, bridge)
	swap := w.order()
	swapID, _ := w.open(w.user, swap)
	refundable := w.order()
	refundable.Deadline = w.now() + 60
	refundableID, _ := w.open(w.user, refundable)
	later := w.order()
	w.approve(w.user, w.tokenIn, amountIn)
	w.approve(w.filler, w.tokenOut, minOut)
	settle := settlementABI.PackSettle(bridge, w.fillAddr, minOut, w.attestHere(w.attester, bridge, w.fillAddr, minOut))

	for name, key := range map[string]*ecdsa.PrivateKey{"attester": w.attester, "user": w.user, "filler": w.filler} {
		t.Run(name+" cannot pause", func(t *testing.T) {
			args := w.refused(key, nil, settlementABI.PackPause(), "AccessControlUnauthorizedAccount")
			if got, err := settlementABI.UnpackAccessControlUnauthorizedAccountError(args); err != nil || got.NeededRole != guardianRole {
				t.Errorf("AccessControlUnauthorizedAccount%+v, %v", got, err)
			}
		})
	}
	w.guardianDoes(settlementABI.PackPause())
	if !get(w.testChain, w.settlement, settlementABI.PackPaused(), settlementABI.UnpackPaused) {
		t.Fatal("paused() = false after pause")
	}

	w.refused(w.user, nil, openCalldata(t, later), "EnforcedPause")
	w.refused(w.filler, nil, fillCalldata(t, swap, minOut, common.Address{}), "EnforcedPause")
	w.refused(relayer, nil, settle, "EnforcedPause")
	// Refunds go on: the user can always leave.
	w.warpTo(refundable.Deadline + refundDelay + 1)
	w.transact(relayer, w.settlement, nil, settlementABI.PackRefund(refundable))
	w.wantStatus(refundableID, statusRefunded)
	for name, key := range map[string]*ecdsa.PrivateKey{"attester": w.attester, "user": w.user} {
		t.Run(name+" cannot unpause", func(t *testing.T) {
			w.refused(key, nil, settlementABI.PackUnpause(), "AccessControlUnauthorizedAccount")
		})
	}
	w.wantStatus(bridgeID, statusOpened)
	w.wantStatus(swapID, statusOpened)

	w.guardianDoes(settlementABI.PackUnpause())
	later.Deadline = w.now() + 3600
	laterID, _ := w.open(w.user, later)
	w.wantStatus(laterID, statusOpened)
	swap2 := w.order()
	swap2ID, _ := w.open(w.user, swap2)
	w.fill(w.filler, swap2, minOut, common.Address{})
	w.wantStatus(swap2ID, statusSettled)
	w.transact(relayer, w.settlement, nil, settle)
	w.wantStatus(bridgeID, statusSettled)
}

// The guardian can let an order (or every order) be refunded before deadline + refundDelay; the
// escrow still goes only to the order's user, whoever calls refund. Nobody else can allow it.
func TestGuardianEarlyRefund(t *testing.T) {
	w := newSwapWorld(t)
	w.fund(w.attesterAddr())
	anyone, _ := w.newAccount()
	a := w.bridgeAway()
	idA, _ := w.open(w.user, a)
	b := w.order()
	idB, _ := w.open(w.user, b)
	c := w.bridgeAway()
	idC, _ := w.open(w.user, c)

	for name, key := range map[string]*ecdsa.PrivateKey{"attester": w.attester, "user": w.user, "anyone": anyone} {
		t.Run(name+" cannot allow refunds", func(t *testing.T) {
			w.refused(key, nil, settlementABI.PackAllowRefund(idA), "AccessControlUnauthorizedAccount")
			w.refused(key, nil, settlementABI.PackAllowAllRefunds(true), "AccessControlUnauthorizedAccount")
		})
	}
	w.refused(anyone, nil, settlementABI.PackRefund(a), "RefundTooEarly")

	w.guardianDoes(settlementABI.PackAllowRefund(idA))
	if !get(w.testChain, w.settlement, settlementABI.PackRefundAllowed(idA), settlementABI.UnpackRefundAllowed) {
		t.Error("refundAllowed(A) = false")
	}
	// The guardian cannot send it elsewhere: the order with another user is another orderId.
	redirected := a
	redirected.User = w.guardianAddr
	w.refused(w.guardian, nil, settlementABI.PackRefund(redirected), "NotOpened")
	r := w.transact(w.guardian, w.settlement, nil, settlementABI.PackRefund(a))
	if ev := oneEventOf(t, r, w.settlement, settlementABI.UnpackRefundedEvent); ev.OrderId != idA || ev.User != w.userAddr {
		t.Errorf("Refunded = %+v", ev)
	}
	w.wantStatus(idA, statusRefunded)
	w.wantBalance(w.tokenIn, w.userAddr, times(amountIn, 8), "user after the early refund")
	w.wantBalance(w.tokenIn, w.guardianAddr, new(big.Int), "guardian")
	// Only the allowed order.
	w.refused(anyone, nil, settlementABI.PackRefund(b), "RefundTooEarly")

	w.guardianDoes(settlementABI.PackAllowAllRefunds(true))
	w.transact(anyone, w.settlement, nil, settlementABI.PackRefund(b))
	w.wantStatus(idB, statusRefunded)
	w.guardianDoes(settlementABI.PackAllowAllRefunds(false))
	w.refused(anyone, nil, settlementABI.PackRefund(c), "RefundTooEarly")
	w.wantStatus(idC, statusOpened)
	w.wantBalance(w.tokenIn, w.userAddr, times(amountIn, 9), "user at the end")
}

// The attester cannot act as the guardian (above: it cannot pause or allow refunds), nor the
// guardian as the attester: its signature of a fill releases nothing. The constructor refuses a
// guardian that is the attester, zero addresses and a refund delay under MIN_REFUND_DELAY.
func TestAttesterAndGuardianAreSeparate(t *testing.T) {
	w := newSwapWorld(t)
	relayer, _ := w.newAccount()
	o := w.bridgeAway()
	id, _ := w.open(w.user, o)
	forged := w.attestHere(w.guardian, o, w.guardianAddr, minOut)
	w.refused(relayer, nil, settlementABI.PackSettle(o, w.guardianAddr, minOut, forged), "InvalidAttestation")
	w.wantStatus(id, statusOpened)

	has := func(role [32]byte, who common.Address) bool {
		return get(w.testChain, w.settlement, settlementABI.PackHasRole(role, who), settlementABI.UnpackHasRole)
	}
	if !has(guardianRole, w.guardianAddr) || !has([32]byte{}, w.guardianAddr) {
		t.Error("the guardian lacks GUARDIAN_ROLE or DEFAULT_ADMIN_ROLE")
	}
	if has(guardianRole, w.attesterAddr()) || has([32]byte{}, w.attesterAddr()) {
		t.Error("the attester holds a role")
	}

	attester, guardian := w.attesterAddr(), w.guardianAddr
	t.Run("constructor", func(t *testing.T) {
		permit2 := contracts.CanonicalPermit2
		w.deployRefused(settlementABI.PackConstructor(common.Address{}, guardian, refundDelay, permit2), "ZeroAddress")
		w.deployRefused(settlementABI.PackConstructor(attester, common.Address{}, refundDelay, permit2), "ZeroAddress")
		w.deployRefused(settlementABI.PackConstructor(attester, guardian, refundDelay, common.Address{}), "ZeroAddress")
		w.deployRefused(settlementABI.PackConstructor(attester, attester, refundDelay, permit2), "GuardianIsAttester")
		args := w.deployRefused(settlementABI.PackConstructor(attester, guardian, refundDelay-1, permit2), "RefundDelayTooShort")
		if got, err := settlementABI.UnpackRefundDelayTooShortError(args); err != nil || got.RefundDelay != refundDelay-1 || got.Minimum != refundDelay {
			t.Errorf("RefundDelayTooShort%+v, %v", got, err)
		}
		w.deployRefused(settlementABI.PackConstructor(attester, guardian, 0, permit2), "RefundDelayTooShort")
		w.deploy("Settlement", settlementBin(t), settlementABI.PackConstructor(attester, guardian, refundDelay, permit2)) // the minimum itself
	})
}

// ======== the originSettler in the order ========

// An order names the contract that escrows it: another Settlement (here on the same chain, with
// the same attester) refuses to open it, and the same order made for the other contract has
// another orderId, so the two escrows never collide.
func TestOrderIDBindsTheOriginSettler(t *testing.T) {
	w := newSwapWorld(t)
	second := w.deploySettlement(w.attesterAddr())
	o := w.bridgeAway()
	w.transact(w.user, w.tokenIn, nil, tokenABI.PackApprove(second, times(amountIn, 2)))
	w.refusedAt(second, w.user, nil, openCalldata(t, o), "WrongOriginSettler")

	there := o
	there.OriginSettler = second
	idHere, idThere := idOf(t, o), idOf(t, there)
	if idHere == idThere {
		t.Fatal("the same order for two settlement contracts has one orderId")
	}
	w.open(w.user, o)
	w.transact(w.user, second, nil, openCalldata(t, there))
	statusAt := func(contract common.Address, id [32]byte) uint8 {
		return get(w.testChain, contract, settlementABI.PackOrders(id), settlementABI.UnpackOrders)
	}
	if statusAt(w.settlement, idHere) != statusOpened || statusAt(second, idThere) != statusOpened ||
		statusAt(w.settlement, idThere) != statusNone || statusAt(second, idHere) != statusNone {
		t.Error("each contract should hold exactly its own order")
	}
	resolved := get(w.testChain, second, settlementABI.PackResolve(contracts.OnchainCrossChainOrder{
		FillDeadline: uint32(there.Deadline), OrderDataType: orderDataType, OrderData: encodeOrder(t, there),
	}), settlementABI.UnpackResolve)
	if resolved.OrderId != idThere {
		t.Errorf("resolve on the second contract: orderId %x; want %x", resolved.OrderId, idThere)
	}
	w.wantBalance(w.tokenIn, second, amountIn, "second contract")
	w.wantBalance(w.tokenIn, w.settlement, amountIn, "first contract")
}

// open refuses an order that moves nothing, that nobody could fill, or that pays nobody; resolve
// refuses another order type.
func TestOpenRefusesEmptyOrders(t *testing.T) {
	w := newSwapWorld(t)
	w.approve(w.user, w.tokenIn, times(amountIn, 10))
	for name, tc := range map[string]struct {
		mutate func(*contracts.Order)
		want   string
	}{
		"amountIn zero":           {func(o *contracts.Order) { o.AmountIn = new(big.Int) }, "InvalidAmount"},
		"minAmountOut zero":       {func(o *contracts.Order) { o.MinAmountOut = new(big.Int) }, "InvalidAmount"},
		"recipient zero":          {func(o *contracts.Order) { o.Recipient = common.Address{} }, "ZeroAddress"},
		"destinationSettler zero": {func(o *contracts.Order) { o.DestinationSettler = common.Address{} }, "ZeroAddress"},
		"swap recipient zero": {func(o *contracts.Order) {
			o.Recipient = common.Address{}
			o.DestinationChainId = w.ID
			o.DestinationSettler = w.settlement
		}, "ZeroAddress"},
		"swap minAmountOut zero": {func(o *contracts.Order) {
			o.MinAmountOut = new(big.Int)
			o.DestinationChainId = w.ID
			o.DestinationSettler = w.settlement
		}, "InvalidAmount"},
		"bridge to another settler": {func(o *contracts.Order) {}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			o := w.bridgeAway()
			tc.mutate(&o)
			if tc.want == "" {
				w.transact(w.user, w.settlement, nil, openCalldata(t, o)) // the reference: a valid bridge opens
				return
			}
			w.refused(w.user, nil, openCalldata(t, o), tc.want)
			w.wantStatus(idOf(t, o), statusNone)
		})
	}
	o := w.order()
	w.callRefused(settlementABI.PackResolve(contracts.OnchainCrossChainOrder{
		FillDeadline: uint32(o.Deadline), OrderDataType: crypto.Keccak256Hash([]byte("Order()")), OrderData: encodeOrder(t, o),
	}), "WrongOrderDataType")
}

// ======== fills on look-alike contracts ========

// A fill counts only on the destinationSettler the order names, on the destination chain it
// names: a second Settlement on the destination chain (which would emit a Filled of its own)
// refuses it, and so does a contract at the destinationSettler's address on another chain (the
// same deployer makes the same addresses on every chain).
func TestFillOnlyOnTheNamedSettler(t *testing.T) {
	attester := newKey(t)
	attesterAddr := crypto.PubkeyToAddress(attester.PublicKey)
	origin := newChain(t, 1337, attesterAddr)
	dest := newChain(t, 31338, attesterAddr)
	lookalike := dest.deploySettlement(attesterAddr)
	user, userAddr := origin.newAccount()
	tokenIn := origin.deployToken("IN")
	origin.Mint(t, tokenIn, userAddr, times(amountIn, 2))
	filler, fillerAddr := dest.newAccount()
	tokenOut := dest.deployToken("OUT")
	dest.Mint(t, tokenOut, fillerAddr, amountIn)
	recipient := common.HexToAddress("0x000000000000000000000000000000000000bEEF")

	o := origin.bridgeOrder(userAddr, recipient, tokenIn, tokenOut, dest.ID, dest.settlement)
	id, _ := origin.open(user, o)
	dest.transact(filler, tokenOut, nil, tokenABI.PackApprove(lookalike, amountIn))
	dest.refusedAt(lookalike, filler, nil, fillCalldata(t, o, minOut, common.Address{}), "WrongDestination")
	if rec := get(dest, lookalike, settlementABI.PackFills(id), settlementABI.UnpackFills); rec.Filler != (common.Address{}) {
		t.Errorf("the look-alike recorded a fill: %+v", rec)
	}
	dest.wantBalance(tokenOut, recipient, new(big.Int), "recipient")

	// An order for chain 31338 whose destinationSettler is the origin contract's address: on the
	// origin chain that contract is not its destination, though the address matches (were it
	// accepted, the fill would take the escrow as a swap's).
	sameAddress := origin.bridgeOrder(userAddr, recipient, tokenIn, native, dest.ID, origin.settlement)
	sameID, _ := origin.open(user, sameAddress)
	originFiller, _ := origin.newAccount()
	origin.refused(originFiller, minOut, fillCalldata(t, sameAddress, minOut, common.Address{}), "WrongDestination")
	origin.wantStatus(sameID, statusOpened)
	origin.wantStatus(id, statusOpened)
}
