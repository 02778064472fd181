package intent

import (
	"context"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// fakeMarket answers every request for quotes with one answer and counts the requests.
type fakeMarket struct {
	mu      sync.Mutex
	answer  MarketAnswer
	queries []MarketQuery
}

func (m *fakeMarket) Quote(_ context.Context, q MarketQuery) MarketAnswer {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.queries = append(m.queries, q)
	return m.answer
}

func (m *fakeMarket) asked() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.queries)
}

var winnerPayout = common.HexToAddress("0x00000000000000000000000000000000000000f1")

func TestMarketTerms(t *testing.T) {
	floor, feed := big.NewInt(1_000), big.NewInt(1_050)
	plan := Plan{AmountOut: feed, MinAmountOut: floor, Deadline: fixedNow.Add(10 * time.Minute)}
	now := fixedNow.Unix()
	cfg := AuctionConfig{Exclusivity: 30 * time.Second, DecayWindow: time.Minute, OverrideBps: 25}

	t.Run("a winner holds its quote for the exclusivity, then it decays", func(t *testing.T) {
		got := cfg.marketTerms(plan, MarketAnswer{Asked: 3, Quotes: 2, Winner: "a", WinnerAddress: winnerPayout, AmountOut: big.NewInt(1_080)}, fixedNow)
		if got.StartAmountOut.Int64() != 1_080 || got.ExclusiveFiller != winnerPayout || got.Winner != "a" || got.OverrideBps != 25 {
			t.Fatalf("terms = %+v", got)
		}
		if got.ExclusivityDeadline != uint64(now+30) || got.DecayStart != uint64(now+30) || got.DecayEnd != uint64(now+90) {
			t.Fatalf("times = exclusivity %d, decay %d..%d; want %d, %d..%d", got.ExclusivityDeadline, got.DecayStart, got.DecayEnd, now+30, now+30, now+90)
		}
		if got.Asked != 3 || got.Quotes != 2 {
			t.Fatalf("counts = %d asked, %d quotes", got.Asked, got.Quotes)
		}
	})
	t.Run("no winner: an open auction from the feed from now", func(t *testing.T) {
		got := cfg.marketTerms(plan, MarketAnswer{Asked: 2}, fixedNow)
		if got.StartAmountOut.Cmp(feed) != 0 || got.ExclusiveFiller != (common.Address{}) || got.ExclusivityDeadline != 0 || got.OverrideBps != 0 {
			t.Fatalf("terms = %+v", got)
		}
		if got.DecayStart != uint64(now) || got.DecayEnd != uint64(now+60) {
			t.Fatalf("decay %d..%d, want %d..%d", got.DecayStart, got.DecayEnd, now, now+60)
		}
	})
	t.Run("a winner below the floor does not win", func(t *testing.T) {
		got := cfg.marketTerms(plan, MarketAnswer{Winner: "a", WinnerAddress: winnerPayout, AmountOut: big.NewInt(999)}, fixedNow)
		if got.ExclusiveFiller != (common.Address{}) || got.StartAmountOut.Cmp(feed) != 0 {
			t.Fatalf("terms = %+v", got)
		}
	})
	t.Run("a winner at exactly the floor wins", func(t *testing.T) {
		got := cfg.marketTerms(plan, MarketAnswer{Winner: "a", WinnerAddress: winnerPayout, AmountOut: big.NewInt(1_000)}, fixedNow)
		if got.ExclusiveFiller != winnerPayout || got.StartAmountOut.Cmp(floor) != 0 {
			t.Fatalf("terms = %+v", got)
		}
	})
	t.Run("the decay ends by the order's deadline, the exclusivity by half the time to it", func(t *testing.T) {
		short := plan
		short.Deadline = fixedNow.Add(40 * time.Second)
		got := cfg.marketTerms(short, MarketAnswer{Winner: "a", WinnerAddress: winnerPayout, AmountOut: big.NewInt(1_080)}, fixedNow)
		if got.DecayEnd != uint64(now+40) || got.ExclusivityDeadline != uint64(now+20) {
			t.Fatalf("decay end %d, exclusivity %d; want %d, %d", got.DecayEnd, got.ExclusivityDeadline, now+40, now+20)
		}
		short.Deadline = fixedNow.Add(61 * time.Second) // half is 30.5 s: the configured 30 s holds
		if got := cfg.marketTerms(short, MarketAnswer{Winner: "a", WinnerAddress: winnerPayout, AmountOut: big.NewInt(1_080)}, fixedNow); got.ExclusivityDeadline != uint64(now+30) {
			t.Fatalf("exclusivity %d, want %d", got.ExclusivityDeadline, now+30)
		}
	})
	t.Run("a quote above the ceiling (10% above the feed) does not win; at it, it does", func(t *testing.T) {
		if c := QuoteCeiling(feed); c.Int64() != 1_155 {
			t.Fatalf("ceiling of %s = %s, want 1155", feed, c)
		}
		got := cfg.marketTerms(plan, MarketAnswer{Winner: "a", WinnerAddress: winnerPayout, AmountOut: big.NewInt(1_156)}, fixedNow)
		if got.ExclusiveFiller != (common.Address{}) || got.StartAmountOut.Cmp(feed) != 0 {
			t.Fatalf("terms = %+v", got)
		}
		huge := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
		if got := cfg.marketTerms(plan, MarketAnswer{Winner: "a", WinnerAddress: winnerPayout, AmountOut: huge}, fixedNow); got.ExclusiveFiller != (common.Address{}) {
			t.Fatalf("a quote of 2^256-1 won: %+v", got)
		}
		if got := cfg.marketTerms(plan, MarketAnswer{Winner: "a", WinnerAddress: winnerPayout, AmountOut: big.NewInt(1_155)}, fixedNow); got.ExclusiveFiller != winnerPayout {
			t.Fatalf("a quote at the ceiling lost: %+v", got)
		}
	})
	t.Run("the start is never below the floor", func(t *testing.T) {
		low := plan
		low.AmountOut = big.NewInt(900) // a client's minAmountOut above the feed's output
		got := cfg.marketTerms(low, MarketAnswer{}, fixedNow)
		if got.StartAmountOut.Cmp(floor) != 0 {
			t.Fatalf("start = %s, want the floor %s", got.StartAmountOut, floor)
		}
	})
}

