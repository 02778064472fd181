package service

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/rfq"
)

// MarketOptions tune the request for quotes; the zero value is the production one.
type MarketOptions struct {
	// Deadline bounds one request for quotes (rfq.DefaultDeadline when zero).
	Deadline time.Duration
	// AllowLoopback lets quote endpoints be on loopback (make run, tests). The webhooks'
	// AllowLoopback (--webhook-allow-loopback) allows it too.
	AllowLoopback bool
	// SweepInterval is how often won orders past their exclusivity are counted as fades
	// (DefaultFadeSweep when zero).
	SweepInterval time.Duration
	// StatusInterval is how often the leader writes a Filler's counters on its status
	// (controller.DefaultFillerStatsInterval when zero).
	StatusInterval time.Duration
	// Exclusivity, DecayWindow and OverrideBps are the orders' market terms
	// (intent.AuctionConfig; zero: its defaults).
	Exclusivity time.Duration
	DecayWindow time.Duration
	OverrideBps uint32
	// Fades are the fade rule's threshold, window and cooldown (rfq.FadeOptions; zero: its
	// defaults).
	FadeThreshold int
	FadeWindow    time.Duration
	FadeCooldown  time.Duration
}

// auction is the orders' market terms, asking the Ready fillers through the replica's Market.
func (s *Service) auction(opts MarketOptions, log logr.Logger) intent.AuctionConfig {
	return intent.AuctionConfig{
		Market:      marketQuotes{fillers: s.Models.Fillers, market: s.Market, log: log.WithName("rfq"), now: time.Now},
		Exclusivity: opts.Exclusivity, DecayWindow: opts.DecayWindow, OverrideBps: opts.OverrideBps,
	}
}

// DefaultFadeSweep is the default of MarketOptions.SweepInterval.
const DefaultFadeSweep = 5 * time.Second

// setupMarket builds the request for quotes and its fade record, on every replica (each replica
// asks for the simulations and creates it serves), and sweeps the fades until the manager stops.
func (s *Service) setupMarket(mgr ctrl.Manager, opts MarketOptions, webhooksLoopback bool, reg prometheus.Registerer) error {
	metrics, err := rfq.NewMetrics(reg)
	if err != nil {
		return fmt.Errorf("registering the request for quotes' metrics: %w", err)
	}
	s.Fades = rfq.NewFades(rfq.FadeOptions{
		Threshold: opts.FadeThreshold, Window: opts.FadeWindow, Cooldown: opts.FadeCooldown, Metrics: metrics,
	})
	s.Market = rfq.NewMarket(rfq.Options{
		Deadline: opts.Deadline, AllowLoopback: opts.AllowLoopback || webhooksLoopback, Fades: s.Fades, Metrics: metrics,
	})
	every := opts.SweepInterval
	if every <= 0 {
		every = DefaultFadeSweep
	}
	return mgr.Add(fadeSweep{fades: s.Fades, every: every})
}

// fadeSweep counts the fades of won orders whose exclusivity passed, on every replica.
type fadeSweep struct {
	fades *rfq.Fades
	every time.Duration
}

func (f fadeSweep) Start(ctx context.Context) error {
	t := time.NewTicker(f.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-t.C:
			f.fades.Sweep(now)
		}
	}
}

// NeedLeaderElection: each replica sweeps the wins it recorded.
func (fadeSweep) NeedLeaderElection() bool { return false }

var _ manager.LeaderElectionRunnable = fadeSweep{}

// marketQuotes asks the Ready fillers of an order's route through the replica's Market: the
// adapter between the domain's intent.Market and the request for quotes, which knows neither
// Kubernetes nor accounts.
type marketQuotes struct {
	fillers *registry.FillerDirectory
	market  *rfq.Market
	log     logr.Logger
	now     func() time.Time
}

var _ intent.Market = marketQuotes{}

