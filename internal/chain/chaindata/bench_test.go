package chaindata

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"sync"
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

// BenchmarkChainView measures the reader as it is (the chain's view, plain answers, a pool of
// connections) against the same simulations as the reader was (every simulation reading
// everything itself, through Options.LegacyTransport), in one run against one dev chain node on
// loopback making a block every second (each new head costs the view a refresh): for an ERC-20 transfer,
// a swap and a bridge, the node's calls per simulation (every batch element through a counting
// proxy, the view's polls and refreshes included), the p50 of one client simulating in a loop,
// and the simulations per second and p50 of 8 clients at once. The two are measured in turns,
// five rounds in alternating order, and each figure is the median of its five: the machine is
// shared, and a turn of either may meet someone else's build.
//
//	make bench-chainview   (go test ./internal/chain/chaindata -run '^$' -bench ChainView -benchtime 1x)
func BenchmarkChainView(b *testing.B) {
	w := newFeedWorld(b)
	paths := w.benchPaths(b)
	stop := make(chan struct{})
	defer close(stop)
	go func() { // a block a second, as the Chain declares
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				w.chain.Backend.Commit()
			}
		}
	}()
	const phase, rounds = time.Second, 5
	for range b.N {
		fmt.Printf("\n%-9s %-5s %10s %12s %14s %12s\n", "path", "view", "calls/sim", "p50 1 client", "sims/s 8 cl.", "p50 8 cl.")
		for _, p := range paths {
			var runs [2][]viewFigures // off, on
			for round := range rounds {
				for turn := range 2 {
					on := (round+turn)%2 == 1
					opts := Options{DisableView: !on, LegacyTransport: !on} // off: the reader as it was
					f := viewFigures{
						calls: w.callsPerSimulation(b, opts, p.req, phase),
						p50:   w.load(b, opts, p.req, 1, phase).p50,
						load:  w.load(b, opts, p.req, 8, phase),
					}
					runs[boolIndex(on)] = append(runs[boolIndex(on)], f)
				}
			}
			base, view := medianFigures(runs[0]), medianFigures(runs[1])
			for _, row := range []struct {
				name string
				f    viewFigures
			}{{"off", base}, {"on", view}} {
				fmt.Printf("%-9s %-5s %10.2f %12s %14.0f %12s\n", p.name, row.name,
					row.f.calls, row.f.p50.Round(time.Microsecond), row.f.load.rate, row.f.load.p50.Round(time.Microsecond))
			}
			fmt.Printf("%-9s %-5s %9.2fx %11.2fx %13.2fx %11.2fx\n", p.name, "ratio", base.calls/view.calls,
				float64(base.p50)/float64(view.p50), view.load.rate/base.load.rate, float64(base.load.p50)/float64(view.load.p50))
			b.ReportMetric(view.calls, p.name+"-calls/sim")
			b.ReportMetric(base.calls, p.name+"-calls/sim-base")
			b.ReportMetric(view.load.rate/base.load.rate, p.name+"-throughput-x")
			b.ReportMetric(float64(base.p50)/float64(view.p50), p.name+"-p50-faster-x")
		}
		b.ReportMetric(0, "ns/op")
	}
}

func boolIndex(on bool) int {
	if on {
		return 1
	}
	return 0
}

type viewFigures struct {
	calls float64
	p50   time.Duration
	load  loadFigures
}

// medianFigures is each figure's median over runs, taken figure by figure.
func medianFigures(runs []viewFigures) viewFigures {
	median := func(get func(viewFigures) float64) float64 {
		vals := make([]float64, len(runs))
		for i, r := range runs {
			vals[i] = get(r)
		}
		slices.Sort(vals)
		return vals[len(vals)/2]
	}
	return viewFigures{
		calls: median(func(f viewFigures) float64 { return f.calls }),
		p50:   time.Duration(median(func(f viewFigures) float64 { return float64(f.p50) })),
		load: loadFigures{
			rate: median(func(f viewFigures) float64 { return f.load.rate }),
			p50:  time.Duration(median(func(f viewFigures) float64 { return float64(f.load.p50) })),
		},
	}
}

type benchPath struct {
	name string
	req  intent.Parsed
}

// benchPaths are an ERC-20 transfer, a swap and a bridge to a second chain (without a node of
// its own: a bridge reads its origin chain only) from the world's funded holder.
func (w *feedWorld) benchPaths(b testing.TB) []benchPath {
	b.Helper()
	dest := w.row
	dest.ID, dest.NumericID, dest.RPCURL, dest.DisplayName = "eip155:31338", big.NewInt(31338), "", "dev 2"
	w.extraChains = append(w.extraChains, dest)
	_, tokenAddr, _ := registry.SplitCAIP10(w.token.Address)
	destToken := w.token
	destToken.Name, destToken.ChainID, destToken.Address, destToken.PriceFeed = "tusd-2", dest.ID, dest.ID+":"+tokenAddr, nil
	w.extraTokens = append(w.extraTokens, destToken)
	bridge, err := intent.ParseRequest(intent.Request{
		From: w.row.ID + ":" + w.holderAddr().Hex(), To: dest.ID + ":" + w.holderAddr().Hex(),
		Asset: intent.Asset{ID: w.token.Address}, Amount: "25",
	})
	if err != nil {
		b.Fatal(err)
	}
	return []benchPath{{"transfer", w.tokenTransfer(b, "1")}, {"swap", w.swap(b)}, {"bridge", bridge}}
}

// callsPerSimulation simulates req in a loop for d through a counting proxy and divides every
// element the node was asked in that time by the simulations.
func (w *feedWorld) callsPerSimulation(b *testing.B, opts Options, req intent.Parsed, d time.Duration) float64 {
	b.Helper()
	rec := newRecorder(b, w.chain.URL)
	counted := *w.world
	counted.row.RPCURL = rec.URL
	reader := newReader(b, opts)
	defer reader.Close()
	svc := counted.serviceOf(b, reader)
	n := 0
	for start := time.Now(); time.Since(start) < d; n++ {
		benchSimulate(b, svc, req)
	}
	calls := 0
	for _, trip := range rec.reset() {
		calls += len(trip)
	}
	return float64(calls) / float64(n)
}

type loadFigures struct {
	rate float64 // simulations a second
	p50  time.Duration
}

// load runs clients simulating req in a loop against the node for d.
func (w *feedWorld) load(b *testing.B, opts Options, req intent.Parsed, clients int, d time.Duration) loadFigures {
	b.Helper()
	reader := newReader(b, opts)
	defer reader.Close()
	svc := w.serviceOf(b, reader)
	benchSimulate(b, svc, req) // connects, and fills the view
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range clients {
		wg.Go(func() {
			for time.Since(start) < d {
				t0 := time.Now()
				benchSimulate(b, svc, req)
				lat[i] = append(lat[i], time.Since(t0))
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	all := slices.Concat(lat...)
	slices.Sort(all)
	return loadFigures{rate: float64(len(all)) / took.Seconds(), p50: all[len(all)/2]}
}

func benchSimulate(b *testing.B, svc *intent.Service, req intent.Parsed) {
	res, err := svc.Simulate(context.Background(), "acme", req)
	if err != nil || !res.Valid || len(res.Warnings) != 0 {
		b.Errorf("err %v valid %v warnings %q errors %q", err, res.Valid, res.Warnings, res.Errors)
	}
}
