package intent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"k8s.io/utils/clock"
)

// DefaultMaxQuotes bounds the simulations a replica keeps in memory for firm quotes. At about
// 400 bytes each, 50,000 are some 20 MB; with the one-minute TTL that is over 800 simulations a
// second, far beyond the rate limits. Past it the oldest (the soonest to expire) is dropped first.
const DefaultMaxQuotes = 50_000

// SimulatedQuote is what a simulation promised: its fees, output amounts and route, kept until its
// expiresAt so that a create naming its simulationId keeps them exactly (issue 27).
type SimulatedQuote struct {
	// ID is the simulationId.
	ID string `json:"id"`
	// Account is the account that simulated: another account's create does not find it.
	Account string `json:"account"`
	// RequestHash is the canonical hash of the simulated request (QuoteRequestHash).
	RequestHash string `json:"requestHash"`
	// ExpiresAt is the simulation's expiresAt: the quote holds strictly before it.
	ExpiresAt    time.Time `json:"expiresAt"`
	ResolvedPath []Step    `json:"resolvedPath"`
	Fees         Fees      `json:"fees"`
	// AmountOut and MinAmountOut are base units of the output token, as decimal integers; empty
	// when the simulation had no quote (an order it could not price).
	AmountOut    string `json:"amountOut,omitempty"`
	MinAmountOut string `json:"minAmountOut,omitempty"`
	SlippageBps  int    `json:"slippageBps"`
	// GasOnArrivalCost is the gas on arrival's cost in base units of the input token, which
	// AmountOut has taken off; empty without gas on arrival.
	GasOnArrivalCost string `json:"gasOnArrivalCost,omitempty"`
	// IntegratorFee is the integrator fee the quote took off its output; absent without one.
	IntegratorFee *SimulatedFee `json:"integratorFee,omitempty"`
	// MinAmountIn is the route's limits.minAmount in base units of the input token; empty for a
	// transfer and for simulations kept before limits existed.
	MinAmountIn string `json:"minAmountIn,omitempty"`
	// AmountIn is an exact output's escrow and AmountInQuoted the input the feeds said was needed,
	// base units of the input token; empty for an exact input (its escrow is the request's amount).
	AmountIn       string `json:"amountIn,omitempty"`
	AmountInQuoted string `json:"amountInQuoted,omitempty"`
	// Market is the simulation's request for quotes, which a create with its simulationId keeps
	// (its winner's quote is firm until expiresAt); absent when nobody was asked.
	Market *SimulatedMarket `json:"market,omitempty"`
}

// SimulatedMarket is what a simulation's request for quotes answered.
type SimulatedMarket struct {
	Asked  int `json:"asked"`
	Quotes int `json:"quotes"`
	// Winner is the winning Filler's name, WinnerAddress its payout address and AmountOut its
	// quote in base units; all empty without a winner.
	Winner        string `json:"winner,omitempty"`
	WinnerAddress string `json:"winnerAddress,omitempty"`
	AmountOut     string `json:"amountOut,omitempty"`
	// AmountIn is the winner's ask of an exact output, in base units of the input token.
	AmountIn string `json:"amountIn,omitempty"`
}

// SimulatedFee is a simulation's integrator fee: Amount in base units of the input token.
type SimulatedFee struct {
	Bps       uint32 `json:"bps"`
	Amount    string `json:"amount"`
	Recipient string `json:"recipient"`
}

// simulatedFee is the record of fee, nil without one.
func simulatedFee(fee *IntegratorFee) *SimulatedFee {
	if fee == nil {
		return nil
	}
	return &SimulatedFee{Bps: fee.Bps, Amount: fee.Amount.String(), Recipient: fee.Recipient.Hex()}
}

