package chaindata

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// feedWorld is a world whose gas token and TUSD have TestPriceFeeds (8 decimals, an hour's
// maxAge), the holder funded and the settlement contract approved for its TUSD.
type feedWorld struct {
	*world
	ethFeed, tusdFeed common.Address
}

func usd8(v float64) *big.Int { return big.NewInt(int64(v * 1e8)) }

func newFeedWorld(t testing.TB) *feedWorld {
	t.Helper()
	w := newWorld(t)
	ethFeed, err := w.chain.DeployPriceFeed(8, "ETH / USD", usd8(2500))
	if err != nil {
		t.Fatal(err)
	}
	tusdFeed, err := w.chain.DeployPriceFeed(8, "TUSD / USD", usd8(1.01))
	if err != nil {
		t.Fatal(err)
	}
	w.row.NativePriceFeed = &registry.PriceFeed{Address: ethFeed.Hex(), Decimals: 8, MaxAge: time.Hour}
	w.token.PriceFeed = &registry.PriceFeed{Address: tusdFeed.Hex(), Decimals: 8, MaxAge: time.Hour}
	w.chain.SendValue(t, w.holderAddr(), big.NewInt(1e18))
	_, tokenAddr, _ := registry.SplitCAIP10(w.token.Address)
	w.chain.Mint(t, common.HexToAddress(tokenAddr), w.holderAddr(), big.NewInt(100_000_000))
	approve, err := intent.ERC20ApproveData(common.HexToAddress(w.row.SettlementAddress), big.NewInt(100_000_000))
	if err != nil {
		t.Fatal(err)
	}
	w.chain.Transact(t, w.holder, common.HexToAddress(tokenAddr), approve)
	return &feedWorld{world: w, ethFeed: ethFeed, tusdFeed: tusdFeed}
}

