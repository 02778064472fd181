package intent

import (
	"context"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Defaults of the market terms (docs/decisions.md, "The market terms of an order").
const (
	// DefaultExclusivity is how long the winner of a request for quotes alone may fill at its
	// quote: long enough for a filler to see the order opened and send its fill, short enough
	// that a winner that fades costs the user little.
	DefaultExclusivity = 30 * time.Second
	// DefaultDecayWindow is how long the output takes to fall from the start amount to the
	// floor: UniswapX's Dutch orders decay over about a minute.
	DefaultDecayWindow = time.Minute
	// MaxQuoteAboveFeedBps bounds a filler's quote: at most this far above the feed's output. A
	// quote far above any price is no offer but a lie (or a bug) that would win every request and
	// start the decay where no fill can follow, and past 2^256/10^4 it would overflow the
	// override's arithmetic on chain; 10% is beyond any honest spread between a filler's price
	// and an on-chain feed.
	MaxQuoteAboveFeedBps = 1_000
)

// AuctionExclusive and AuctionOpen are the two kinds of market terms: a winner of the request for
// quotes holds an exclusivity, or no filler quoted at or above the floor and the order is an open
// Dutch auction from the feed price.
const (
	AuctionExclusive = "exclusive"
	AuctionOpen      = "open"
)

// Market asks the fillers of a route for a quote (internal/rfq through internal/service). It
// never fails: no filler, or no answer at or above the floor, is an answer without a winner.
type Market interface {
	Quote(ctx context.Context, q MarketQuery) MarketAnswer
}

// MarketQuery is what a request for quotes is told of an order: its route and amounts, never its
// account, key or user.
type MarketQuery struct {
	From, To          registry.Chain
	TokenIn, TokenOut registry.Token
	AmountIn, Floor   *big.Int
	// Ceiling is the highest quote taken (QuoteCeiling): a quote above it is refused.
	Ceiling  *big.Int
	Deadline time.Time
	// NativeDrop is the order's gas on arrival in base units of the destination chain's native
	// token, which the filler pays with the fill beside the output; nil: none.
	NativeDrop *big.Int
	// FeeAmount is the order's integrator fee in base units of the input token, which the filler
	// is not paid (it receives AmountIn less it); nil: none.
	FeeAmount *big.Int
	// TradeType exactOutput asks the fillers for the input they take to deliver Floor exactly
	// (the exact output): the lowest input wins, AmountIn (the feed-priced escrow) is the most
	// taken, and MinAmountIn (QuoteFloorIn) the least: an ask below it is refused as a lie.
	TradeType   TradeType
	MinAmountIn *big.Int
}

// MarketAnswer is what came of a request for quotes.
type MarketAnswer struct {
	// Asked is how many fillers were asked; Quotes how many quoted at or above the floor.
	Asked, Quotes int
	// Winner is the winning Filler's name, WinnerAddress its payout address on the destination
	// chain (the order's exclusive filler) and AmountOut its quote; Winner is "" without one.
	Winner        string
	WinnerAddress common.Address
	AmountOut     *big.Int
	// AmountIn is the winner's ask of an exact output: the input it takes to deliver the output.
	AmountIn *big.Int
}

// MarketTerms are the order's price terms: its Dutch decay and exclusivity, which the settlement
// contract enforces at fill time (DutchDecayLib, ExclusivityLib).
type MarketTerms struct {
	// StartAmountOut is what a fill owes until DecayStart, falling linearly to the plan's
	// MinAmountOut at DecayEnd (unix seconds).
	StartAmountOut       *big.Int
	DecayStart, DecayEnd uint64
	// ExclusiveFiller may fill alone until ExclusivityDeadline (inclusive, unix seconds); others
	// pay OverrideBps more, or may not fill when it is 0. Zero address: open.
	ExclusiveFiller     common.Address
	ExclusivityDeadline uint64
	OverrideBps         uint32
	// Winner names the Filler that won the request for quotes ("" for an open auction); Asked
	// and Quotes are the request's counts.
	Winner        string
	Asked, Quotes int
	// AmountIn is an exact output's escrow: the winner's ask, or the feed-priced escrow; nil
	// for an exact input, whose escrow is its amount.
	AmountIn *big.Int
}

// AuctionConfig tunes the market terms; zero fields take the defaults.
type AuctionConfig struct {
	// Market asks the fillers; nil: every order is an open Dutch auction.
	Market Market
	// Exclusivity is the winner's exclusivity (DefaultExclusivity).
	Exclusivity time.Duration
	// DecayWindow is the decay's length (DefaultDecayWindow), cut short by the order's deadline.
	DecayWindow time.Duration
	// OverrideBps is what another filler pays above the decayed amount during the exclusivity
	// (0: it may not fill; ExclusivityLib's MAX_OVERRIDE_BPS bounds it).
	OverrideBps uint32
}

// Auction is the OpenAPI Auction: a swap's or bridge's market terms as its order encodes them,
// amounts in display units of the output token like the quote's.
type Auction struct {
	// Type is exclusive (a filler won the request for quotes) or open (none did).
	Type string `json:"type"`
	// StartAmountOut is what a fill owes until decayStartAt; it falls linearly to minAmountOut
	// (the floor, the quote's minAmountOut) at decayEndAt.
	StartAmountOut string    `json:"startAmountOut"`
	MinAmountOut   string    `json:"minAmountOut"`
	DecayStartAt   time.Time `json:"decayStartAt"`
	DecayEndAt     time.Time `json:"decayEndAt"`
	// ExclusiveFiller and ExclusivityDeadline: the winner alone fills until the deadline
	// (inclusive); others pay ExclusivityOverrideBps more, or none may when it is 0.
	ExclusiveFiller        string     `json:"exclusiveFiller,omitempty"`
	ExclusivityDeadline    *time.Time `json:"exclusivityDeadline,omitempty"`
	ExclusivityOverrideBps int        `json:"exclusivityOverrideBps"`
	// Quotes is how many fillers quoted at or above the floor, of FillersAsked.
	Quotes       int `json:"quotes"`
	FillersAsked int `json:"fillersAsked"`
}

// QuoteFloorIn is the lowest ask a filler may win an exact output with, for an order whose feeds
// say needed is the input: MaxQuoteAboveFeedBps better than the feeds (needed / 1.1), rounded up.
// An ask further below is no offer but a lie (or a bug) that would win every request and fade.
func QuoteFloorIn(needed *big.Int) *big.Int {
	return ceil(new(big.Rat).SetFrac(new(big.Int).Mul(needed, big.NewInt(BpsDenominator)), big.NewInt(BpsDenominator+MaxQuoteAboveFeedBps)))
}

// QuoteCeiling is the highest quote a filler may win with for an order whose feed output is
// feedOut: MaxQuoteAboveFeedBps above it, rounded down.
func QuoteCeiling(feedOut *big.Int) *big.Int {
	c := new(big.Int).Mul(feedOut, big.NewInt(BpsDenominator+MaxQuoteAboveFeedBps))
	return c.Quo(c, big.NewInt(BpsDenominator))
}

// marketTerms sets the plan's market terms at now from the answer of a request for quotes: the
// winner's quote (between the floor and QuoteCeiling) is the start amount and holds for the
// exclusivity, then decays to the floor; with no winner the feed's output (the quote's amountOut)
// decays to the floor from now. The decay ends by the order's deadline, and the exclusivity takes
// at most half of the time left to it, so that a winner that fades leaves the others time to fill.
func (c AuctionConfig) marketTerms(plan Plan, ans MarketAnswer, now time.Time) *MarketTerms {
	if plan.TradeType == TradeExactOutput {
		return c.exactOutputTerms(plan, ans, now)
	}
	t := &MarketTerms{Asked: ans.Asked, Quotes: ans.Quotes, StartAmountOut: new(big.Int).Set(plan.AmountOut)}
	start := now
	if ans.Winner != "" && ans.AmountOut != nil && ans.AmountOut.Cmp(plan.MinAmountOut) >= 0 &&
		ans.AmountOut.Cmp(QuoteCeiling(plan.AmountOut)) <= 0 {
		start = now.Add(min(c.exclusivity(), plan.Deadline.Sub(now)/2))
		t.StartAmountOut.Set(ans.AmountOut)
		t.ExclusiveFiller, t.Winner = ans.WinnerAddress, ans.Winner
		t.OverrideBps = c.OverrideBps
	}
	deadline := unixSeconds(plan.Deadline)
	t.DecayStart = min(unixSeconds(start), deadline)
	t.DecayEnd = min(unixSeconds(start.Add(c.decayWindow())), deadline)
	if t.ExclusiveFiller != (common.Address{}) {
		t.ExclusivityDeadline = t.DecayStart
	}
	if t.StartAmountOut.Cmp(plan.MinAmountOut) < 0 {
		// The feed's output is below the floor only when the floor is the client's: never ask a
		// filler for less than the order accepts.
		t.StartAmountOut.Set(plan.MinAmountOut)
	}
	return t
}

// exactOutputTerms are the market terms of an exact output: the output does not decay (start =
// minimum = the exact amount), and the order escrows plan.Amount (the feed-priced escrow) or the
// winner's ask, when one at most that and at least QuoteFloorIn won (AmountIn). The winner holds
// an exclusivity without override: another filler filling during it would have to pay more than
// the exact amount (ExclusivityLib), so none may, as Across' exclusiveRelayer.
func (c AuctionConfig) exactOutputTerms(plan Plan, ans MarketAnswer, now time.Time) *MarketTerms {
	t := &MarketTerms{Asked: ans.Asked, Quotes: ans.Quotes, StartAmountOut: new(big.Int).Set(plan.MinAmountOut),
		AmountIn: new(big.Int).Set(plan.Amount)}
	start := now
	if ans.Winner != "" && ans.AmountIn != nil && ans.AmountIn.Cmp(plan.Amount) <= 0 &&
		(plan.AmountInQuoted == nil || ans.AmountIn.Cmp(QuoteFloorIn(plan.AmountInQuoted)) >= 0) {
		start = now.Add(min(c.exclusivity(), plan.Deadline.Sub(now)/2))
		t.AmountIn.Set(ans.AmountIn)
		t.ExclusiveFiller, t.Winner = ans.WinnerAddress, ans.Winner
	}
	deadline := unixSeconds(plan.Deadline)
	t.DecayStart = min(unixSeconds(start), deadline)
	t.DecayEnd = t.DecayStart
	if t.ExclusiveFiller != (common.Address{}) {
		t.ExclusivityDeadline = t.DecayStart
	}
	return t
}

func (c AuctionConfig) exclusivity() time.Duration {
	if c.Exclusivity > 0 {
		return c.Exclusivity
	}
	return DefaultExclusivity
}

func (c AuctionConfig) decayWindow() time.Duration {
	if c.DecayWindow > 0 {
		return c.DecayWindow
	}
	return DefaultDecayWindow
}

// setMarketTerms asks the market for the plan's order, when it is a priced swap or bridge with
// nothing wrong so far (a refused order is not worth a filler's quote), and sets its terms. A
// create with a firm simulation keeps that simulation's answer instead of asking again.
func (s *Service) setMarketTerms(ctx context.Context, plan *Plan, r resolved, firm *SimulatedQuote, now time.Time) {
	if plan.Type == TypeTransfer || plan.MinAmountOut == nil || plan.AmountOut == nil {
		return
	}
	var ans MarketAnswer
	switch {
	case firm != nil:
		ans = firm.marketAnswer()
	case s.auction.Market != nil && len(plan.Errors) == 0:
		q := MarketQuery{
			From: r.from, To: r.to, TokenIn: r.tokenIn.Token, TokenOut: r.tokenOut.Token,
			AmountIn: plan.Amount, Floor: plan.MinAmountOut, Ceiling: QuoteCeiling(plan.AmountOut), Deadline: plan.Deadline,
			NativeDrop: plan.NativeDrop, TradeType: TradeExactInput, FeeAmount: plan.integratorFeeAmount(),
		}
		if plan.TradeType == TradeExactOutput {
			q.TradeType, q.Ceiling, q.MinAmountIn = TradeExactOutput, nil, QuoteFloorIn(plan.AmountInQuoted)
		}
		ans = s.auction.Market.Quote(ctx, q)
	}
	plan.Market = s.auction.marketTerms(*plan, ans, now)
	if plan.Market.AmountIn != nil {
		plan.Amount = plan.Market.AmountIn
	}
}

// Auction is the plan's market terms as the API shows them; nil for a transfer or an order
// without a quote.
func (p Plan) Auction() *Auction {
	t := p.Market
	if t == nil || p.MinAmountOut == nil {
		return nil
	}
	a := &Auction{
		Type: AuctionOpen, StartAmountOut: FormatAmount(t.StartAmountOut, p.tokenOut.Decimals),
		MinAmountOut: FormatAmount(p.MinAmountOut, p.tokenOut.Decimals),
		DecayStartAt: unixTime(t.DecayStart), DecayEndAt: unixTime(t.DecayEnd),
		Quotes: t.Quotes, FillersAsked: t.Asked,
	}
	if t.ExclusiveFiller != (common.Address{}) {
		deadline := unixTime(t.ExclusivityDeadline)
		a.Type, a.ExclusiveFiller, a.ExclusivityDeadline = AuctionExclusive, t.ExclusiveFiller.Hex(), &deadline
		a.ExclusivityOverrideBps = int(t.OverrideBps)
	}
	return a
}

func unixTime(s uint64) time.Time { return time.Unix(int64(s), 0).UTC() } //nolint:gosec // unix seconds of this era
