package contracts_test

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// The market terms of an order, each enforced by its library: the Dutch decay (DutchDecayLib),
// the exclusivity (ExclusivityLib), the integrator fee (FeeLib), and the native drop. Every
// boundary is tested on its edge: a call at the block whose timestamp is the boundary (eth_call
// runs at the latest block's timestamp, so warpTo(T) then a call is "at T"), and a fill mined in
// the block at T (warpTo(T-1), then a transaction with a fixed gas limit: the next block is
// T, and no estimate at T-1 stands in the way).

// owedOnChain is the contract's amountOwed(order, filler) at the latest block.
func (c *testChain) owedOnChain(o contracts.Order, filler common.Address) (*big.Int, error) {
	c.t.Helper()
	out, err := c.Backend.Client().CallContract(t0, callTo(c.settlement, settlementABI.PackAmountOwed(o, filler)), nil)
	if err != nil {
		return nil, err
	}
	return settlementABI.UnpackAmountOwed(out)
}

// wantOwed asserts the contract's and Go's amount owed by filler at the latest block.
func (c *testChain) wantOwed(o contracts.Order, filler common.Address, want int64) {
	c.t.Helper()
	now := c.now()
	got, err := c.owedOnChain(o, filler)
	if err != nil {
		c.t.Fatalf("amountOwed at %d: %s", now, describe(err))
	}
	if got.Cmp(big.NewInt(want)) != 0 {
		c.t.Errorf("amountOwed at %d (decay %d..%d) = %s; want %d", now, o.DecayStart, o.DecayEnd, got, want)
	}
	goOwed, err := settlement.Owed(o, filler, now)
	if err != nil || goOwed.Cmp(got) != 0 {
		c.t.Errorf("settlement.Owed at %d = %v, %v; the contract says %s", now, goOwed, err, got)
	}
}

// sendFixed sends calldata with value from key with a fixed gas limit (no estimate) and mines it;
// it returns the receipt, whatever its status.
func (c *testChain) sendFixed(key *ecdsa.PrivateKey, value *big.Int, calldata []byte) *types.Receipt {
	c.t.Helper()
	opts := c.opts(key, value)
	opts.GasLimit = fixedGas
	tx, err := bind.Transact(c.bound(c.settlement), opts, calldata)
	if err != nil {
		c.t.Fatalf("sending: %s", describe(err))
	}
	c.Backend.Commit()
	receipt, err := bind.WaitMined(t0, c.Backend.Client(), tx.Hash())
	if err != nil {
		c.t.Fatal(err)
	}
	return receipt
}

// fillMinedAt fills o with amountOut in the block whose timestamp is at, and reports whether the
// fill succeeded; it checks that the block is the one meant.
func (w *swapWorld) fillMinedAt(filler *ecdsa.PrivateKey, o contracts.Order, amountOut *big.Int, at uint64) bool {
	w.t.Helper()
	w.warpTo(at - 1)
	r := w.sendFixed(filler, nil, fillCalldata(w.t, o, amountOut, common.Address{}))
	if got := w.blockTime(r); got != at {
		w.t.Fatalf("the fill was mined at %d; want %d", got, at)
	}
	return r.Status == types.ReceiptStatusSuccessful
}

func (c *testChain) blockTime(r *types.Receipt) uint64 {
	c.t.Helper()
	h, err := c.Backend.Client().HeaderByHash(t0, r.BlockHash)
	if err != nil {
		c.t.Fatal(err)
	}
	return h.Time
}

// decaying is w's order with its output decaying from start to floor over [start time, end time].
func (w *swapWorld) decaying(start, floor int64, from, to uint64) contracts.Order {
	o := w.order()
	o.StartAmountOut, o.MinAmountOut = big.NewInt(start), big.NewInt(floor)
	o.DecayStart, o.DecayEnd = from, to
	o.Deadline = to + 3600
	return o
}

