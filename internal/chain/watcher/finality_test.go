package watcher

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// A bridge's transaction is final only in the node's finalized block where the node serves that
// tag, however deep it is under the head; a node that does not serve it makes a bridge wait for
// the Chain's bridgeMinConfirmations (at least), even when finalitySeconds is 0. A transfer keeps
// the chain's own depth.
func TestBridgeFinalityComesFromTheNode(t *testing.T) {
	dev := devchain.Start(t, 31337)
	for range 60 {
		dev.Backend.Commit()
	}
	proxy := dev.NewProxy(t)
	node, err := jsonrpc.Dial(t.Context(), "eip155:31337", proxy.URL, jsonrpc.Options{Caller: Caller})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	head, err := node.Head(t.Context())
	if err != nil || head != 60 {
		t.Fatalf("head %d, %v; want 60", head, err)
	}
	// The simulated node finalizes every 32nd block: at head 60, block 32.
	f := &follower{node: node, chain: registry.Chain{ID: "eip155:31337", BlockTimeSeconds: 1, FinalitySeconds: 0, BridgeMinConfirmations: 10}}
	check := func(what string, n uint64, bridge, want bool) {
		t.Helper()
		f.finality = finalityView{} // a new step
		got, err := f.final(t.Context(), n, head, bridge)
		if err != nil || got != want {
			t.Errorf("%s: block %d final = %v (%v), want %v", what, n, got, err, want)
		}
	}
	check("a bridge under the finalized block", 32, true, true)
	check("a bridge 21 blocks deep, past the finalized block", 40, true, false)
	check("a transfer at the chain's depth (finalitySeconds 0: one block)", 60, false, true)

	proxy.Lie(func(method string, params, result json.RawMessage) json.RawMessage {
		if method == "eth_getBlockByNumber" && strings.Contains(string(params), `"finalized"`) {
			return json.RawMessage("null") // a node without the tag
		}
		return result
	})
	check("a bridge at bridgeMinConfirmations on a node without the tag", 51, true, true)
	check("a bridge one block short of bridgeMinConfirmations", 52, true, false)
	f.chain.BridgeMinConfirmations = 0
	check("a bridge 30 blocks deep, under the default of 64", 31, true, false)
	f.chain.BridgeMinConfirmations, f.chain.FinalitySeconds = 10, 30
	check("a bridge at the chain's finality, deeper than the minimum", 31, true, true)
	check("a bridge one block short of the chain's finality", 32, true, false)
}
