package filler

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/go-logr/logr"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// An order the filler cannot serve (not its chain, past its deadline, below its price) is left
// for good; one whose fill failed on a node that did not answer is tried again at the next step.
func TestOrdersSkippedForGoodOrTriedAgain(t *testing.T) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	settler := common.HexToAddress("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512")
	down, err := ethclient.Dial("http://127.0.0.1:1") // nothing listens: every call fails at once
	if err != nil {
		t.Fatal(err)
	}
	f := &Filler{Key: key, Quote: AtMinimum, Log: logr.Discard(),
		Chains: map[uint64]*Chain{1338: {Client: down, ID: big.NewInt(1338), Settlement: settler}}}
	if err := f.Step(context.Background()); err == nil {
		t.Fatal("a step on a node that does not answer succeeded")
	}
	order := func(dest int64, deadline time.Time) settlement.Order {
		return settlement.Order{OriginChainId: big.NewInt(1337), DestinationChainId: big.NewInt(dest), DestinationSettler: settler,
			TokenOut: settlement.Native, MinAmountOut: big.NewInt(1), Deadline: uint64(deadline.Unix())} //nolint:gosec // a test time
	}
	later := time.Now().Add(time.Hour)
	for name, tt := range map[string]struct {
		order settlement.Order
		retry bool
	}{
		"another chain":       {order(1, later), false},
		"past its deadline":   {order(1338, time.Now().Add(-time.Minute)), false},
		"a node that is down": {order(1338, later), true},
	} {
		id := common.BytesToHash([]byte(name))
		f.try(context.Background(), id, tt.order)
		if _, retried := f.retry[id]; retried != tt.retry || f.done.has(id) == tt.retry {
			t.Errorf("%s: kept for a retry %v, done %v; want a retry %v", name, retried, f.done.has(id), tt.retry)
		}
	}
}

func TestPremiumPricesAboveTheMinimum(t *testing.T) {
	o := settlement.Order{MinAmountOut: big.NewInt(1_000_000)}
	for bps, want := range map[uint]int64{0: 1_000_000, 25: 1_002_500} {
		if got, ok := Premium(bps)(o); !ok || got.Int64() != want {
			t.Errorf("Premium(%d) = %v, %v; want %d", bps, got, ok, want)
		}
	}
	if o.MinAmountOut.Int64() != 1_000_000 {
		t.Error("the quote changed the order's minimum")
	}
}