func TestDecayAtItsBoundaries(t *testing.T) {
	w := newSwapWorld(t)
	s := w.now() + 1000

	t.Run("a linear window, rounded up", func(t *testing.T) {
		// 3 units fall over 7 seconds: after 2 s the fall is 6/7 (0, rounded down), after 3 s 9/7 (1).
		o := w.decaying(1_000_003, 1_000_000, s, s+7)
		for _, at := range []struct {
			offset int64
			want   int64
		}{{-1, 1_000_003}, {0, 1_000_003}, {1, 1_000_003}, {2, 1_000_003}, {3, 1_000_002}, {4, 1_000_002}, {5, 1_000_001}, {6, 1_000_001}, {7, 1_000_000}, {8, 1_000_000}} {
			w.warpTo(uint64(int64(s) + at.offset)) //nolint:gosec // test times
			w.wantOwed(o, w.fillAddr, at.want)
		}
	})
	s = w.now() + 1000
	t.Run("past the end, exactly the floor", func(t *testing.T) {
		o := w.decaying(2_000_000, 1_000_000, s, s+100)
		w.warpTo(s + 1)
		w.wantOwed(o, w.fillAddr, 1_990_000)
		w.warpTo(s + 50)
		w.wantOwed(o, w.fillAddr, 1_500_000)
		w.warpTo(s + 101)
		w.wantOwed(o, w.fillAddr, 1_000_000)
	})
	s = w.now() + 1000
	t.Run("a window of no length is a step at its end", func(t *testing.T) {
		o := w.decaying(2_000_000, 1_000_000, s, s)
		w.warpTo(s - 1)
		w.wantOwed(o, w.fillAddr, 2_000_000)
		w.warpTo(s)
		w.wantOwed(o, w.fillAddr, 1_000_000)
	})

	t.Run("a fill pays at least the decayed amount of its own block", func(t *testing.T) {
		s := w.now() + 1000
		o := w.decaying(2_000_000, 1_000_000, s, s+100)
		w.approve(w.filler, w.tokenOut, times(amountIn, 10))
		w.open(w.user, o)
		// In the block at s+50 the order owes 1,500,000: one unit less is refused, exactly it is paid.
		if w.fillMinedAt(w.filler, o, big.NewInt(1_499_999), s+50) {
			t.Fatal("a fill one unit below the decayed amount succeeded")
		}
		// In the block at s+52 it owes 1,480,000: exactly that is paid.
		if !w.fillMinedAt(w.filler, o, big.NewInt(1_480_000), s+52) {
			t.Fatal("a fill of exactly the decayed amount failed")
		}
		w.wantBalance(w.tokenOut, w.recipient, big.NewInt(1_480_000), "the recipient")
	})
	t.Run("refused: the decayed amount, then the floor", func(t *testing.T) {
		s := w.now() + 1000
		o := w.decaying(2_000_000, 1_000_000, s, s+100)
		w.open(w.user, o)
		w.warpTo(s + 10)
		args := w.refused(w.filler, nil, fillCalldata(t, o, big.NewInt(1_899_999), common.Address{}), "BelowMinimum")
		if got, err := settlementABI.UnpackBelowMinimumError(args); err != nil || got.MinAmountOut.Int64() != 1_900_000 {
			t.Errorf("BelowMinimum%+v, %v; want the decayed 1,900,000", got, err)
		}
		w.warpTo(s + 100)
		w.refused(w.filler, nil, fillCalldata(t, o, big.NewInt(999_999), common.Address{}), "BelowMinimum")
	})
}

func TestOpenRefusesAnInvertedDecay(t *testing.T) {
	w := newSwapWorld(t)
	s := w.now() + 1000
	rising := w.decaying(1_000_000, 1_000_001, s, s+10)
	w.refused(w.user, nil, openCalldata(t, rising), "DecayInverted")
	backwards := w.decaying(2_000_000, 1_000_000, s+10, s+9)
	w.refused(w.user, nil, openCalldata(t, backwards), "DecayInverted")
	// Equal amounts, and a window of no length, are an order without decay.
	w.open(w.user, w.decaying(1_000_000, 1_000_000, s+10, s+10))
}

// exclusive is w's order exclusive to filler until deadline, with the override bps.
func (w *swapWorld) exclusive(filler common.Address, deadline uint64, overrideBps int64) contracts.Order {
	o := w.order()
	o.MinAmountOut, o.StartAmountOut = big.NewInt(990_001), big.NewInt(990_001)
	o.ExclusiveFiller, o.ExclusivityDeadline = filler, deadline
	o.ExclusivityOverrideBps = big.NewInt(overrideBps)
	return o
}

