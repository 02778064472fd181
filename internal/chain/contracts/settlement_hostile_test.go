package contracts_test

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
)

// transactFixedGasValue is transactFixedGas with a value.
func (c *testChain) transactFixedGasValue(key *ecdsa.PrivateKey, to common.Address, value *big.Int, calldata []byte) {
	c.t.Helper()
	from := crypto.PubkeyToAddress(key.PublicKey)
	if _, err := c.Backend.Client().CallContract(context.Background(),
		ethereum.CallMsg{From: from, To: &to, Gas: fixedGas, Value: value, Data: calldata}, nil); err != nil {
		c.t.Fatalf("transaction to %s would revert: %s", to, describe(err))
	}
	opts := c.opts(key, value)
	opts.GasLimit = fixedGas
	tx, err := c.bound(to).RawTransact(opts, calldata)
	if err != nil {
		c.t.Fatalf("transaction to %s refused: %s", to, describe(err))
	}
	c.Mine(c.t, tx)
}

// refundableByAnyone opens an ordinary order and has the guardian allow its refund: from then on
// only a reentrancy guard stops a payout from refunding it from inside another call.
func (w *swapWorld) refundableByAnyone() (contracts.Order, [32]byte) {
	w.t.Helper()
	o := w.order()
	id, _ := w.open(w.user, o)
	w.guardianDoes(settlementABI.PackAllowRefund(id))
	return o, id
}

// The pull of open cannot re-enter the contract: a token whose transferFrom calls refund of a
// refundable order gets nothing (open's own reentrancy guard; without it the balance check of the
// pull is all that stands between a re-entry and the escrows).
func TestOpenPullCannotReenter(t *testing.T) {
	w := newSwapWorld(t)
	h := w.deployHostile()
	w.Mint(t, h.addr, w.userAddr, amountIn)
	x, idX := w.refundableByAnyone()

	a := w.swapOrder(w.userAddr, w.recipient, h.addr, w.tokenOut)
	w.approve(w.user, h.addr, amountIn)
	h.arm(w.settlement, settlementABI.PackRefund(x))
	w.transactFixedGas(w.user, w.settlement, openCalldata(t, a))
	h.wantAttempts(1)
	w.wantStatus(idOf(t, a), statusOpened)
	w.wantStatus(idX, statusOpened)
	w.wantBalance(h.addr, w.settlement, amountIn, "settlement")
}

// A settle payout in a hostile token cannot refund another (refundable) order from inside.
func TestSettlePayoutCannotReenterAnotherOrder(t *testing.T) {
	w := newSwapWorld(t)
	h := w.deployHostile()
	w.Mint(t, h.addr, w.userAddr, amountIn)
	relayer, _ := w.newAccount()
	a := w.bridgeOrder(w.userAddr, w.recipient, h.addr, w.tokenOut, big.NewInt(31338), common.HexToAddress("0x4444"))
	idA, _ := w.open(w.user, a)
	x, idX := w.refundableByAnyone()

	h.arm(w.settlement, settlementABI.PackRefund(x))
	w.transactFixedGas(relayer, w.settlement, settlementABI.PackSettle(a, w.fillAddr, minOut, w.attestHere(w.attester, a, w.fillAddr, minOut)))
	h.wantAttempts(1)
	w.wantStatus(idA, statusSettled)
	w.wantStatus(idX, statusOpened)
}

// receiver is a ReentrantReceiver on a swap world's chain.
type receiver struct {
	w    *swapWorld
	addr common.Address
}

func (r *receiver) arm(target common.Address, calldata []byte) {
	r.w.t.Helper()
	r.w.transact(r.w.Funder, r.addr, nil, receiverABI.PackArm(target, calldata))
}

// wantAttempts asserts that the receiver's hook ran `attempts` times and that no re-entry
// succeeded.
func (r *receiver) wantAttempts(attempts int64) {
	r.w.t.Helper()
	if got := get(r.w.testChain, r.addr, receiverABI.PackAttempts(), receiverABI.UnpackAttempts); got.Int64() != attempts {
		r.w.t.Errorf("receiver attempts = %s; want %d", got, attempts)
	}
	if get(r.w.testChain, r.addr, receiverABI.PackReentered(), receiverABI.UnpackReentered) {
		r.w.t.Error("reentered = true: a call made from inside a native payout succeeded")
	}
}