// Quote tells the fillers of the route the order's route, amounts and deadline (nothing of its
// account, key or user) and answers the winner at or above the floor, if any.
func (m marketQuotes) Quote(ctx context.Context, q intent.MarketQuery) intent.MarketAnswer {
	serving := m.fillers.Serving(q.From.ID, q.To.ID, q.TokenIn.Address, q.TokenOut.Address)
	now := m.now()
	serving = slices.DeleteFunc(serving, func(f registry.Filler) bool { return !f.AskedAt(now) })
	fillers := rfq.Fillers(serving, q.To.ID)
	if len(fillers) == 0 {
		return intent.MarketAnswer{}
	}
	req := rfq.Request{
		FromChainID: numericID(q.From), FromChain: q.From.ID, ToChainID: numericID(q.To), ToChain: q.To.ID,
		TokenIn: q.TokenIn.Address, TokenOut: q.TokenOut.Address, AmountIn: q.AmountIn.String(),
		RecipientChainID: q.To.ID, Deadline: q.Deadline.UTC(), Ceiling: q.Ceiling,
	}
	if q.NativeDrop != nil {
		req.NativeDropAmount = q.NativeDrop.String()
	}
	if q.FeeAmount != nil {
		req.FeeAmount = q.FeeAmount.String()
	}
	if q.TradeType == intent.TradeExactOutput {
		// The fillers ask the input they take for exactly the floor; AmountIn is the most escrowed.
		req.TradeType, req.MinAmountIn = rfq.TradeExactOutput, q.MinAmountIn
	}
	res := m.market.Ask(ctx, fillers, req, q.Floor)
	m.log.V(1).Info("request for quotes", "result", res.String())
	ans := intent.MarketAnswer{}
	for _, quote := range res.Quotes {
		if quote.Outcome.Asked() {
			ans.Asked++
		}
		if quote.Outcome == rfq.OutcomeOK {
			ans.Quotes++
		}
	}
	if w := res.Winner; w != nil {
		ans.Winner, ans.WinnerAddress, ans.AmountOut, ans.AmountIn = w.Filler, w.Payout, w.AmountOut, w.AmountIn
	}
	return ans
}

// numericID is a chain's EIP-155 id, 0 for another namespace.
func numericID(c registry.Chain) uint64 {
	if c.NumericID == nil || !c.NumericID.IsUint64() {
		return 0
	}
	return c.NumericID.Uint64()
}

// FadeSlack is how long after its exclusivity a win waits for its fill to be seen before it
// counts as a fade: the watcher sees a fill a few blocks after it lands.
const FadeSlack = 15 * time.Second

// fadeWatch tells the replica's fade record of the wins and fills its intents record, from the
// TransferIntent informer: a win is an order the winner can fill before the end of its
// exclusivity (opened on chain, its transaction in a block; or a gasless order signed, which the
// winner opens itself from the book, so that a winner that never opens it fades too), a fill the
// fill the watcher recorded, and an order its user cancelled is no win. Every replica sees
// the same intents, so every replica counts the same fades and skips the same fillers; the
// leader writes them on the Filler's status.
type fadeWatch struct {
	market *rfq.Market
	fades  *rfq.Fades
	now    func() time.Time
}

func (w fadeWatch) OnAdd(obj any, _ bool) { w.observe(obj) }
func (w fadeWatch) OnUpdate(_, obj any)   { w.observe(obj) }
func (fadeWatch) OnDelete(any)            {}

func (w fadeWatch) observe(obj any) {
	ti, ok := obj.(*v1alpha1.TransferIntent)
	if !ok {
		return
	}
	a := ti.Spec.Auction
	if a == nil || a.Winner == "" || a.ExclusivityDeadline == nil {
		return
	}
	now := w.now()
	if f := ti.Status.Fill; f != nil {
		filler := f.FillerName
		if strings.EqualFold(f.Filler, a.ExclusiveFiller) {
			filler = a.Winner
		}
		if filler == "" {
			filler = f.Filler
		}
		w.fades.RecordFill(ti.Spec.OrderID, filler, now)
		return
	}
	switch ti.Status.Phase {
	case v1alpha1.IntentPhaseCancelling, v1alpha1.IntentPhaseCancelled:
		w.fades.Forget(ti.Spec.OrderID)
		return
	}
	opened := ti.Status.BlockNumber > 0 && ti.Status.Phase == v1alpha1.IntentPhaseSubmitted
	signed := ti.Spec.Gasless != nil && ti.Status.Phase == v1alpha1.IntentPhaseSigned
	if (opened || signed) && now.Before(a.ExclusivityDeadline.Add(time.Second)) { // the deadline's second is exclusive
		w.market.RecordWin(a.Winner, ti.Spec.OrderID, a.ExclusivityDeadline.Add(FadeSlack))
	}
}