// feeChanged refuses a firm quote whose integrator fee the account's policy no longer gives: the
// request (its hash) is the same, so only the policy (its default, its most, its recipients)
// changed, and the quote's output was computed with the old fee.
func feeChanged(plan Plan, q SimulatedQuote) error {
	now, then := simulatedFee(plan.IntegratorFee), q.IntegratorFee
	if now == nil && then == nil || now != nil && then != nil && *now == *then {
		return nil
	}
	return &Problem{Kind: KindQuoteExpired, Field: "simulationId", Detail: fmt.Sprintf(
		"the account's integrator fee policy changed since simulation %s quoted its fee; simulate again", q.ID)}
}

// marketAnswer is the answer the simulation's request for quotes gave, for a create that keeps it.
func (q SimulatedQuote) marketAnswer() MarketAnswer {
	m := q.Market
	if m == nil {
		return MarketAnswer{}
	}
	ans := MarketAnswer{Asked: m.Asked, Quotes: m.Quotes}
	amount, ok := new(big.Int).SetString(m.AmountOut, 10)
	if m.Winner != "" && ok && common.IsHexAddress(m.WinnerAddress) {
		ans.Winner, ans.WinnerAddress, ans.AmountOut = m.Winner, common.HexToAddress(m.WinnerAddress), amount
		if in, ok := new(big.Int).SetString(m.AmountIn, 10); ok {
			ans.AmountIn = in
		}
	}
	return ans
}

// QuoteStore keeps simulations until their expiresAt. Get answers found=false for an unknown or
// expired id, and an error only when it could not tell (a shared store that did not answer): the
// service then answers 503 rather than a false quote-expired.
type QuoteStore interface {
	Put(ctx context.Context, q SimulatedQuote) error
	Get(ctx context.Context, id string) (SimulatedQuote, bool, error)
}

// MemoryQuotes is a replica's own QuoteStore: bounded, expired entries dropped. A large store is
// split into quoteShards shards by id, each with its own lock and an equal share of the bound:
// every simulation puts its quote, and one lock for the whole store made a queue of the requests
// in flight whenever its holder was stopped (a collection's assist or stop-the-world, the kernel
// running another thread): 47 ms waits under load (docs/capacity.md, "The simulation's tail").
// Within a shard, entries are kept in the order they were put, which is the order they expire in
// (one TTL for all), so the sweep stops at the first live entry, and past its share the shard drops
// its oldest. Safe for concurrent use.
type MemoryQuotes struct {
	clock  clock.PassiveClock
	shards []quoteShard
}

// quoteShards is how many shards a store of at least minShardedQuotes entries has; a smaller
// store (tests) has one, so that its bound and order are exact.
const (
	quoteShards      = 16
	minShardedQuotes = 1024
)

type quoteShard struct {
	mu   sync.Mutex
	max  int
	byID map[string]*quoteNode
	// head and tail of the entries, oldest first.
	head, tail *quoteNode
	n          int
	_          [64]byte // keep the shards' locks off one another's cache lines
}

// quoteNode is one entry of a shard's list, allocated before the lock is taken. The quote is
// kept as its JSON (the form the shared store keeps in Redis): bytes the collector does not scan,
// where the quote itself is a dozen objects of strings and slices. Under load the store holds
// tens of thousands of quotes, most of the live heap, and marking them made each collection's
// mark phase 75–150 ms long (docs/capacity.md, "The simulation's tail").
type quoteNode struct {
	id         string
	expiresAt  time.Time
	value      []byte
	prev, next *quoteNode
}

// NewMemoryQuotes keeps at most maxEntries (DefaultMaxQuotes when not positive), expiring them
// by clk (the real clock when nil).
func NewMemoryQuotes(maxEntries int, clk clock.PassiveClock) *MemoryQuotes {
	if maxEntries <= 0 {
		maxEntries = DefaultMaxQuotes
	}
	if clk == nil {
		clk = clock.RealClock{}
	}
	n := 1
	if maxEntries >= minShardedQuotes {
		n = quoteShards
	}
	m := &MemoryQuotes{clock: clk, shards: make([]quoteShard, n)}
	for i := range m.shards {
		// The shares add up to maxEntries: the first maxEntries%n shards hold one more.
		m.shards[i].max = maxEntries / n
		if i < maxEntries%n {
			m.shards[i].max++
		}
		m.shards[i].byID = map[string]*quoteNode{}
	}
	return m
}

