package service

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

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
	s.Fades = rfq.NewFades(rfq.FadeOptions{Metrics: metrics})
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