// An order that owes more than the filler's price now (its decay has not come down to it, or
// another filler's exclusivity lasts) is tried again later, not left for good; one that owes at
// most the price is filled at what it owes.
func TestTheFillerWaitsForTheDecayAndTheExclusivity(t *testing.T) {
	c := newGaslessChain(t, 1338)
	key := newTestKey(t)
	me := crypto.PubkeyToAddress(key.PublicKey)
	c.dev.Mint(t, c.token, me, big.NewInt(10_000_000))
	f := &Filler{Key: key, Quote: AtMinimum, Log: logr.Discard(), Chains: map[uint64]*Chain{1338: c.filler}}
	head, err := c.filler.Client.HeaderByNumber(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	now := head.Time
	order := func() settlement.Order {
		return settlement.Order{OriginChainId: big.NewInt(1337), DestinationChainId: big.NewInt(1338), DestinationSettler: c.settlement,
			TokenOut: c.token, StartAmountOut: big.NewInt(2_000_000), MinAmountOut: big.NewInt(1_000_000),
			DecayStart: now + 3600, DecayEnd: now + 7200, Deadline: now + 10_000}
	}
	var skipped skip
	if _, _, err := f.worth(t.Context(), order()); err == nil || errors.As(err, &skipped) {
		t.Errorf("an order owing twice the price: %v; want a retry, not a skip", err)
	}
	exclusive := order()
	exclusive.DecayStart, exclusive.DecayEnd = 0, 0
	exclusive.ExclusiveFiller, exclusive.ExclusivityDeadline = common.HexToAddress("0x0000000000000000000000000000000000000e11"), now+3600
	if _, _, err := f.worth(t.Context(), exclusive); err == nil || errors.As(err, &skipped) {
		t.Errorf("an order exclusive to another filler: %v; want a retry, not a skip", err)
	}
	reached := order()
	reached.DecayStart, reached.DecayEnd = 0, 0 // at its floor: what the filler asks
	if _, amount, err := f.worth(t.Context(), reached); err != nil || amount.Int64() != 1_000_000 {
		t.Errorf("an order at the filler's price: %v, %v; want it filled at 1,000,000", amount, err)
	}
}

// In a market another filler may fill an order first (the winner, while this one waited for the
// decay): an order already filled on its destination chain is left for good, not filled again.
func TestAnOrderFilledByAnotherFillerIsLeft(t *testing.T) {
	c := newGaslessChain(t, 1338)
	winner, other := newTestKey(t), newTestKey(t)
	fillers := map[*ecdsa.PrivateKey]*Filler{}
	for _, key := range []*ecdsa.PrivateKey{winner, other} {
		addr := crypto.PubkeyToAddress(key.PublicKey)
		c.dev.Mint(t, c.token, addr, big.NewInt(10_000_000))
		c.dev.SendValue(t, addr, big.NewInt(1e18))
		fillers[key] = &Filler{Key: key, Quote: AtMinimum, Log: logr.Discard(), Chains: map[uint64]*Chain{1338: c.filler}}
		fillers[key].Step(t.Context()) //nolint:errcheck // only to set the filler up
	}
	head, err := c.filler.Client.HeaderByNumber(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := settlement.Order{
		OriginChainId: big.NewInt(1337), DestinationChainId: big.NewInt(1338), DestinationSettler: c.settlement,
		Recipient: common.HexToAddress("0x000000000000000000000000000000000000bEEF"), TokenOut: c.token,
		AmountIn: big.NewInt(1_000_000), StartAmountOut: big.NewInt(1_000_000), MinAmountOut: big.NewInt(1_000_000),
		ExclusivityOverrideBps: new(big.Int), FeeAmount: new(big.Int), NativeDropAmount: new(big.Int), Deadline: head.Time + 3600,
	}
	id, err := settlement.ID(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := fillers[winner].fill(t.Context(), id, o); err != nil {
		t.Fatalf("the first fill: %v", err)
	}
	c.dev.Commit()
	var skipped skip
	if err := fillers[other].fill(t.Context(), id, o); !errors.As(err, &skipped) || !strings.Contains(err.Error(), crypto.PubkeyToAddress(winner.PublicKey).Hex()) {
		t.Errorf("a fill of an order the winner filled: %v; want it left for good, filled by the winner", err)
	}
	if n := len(fillers[other].Sent); n != 0 {
		t.Errorf("the other filler sent %d transactions; want none", n)
	}
}

// An exact output's order (start = minimum = the exact amount, exclusive to its winner without
// override) is filled by paying exactly the amount; a filler whose price, valuing the escrow,
// does not reach the amount (the escrow does not cover its cost) leaves it for good; another
// filler waits out the exclusivity.
func TestAnExactOutputIsFilledWithExactlyTheAmount(t *testing.T) {
	c := newGaslessChain(t, 1338)
	key, other := newTestKey(t), newTestKey(t)
	me := crypto.PubkeyToAddress(key.PublicKey)
	c.dev.Mint(t, c.token, me, big.NewInt(10_000_000))
	c.dev.Mint(t, c.token, crypto.PubkeyToAddress(other.PublicKey), big.NewInt(10_000_000))
	// The filler delivers 2 base units of output per base unit of escrow.
	atRate := func(o settlement.Order) (*big.Int, bool) { return new(big.Int).Mul(o.AmountIn, big.NewInt(2)), true }
	f := &Filler{Key: key, Quote: atRate, Log: logr.Discard(), Chains: map[uint64]*Chain{1338: c.filler}}
	head, err := c.filler.Client.HeaderByNumber(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	exact := big.NewInt(1_000_001)
	order := func(escrow int64, exclusive common.Address) settlement.Order {
		return settlement.Order{OriginChainId: big.NewInt(1337), DestinationChainId: big.NewInt(1338), DestinationSettler: c.settlement,
			TokenOut: c.token, AmountIn: big.NewInt(escrow), StartAmountOut: exact, MinAmountOut: exact,
			DecayStart: head.Time + 30, DecayEnd: head.Time + 30, ExclusiveFiller: exclusive, ExclusivityDeadline: head.Time + 30,
			ExclusivityOverrideBps: new(big.Int), Deadline: head.Time + 3600}
	}
	if _, amount, err := f.worth(t.Context(), order(500_001, me)); err != nil || amount.Cmp(exact) != 0 {
		t.Errorf("an escrow that covers the exact output: %v, %v; want it filled with exactly %s", amount, err, exact)
	}
	var skipped skip
	if _, _, err := f.worth(t.Context(), order(500_000, me)); !errors.As(err, &skipped) {
		t.Errorf("an escrow one base unit short of the filler's cost: %v; want it left for good", err)
	}
	g := &Filler{Key: other, Quote: atRate, Log: logr.Discard(), Chains: map[uint64]*Chain{1338: c.filler}}
	if _, _, err := g.worth(t.Context(), order(500_001, me)); err == nil || errors.As(err, &skipped) {
		t.Errorf("another filler during the exclusivity: %v; want a retry once it ends", err)
	}
}