func TestExclusivity(t *testing.T) {
	w := newSwapWorld(t)
	other, otherAddr := w.newAccount()
	w.Mint(t, w.tokenOut, otherAddr, times(amountIn, 10))
	w.approve(other, w.tokenOut, times(amountIn, 10))
	w.approve(w.filler, w.tokenOut, times(amountIn, 10))
	plain := big.NewInt(990_001)

	t.Run("no override: only the exclusive filler, until and at the deadline", func(t *testing.T) {
		d := w.now() + 100
		o := w.exclusive(w.fillAddr, d, 0)
		w.open(w.user, o)
		w.refused(other, nil, fillCalldata(t, o, amountIn, common.Address{}), "NoExclusiveOverride")
		w.warpTo(d)
		w.refused(other, nil, fillCalldata(t, o, amountIn, common.Address{}), "NoExclusiveOverride")
		w.wantOwed(o, w.fillAddr, 990_001)
		if _, err := settlement.Owed(o, otherAddr, d); !errors.Is(err, settlement.ErrExclusive) {
			t.Errorf("settlement.Owed for another filler at the deadline: %v; want ErrExclusive", err)
		}
		// The second after the deadline, anyone fills at the plain amount.
		w.warpTo(d + 1)
		w.wantOwed(o, otherAddr, 990_001)
		w.wantBalance(w.tokenOut, w.recipient, new(big.Int), "the recipient before the fill")
		w.transact(other, w.settlement, nil, fillCalldata(t, o, plain, common.Address{}))
		w.wantBalance(w.tokenOut, w.recipient, plain, "the recipient")
	})
	t.Run("no override: the exclusive filler fills at the plain amount", func(t *testing.T) {
		o := w.exclusive(w.fillAddr, w.now()+100, 0)
		w.open(w.user, o)
		w.transact(w.filler, w.settlement, nil, fillCalldata(t, o, plain, common.Address{}))
	})
	t.Run("an override: others pay it, rounded up", func(t *testing.T) {
		d := w.now() + 100
		o := w.exclusive(w.fillAddr, d, 300)
		w.open(w.user, o)
		// 990,001 x 1.03 = 1,019,701.03: 1,019,702 is owed.
		w.wantOwed(o, otherAddr, 1_019_702)
		w.wantOwed(o, w.fillAddr, 990_001)
		w.refused(other, nil, fillCalldata(t, o, big.NewInt(1_019_701), common.Address{}), "BelowMinimum")
		w.warpTo(d)
		w.wantOwed(o, otherAddr, 1_019_702)
		w.transact(other, w.settlement, nil, fillCalldata(t, o, big.NewInt(1_019_702), common.Address{}))
	})
	t.Run("after the deadline the override is gone", func(t *testing.T) {
		d := w.now() + 100
		o := w.exclusive(w.fillAddr, d, 300)
		w.open(w.user, o)
		w.warpTo(d + 1)
		w.wantOwed(o, otherAddr, 990_001)
	})
	t.Run("refused at open, and not resolved: an override above 100 %, an exclusivity past the deadline", func(t *testing.T) {
		o := w.exclusive(w.fillAddr, w.now()+100, 10_001)
		w.refused(w.user, nil, openCalldata(t, o), "ExclusivityOutOfBounds")
		w.callRefused(settlementABI.PackResolve(contracts.OnchainCrossChainOrder{
			FillDeadline: uint32(o.Deadline), OrderDataType: orderDataType, OrderData: encodeOrder(t, o),
		}), "ExclusivityOutOfBounds")
		late := w.exclusive(w.fillAddr, 0, 300)
		late.ExclusivityDeadline = late.Deadline + 1
		w.refused(w.user, nil, openCalldata(t, late), "ExclusivityOutOfBounds")
		// At the bounds: an override of exactly 100 %, an exclusivity to the order's deadline.
		edge := w.exclusive(w.fillAddr, 0, 10_000)
		edge.ExclusivityDeadline = edge.Deadline
		w.open(w.user, edge)
		w.wantOwed(edge, otherAddr, 1_980_002)
	})
	t.Run("no exclusive filler: a deadline alone binds no one", func(t *testing.T) {
		o := w.exclusive(common.Address{}, w.now()+100, 0)
		w.open(w.user, o)
		w.wantOwed(o, otherAddr, 990_001)
		w.transact(other, w.settlement, nil, fillCalldata(t, o, plain, common.Address{}))
	})
}