func TestTheOrderEncodesItsMarketTerms(t *testing.T) {
	market := &fakeMarket{}
	f := newFirmFixture(t, nil)
	f.svc.auction.Market = market
	market.answer = MarketAnswer{Asked: 2, Quotes: 1, Winner: "filler-a", WinnerAddress: winnerPayout}
	sim := f.simulate(t, f.req)
	if sim.Auction == nil || sim.Auction.Type != AuctionOpen {
		t.Fatalf("a winner without an amount won: auction %+v", sim.Auction)
	}

	// The simulation asks the market once; its winner's quote is above the feed's output.
	quoted, _ := ParseAmount(sim.Quote.AmountOut, 18)
	quoted.Add(quoted, big.NewInt(1_000_000))
	market.answer.AmountOut = quoted
	sim = f.simulate(t, f.req)
	if market.asked() != 2 {
		t.Fatalf("the market was asked %d times for two simulations", market.asked())
	}
	if q := market.queries[1]; q.AmountIn.Sign() <= 0 || q.Floor.Sign() <= 0 || q.From.ID != "eip155:1" || q.TokenOut.Address != "eip155:1:"+wethMainnet {
		t.Fatalf("query = %+v", q)
	}
	a := sim.Auction
	if a == nil || a.Type != AuctionExclusive || a.ExclusiveFiller != winnerPayout.Hex() || a.Quotes != 1 || a.FillersAsked != 2 {
		t.Fatalf("auction = %+v", a)
	}
	if a.StartAmountOut != FormatAmount(quoted, 18) || a.MinAmountOut != sim.Quote.MinAmountOut {
		t.Fatalf("auction amounts %s..%s, want %s..%s", a.StartAmountOut, a.MinAmountOut, FormatAmount(quoted, 18), sim.Quote.MinAmountOut)
	}

	// A create with the simulationId keeps the winner without asking again, from its own time.
	f.clock.SetTime(fixedNow.Add(5 * time.Second))
	firm := f.req
	firm.SimulationID = sim.SimulationID
	plan, err := f.create(t, "alice", firm)
	if err != nil {
		t.Fatal(err)
	}
	if market.asked() != 2 {
		t.Fatalf("a create with a simulationId asked the market again")
	}
	order, err := settlement.OrderOfOpenData(common.FromHex(plan.Tx.Data))
	if err != nil {
		t.Fatal(err)
	}
	deadline := uint64(fixedNow.Add(5*time.Second + DefaultExclusivity).Unix())
	if order.ExclusiveFiller != winnerPayout || order.StartAmountOut.Cmp(quoted) != 0 || order.ExclusivityDeadline != deadline || order.DecayStart != deadline {
		t.Fatalf("order terms: filler %s start %s exclusivity %d decayStart %d; want %s %s %d %d",
			order.ExclusiveFiller, order.StartAmountOut, order.ExclusivityDeadline, order.DecayStart, winnerPayout, quoted, deadline, deadline)
	}
	if order.DecayEnd != deadline+uint64(DefaultDecayWindow/time.Second) {
		t.Fatalf("decayEnd %d", order.DecayEnd)
	}

	// A create without a simulationId asks for itself.
	if _, err := f.create(t, "alice", f.req); err != nil {
		t.Fatal(err)
	}
	if market.asked() != 3 {
		t.Fatalf("a create without a simulationId did not ask the market")
	}
}

func TestATransferAsksNoMarket(t *testing.T) {
	market := &fakeMarket{answer: MarketAnswer{Winner: "a", WinnerAddress: winnerPayout, AmountOut: big.NewInt(1)}}
	svc := newTestService(t, func(c *Config) { c.Auction.Market = market })
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "10"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
	if err != nil {
		t.Fatal(err)
	}
	if market.asked() != 0 || res.Auction != nil {
		t.Fatalf("a transfer asked the market %d times, auction %+v", market.asked(), res.Auction)
	}
}
