package chaindata

import (
	"context"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// sharedMethods are the elements of a batch that every simulation at a block asks alike.
var sharedMethods = []string{"eth_chainId", "eth_getBlockByNumber", "eth_maxPriorityFeePerGas", "eth_gasPrice", "eth_call:latestRoundData", "eth_getCode"}

// shared are the shared elements of a round trip's methods.
func shared(methods []string) []string {
	var out []string
	for _, m := range methods {
		if slices.Contains(sharedMethods, m) {
			out = append(out, m)
		}
	}
	return out
}

// viewWorld is a feed world whose node is reached through a recorder, simulated by a reader
// with a view whose clock the test holds and which polls no head unless a test says so.
type viewWorld struct {
	*feedWorld
	rec   *recorder
	clock *clocktesting.FakePassiveClock
}

func newViewWorld(t *testing.T) *viewWorld {
	t.Helper()
	w := newFeedWorld(t)
	rec := newRecorder(t, w.chain.URL)
	w.row.RPCURL = rec.URL
	return &viewWorld{feedWorld: w, rec: rec, clock: clocktesting.NewFakePassiveClock(time.Now())}
}

// reader is a reader with a view over the recorder; opts.ViewPoll is -1 (no polling) unless set.
func (w *viewWorld) reader(t *testing.T, opts Options) *Reader {
	t.Helper()
	if opts.ViewPoll == 0 {
		opts.ViewPoll = -1
	}
	opts.Clock = w.clock
	return newReader(t, opts)
}

// baseFee is the base fee of the node's latest block.
func (w *viewWorld) baseFee(t *testing.T) *big.Int {
	t.Helper()
	client, err := ethclient.Dial(w.chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	head, err := client.HeaderByNumber(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return head.BaseFee
}

func TestChainView(t *testing.T) {
	w := newViewWorld(t)

	t.Run("cold start: the first simulation reads everything in one batch and fills the view", func(t *testing.T) {
		svc := w.serviceOf(t, w.reader(t, Options{}))
		w.rec.reset()
		res := simulate(t, svc, w.swap(t))
		trips := w.rec.reset()
		if len(trips) != 1 || !slices.Contains(trips[0], "eth_chainId") || !slices.Contains(trips[0], "eth_getBlockByNumber") ||
			!slices.Contains(trips[0], "eth_getCode") || !slices.Contains(trips[0], "eth_estimateGas") {
			t.Fatalf("round trips %q; want one holding the chain id, the head, the code and the estimate", trips)
		}
		if want := w.wantFees(t, res, "2500", "1.01"); !res.Valid || res.EstimatedFees != want {
			t.Fatalf("valid %v fees %+v warnings %q; want %+v", res.Valid, res.EstimatedFees, res.Warnings, want)
		}
	})

	t.Run("a fresh view leaves only the request's questions in the batch, and the chain id is asked once", func(t *testing.T) {
		svc := w.serviceOf(t, w.reader(t, Options{}))
		simulate(t, svc, w.swap(t))
		w.rec.reset()
		res := simulate(t, svc, w.swap(t))
		trips := w.rec.reset()
		if len(trips) != 1 || len(shared(trips[0])) != 0 || !slices.Contains(trips[0], "eth_blockNumber") {
			t.Fatalf("round trips %q; want one holding the head's number and no shared question", trips)
		}
		// The fees are the node's, at the gas of this simulation's transaction (each order's calldata
		// holds its own nonce, so the estimate differs by a few units from one to the next).
		if want := w.wantFees(t, res, "2500", "1.01"); res.EstimatedFees != want || !slices.Equal(priceSources(res), []string{"feed", "feed"}) {
			t.Fatalf("fees %+v prices %+v; want %+v, from the feeds", res.EstimatedFees, res.Prices, want)
		}
		transfer := simulate(t, svc, w.tokenTransfer(t, "1"))
		if trips := w.rec.reset(); len(trips) != 1 || len(trips[0]) > 4 || !transfer.Valid {
			t.Fatalf("an ERC-20 transfer: round trips %q, valid %v %q; want one of at most 4 calls", trips, transfer.Valid, transfer.Warnings)
		}
	})

	t.Run("the head moved past the view: the simulation reads the new fees and prices for itself", func(t *testing.T) {
		svc := w.serviceOf(t, w.reader(t, Options{}))
		simulate(t, svc, w.swap(t))
		before := w.baseFee(t)
		if err := w.chain.SetPrice(w.ethFeed, usd8(3100), time.Time{}); err != nil { // mines a block
			t.Fatal(err)
		}
		if after := w.baseFee(t); after.Cmp(before) == 0 {
			t.Fatalf("the base fee stayed %v: the test would not tell old fees from new", before)
		}
		w.rec.reset()
		res := simulate(t, svc, w.swap(t))
		if eth := priceOf(t, res, "ETH"); eth.USD != "3100" {
			t.Fatalf("ETH price %+v; want 3100, the new block's", eth)
		}
		if want := w.wantFees(t, res, "3100", "1.01"); res.EstimatedFees != want {
			t.Fatalf("fees %+v; want %+v, at the new block's base fee", res.EstimatedFees, want)
		}
		trips := w.rec.reset()
		if len(trips) != 2 || len(shared(trips[0])) != 0 || !slices.Contains(trips[1], "eth_getBlockByNumber") {
			t.Fatalf("round trips %q; want the request's, then the shared questions at the new head", trips)
		}
	})

	t.Run("a view not confirmed within one block time is not used: the simulation reads everything itself", func(t *testing.T) {
		svc := w.serviceOf(t, w.reader(t, Options{}))
		simulate(t, svc, w.swap(t))
		w.clock.SetTime(w.clock.Now().Add(blockTime(w.row) + time.Millisecond))
		w.rec.reset()
		simulate(t, svc, w.swap(t))
		if trips := w.rec.reset(); len(trips) != 1 || !slices.Contains(trips[0], "eth_getBlockByNumber") || !slices.Contains(trips[0], "eth_estimateGas") {
			t.Fatalf("round trips %q; want one holding the shared questions and the request's", trips)
		}
		simulate(t, svc, w.swap(t))
		if trips := w.rec.reset(); len(trips) != 1 || len(shared(trips[0])) != 0 {
			t.Fatalf("round trips %q; want the view, renewed by that read, used again", trips)
		}
	})

	t.Run("a burst of simulations at a new head refreshes the view once", func(t *testing.T) {
		svc := w.serviceOf(t, w.reader(t, Options{}))
		simulate(t, svc, w.swap(t))
		w.chain.Backend.Commit()
		w.rec.reset()
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() { simulate(t, svc, w.swap(t)) })
		}
		wg.Wait()
		refreshes := 0
		for _, trip := range w.rec.reset() {
			if slices.Contains(trip, "eth_getBlockByNumber") {
				refreshes++
			}
		}
		if refreshes != 1 {
			t.Fatalf("%d reads of the shared questions for 16 simulations at one new head; want 1", refreshes)
		}
	})

	t.Run("the view follows the head by itself", func(t *testing.T) {
		reader := w.reader(t, Options{ViewPoll: 20 * time.Millisecond})
		svc := w.serviceOf(t, reader)
		simulate(t, svc, w.swap(t))
		w.chain.Backend.Commit()
		head := w.chain.Backend.Client().(interface {
			BlockNumber(context.Context) (uint64, error)
		})
		want, err := head.BlockNumber(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		testenv.WaitFor(t, 10*time.Second, "the view at the new head", func() bool { s := viewOf(reader, w.row.ID); return s != nil && s.head == want })
		w.rec.reset()
		simulate(t, svc, w.swap(t))
		for _, trip := range w.rec.reset() {
			if len(shared(trip)) != 0 {
				t.Fatalf("round trip %q; want the polled view used, without shared questions", trip)
			}
		}
	})

	t.Run("the chain watcher's heads refresh the view", func(t *testing.T) {
		reader := w.reader(t, Options{})
		svc := w.serviceOf(t, reader)
		simulate(t, svc, w.swap(t))
		w.chain.Backend.Commit()
		before := viewOf(reader, w.row.ID).head
		reader.ObserveHead(w.row.ID, before+1)
		testenv.WaitFor(t, 10*time.Second, "the view at the watcher's head", func() bool { return viewOf(reader, w.row.ID).head == before+1 })
		w.rec.reset()
		simulate(t, svc, w.swap(t))
		for _, trip := range w.rec.reset() {
			if len(shared(trip)) != 0 {
				t.Fatalf("round trip %q; want the refreshed view used, without shared questions", trip)
			}
		}
	})

	t.Run("a node that hangs during the refresh gives the static answer within the deadline", func(t *testing.T) {
		svc := w.serviceOf(t, w.reader(t, Options{CallTimeout: 200 * time.Millisecond}))
		simulate(t, svc, w.swap(t))
		stall := func(methods []string) bool { return slices.Contains(methods, "eth_getBlockByNumber") }
		w.rec.stall.Store(&stall)
		defer w.rec.stall.Store(nil)
		w.chain.Backend.Commit()
		assertStaticAnswer(t, svc, w.tokenTransfer(t, "1"))
	})

	t.Run("a node gone after the view was read gives the static answer within the deadline", func(t *testing.T) {
		gone := newViewWorld(t)
		svc := gone.serviceOf(t, gone.reader(t, Options{CallTimeout: 200 * time.Millisecond}))
		simulate(t, svc, gone.swap(t))
		if err := gone.chain.Close(); err != nil {
			t.Fatal(err)
		}
		assertStaticAnswer(t, svc, gone.tokenTransfer(t, "1"))
	})
}

// assertStaticAnswer is the answer of a simulation whose chain could not be asked: the chain's
// defaults with the warning, within the deadline (TestSimulateOnTheLiveNode, without a view).
func assertStaticAnswer(t *testing.T, svc *intent.Service, p intent.Parsed) {
	t.Helper()
	start := time.Now()
	res, err := svc.Simulate(context.Background(), "acme", p)
	if took := time.Since(start); err != nil || took > time.Second {
		t.Fatalf("err %v after %s; want an answer within the deadline", err, took)
	}
	if !res.Valid || !hasPrefix(res.Warnings, intent.WarningChainUnavailable) || res.Tx.Gas != 0 {
		t.Fatalf("valid %v warnings %q gas %d; want the static answer with %q", res.Valid, res.Warnings, res.Tx.Gas, intent.WarningChainUnavailable)
	}
}

func priceSources(res intent.SimulationResult) []string {
	var out []string
	for _, p := range res.Prices {
		out = append(out, p.Source)
	}
	return out
}

// viewOf is the snapshot of chain's view, nil when it has none.
func viewOf(r *Reader, chain string) *snapshot {
	r.views.mu.Lock()
	v := r.views.byChain[chain]
	r.views.mu.Unlock()
	if v == nil {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.snap
}
