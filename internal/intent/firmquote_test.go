package intent

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

func quoteAt(id string, expires time.Time) SimulatedQuote {
	return SimulatedQuote{ID: id, Account: "alice", ExpiresAt: expires}
}

func TestMemoryQuotesExpireAtExpiresAt(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(fixedNow)
	m := NewMemoryQuotes(10, clk)
	ctx := context.Background()
	if err := m.Put(ctx, quoteAt("sim_a", fixedNow.Add(time.Minute))); err != nil {
		t.Fatal(err)
	}
	clk.SetTime(fixedNow.Add(time.Minute - time.Millisecond))
	if _, found, _ := m.Get(ctx, "sim_a"); !found {
		t.Fatal("a quote is gone before its expiresAt")
	}
	clk.SetTime(fixedNow.Add(time.Minute))
	if _, found, _ := m.Get(ctx, "sim_a"); found {
		t.Fatal("a quote is found at its expiresAt")
	}
	if m.Len() != 0 {
		t.Fatalf("an expired quote read is still held: %d entries", m.Len())
	}
	if _, found, _ := m.Get(ctx, "sim_unknown"); found {
		t.Fatal("an unknown id is found")
	}
}

func TestMemoryQuotesDropExpiredEntriesAndStayBounded(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(fixedNow)
	m := NewMemoryQuotes(3, clk)
	ctx := context.Background()
	for i := range 3 {
		_ = m.Put(ctx, quoteAt(fmt.Sprintf("sim_%d", i), fixedNow.Add(time.Minute)))
	}
	_ = m.Put(ctx, quoteAt("sim_3", fixedNow.Add(time.Minute)))
	if m.Len() != 3 {
		t.Fatalf("%d entries, want the bound 3", m.Len())
	}
	if _, found, _ := m.Get(ctx, "sim_0"); found {
		t.Fatal("the oldest entry was not dropped at the bound")
	}
	if _, found, _ := m.Get(ctx, "sim_3"); !found {
		t.Fatal("the newest entry is missing")
	}
	// A put after the others expired sweeps them: nothing expired is held.
	clk.SetTime(fixedNow.Add(2 * time.Minute))
	_ = m.Put(ctx, quoteAt("sim_4", fixedNow.Add(3*time.Minute)))
	if m.Len() != 1 {
		t.Fatalf("%d entries after expiry, want 1", m.Len())
	}
	// An already expired quote is not kept.
	_ = m.Put(ctx, quoteAt("sim_old", fixedNow))
	if m.Len() != 1 {
		t.Fatalf("an expired quote was kept: %d entries", m.Len())
	}
}

// firmFixture is a swap of 1000 USDC for WETH on mainnet, priced from a catalog the test changes.
type firmFixture struct {
	svc     *Service
	clock   *clocktesting.FakePassiveClock
	catalog fakeCatalog
	req     Request
}

func newFirmFixture(t *testing.T, store QuoteStore) *firmFixture {
	t.Helper()
	f := &firmFixture{clock: clocktesting.NewFakePassiveClock(fixedNow), catalog: testCatalog()}
	f.svc = newTestService(t, func(c *Config) {
		c.Catalog, c.Clock, c.Quotes = f.catalog, f.clock, store
	})
	f.req = Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob),
		Asset: pair("eip155:1", usdcMainnet, "eip155:1", wethMainnet), Amount: "1000"}
	return f
}

// setWETHPrice changes the price the service quotes with, as a TokenDefinition update would.
func (f *firmFixture) setWETHPrice(price string) {
	tok := f.catalog.tokens["eip155:1:"+wethMainnet]
	tok.PriceUSD = price
	f.catalog.tokens["eip155:1:"+wethMainnet] = tok
}

func (f *firmFixture) simulate(t *testing.T, r Request) SimulationResult {
	t.Helper()
	res, err := f.svc.Simulate(context.Background(), "alice", mustParse(t, r))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Valid || res.Quote == nil {
		t.Fatalf("simulation not valid or without a quote: %+v", res)
	}
	return res
}