// withFee is o with an integrator fee of fee units of its input, to recipient.
func withFee(o contracts.Order, fee int64, recipient common.Address) contracts.Order {
	o.FeeAmount, o.FeeRecipient = big.NewInt(fee), recipient
	return o
}

func TestIntegratorFee(t *testing.T) {
	integrator := common.HexToAddress("0x00000000000000000000000000000000000fee01")

	t.Run("a swap credits the fee at its fill, once; the integrator claims it", func(t *testing.T) {
		w := newSwapWorld(t)
		integratorKey, integrator := w.newAccount()
		o := withFee(w.order(), 2_500, integrator)
		id, _ := w.open(w.user, o)
		r := w.fill(w.filler, o, minOut, common.Address{})
		w.wantBalance(w.tokenIn, w.fillAddr, big.NewInt(997_500), "the filler")
		w.wantFeesOwed(w.tokenIn, integrator, 2_500)
		w.wantBalance(w.tokenIn, w.settlement, big.NewInt(2_500), "the settlement contract, holding the fee")
		credited := oneEventOf(t, r, w.settlement, settlementABI.UnpackFeeCreditedEvent)
		if credited.OrderId != id || credited.Recipient != integrator || credited.Token != w.tokenIn || credited.Amount.Int64() != 2_500 {
			t.Errorf("FeeCredited%+v", credited)
		}
		// Only the recipient's own claim pays it, once.
		w.refused(w.filler, nil, settlementABI.PackClaimFees(w.tokenIn), "NothingToClaim")
		claim := w.transact(integratorKey, w.settlement, nil, settlementABI.PackClaimFees(w.tokenIn))
		w.wantBalance(w.tokenIn, integrator, big.NewInt(2_500), "the integrator after its claim")
		w.wantBalance(w.tokenIn, w.settlement, new(big.Int), "the settlement contract after the claim")
		if ev := oneEventOf(t, claim, w.settlement, settlementABI.UnpackFeesClaimedEvent); ev.Recipient != integrator || ev.Amount.Int64() != 2_500 {
			t.Errorf("FeesClaimed%+v", ev)
		}
		w.refused(integratorKey, nil, settlementABI.PackClaimFees(w.tokenIn), "NothingToClaim")
		settled := oneEventOf(t, r, w.settlement, settlementABI.UnpackSettledEvent)
		if settled.AmountIn.Int64() != 997_500 {
			t.Errorf("Settled amount %s; want the escrow less the fee", settled.AmountIn)
		}
	})
	t.Run("no fee, no FeePaid", func(t *testing.T) {
		w := newSwapWorld(t)
		o := w.order()
		w.open(w.user, o)
		r := w.fill(w.filler, o, minOut, common.Address{})
		wantNoEvent(t, r, w.settlement, settlementABI.UnpackFeeCreditedEvent)
		w.wantBalance(w.tokenIn, w.fillAddr, amountIn, "the filler")
	})
	t.Run("a refund returns the whole input and pays no fee", func(t *testing.T) {
		w := newSwapWorld(t)
		o := withFee(w.order(), 2_500, integrator)
		w.open(w.user, o)
		w.warpTo(o.Deadline + refundDelay + 1)
		w.transact(w.user, w.settlement, nil, settlementABI.PackRefund(o))
		w.wantBalance(w.tokenIn, w.userAddr, times(amountIn, 10), "the user")
		w.wantFeesOwed(w.tokenIn, integrator, 0)
	})
	t.Run("refused at open: a fee of the whole input, or with no recipient", func(t *testing.T) {
		w := newSwapWorld(t)
		args := w.refused(w.user, nil, openCalldata(t, withFee(w.order(), amountIn.Int64(), integrator)), "FeeTooHigh")
		if got, err := settlementABI.UnpackFeeTooHighError(args); err != nil || got.FeeAmount.Cmp(amountIn) != 0 {
			t.Errorf("FeeTooHigh%+v, %v", got, err)
		}
		w.refused(w.user, nil, openCalldata(t, withFee(w.order(), amountIn.Int64()+1, integrator)), "FeeTooHigh")
		w.refused(w.user, nil, openCalldata(t, withFee(w.order(), 1, common.Address{})), "NoFeeRecipient")
		// The largest fee there is: all of the input but one unit.
		w.open(w.user, withFee(w.order(), amountIn.Int64()-1, integrator))
	})
}