// shard is the shard of id (FNV-1a of the id).
func (m *MemoryQuotes) shard(id string) *quoteShard {
	if len(m.shards) == 1 {
		return &m.shards[0]
	}
	h := uint32(2166136261)
	for i := 0; i < len(id); i++ {
		h ^= uint32(id[i])
		h *= 16777619
	}
	return &m.shards[h%uint32(len(m.shards))]
}

// Put keeps q until its ExpiresAt; an already expired q is not kept.
func (m *MemoryQuotes) Put(_ context.Context, q SimulatedQuote) error {
	now := m.clock.Now()
	if !now.Before(q.ExpiresAt) {
		m.shard(q.ID).lockedSweep(now)
		return nil
	}
	value, err := json.Marshal(q)
	if err != nil {
		return fmt.Errorf("encoding the quote: %w", err)
	}
	node := &quoteNode{id: q.ID, expiresAt: q.ExpiresAt, value: value} // made outside the lock
	sh := m.shard(q.ID)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.sweep(now)
	if old, ok := sh.byID[node.id]; ok {
		sh.remove(old)
	}
	for sh.n >= sh.max {
		sh.remove(sh.head)
	}
	sh.pushBack(node)
	return nil
}

// Get returns the live simulation with the id.
func (m *MemoryQuotes) Get(_ context.Context, id string) (SimulatedQuote, bool, error) {
	value, ok := m.shard(id).get(id, m.clock.Now())
	if !ok {
		return SimulatedQuote{}, false, nil
	}
	var q SimulatedQuote // decoded outside the lock
	if err := json.Unmarshal(value, &q); err != nil {
		return SimulatedQuote{}, false, fmt.Errorf("decoding the quote: %w", err)
	}
	return q, true, nil
}

// get returns the JSON of the live entry id; an expired one is dropped.
func (sh *quoteShard) get(id string, now time.Time) ([]byte, bool) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e, ok := sh.byID[id]
	if !ok {
		return nil, false
	}
	if !now.Before(e.expiresAt) {
		sh.remove(e)
		return nil, false
	}
	return e.value, true
}

// Len is the number of entries held, expired ones not yet swept included.
func (m *MemoryQuotes) Len() int {
	n := 0
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		n += sh.n
		sh.mu.Unlock()
	}
	return n
}

func (sh *quoteShard) lockedSweep(now time.Time) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.sweep(now)
}

// sweep drops the expired entries at the front.
func (sh *quoteShard) sweep(now time.Time) {
	for sh.head != nil && !now.Before(sh.head.expiresAt) {
		sh.remove(sh.head)
	}
}

func (sh *quoteShard) pushBack(e *quoteNode) {
	e.prev, e.next = sh.tail, nil
	if sh.tail != nil {
		sh.tail.next = e
	} else {
		sh.head = e
	}
	sh.tail = e
	sh.n++
	sh.byID[e.id] = e
}

func (sh *quoteShard) remove(e *quoteNode) {
	delete(sh.byID, e.id)
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		sh.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		sh.tail = e.prev
	}
	e.prev, e.next = nil, nil
	sh.n--
}

