package txnonce_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/txnonce"
)

// staleNode answers a fixed pending nonce, as a node does between accepting a transaction and
// promoting it in its pool.
type staleNode struct{ pending uint64 }

func (n *staleNode) PendingNonceAt(context.Context, common.Address) (uint64, error) {
	return n.pending, nil
}

var sender = common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")

func TestANonceIsNeverHandedOutTwiceWhileTheNodeTrails(t *testing.T) {
	node := &staleNode{pending: 7}
	var tr txnonce.Tracker
	for want := uint64(7); want < 10; want++ {
		got, err := tr.Next(context.Background(), node, sender)
		if err != nil || got != want {
			t.Fatalf("Next = %d, %v; want %d", got, err, want)
		}
	}
	other := common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")
	if got, _ := tr.Next(context.Background(), node, other); got != 7 {
		t.Fatalf("another sender's first nonce = %d, want the node's 7", got)
	}
}

func TestTheNodeAheadWins(t *testing.T) {
	node := &staleNode{pending: 3}
	var tr txnonce.Tracker
	_, _ = tr.Next(context.Background(), node, sender)
	node.pending = 12 // sent from elsewhere with the same key
	if got, _ := tr.Next(context.Background(), node, sender); got != 12 {
		t.Fatalf("Next = %d, want the node's 12", got)
	}
}

func TestWhatWasHandedOutExpires(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	tr := txnonce.Tracker{Now: func() time.Time { return now }}
	node := &staleNode{pending: 5}
	_, _ = tr.Next(context.Background(), node, sender) // 5, then dropped by the node
	if got, _ := tr.Next(context.Background(), node, sender); got != 6 {
		t.Fatalf("right after, Next = %d, want 6", got)
	}
	now = now.Add(txnonce.Window)
	if got, _ := tr.Next(context.Background(), node, sender); got != 5 {
		t.Fatalf("a window after going ahead, Next = %d, want the node's 5 (no gap left behind)", got)
	}
}

// A filler steps every second: sends closer together than the window must not keep a gap open.
func TestSteadySendsDoNotKeepAGapOpen(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	tr := txnonce.Tracker{Now: func() time.Time { return now }}
	node := &staleNode{pending: 5} // the transaction of nonce 5 was dropped: the node stays at 5
	fellBack := false
	for range 10 {
		got, _ := tr.Next(context.Background(), node, sender)
		if got == 5 && now.After(time.Unix(1_700_000_000, 0)) {
			fellBack = true
			break
		}
		now = now.Add(txnonce.Window / 2)
	}
	if !fellBack {
		t.Fatal("sends every half window kept the tracker ahead of the node: nonce 5 never handed out again")
	}
}

func TestARefusedNonceIsTakenAgain(t *testing.T) {
	node := &staleNode{pending: 0}
	var tr txnonce.Tracker
	first, _ := tr.Next(context.Background(), node, sender)
	second, _ := tr.Next(context.Background(), node, sender)
	tr.Unused(sender, first) // a later one was handed out: nothing to give back
	if got, _ := tr.Next(context.Background(), node, sender); got != 2 {
		t.Fatalf("Next = %d, want 2", got)
	}
	tr.Unused(sender, 2)
	if got, _ := tr.Next(context.Background(), node, sender); got != 2 {
		t.Fatalf("after giving 2 back Next = %d, want 2 (second was %d)", got, second)
	}
}

// On a real node: transactions sent back to back, without a block between them, are all accepted
// and all mined, each with its own nonce.
func TestBackToBackSendsOnANodeAreAllAccepted(t *testing.T) {
	chain := devchain.Start(t, 31_999)
	client := chain.Backend.Client()
	from := crypto.PubkeyToAddress(chain.Funder.PublicKey)
	to := common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")
	var tr txnonce.Tracker
	const sends = 40
	for i := range sends {
		nonce, err := tr.Next(context.Background(), client, from)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := types.SignNewTx(chain.Funder, types.LatestSignerForChainID(chain.ID), &types.DynamicFeeTx{
			ChainID: chain.ID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11), Gas: 21_000, To: &to, Value: big.NewInt(1),
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := client.SendTransaction(context.Background(), tx); err != nil {
			t.Fatalf("send %d (nonce %d): %v", i, nonce, err)
		}
	}
	chain.Commit()
	if n, err := client.NonceAt(context.Background(), from, nil); err != nil || n != sends {
		t.Fatalf("mined nonce = %d, %v; want %d", n, err, sends)
	}
}