func TestBridgeFeeIsCreditedAtSettle(t *testing.T) {
	attester := newKey(t)
	attesterAddr := crypto.PubkeyToAddress(attester.PublicKey)
	origin := newChain(t, 1337, attesterAddr)
	dest := newChain(t, 31338, attesterAddr)
	user, userAddr := origin.newAccount()
	tokenIn := origin.deployToken("IN")
	origin.Mint(t, tokenIn, userAddr, amountIn)
	filler, fillerAddr := dest.newAccount()
	tokenOut := dest.deployToken("OUT")
	dest.Mint(t, tokenOut, fillerAddr, amountIn)
	integrator := common.HexToAddress("0x00000000000000000000000000000000000fee02")

	o := withFee(origin.bridgeOrder(userAddr, bystander, tokenIn, tokenOut, dest.ID, dest.settlement), 10_000, integrator)
	origin.open(user, o)
	dest.fill(filler, o, minOut, common.Address{})
	dest.wantBalance(tokenOut, integrator, new(big.Int), "the integrator on the destination chain")
	sig := origin.attestHere(attester, o, fillerAddr, minOut)
	r := origin.transact(user, origin.settlement, nil, settlementABI.PackSettle(o, fillerAddr, minOut, sig))
	origin.wantBalance(tokenIn, fillerAddr, big.NewInt(990_000), "the filler on the origin chain")
	origin.wantFeesOwed(tokenIn, integrator, 10_000)
	if paid := oneEventOf(t, r, origin.settlement, settlementABI.UnpackFeeCreditedEvent); paid.Amount.Int64() != 10_000 {
		t.Errorf("FeeCredited %s", paid.Amount)
	}
}

// A fee recipient that cannot receive (here: one the input token blocklists) holds up nothing: the
// fee is credited, the filler is paid at settle, and only the recipient's own claim fails.
func TestAFeeRecipientThatCannotReceiveHoldsUpNoPayout(t *testing.T) {
	attester := newKey(t)
	attesterAddr := crypto.PubkeyToAddress(attester.PublicKey)
	origin := newChain(t, 1337, attesterAddr)
	dest := newChain(t, 31338, attesterAddr)
	user, userAddr := origin.newAccount()
	tokenIn := origin.deploy("BlocklistToken", contracts.BlocklistTokenMetaData.Bin, nil)
	origin.Mint(t, tokenIn, userAddr, amountIn)
	blocked, blockedAddr := origin.newAccount()
	origin.fund(blockedAddr)
	origin.transact(origin.Funder, tokenIn, nil, blocklistABI.PackSetBlocked(blockedAddr, true))
	filler, fillerAddr := dest.newAccount()
	tokenOut := dest.deployToken("OUT")
	dest.Mint(t, tokenOut, fillerAddr, amountIn)

	o := withFee(origin.bridgeOrder(userAddr, bystander, tokenIn, tokenOut, dest.ID, dest.settlement), 10_000, blockedAddr)
	origin.open(user, o)
	dest.fill(filler, o, minOut, common.Address{})
	sig := origin.attestHere(attester, o, fillerAddr, minOut)
	origin.transact(user, origin.settlement, nil, settlementABI.PackSettle(o, fillerAddr, minOut, sig))
	origin.wantBalance(tokenIn, fillerAddr, big.NewInt(990_000), "the filler")
	origin.wantFeesOwed(tokenIn, blockedAddr, 10_000)
	if _, err := bind.Transact(origin.bound(origin.settlement), origin.opts(blocked, nil), settlementABI.PackClaimFees(tokenIn)); err == nil {
		origin.Backend.Commit()
		t.Error("a blocklisted recipient's claim went through")
	}
}

func (c *testChain) wantFeesOwed(token, recipient common.Address, want int64) {
	c.t.Helper()
	got := get(c, c.settlement, settlementABI.PackFeesOwed(token, recipient), settlementABI.UnpackFeesOwed)
	if got.Cmp(big.NewInt(want)) != 0 {
		c.t.Errorf("feesOwed[%s][%s] = %s; want %d", token, recipient, got, want)
	}
}