func (f *firmFixture) create(t *testing.T, account string, r Request) (Plan, error) {
	t.Helper()
	nonce, err := NewNonce()
	if err != nil {
		t.Fatal(err)
	}
	return f.svc.Prepare(context.Background(), account, mustParse(t, r), nonce)
}

func orderMinimum(t *testing.T, plan Plan) *big.Int {
	t.Helper()
	data, err := hexutil.Decode(plan.Tx.Data)
	if err != nil {
		t.Fatal(err)
	}
	o, err := settlement.OrderOfOpenData(data)
	if err != nil {
		t.Fatal(err)
	}
	return o.MinAmountOut
}

func TestFirmQuoteKeepsTheSimulatedFiguresAfterPricesChanged(t *testing.T) {
	f := newFirmFixture(t, nil)
	sim := f.simulate(t, f.req)
	f.setWETHPrice("2000") // WETH cheaper: a fresh quote would promise more WETH
	f.svc.fees = FeeSchedule{Transfer: StepFee{}, Swap: StepFee{ProtocolBps: 100, SolverBps: 100}, Bridge: StepFee{ProtocolBps: 100, SolverBps: 100}}
	f.clock.SetTime(fixedNow.Add(DefaultQuoteTTL - time.Millisecond))

	fresh, err := f.create(t, "alice", f.req)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Quote().MinAmountOut == sim.Quote.MinAmountOut {
		t.Fatalf("the fixture does not change the quote: %s both times", sim.Quote.MinAmountOut)
	}

	firm := f.req
	firm.SimulationID = sim.SimulationID
	plan, err := f.create(t, "alice", firm)
	if err != nil {
		t.Fatal(err)
	}
	if got := *plan.Quote(); got != *sim.Quote {
		t.Fatalf("create keeps quote %+v, want the simulated %+v", got, *sim.Quote)
	}
	if plan.Fees != sim.EstimatedFees {
		t.Fatalf("create keeps fees %+v, want the simulated %+v", plan.Fees, sim.EstimatedFees)
	}
	want, _ := ParseAmount(sim.Quote.MinAmountOut, 18)
	if got := orderMinimum(t, plan); got.Cmp(want) != 0 {
		t.Fatalf("the order encodes minAmountOut %s, want the simulated %s", got, want)
	}
	if !plan.Valid {
		t.Fatalf("plan not valid: %v", plan.Errors)
	}
}

func TestFirmQuoteExpires(t *testing.T) {
	f := newFirmFixture(t, nil)
	sim := f.simulate(t, f.req)
	firm := f.req
	firm.SimulationID = sim.SimulationID
	f.clock.SetTime(sim.ExpiresAt)
	_, err := f.create(t, "alice", firm)
	if p := asProblem(t, err); p.Kind != KindQuoteExpired || p.Field != "simulationId" {
		t.Fatalf("create at expiresAt: %+v, want quote-expired", p)
	}
	unknown := f.req
	unknown.SimulationID = NewSimulationID(fixedNow)
	_, err = f.create(t, "alice", unknown)
	if p := asProblem(t, err); p.Kind != KindQuoteExpired {
		t.Fatalf("unknown simulation: %+v, want quote-expired", p)
	}
}

// The store may still hold an entry past its expiresAt (Redis's own clock, a replica's skew):
// the service judges expiry itself.
func TestFirmQuoteExpiryIsJudgedByTheService(t *testing.T) {
	store := &keepForever{MemoryQuotes: NewMemoryQuotes(10, nil)}
	f := newFirmFixture(t, store)
	sim := f.simulate(t, f.req)
	firm := f.req
	firm.SimulationID = sim.SimulationID
	f.clock.SetTime(sim.ExpiresAt.Add(time.Second))
	_, err := f.create(t, "alice", firm)
	if p := asProblem(t, err); p.Kind != KindQuoteExpired {
		t.Fatalf("create after expiresAt: %+v, want quote-expired", p)
	}
}

// keepForever never expires anything (its clock is real time, years before fixedNow).
type keepForever struct{ *MemoryQuotes }