// QuoteRequestHash is the canonical hash of what a quote was made for: the account and the
// normalised request (EIP-55 addresses, the asset's form, UTC deadline, callData, slippage) with
// the amount in base units, so "12.5" and "12.50" are one request. simulationId and minAmountOut
// are not part of it.
func QuoteRequestHash(account string, p Parsed, amount *big.Int) string {
	r := p.Request()
	r.Amount = amount.String()
	r.SlippageBps = nil
	b, err := json.Marshal(struct {
		Account     string  `json:"account"`
		Request     Request `json:"request"`
		SlippageBps int     `json:"slippageBps"`
	}{account, r, p.Slippage()})
	if err != nil {
		panic(err) // strings and ints only
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// simulatedQuote is the record a simulation keeps.
func simulatedQuote(id, account string, p Parsed, plan Plan) SimulatedQuote {
	amount := plan.Amount
	if plan.TradeType == TradeExactOutput {
		amount = plan.AmountOut // the request's amount is the exact output
	}
	q := SimulatedQuote{
		ID: id, Account: account, RequestHash: QuoteRequestHash(account, p, amount),
		ExpiresAt: plan.QuoteExpiresAt, ResolvedPath: plan.ResolvedPath, Fees: plan.Fees, SlippageBps: plan.SlippageBps,
	}
	if plan.AmountOut != nil && plan.MinAmountOut != nil {
		q.AmountOut, q.MinAmountOut = plan.AmountOut.String(), plan.MinAmountOut.String()
	}
	if plan.MinAmountIn != nil {
		q.MinAmountIn = plan.MinAmountIn.String()
	}
	if plan.GasOnArrivalCost != nil {
		q.GasOnArrivalCost = plan.GasOnArrivalCost.String()
	}
	q.IntegratorFee = simulatedFee(plan.IntegratorFee)
	if plan.TradeType == TradeExactOutput && plan.MinAmountOut != nil && plan.AmountInQuoted != nil {
		q.AmountIn, q.AmountInQuoted = plan.Amount.String(), plan.AmountInQuoted.String()
	}
	if t := plan.Market; t != nil && (t.Asked > 0 || t.Winner != "") {
		q.Market = &SimulatedMarket{Asked: t.Asked, Quotes: t.Quotes}
		if t.Winner != "" {
			q.Market.Winner, q.Market.WinnerAddress, q.Market.AmountOut = t.Winner, t.ExclusiveFiller.Hex(), t.StartAmountOut.String()
			if t.AmountIn != nil {
				q.Market.AmountIn = t.AmountIn.String()
			}
		}
	}
	return q
}

// firmQuote finds the simulation a create names and checks that it still holds and was made for
// this request: quote-expired (unknown, another account's, expired), quote-mismatch (another
// request), or service-unavailable when the store could not tell.
func (s *Service) firmQuote(ctx context.Context, account string, p Parsed, amount *big.Int, now time.Time) (SimulatedQuote, error) {
	q, found, err := s.quotes.Get(ctx, p.SimulationID)
	if err != nil {
		if ctx.Err() != nil {
			return SimulatedQuote{}, ctx.Err()
		}
		return SimulatedQuote{}, &Problem{Kind: KindUnavailable, Field: "simulationId",
			Detail: "the store of simulations did not answer in time, so simulation " + p.SimulationID +
				" could not be looked up; retry after the Retry-After seconds"}
	}
	if !found || q.Account != account {
		return SimulatedQuote{}, &Problem{Kind: KindQuoteExpired, Field: "simulationId", Detail: fmt.Sprintf(
			"simulation %s is unknown or its quote has expired; simulate again and create with the new simulationId", p.SimulationID)}
	}
	if !now.Before(q.ExpiresAt) {
		return SimulatedQuote{}, &Problem{Kind: KindQuoteExpired, Field: "simulationId",
			Detail:  fmt.Sprintf("the quote of simulation %s expired at %s; simulate again", q.ID, q.ExpiresAt.UTC().Format(time.RFC3339Nano)),
			Details: map[string]any{"expiresAt": q.ExpiresAt.UTC().Format(time.RFC3339Nano)}}
	}
	if q.RequestHash != QuoteRequestHash(account, p, amount) {
		return SimulatedQuote{}, &Problem{Kind: KindQuoteMismatch, Field: "simulationId", Detail: fmt.Sprintf(
			"the request differs from the one simulation %s quoted (from, to, asset, amount, deadline, callData, execution, gasOnArrival, fee, tradeType, maxAmountIn and slippageBps must be the same); "+
				"send the simulated request unchanged, or simulate this one", q.ID)}
	}
	return q, nil
}

// applyFirmQuote puts the simulated output amounts into the plan in place of a fresh quote. It
// reports false when the simulation had no quote to keep (the fresh quoting then applies).
func applyFirmQuote(plan *Plan, q SimulatedQuote) (bool, error) {
	if plan.Type == TypeTransfer || q.MinAmountOut == "" {
		return false, nil
	}
	out, okOut := new(big.Int).SetString(q.AmountOut, 10)
	minimum, okMin := new(big.Int).SetString(q.MinAmountOut, 10)
	if !okOut || !okMin {
		return false, fmt.Errorf("simulation %s holds malformed amounts %q, %q", q.ID, q.AmountOut, q.MinAmountOut)
	}
	plan.AmountOut, plan.MinAmountOut, plan.SlippageBps = out, minimum, q.SlippageBps
	if plan.TradeType == TradeExactOutput {
		// The request (its hash) names the same exact output; the escrow is the simulation's.
		escrow, okIn := new(big.Int).SetString(q.AmountIn, 10)
		needed, okNeeded := new(big.Int).SetString(q.AmountInQuoted, 10)
		if !okIn || !okNeeded {
			return false, fmt.Errorf("simulation %s holds no escrow of its exact output", q.ID)
		}
		plan.Amount, plan.AmountInQuoted = escrow, needed
	}
	if plan.NativeDrop != nil {
		// The request (its hash) names the same drop; its cost is the simulation's.
		cost, ok := new(big.Int).SetString(q.GasOnArrivalCost, 10)
		if !ok {
			return false, fmt.Errorf("simulation %s holds no cost of its gas on arrival", q.ID)
		}
		plan.GasOnArrivalCost = cost
	}
	return true, nil
}

// routeChanged refuses a firm quote whose route the service would no longer take.
func routeChanged(plan Plan, q SimulatedQuote) error {
	if slices.Equal(plan.ResolvedPath, q.ResolvedPath) {
		return nil
	}
	return &Problem{Kind: KindQuoteExpired, Field: "simulationId", Detail: fmt.Sprintf(
		"the route of simulation %s (%v) is no longer the service's (%v); simulate again", q.ID, q.ResolvedPath, plan.ResolvedPath)}
}

// checkClientMinimum refuses an order whose minimum output is below the one the client asked for
// (minAmountOut in display units of the output token): the order would let a filler deliver less.
func checkClientMinimum(plan Plan, p Parsed, r resolved) error {
	if p.MinAmountOut == "" {
		return nil
	}
	want, err := ParseAmount(p.MinAmountOut, r.tokenOut.Decimals)
	if err != nil {
		return validationFailed("minAmountOut", "minAmountOut %q for %s (%d decimals): %v", p.MinAmountOut, r.tokenOut.Symbol, r.tokenOut.Decimals, err)
	}
	if plan.MinAmountOut == nil {
		return &Problem{Kind: KindMinAmountOut, Field: "minAmountOut", Detail: "the order has no quote, so no minimum output to compare minAmountOut with"}
	}
	if plan.MinAmountOut.Cmp(want) >= 0 {
		return nil
	}
	got := FormatAmount(plan.MinAmountOut, r.tokenOut.Decimals)
	return &Problem{Kind: KindMinAmountOut, Field: "minAmountOut",
		Detail:  fmt.Sprintf("the order's minimum output %s %s is below the requested minAmountOut %s", got, r.tokenOut.Symbol, p.MinAmountOut),
		Details: map[string]any{"minAmountOut": got, "requested": FormatAmount(want, r.tokenOut.Decimals), "symbol": r.tokenOut.Symbol}}
}
