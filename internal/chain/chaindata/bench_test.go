package chaindata

import (
	"context"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// BenchmarkSimulateLiveVsStatic times one ERC-20 transfer simulation against the live dev chain
// on loopback and the same simulation with the static chain data, in the same run, and reports
// the p99 difference: the cost of the one batched round trip (target: within 5 ms on loopback).
//
//	go test ./internal/chain/chaindata -run '^$' -bench SimulateLiveVsStatic -benchtime 1x
func BenchmarkSimulateLiveVsStatic(b *testing.B) {
	t := b
	w := newWorld(t)
	w.chain.SendValue(t, w.holderAddr(), big.NewInt(1e18))
	_, tokenAddr, _ := registry.SplitCAIP10(w.token.Address)
	w.chain.Mint(t, common.HexToAddress(tokenAddr), w.holderAddr(), big.NewInt(100_000_000))
	live := w.service(t, Options{})
	staticRow := w.row
	staticRow.RPCURL = ""
	chains := registry.NewChainTable()
	chains.Upsert("dev", staticRow)
	tokens := registry.NewTokenRegistry()
	tokens.Upsert(w.token)
	static, err := intent.NewService(intent.Config{Catalog: intent.RegistryCatalog{Chains: chains, Tokens: tokens}})
	if err != nil {
		b.Fatal(err)
	}
	req := w.tokenTransfer(t, "40")
	measure := func(svc *intent.Service, n int) (p50, p99 time.Duration) {
		lat := make([]time.Duration, 0, n)
		for range n {
			start := time.Now()
			if _, err := svc.Simulate(context.Background(), "acme", req); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(start))
		}
		slices.Sort(lat)
		return lat[n/2], lat[n*99/100]
	}
	for range b.N {
		sp50, sp99 := measure(static, 2000)
		lp50, lp99 := measure(live, 500)
		b.ReportMetric(float64(sp50.Microseconds()), "static-p50-µs")
		b.ReportMetric(float64(sp99.Microseconds()), "static-p99-µs")
		b.ReportMetric(float64(lp50.Microseconds()), "live-p50-µs")
		b.ReportMetric(float64(lp99.Microseconds()), "live-p99-µs")
		b.ReportMetric(float64((lp99 - sp99).Microseconds()), "p99-extra-µs")
		b.ReportMetric(0, "ns/op")
	}
}

// BenchmarkSimulateFeedsVsNone times the same swap simulation against the live dev chain on
// loopback with and without price feeds (two latestRoundData() elements more in the batch), in the
// same run and interleaved, and reports p50/p99 of both and the p99 difference (target: under
// 1 ms on loopback).
//
//	go test ./internal/chain/chaindata -run '^$' -bench SimulateFeedsVsNone -benchtime 1x
func BenchmarkSimulateFeedsVsNone(b *testing.B) {
	w := newFeedWorld(b)
	withFeeds := w.service(b, Options{})
	plain := *w.world
	plain.row.NativePriceFeed, plain.token.PriceFeed = nil, nil
	without := plain.service(b, Options{})
	req := w.swap(b)
	const n = 500
	for range b.N {
		var with, none []time.Duration
		for range n {
			for _, run := range []struct {
				svc *intent.Service
				lat *[]time.Duration
			}{{without, &none}, {withFeeds, &with}} {
				start := time.Now()
				res, err := run.svc.Simulate(context.Background(), "acme", req)
				if err != nil || !res.Valid {
					b.Fatalf("err %v valid %v errors %v", err, res.Valid, res.Errors)
				}
				*run.lat = append(*run.lat, time.Since(start))
			}
		}
		slices.Sort(with)
		slices.Sort(none)
		b.ReportMetric(float64(none[n/2].Microseconds()), "none-p50-µs")
		b.ReportMetric(float64(none[n*99/100].Microseconds()), "none-p99-µs")
		b.ReportMetric(float64(with[n/2].Microseconds()), "feeds-p50-µs")
		b.ReportMetric(float64(with[n*99/100].Microseconds()), "feeds-p99-µs")
		b.ReportMetric(float64((with[n/2] - none[n/2]).Microseconds()), "p50-extra-µs")
		b.ReportMetric(float64((with[n*99/100] - none[n*99/100]).Microseconds()), "p99-extra-µs")
		b.ReportMetric(0, "ns/op")
	}
}
