package chaindata

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// followedWorld is a view world whose reader's view is told the head, as by the chain watcher:
// a simulation at a steady block then reads its own state at the view's block, without the head.
type followedWorld struct {
	*viewWorld
	reader *Reader
	svc    *intent.Service
	paths  map[string]intent.Parsed
}

func newFollowedWorld(t *testing.T) *followedWorld {
	t.Helper()
	w := &followedWorld{viewWorld: newViewWorld(t), paths: map[string]intent.Parsed{}}
	for _, p := range w.benchPaths(t) {
		w.paths[p.name] = p.req
	}
	w.reader = w.viewWorld.reader(t, Options{})
	w.svc = w.serviceOf(t, w.reader)
	simulate(t, w.svc, w.paths["swap"]) // fills the view
	w.follow(t)
	return w
}

// follow tells the reader the node's head and waits for its view to be at it.
func (w *followedWorld) follow(t *testing.T) {
	t.Helper()
	head := w.head(t)
	w.reader.ObserveHead(w.row.ID, head)
	testenv.WaitFor(t, 10*time.Second, "the view at the head", func() bool { s := viewOf(w.reader, w.row.ID); return s != nil && s.head == head })
}

func (w *followedWorld) head(t *testing.T) uint64 {
	t.Helper()
	head, err := w.chain.Backend.Client().BlockNumber(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return head
}

// calls simulates p and returns the methods of its round trips.
func (w *followedWorld) calls(t *testing.T, p intent.Parsed) (intent.SimulationResult, [][]string) {
	t.Helper()
	w.rec.reset()
	res := simulate(t, w.svc, p)
	return res, w.rec.reset()
}

// nodeEstimate is the node's own eth_estimateGas of res's transaction from the holder, asked
// directly (not through the recorder).
func (w *followedWorld) nodeEstimate(t *testing.T, res intent.SimulationResult) uint64 {
	t.Helper()
	client, err := ethclient.Dial(w.chain.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	to := common.HexToAddress(res.Tx.To)
	units, err := client.EstimateGas(context.Background(), ethereum.CallMsg{From: w.holderAddr(), To: &to, Data: common.FromHex(res.Tx.Data)})
	if err != nil {
		t.Fatal(err)
	}
	return units
}

// transferTo is an ERC-20 transfer of amount TUSD to recipient.
func (w *followedWorld) transferTo(t *testing.T, recipient common.Address, amount string) intent.Parsed {
	t.Helper()
	p, err := intent.ParseRequest(intent.Request{
		From: w.row.ID + ":" + w.holderAddr().Hex(), To: w.row.ID + ":" + recipient.Hex(),
		Asset: intent.Asset{ID: w.token.Address}, Amount: amount,
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func count(trips [][]string) (calls int) {
	for _, trip := range trips {
		calls += len(trip)
	}
	return calls
}

func asks(trips [][]string, method string) bool {
	for _, trip := range trips {
		if slices.Contains(trip, method) {
			return true
		}
	}
	return false
}

// At a steady block a simulation asks the node only what depends on its request: no head, and
// no estimate once a transaction of its shape was measured at the block; the estimate it derives
// is never below the node's.
func TestASimulationsOwnCalls(t *testing.T) {
	w := newFollowedWorld(t)
	margin := func(units uint64) uint64 { return w.reader.withMargin(units) }

	t.Run("the first of a shape at a block asks the estimate, the next derive it: 3 calls", func(t *testing.T) {
		for _, name := range []string{"transfer", "swap", "bridge"} {
			first, trips := w.calls(t, w.paths[name])
			if len(trips) != 1 || !asks(trips, "eth_estimateGas") || asks(trips, "eth_blockNumber") || len(shared(trips[0])) != 0 {
				t.Fatalf("%s, first: round trips %q; want one with the estimate, without the head or a shared question", name, trips)
			}
			for range 3 {
				res, trips := w.calls(t, w.paths[name])
				if len(trips) != 1 || count(trips) > 3 || asks(trips, "eth_estimateGas") || asks(trips, "eth_blockNumber") {
					t.Fatalf("%s: round trips %q; want one of at most 3 calls, without the estimate or the head", name, trips)
				}
				if !res.Valid || len(res.Warnings) != 0 || res.Tx.Gas < margin(w.nodeEstimate(t, res)) {
					t.Fatalf("%s: valid %v warnings %q gas %d; want valid, and the node's estimate %d with its margin at least",
						name, res.Valid, res.Warnings, res.Tx.Gas, w.nodeEstimate(t, res))
				}
				if res.Tx.Gas > first.Tx.Gas*102/100 {
					t.Errorf("%s: derived gas %d, the measured %d: more than the calldata's bytes can cost", name, res.Tx.Gas, first.Tx.Gas)
				}
			}
		}
	})

	t.Run("a transfer to an empty balance is its own shape, derived at least as the node estimates it", func(t *testing.T) {
		funded := common.HexToAddress("0x00000000000000000000000000000000000f00d1")
		_, tokenAddr, _ := registry.SplitCAIP10(w.token.Address)
		w.chain.Mint(t, common.HexToAddress(tokenAddr), funded, big.NewInt(5_000_000)) // a new block
		w.follow(t)
		res, trips := w.calls(t, w.transferTo(t, funded, "1"))
		if !asks(trips, "eth_estimateGas") {
			t.Fatalf("round trips %q; want the estimate asked at the new block", trips)
		}
		if _, trips := w.calls(t, w.transferTo(t, funded, "2")); asks(trips, "eth_estimateGas") || count(trips) > 3 {
			t.Fatalf("a second funded recipient: round trips %q; want at most 3 calls, the estimate derived", trips)
		}
		fundedGas := res.Tx.Gas
		empty := w.transferTo(t, common.HexToAddress("0x00000000000000000000000000000000000e3a01"), "1")
		res, trips = w.calls(t, empty)
		if len(trips) != 2 || !slices.Equal(trips[1], []string{"eth_estimateGas"}) {
			t.Fatalf("an empty recipient after funded ones: round trips %q; want the estimate asked in a second", trips)
		}
		if res.Tx.Gas <= fundedGas {
			t.Fatalf("gas to an empty balance %d, to a funded one %d: the test would not tell them apart", res.Tx.Gas, fundedGas)
		}
		for _, recipient := range []string{"0x00000000000000000000000000000000000e3a02", "0xfFfFfFfFfFfFFFfFfFFFFFffFfFFFFfFFFfFFFFe"} {
			res, trips := w.calls(t, w.transferTo(t, common.HexToAddress(recipient), "99.999999"))
			if asks(trips, "eth_estimateGas") || count(trips) > 3 {
				t.Fatalf("to %s: round trips %q; want at most 3 calls, the estimate derived", recipient, trips)
			}
			if node := w.nodeEstimate(t, res); res.Tx.Gas < margin(node) {
				t.Fatalf("to the empty %s: derived gas %d, the node's estimate %d with its margin %d", recipient, res.Tx.Gas, node, margin(node))
			}
		}
	})

	t.Run("a request its own reads say would revert asks the estimate", func(t *testing.T) {
		w.rec.reset()
		_, err := w.svc.Simulate(context.Background(), "acme", w.transferTo(t, common.HexToAddress("0x00000000000000000000000000000000000e3a03"), "1000"))
		if trips := w.rec.reset(); len(trips) != 2 || !slices.Equal(trips[1], []string{"eth_estimateGas"}) {
			t.Fatalf("round trips %q; want the estimate asked in a second", trips)
		}
		if err == nil || !strings.Contains(err.Error(), "insufficient balance") {
			t.Fatalf("err %v; want the amount refused", err)
		}
	})

	t.Run("at a new block no shape is known: the first asks the estimate again", func(t *testing.T) {
		w.chain.Backend.Commit()
		w.follow(t)
		if _, trips := w.calls(t, w.paths["swap"]); !asks(trips, "eth_estimateGas") {
			t.Fatalf("round trips %q; want the estimate asked at the new block", trips)
		}
		if _, trips := w.calls(t, w.paths["swap"]); asks(trips, "eth_estimateGas") {
			t.Fatalf("round trips %q; want the estimate derived", trips)
		}
	})
}