func TestNativeDrop(t *testing.T) {
	drop := big.NewInt(3e15) // 0.003 ETH of gas on arrival

	t.Run("with an ERC-20 output: exactly the drop as value, once", func(t *testing.T) {
		w := newSwapWorld(t)
		w.fund(w.fillAddr)
		o := w.order()
		o.NativeDropAmount = drop
		w.open(w.user, o)
		w.approve(w.filler, w.tokenOut, minOut)
		fill := fillCalldata(t, o, minOut, common.Address{})
		w.refused(w.filler, nil, fill, "WrongValue")
		w.refused(w.filler, plus(drop, -1), fill, "WrongValue")
		w.refused(w.filler, plus(drop, 1), fill, "WrongValue")
		w.transact(w.filler, w.settlement, drop, fill)
		w.wantNative(w.recipient, drop)
		w.wantBalance(w.tokenOut, w.recipient, minOut, "the recipient")
		w.refused(w.filler, drop, fill, "AlreadyFilled")
	})
	t.Run("with a native output: the output and the drop as value", func(t *testing.T) {
		w := newSwapWorld(t)
		w.fund(w.fillAddr)
		o := w.swapOrder(w.userAddr, w.recipient, w.tokenIn, native)
		o.NativeDropAmount = drop
		w.open(w.user, o)
		fill := fillCalldata(t, o, minOut, common.Address{})
		w.refused(w.filler, minOut, fill, "WrongValue")
		w.transact(w.filler, w.settlement, new(big.Int).Add(minOut, drop), fill)
		w.wantNative(w.recipient, new(big.Int).Add(minOut, drop))
	})
}