func TestFirmQuoteMismatch(t *testing.T) {
	f := newFirmFixture(t, nil)
	deadline := fixedNow.Add(2 * time.Hour).Format(time.RFC3339)
	base := f.req
	base.Deadline = deadline
	sim := f.simulate(t, base)
	slippage := 100
	changes := map[string]func(r *Request){
		"amount":      func(r *Request) { r.Amount = "1001" },
		"to":          func(r *Request) { r.To = acct("eip155:1", alice) },
		"asset":       func(r *Request) { r.Asset = pair("eip155:1", usdcMainnet, "eip155:1", daiMainnet) },
		"deadline":    func(r *Request) { r.Deadline = fixedNow.Add(3 * time.Hour).Format(time.RFC3339) },
		"no deadline": func(r *Request) { r.Deadline = "" },
		"slippage":    func(r *Request) { r.SlippageBps = &slippage },
		"callData":    func(r *Request) { r.CallData = "0x1234" },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			r := base
			r.SimulationID = sim.SimulationID
			change(&r)
			_, err := f.create(t, "alice", r)
			if p := asProblem(t, err); p.Kind != KindQuoteMismatch {
				t.Fatalf("%+v, want quote-mismatch", p)
			}
		})
	}
	t.Run("same request spelled otherwise", func(t *testing.T) {
		r := base
		r.SimulationID = sim.SimulationID
		r.Amount = "1000.000"
		r.Deadline = fixedNow.Add(2 * time.Hour).In(time.FixedZone("CET", 3600)).Format(time.RFC3339)
		if _, err := f.create(t, "alice", r); err != nil {
			t.Fatalf("the same request in another spelling: %v", err)
		}
	})
	t.Run("another account", func(t *testing.T) {
		r := base
		r.SimulationID = sim.SimulationID
		_, err := f.create(t, "bob", r)
		if p := asProblem(t, err); p.Kind != KindQuoteExpired {
			t.Fatalf("%+v, want quote-expired (another account's simulation is not found)", p)
		}
	})
}

func TestClientMinAmountOut(t *testing.T) {
	f := newFirmFixture(t, nil)
	sim := f.simulate(t, f.req)
	serviceMin, _ := ParseAmount(sim.Quote.MinAmountOut, 18)
	above := FormatAmount(new(big.Int).Add(serviceMin, big.NewInt(1)), 18)
	for _, withSim := range []bool{false, true} {
		r := f.req
		if withSim {
			r.SimulationID = sim.SimulationID
		}
		r.MinAmountOut = above
		_, err := f.create(t, "alice", r)
		if p := asProblem(t, err); p.Kind != KindMinAmountOut || p.Field != "minAmountOut" || p.Details["minAmountOut"] != sim.Quote.MinAmountOut {
			t.Fatalf("simulationId %v, minAmountOut above the service's: %+v, want min-amount-out", withSim, p)
		}
		r.MinAmountOut = sim.Quote.MinAmountOut
		if _, err := f.create(t, "alice", r); err != nil {
			t.Fatalf("simulationId %v, minAmountOut equal to the service's: %v", withSim, err)
		}
	}
	r := f.req
	r.MinAmountOut = "0.0000000000000000001" // 19 decimals for an 18-decimal token
	_, err := f.create(t, "alice", r)
	if p := asProblem(t, err); p.Kind != KindValidationFailed || p.Field != "minAmountOut" {
		t.Fatalf("malformed minAmountOut: %+v, want validation-failed", p)
	}
}

// failingQuotes is a shared store that does not answer.
type failingQuotes struct{}

func (failingQuotes) Put(context.Context, SimulatedQuote) error {
	return errors.New("redis: i/o timeout")
}
func (failingQuotes) Get(context.Context, string) (SimulatedQuote, bool, error) {
	return SimulatedQuote{}, false, errors.New("redis: i/o timeout")
}

func TestFirmQuoteStoreUnavailable(t *testing.T) {
	f := newFirmFixture(t, failingQuotes{})
	sim := f.simulate(t, f.req)
	if !contains(sim.Warnings, WarningQuoteNotShared) {
		t.Fatalf("warnings %v, want %q", sim.Warnings, WarningQuoteNotShared)
	}
	r := f.req
	r.SimulationID = sim.SimulationID
	_, err := f.create(t, "alice", r)
	if p := asProblem(t, err); p.Kind != KindUnavailable {
		t.Fatalf("%+v, want service-unavailable", p)
	}
}

