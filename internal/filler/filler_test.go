package filler

import (
	"context"
	"math/big"
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