// Native payouts go to contract accounts with all the gas they want, so a recipient's receive()
// can call back in. A refund to a contract user, a settle to a contract filler and a native
// delivery to a contract recipient each try to refund another, refundable order from inside: the
// reentrancy guard of refund, settle and fill stops each.
func TestNativePayoutsCannotReenter(t *testing.T) {
	w := newSwapWorld(t)
	r := &receiver{w: w, addr: w.deploy("ReentrantReceiver", contracts.ReentrantReceiverMetaData.Bin, nil)}
	anyone, _ := w.newAccount()
	x, idX := w.refundableByAnyone()
	escrow := big.NewInt(params.GWei)

	t.Run("refund to a contract user", func(t *testing.T) {
		n := w.swapOrder(r.addr, w.recipient, native, w.tokenOut)
		n.AmountIn = escrow
		w.transact(anyone, r.addr, escrow, receiverABI.PackExec(w.settlement, openCalldata(t, n)))
		id := idOf(t, n)
		w.wantStatus(id, statusOpened)
		w.guardianDoes(settlementABI.PackAllowRefund(id))
		r.arm(w.settlement, settlementABI.PackRefund(x))
		w.transactFixedGas(anyone, w.settlement, settlementABI.PackRefund(n))
		r.wantAttempts(1)
		w.wantStatus(id, statusRefunded)
		w.wantStatus(idX, statusOpened)
		w.wantBalance(native, r.addr, escrow, "receiver")
	})
	t.Run("settle to a contract filler", func(t *testing.T) {
		n := w.bridgeOrder(w.userAddr, w.recipient, native, w.tokenOut, big.NewInt(31338), common.HexToAddress("0x4444"))
		n.AmountIn = escrow
		id, _ := w.open(w.user, n)
		r.arm(w.settlement, settlementABI.PackRefund(x))
		w.transactFixedGas(anyone, w.settlement, settlementABI.PackSettle(n, r.addr, minOut, w.attestHere(w.attester, n, r.addr, minOut)))
		r.wantAttempts(2)
		w.wantStatus(id, statusSettled)
		w.wantStatus(idX, statusOpened)
		w.wantBalance(native, r.addr, times(escrow, 2), "receiver")
	})
	t.Run("native delivery to a contract recipient", func(t *testing.T) {
		s := w.swapOrder(w.userAddr, r.addr, w.tokenIn, native)
		id, _ := w.open(w.user, s)
		r.arm(w.settlement, settlementABI.PackRefund(x))
		w.transactFixedGasValue(w.filler, w.settlement, minOut, fillCalldata(t, s, minOut, common.Address{}))
		r.wantAttempts(3)
		w.wantStatus(id, statusSettled)
		w.wantStatus(idX, statusOpened)
		w.wantBalance(native, r.addr, new(big.Int).Add(times(escrow, 2), minOut), "receiver")
	})
	w.transact(anyone, w.settlement, nil, settlementABI.PackRefund(x))
	w.wantStatus(idX, statusRefunded)
}

