package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/rfq"
	"github.com/transferintent/transfer-intent-service/internal/service"
)

// bindMarketFlags binds the request for quotes and the orders' market terms.
func bindMarketFlags(fs *flag.FlagSet, m *service.MarketOptions) {
	fs.DurationVar(&m.Deadline, "rfq-deadline", rfq.DefaultDeadline,
		"Deadline of one request for quotes: a simulation or create waits at most this long for the fillers' quotes.")
	fs.DurationVar(&m.Exclusivity, "rfq-exclusivity", intent.DefaultExclusivity,
		"How long the winner of a request for quotes alone may fill the order at its quote (the order's exclusivityDeadline).")
	fs.DurationVar(&m.DecayWindow, "auction-decay-window", intent.DefaultDecayWindow,
		"How long an order's output takes to fall from its start amount to its minAmountOut (cut short by its deadline).")
	fs.Func("rfq-override-bps", "Basis points another filler pays above the decayed amount to fill during an exclusivity; 0 (the default): none may (at most 10000).",
		func(v string) error {
			bps, err := strconv.ParseUint(v, 10, 32)
			if err != nil || bps > intent.BpsDenominator {
				return fmt.Errorf("want basis points from 0 to %d", intent.BpsDenominator)
			}
			m.OverrideBps = uint32(bps)
			return nil
		})
	fs.IntVar(&m.FadeThreshold, "rfq-fade-threshold", rfq.DefaultFadeThreshold,
		"Fades (orders won and not filled within their exclusivity) within --rfq-fade-window after which a filler is not asked for quotes for --rfq-fade-cooldown.")
	fs.DurationVar(&m.FadeWindow, "rfq-fade-window", rfq.DefaultFadeWindow, "The window fades are counted in (see --rfq-fade-threshold).")
	fs.DurationVar(&m.FadeCooldown, "rfq-fade-cooldown", rfq.DefaultFadeCooldown,
		"How long a filler past --rfq-fade-threshold is not asked for quotes (its Filler reads Ready=False, reason Fading).")
	fs.DurationVar(&m.StatusInterval, "filler-status-interval", controller.DefaultFillerStatsInterval,
		"How often the leader writes each Filler's quotes, wins, fills, fades and latency on its status.")
	fs.BoolVar(&m.AllowLoopback, "rfq-allow-loopback", false,
		"Let Fillers' quote endpoints be on loopback addresses, for development (make run sets --webhook-allow-loopback, which allows it too). Never in a cluster.")
}