// swap is 25 TUSD for TEUR: its fees need the gas token's price (gasUsd) and TUSD's (the 35 bps
// of totalUsd).
func (w *feedWorld) swap(t testing.TB) intent.Parsed {
	t.Helper()
	p, err := intent.ParseRequest(intent.Request{
		From: w.row.ID + ":" + w.holderAddr().Hex(), To: w.row.ID + ":" + w.holderAddr().Hex(),
		Asset: intent.Asset{Pair: &intent.AssetPair{In: w.token.Address, Out: w.other.Address}}, Amount: "25",
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// wantFees are the fees of res at the node's current gas price and the given prices: what the
// simulation must have computed when it used them.
func (w *feedWorld) wantFees(t testing.TB, res intent.SimulationResult, ethUSD, tusdUSD string) intent.Fees {
	t.Helper()
	ctx := context.Background()
	client, err := ethclient.Dial(w.chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tip, err := client.SuggestGasTipCap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	eth, _ := intent.ParseDecimal(ethUSD)
	tusd, _ := intent.ParseDecimal(tusdUSD)
	return intent.ComputeFees(intent.FeeInputs{
		GasUnits: res.Tx.Gas, GasPriceWei: new(big.Int).Add(head.BaseFee, tip), NativePriceUSD: eth, NativeDecimals: 18,
		Amount: big.NewInt(25_000_000), TokenDecimals: 6, TokenPriceUSD: tusd, Bps: intent.DefaultFeeSchedule().Swap,
	})
}

func priceOf(t testing.TB, res intent.SimulationResult, symbol string) intent.Price {
	t.Helper()
	for _, p := range res.Prices {
		if p.Symbol == symbol {
			return p
		}
	}
	t.Fatalf("no price of %s in %+v", symbol, res.Prices)
	return intent.Price{}
}

func simulate(t testing.TB, svc *intent.Service, p intent.Parsed) intent.SimulationResult {
	t.Helper()
	res, err := svc.Simulate(context.Background(), "acme", p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestPricesFromFeedsOnTheDevChain(t *testing.T) {
	w := newFeedWorld(t)
	// Each step changes the chain, then simulates at once: the view learns the head from the
	// simulations' batches, not from a poller that may be half a block behind (readPinned).
	svc := w.service(t, Options{ViewPoll: -1})

	t.Run("fresh feeds price the fees and are named as the source", func(t *testing.T) {
		res := simulate(t, svc, w.swap(t))
		if !res.Valid || len(res.Warnings) != 0 || res.Tx == nil {
			t.Fatalf("valid %v warnings %v errors %v", res.Valid, res.Warnings, res.Errors)
		}
		eth, tusd := priceOf(t, res, "ETH"), priceOf(t, res, "TUSD")
		if eth.Source != intent.PriceSourceFeed || eth.USD != "2500" || eth.UpdatedAt == nil || eth.Asset != w.native.Address {
			t.Errorf("ETH price %+v; want 2500 from the feed", eth)
		}
		if tusd.Source != intent.PriceSourceFeed || tusd.USD != "1.01" || tusd.UpdatedAt == nil || tusd.Asset != w.token.Address {
			t.Errorf("TUSD price %+v; want 1.01 from the feed", tusd)
		}
		if want := w.wantFees(t, res, "2500", "1.01"); res.EstimatedFees != want {
			t.Errorf("fees %+v; want %+v (the feeds' prices)", res.EstimatedFees, want)
		}
	})

	t.Run("moving the aggregators moves the simulation", func(t *testing.T) {
		if err := w.chain.SetPrice(w.ethFeed, usd8(5000), time.Time{}); err != nil {
			t.Fatal(err)
		}
		if err := w.chain.SetPrice(w.tusdFeed, usd8(2), time.Time{}); err != nil {
			t.Fatal(err)
		}
		res := simulate(t, svc, w.swap(t))
		if eth, tusd := priceOf(t, res, "ETH"), priceOf(t, res, "TUSD"); eth.USD != "5000" || tusd.USD != "2" {
			t.Fatalf("prices %+v; want ETH 5000 and TUSD 2 from the moved feeds", res.Prices)
		}
		if want := w.wantFees(t, res, "5000", "2"); res.EstimatedFees != want {
			t.Errorf("fees %+v; want %+v", res.EstimatedFees, want)
		}
	})

	t.Run("a stale feed falls back to the typed price with a warning", func(t *testing.T) {
		if err := w.chain.SetPrice(w.tusdFeed, usd8(2), time.Now().Add(-2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		res := simulate(t, svc, w.swap(t))
		if tusd := priceOf(t, res, "TUSD"); tusd.Source != intent.PriceSourceTyped || tusd.USD != "1" || tusd.UpdatedAt != nil {
			t.Errorf("TUSD price %+v; want the typed 1", tusd)
		}
		if eth := priceOf(t, res, "ETH"); eth.Source != intent.PriceSourceFeed {
			t.Errorf("ETH price %+v; want it still from its fresh feed", eth)
		}
		if !res.Valid || len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], intent.WarningPriceStale+": TUSD on eip155:31337") ||
			!strings.Contains(res.Warnings[0], "using the typed price 1") {
			t.Errorf("valid %v warnings %q; want valid with one %q warning naming TUSD", res.Valid, res.Warnings, intent.WarningPriceStale)
		}
		if want := w.wantFees(t, res, "5000", "1"); res.EstimatedFees != want {
			t.Errorf("fees %+v; want %+v (the typed TUSD price)", res.EstimatedFees, want)
		}
	})

	t.Run("a live chain refuses an intent priced from a stale feed", func(t *testing.T) {
		live := *w.world
		live.row.Environment = registry.EnvironmentLive
		res := simulate(t, live.service(t, Options{}), w.swap(t))
		if res.Valid || res.Tx != nil || len(res.Errors) != 1 || !strings.Contains(res.Errors[0], "the USD price of TUSD on eip155:31337 (for totalUsd) is not from a fresh price feed") {
			t.Fatalf("valid %v errors %q; want valid:false naming TUSD", res.Valid, res.Errors)
		}
		if err := w.chain.SetPrice(w.tusdFeed, usd8(1), time.Time{}); err != nil {
			t.Fatal(err)
		}
		if res := simulate(t, live.service(t, Options{}), w.swap(t)); !res.Valid || len(res.Errors) != 0 {
			t.Fatalf("fresh again: valid %v errors %q; want valid", res.Valid, res.Errors)
		}
	})

	t.Run("a zero answer or a contract that is no feed is unavailable", func(t *testing.T) {
		if err := w.chain.SetPrice(w.ethFeed, big.NewInt(0), time.Time{}); err != nil {
			t.Fatal(err)
		}
		noFeed := *w.world
		_, tokenAddr, _ := registry.SplitCAIP10(w.other.Address)
		noFeed.token.PriceFeed = &registry.PriceFeed{Address: tokenAddr, Decimals: 8, MaxAge: time.Hour}
		res := simulate(t, noFeed.service(t, Options{}), w.swap(t))
		if !res.Valid || len(res.Warnings) != 2 ||
			!strings.HasPrefix(res.Warnings[0], intent.WarningPriceUnavailable+": ETH on eip155:31337") ||
			!strings.HasPrefix(res.Warnings[1], intent.WarningPriceUnavailable+": TUSD on eip155:31337") {
			t.Fatalf("valid %v warnings %q; want two %q warnings, ETH's and TUSD's", res.Valid, res.Warnings, intent.WarningPriceUnavailable)
		}
		for _, p := range res.Prices {
			if p.Source != intent.PriceSourceTyped {
				t.Errorf("price %+v; want the typed one", p)
			}
		}
	})
}

// recorder is a JSON-RPC endpoint in front of a node that records the methods of each HTTP
// request it forwards: one entry per round trip.
type recorder struct {
	URL  string
	mu   sync.Mutex
	trip [][]string
	// stall, when it says so of a request's methods, makes the node not answer it: the client
	// meets its deadline, as with a node that hangs.
	stall atomic.Pointer[func(methods []string) bool]
}

func newRecorder(t testing.TB, node string) *recorder {
	t.Helper()
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var batch []struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(body, &batch); err != nil { // a single call
			var one struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal(body, &one)
			batch = append(batch[:0], struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}{Method: one.Method})
		}
		methods := make([]string, 0, len(batch))
		for _, c := range batch {
			m := c.Method
			if m == "eth_call" && bytes.Contains(c.Params, []byte(hexutil.Encode(latestRoundDataSelector))) {
				m = "eth_call:latestRoundData"
			}
			methods = append(methods, m)
		}
		rec.mu.Lock()
		rec.trip = append(rec.trip, methods)
		rec.mu.Unlock()
		if stall := rec.stall.Load(); stall != nil && (*stall)(methods) {
			<-r.Context().Done()
			return
		}
		resp, err := http.Post(node, "application/json", bytes.NewReader(body)) //nolint:noctx // the test's loopback node
		if err != nil {
			http.Error(rw, err.Error(), http.StatusBadGateway)
			return
		}
		defer func() { _ = resp.Body.Close() }()
		rw.Header().Set("Content-Type", "application/json")
		_, _ = io.Copy(rw, resp.Body)
	}))
	t.Cleanup(srv.Close)
	rec.URL = srv.URL
	return rec
}

func (rec *recorder) reset() [][]string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	trips := rec.trip
	rec.trip = nil
	return trips
}

var latestRoundDataSelector = contracts.NewTestPriceFeed().PackLatestRoundData()

// The feeds cost no round trip of their own: a simulation with two feeds is one HTTP request to
// the node, whose batch holds both latestRoundData() calls beside the balances and the estimate.
// (Without the view, where every simulation reads everything; with it, view_test.go.)
func TestFeedsRideInTheSimulationsOneBatch(t *testing.T) {
	w := newFeedWorld(t)
	rec := newRecorder(t, w.chain.URL)
	w.row.RPCURL = rec.URL
	svc := w.service(t, Options{DisableView: true})
	simulate(t, svc, w.swap(t)) // connects: the pool may probe the node first
	rec.reset()

	res := simulate(t, svc, w.swap(t))
	if priceOf(t, res, "ETH").Source != intent.PriceSourceFeed || priceOf(t, res, "TUSD").Source != intent.PriceSourceFeed {
		t.Fatalf("prices %+v; want both from the feeds", res.Prices)
	}
	trips := rec.reset()
	if len(trips) != 1 {
		t.Fatalf("%d round trips %q; want 1", len(trips), trips)
	}
	feeds, estimate, balances := 0, 0, 0
	for _, m := range trips[0] {
		switch m {
		case "eth_call:latestRoundData":
			feeds++
		case "eth_estimateGas":
			estimate++
		case "eth_getBalance":
			balances++
		}
	}
	if feeds != 2 || estimate != 1 || balances != 1 {
		t.Errorf("the batch %q holds %d feed reads, %d estimates and %d native balances; want 2, 1 and 1", trips[0], feeds, estimate, balances)
	}
}