// A token whose issuer blocklists an address (USDC, USDT) can freeze an escrow but never send it
// elsewhere:
//   - user blocked after open: refund reverts with the token's error and the escrow waits (the
//     guardian cannot redirect it); a settle to an unblocked filler still pays; once unblocked,
//     refund pays the user;
//   - filler (repayTo) blocked: settle reverts, the attestation names that address, so the
//     escrow waits and, after the delay, is refunded to the user: the filler has lost its fill;
//   - recipient blocked: the fill cannot deliver and reverts; the order is refunded after its delay;
//   - user blocked before open: open reverts and nothing is escrowed.
func TestBlocklistingTokens(t *testing.T) {
	w := newSwapWorld(t)
	bl := w.deploy("BlocklistToken", contracts.BlocklistTokenMetaData.Bin, nil)
	w.Mint(t, bl, w.userAddr, times(amountIn, 4))
	w.Mint(t, bl, w.fillAddr, amountIn)
	blocked := blocklistABI.GetABI().Errors["Blocked"].ID
	setBlocked := func(who common.Address, b bool) {
		t.Helper()
		w.transact(w.Funder, bl, nil, blocklistABI.PackSetBlocked(who, b))
	}
	relayer, _ := w.newAccount()
	dest, remote := big.NewInt(31338), common.HexToAddress("0x4444")
	bridge := func() contracts.Order { return w.bridgeOrder(w.userAddr, w.recipient, bl, w.tokenOut, dest, remote) }

	a := bridge()
	idA, _ := w.open(w.user, a)
	b := bridge()
	idB, _ := w.open(w.user, b)
	c := bridge()
	idC, _ := w.open(w.user, c)
	d := w.swapOrder(w.userAddr, w.recipient, w.tokenIn, bl)
	idD, _ := w.open(w.user, d)
	w.approve(w.filler, bl, amountIn)
	w.warpTo(max(a.Deadline, d.Deadline) + refundDelay + 1)

	t.Run("user blocked after open", func(t *testing.T) {
		setBlocked(w.userAddr, true)
		w.revertsWith(w.settlement, relayer, nil, settlementABI.PackRefund(a), blocked[:], "Blocked")
		w.wantStatus(idA, statusOpened)
		w.transact(relayer, w.settlement, nil, settlementABI.PackSettle(b, w.fillAddr, minOut, w.attestHere(w.attester, b, w.fillAddr, minOut)))
		w.wantStatus(idB, statusSettled)
		w.wantBalance(bl, w.fillAddr, times(amountIn, 2), "filler")
		t.Run("before open", func(t *testing.T) {
			late := bridge()
			late.Deadline = w.now() + 3600
			w.approve(w.user, bl, amountIn)
			w.revertsWith(w.settlement, w.user, nil, openCalldata(t, late), blocked[:], "Blocked")
			w.wantStatus(idOf(t, late), statusNone)
		})
		setBlocked(w.userAddr, false)
		w.transact(relayer, w.settlement, nil, settlementABI.PackRefund(a))
		w.wantStatus(idA, statusRefunded)
		w.wantBalance(bl, w.userAddr, times(amountIn, 2), "user after the refund")
	})
	t.Run("filler blocked", func(t *testing.T) {
		setBlocked(w.fillAddr, true)
		w.revertsWith(w.settlement, relayer, nil,
			settlementABI.PackSettle(c, w.fillAddr, minOut, w.attestHere(w.attester, c, w.fillAddr, minOut)), blocked[:], "Blocked")
		w.wantStatus(idC, statusOpened)
		w.transact(relayer, w.settlement, nil, settlementABI.PackRefund(c))
		w.wantStatus(idC, statusRefunded)
		w.wantBalance(bl, w.userAddr, times(amountIn, 3), "user after refunding C")
		setBlocked(w.fillAddr, false)
	})
	t.Run("recipient blocked", func(t *testing.T) {
		late := w.swapOrder(w.userAddr, w.recipient, w.tokenIn, bl)
		lateID, _ := w.open(w.user, late)
		setBlocked(w.recipient, true)
		w.revertsWith(w.settlement, w.filler, nil, fillCalldata(t, late, minOut, common.Address{}), blocked[:], "Blocked")
		w.wantStatus(lateID, statusOpened)
		w.transact(relayer, w.settlement, nil, settlementABI.PackRefund(d))
		w.wantStatus(idD, statusRefunded)
	})
}

// A fee claim's payout cannot re-enter the contract: a fee token whose transfer calls refund of a
// refundable order gets nothing (claimFees' own reentrancy guard; the credit is zeroed before the
// payout, so a re-entered claim would find nothing, but another function would run).
func TestFeeClaimCannotReenter(t *testing.T) {
	w := newSwapWorld(t)
	h := w.deployHostile()
	integratorKey, integrator := w.newAccount()
	w.Mint(t, h.addr, w.userAddr, amountIn)
	o := withFee(w.swapOrder(w.userAddr, w.recipient, h.addr, w.tokenOut), 2_500, integrator)
	w.open(w.user, o)
	w.fill(w.filler, o, minOut, common.Address{})
	w.wantFeesOwed(h.addr, integrator, 2_500)
	refundable, id := w.refundableByAnyone()

	w.fund(integrator)
	h.arm(w.settlement, settlementABI.PackRefund(refundable))
	w.transactFixedGas(integratorKey, w.settlement, settlementABI.PackClaimFees(h.addr))
	h.wantAttempts(1)
	w.wantStatus(id, statusOpened)
	w.wantBalance(h.addr, integrator, big.NewInt(2_500), "the integrator after its claim")
	w.wantFeesOwed(h.addr, integrator, 0)
}
