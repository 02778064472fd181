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