func (c *testChain) wantNative(holder common.Address, want *big.Int) {
	c.t.Helper()
	got, err := c.Backend.Client().BalanceAt(t0, holder, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	if got.Cmp(want) != 0 {
		c.t.Errorf("%s holds %s wei; want %s", holder, got, want)
	}
}

// ERC-7683's resolution: the filler spends at most the decay's start amount and the native drop,
// and receives the escrow less the fee.
func TestResolveNamesTheMarketTerms(t *testing.T) {
	w := newSwapWorld(t)
	s := w.now() + 1000
	o := withFee(w.decaying(2_000_000, 1_000_000, s, s+100), 2_500, bystander)
	o.NativeDropAmount = big.NewInt(7)
	r := get(w.testChain, w.settlement, settlementABI.PackResolve(contracts.OnchainCrossChainOrder{
		FillDeadline: uint32(o.Deadline), OrderDataType: orderDataType, OrderData: encodeOrder(t, o),
	}), settlementABI.UnpackResolve)
	if len(r.MaxSpent) != 2 || r.MaxSpent[0].Amount.Int64() != 2_000_000 || r.MaxSpent[0].Token != word(w.tokenOut) ||
		r.MaxSpent[1].Amount.Int64() != 7 || r.MaxSpent[1].Token != ([32]byte{}) || r.MaxSpent[1].Recipient != word(w.recipient) {
		t.Errorf("maxSpent = %+v", r.MaxSpent)
	}
	if len(r.MinReceived) != 1 || r.MinReceived[0].Amount.Int64() != 997_500 {
		t.Errorf("minReceived = %+v", r.MinReceived)
	}
	// A filler without the exclusivity may have to pay the override: maxSpent says so.
	o.ExclusiveFiller, o.ExclusivityDeadline, o.ExclusivityOverrideBps = w.fillAddr, s, big.NewInt(300)
	r = get(w.testChain, w.settlement, settlementABI.PackResolve(contracts.OnchainCrossChainOrder{
		FillDeadline: uint32(o.Deadline), OrderDataType: orderDataType, OrderData: encodeOrder(t, o),
	}), settlementABI.UnpackResolve)
	if r.MaxSpent[0].Amount.Int64() != 2_060_000 {
		t.Errorf("maxSpent with a 3 %% override = %s; want 2,060,000", r.MaxSpent[0].Amount)
	}
	// An order open would refuse does not resolve.
	o.FeeAmount = new(big.Int).Set(o.AmountIn)
	w.callRefused(settlementABI.PackResolve(contracts.OnchainCrossChainOrder{
		FillDeadline: uint32(o.Deadline), OrderDataType: orderDataType, OrderData: encodeOrder(t, o),
	}), "FeeTooHigh")
	plain := get(w.testChain, w.settlement, settlementABI.PackResolve(contracts.OnchainCrossChainOrder{
		FillDeadline: uint32(w.order().Deadline), OrderDataType: orderDataType, OrderData: encodeOrder(t, w.order()),
	}), settlementABI.UnpackResolve)
	if len(plain.MaxSpent) != 1 || plain.MinReceived[0].Amount.Cmp(amountIn) != 0 {
		t.Errorf("a plain order resolves to maxSpent %+v, minReceived %+v", plain.MaxSpent, plain.MinReceived)
	}
}

// t0 is the context of the tests' calls.
var t0 = context.Background()

// minedAt sends calldata from key (a fixed gas limit, no estimate) in the block whose timestamp is
// at, and reports whether it succeeded.
func (c *testChain) minedAt(key *ecdsa.PrivateKey, value *big.Int, calldata []byte, at uint64) bool {
	c.t.Helper()
	c.warpTo(at - 1)
	r := c.sendFixed(key, value, calldata)
	if got := c.blockTime(r); got != at {
		c.t.Fatalf("mined at %d; want %d", got, at)
	}
	return r.Status == types.ReceiptStatusSuccessful
}

// Each deadline's own second still counts: an order opens, and fills, in the block at its
// deadline, and a gasless order opens in the block at its open deadline, which may equal its fill
// deadline. (The second after is refused, by TestOpenRefusals, TestFillRefusals and
// TestGaslessRefusals.)
func TestDeadlinesIncludeTheirLastSecond(t *testing.T) {
	t.Run("open and fill at the deadline", func(t *testing.T) {
		w := newSwapWorld(t)
		o := w.order()
		w.approve(w.user, w.tokenIn, amountIn)
		if !w.minedAt(w.user, nil, openCalldata(t, o), o.Deadline) {
			t.Fatal("open in the block at the deadline failed")
		}
		w.wantStatus(idOf(t, o), statusOpened)

		other := w.order()
		other.Deadline = w.now() + 100
		w.open(w.user, other)
		w.approve(w.filler, w.tokenOut, minOut)
		if !w.minedAt(w.filler, nil, fillCalldata(t, other, minOut, common.Address{}), other.Deadline) {
			t.Fatal("fill in the block at the deadline failed")
		}
		w.wantStatus(idOf(t, other), statusSettled)
	})
	t.Run("openFor at the open deadline, equal to the fill deadline", func(t *testing.T) {
		w := newGaslessWorld(t)
		o := w.order()
		g, err := settlement.Gasless(o, o.Deadline) // openDeadline == fillDeadline
		if err != nil {
			t.Fatal(err)
		}
		sig := signTyped(t, w.user, w.typedData(g))
		if !w.minedAt(w.filler, nil, openForCalldata(g, sig), uint64(g.OpenDeadline)) {
			t.Fatal("openFor in the block at its open deadline failed")
		}
		w.wantStatus(idOf(t, o), statusOpened)
	})
}

// The gas of a swap's fill with every market term in play (inside a decay window, by the
// exclusive filler, a fee paid out, a native drop) beside a plain order's, logged for docs.
func TestGasOfMarketTerms(t *testing.T) {
	w := newSwapWorld(t)
	w.fund(w.fillAddr)
	w.approve(w.filler, w.tokenOut, times(amountIn, 10))
	var plain, market []uint64
	for range 3 {
		o := w.order()
		w.open(w.user, o)
		plain = append(plain, w.transact(w.filler, w.settlement, nil, fillCalldata(t, o, minOut, common.Address{})).GasUsed)

		s := w.now()
		m := withFee(w.decaying(2_000_000, minOut.Int64(), s, s+600), 2_500, bystander)
		m.ExclusiveFiller, m.ExclusivityDeadline, m.ExclusivityOverrideBps = w.fillAddr, s+600, big.NewInt(100)
		m.NativeDropAmount = big.NewInt(1e15)
		w.open(w.user, m)
		market = append(market, w.transact(w.filler, w.settlement, m.NativeDropAmount,
			fillCalldata(t, m, big.NewInt(2_000_000), common.Address{})).GasUsed)
	}
	t.Logf("gas of a swap's fill: plain %v; decay, exclusivity, fee and native drop %v", plain, market)
}