func TestSimulationIDIsChecked(t *testing.T) {
	r := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "1",
		SimulationID: "int_transfer_01J9Z3Q0S4M8V6X2T7K5N1R3PB"}
	_, err := ParseRequest(r)
	if p := asProblem(t, err); p.Kind != KindBadRequest || p.Field != "simulationId" {
		t.Fatalf("%+v, want bad-request on simulationId", p)
	}
}

// A large store is sharded: it holds exactly its bound in all, finds every entry it holds, drops
// the oldest of a shard first, and is safe for concurrent puts and gets.
func TestMemoryQuotesShardedBound(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(fixedNow)
	const bound = 5000
	m := NewMemoryQuotes(bound, clk)
	if len(m.shards) != quoteShards {
		t.Fatalf("%d shards, want %d", len(m.shards), quoteShards)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 2 * bound {
				id := fmt.Sprintf("sim_%d_%d", w, i)
				_ = m.Put(ctx, quoteAt(id, fixedNow.Add(time.Minute)))
				_, _, _ = m.Get(ctx, id)
			}
		})
	}
	wg.Wait()
	if m.Len() != bound {
		t.Fatalf("%d entries, want the bound %d", m.Len(), bound)
	}
	held := 0
	for w := range 4 {
		for i := range 2 * bound {
			if _, found, _ := m.Get(ctx, fmt.Sprintf("sim_%d_%d", w, i)); found {
				held++
			}
		}
	}
	if held != bound {
		t.Fatalf("%d entries found, want %d", held, bound)
	}
	// One shard past its share drops its own oldest.
	sh := &m.shards[0]
	oldest := sh.head.id
	for i := 0; ; i++ {
		id := fmt.Sprintf("new_%d", i)
		if m.shard(id) == sh {
			_ = m.Put(ctx, quoteAt(id, fixedNow.Add(time.Minute)))
			break
		}
	}
	if _, found, _ := m.Get(ctx, oldest); found {
		t.Fatal("the shard's oldest entry was not dropped at its share of the bound")
	}
	if m.Len() != bound {
		t.Fatalf("%d entries, want the bound %d", m.Len(), bound)
	}
}

// BenchmarkMemoryQuotesPut puts from parallel goroutines, as concurrent simulations do.
func BenchmarkMemoryQuotesPut(b *testing.B) {
	m := NewMemoryQuotes(DefaultMaxQuotes, nil)
	ctx := context.Background()
	expires := time.Now().Add(time.Hour)
	var n atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = m.Put(ctx, SimulatedQuote{ID: "sim_" + strconv.FormatInt(n.Add(1), 10), ExpiresAt: expires})
		}
	})
}

// The store keeps a quote as its JSON: what Get returns is what was put, every field.
func TestMemoryQuotesReturnWhatWasPut(t *testing.T) {
	m := NewMemoryQuotes(10, clocktesting.NewFakePassiveClock(fixedNow))
	q := SimulatedQuote{
		ID: "sim_full", Account: "alice", RequestHash: "abc", ExpiresAt: fixedNow.Add(time.Minute).UTC(),
		ResolvedPath: []Step{StepTransfer}, Fees: Fees{GasUSD: "0.01", ProtocolFeeBps: 5, SolverFeeBps: 3, TotalUSD: "0.02"}, AmountOut: "123", MinAmountOut: "120", SlippageBps: 50,
		GasOnArrivalCost: "7", MinAmountIn: "1000",
		Market: &SimulatedMarket{Asked: 3, Quotes: 2, Winner: "f1", WinnerAddress: "0x01", AmountOut: "125"},
	}
	if err := m.Put(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	got, found, err := m.Get(context.Background(), q.ID)
	if err != nil || !found {
		t.Fatalf("found %v, err %v", found, err)
	}
	if !reflect.DeepEqual(got, q) {
		t.Fatalf("got %+v, want %+v", got, q)
	}
}
