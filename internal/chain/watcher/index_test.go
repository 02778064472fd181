package watcher

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

const testChainID = 31337

var (
	testSigner = types.LatestSignerForChainID(big.NewInt(testChainID))
	tokenAddr  = common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
)

// pendingIntent is a pending intent n of the key's address, whose transaction calls the token
// with data.
func pendingIntent(n int, key *ecdsa.PrivateKey, data []byte) *v1alpha1.TransferIntent {
	from := crypto.PubkeyToAddress(key.PublicKey)
	return &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("int-%02d", n), ResourceVersion: "10"},
		Spec: v1alpha1.TransferIntentSpec{
			ID:      fmt.Sprintf("int_transfer_01J0000000000000000000%04d", n),
			Request: v1alpha1.TransferRequest{From: fmt.Sprintf("eip155:%d:%s", testChainID, from.Hex())},
			Tx:      &v1alpha1.TransactionPayload{To: tokenAddr.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: testChainID},
		},
		Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhasePending},
	}
}

// signed is the intent's transaction as key signs it, with nonce.
func signed(t testing.TB, key *ecdsa.PrivateKey, nonce uint64, to common.Address, data []byte) *types.Transaction {
	t.Helper()
	tx, err := types.SignNewTx(key, testSigner, &types.DynamicFeeTx{
		ChainID: big.NewInt(testChainID), Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(2), Gas: 60_000,
		To: &to, Value: new(big.Int), Data: data,
	})
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func matchedNames(ms []Match) []string {
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
	}
	return names
}

func TestMatchIsExact(t *testing.T) {
	alice, mallory := newKey(t), newKey(t)
	data := []byte{0xa9, 0x05, 0x9c, 0xbb, 1, 2, 3}
	x := NewIndex()
	x.Upsert(pendingIntent(1, alice, data))

	oneByteOff := append([]byte{}, data...)
	oneByteOff[len(oneByteOff)-1] ^= 1
	cases := []struct {
		name string
		tx   *types.Transaction
		want int
	}{
		{"the exact transaction from the intent's from", signed(t, alice, 0, tokenAddr, data), 1},
		{"the same transaction from another sender", signed(t, mallory, 0, tokenAddr, data), 0},
		{"one byte of data differs", signed(t, alice, 0, tokenAddr, oneByteOff), 0},
		{"another recipient", signed(t, alice, 0, common.HexToAddress("0x01"), data), 0},
	}
	for _, c := range cases {
		if got := x.Match(testChainID, testSigner, time.Now(), []*types.Transaction{c.tx}); len(got) != c.want {
			t.Errorf("%s: %d matches, want %d", c.name, len(got), c.want)
		}
	}
	if got := x.Match(testChainID+1, testSigner, time.Now(), []*types.Transaction{cases[0].tx}); len(got) != 0 {
		t.Errorf("a block of another chain matched %v", matchedNames(got))
	}
}

// Two intents with the same transaction: each transaction executes one of them, the oldest first,
// and one transaction never executes both.
func TestIdenticalIntentsAreMatchedOnceEachOldestFirst(t *testing.T) {
	alice := newKey(t)
	data := []byte{1, 2, 3}
	x := NewIndex()
	x.Upsert(pendingIntent(2, alice, data))
	x.Upsert(pendingIntent(1, alice, data))

	got := matchedNames(x.Match(testChainID, testSigner, time.Now(), []*types.Transaction{signed(t, alice, 0, tokenAddr, data)}))
	if len(got) != 1 || got[0] != "int-01" {
		t.Fatalf("one transaction matched %v, want [int-01]", got)
	}
	got = matchedNames(x.Match(testChainID, testSigner, time.Now(), []*types.Transaction{
		signed(t, alice, 0, tokenAddr, data), signed(t, alice, 1, tokenAddr, data),
	}))
	if len(got) != 2 || got[0] != "int-01" || got[1] != "int-02" {
		t.Fatalf("two transactions matched %v, want [int-01 int-02]", got)
	}
}

// Identical intents (one recipient, one amount, many payers or many payments) share a list: an
// intent leaving it, or updated in place, takes out itself and no other.
func TestAnIntentLeavesTheListOfIdenticalOnesAlone(t *testing.T) {
	alice := newKey(t)
	data := []byte{1, 2, 3}
	x := NewIndex()
	for n := 1; n <= 5; n++ {
		x.Upsert(pendingIntent(n, alice, data))
	}
	gone := pendingIntent(3, alice, data)
	gone.ResourceVersion = "11"
	gone.Status.Phase = v1alpha1.IntentPhaseExpired
	x.Upsert(gone)
	again := pendingIntent(4, alice, data)
	again.ResourceVersion = "11" // a status write that leaves it pending
	x.Upsert(again)
	x.EventHandler().OnDelete(pendingIntent(1, alice, data))

	var txs []*types.Transaction
	for nonce := range 5 {
		txs = append(txs, signed(t, alice, uint64(nonce), tokenAddr, data))
	}
	got := matchedNames(x.Match(testChainID, testSigner, time.Now(), txs))
	if fmt.Sprint(got) != "[int-02 int-04 int-05]" {
		t.Fatalf("five transactions matched %v, want [int-02 int-04 int-05]", got)
	}

	// A deleted object whose id is not the one it was placed under (hand-made, or recreated
	// under the same name) still leaves: a stale pending intent could be paid by a transaction.
	renamed := pendingIntent(2, alice, data)
	renamed.Spec.ID = "int_transfer_01J00000000000000000009999"
	x.EventHandler().OnDelete(renamed)
	got = matchedNames(x.Match(testChainID, testSigner, time.Now(), txs))
	if fmt.Sprint(got) != "[int-04 int-05]" {
		t.Fatalf("after int-02 left: five transactions matched %v, want [int-04 int-05]", got)
	}
}

// The watcher writes ahead of the watch: an informer event older than its write must not put the
// intent back among the pending.
func TestAnOlderEventDoesNotUndoAWriteAppliedAhead(t *testing.T) {
	alice := newKey(t)
	data := []byte{9}
	x := NewIndex()
	pending := pendingIntent(1, alice, data)
	x.Upsert(pending)

	submitted := pending.DeepCopy()
	submitted.ResourceVersion = "12"
	submitted.Status.Phase = v1alpha1.IntentPhaseSubmitted
	submitted.Status.Hash = common.Hash{1}.Hex()
	x.Upsert(submitted)

	stale := pending.DeepCopy()
	stale.ResourceVersion = "11" // e.g. the controller's label patch, delivered late
	x.Upsert(stale)

	if got := x.Match(testChainID, testSigner, time.Now(), []*types.Transaction{signed(t, alice, 0, tokenAddr, data)}); len(got) != 0 {
		t.Fatalf("a stale event made the submitted intent pending again: matched %v", matchedNames(got))
	}
	if subs := x.Submitted(testChainID); len(subs) != 1 || subs[0].Name != "int-01" {
		t.Fatalf("submitted = %v", subs)
	}

	dropped := submitted.DeepCopy()
	dropped.ResourceVersion = "13"
	dropped.Status = v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhasePending}
	x.Upsert(dropped)
	if got := x.Match(testChainID, testSigner, time.Now(), []*types.Transaction{signed(t, alice, 0, tokenAddr, data)}); len(got) != 1 {
		t.Fatalf("a dropped intent is not pending again: matched %v", matchedNames(got))
	}
	if subs := x.Submitted(testChainID); len(subs) != 0 {
		t.Fatalf("submitted after the drop = %v", subs)
	}
}

func TestConfirmationsFromFinality(t *testing.T) {
	for _, c := range []struct {
		block, finality int64
		want            uint64
	}{{12, 768, 64}, {1, 0, 1}, {2, 1, 1}, {2, 3, 2}, {1, 2, 2}} {
		if got := confirmations(chainRow(c.block, c.finality)); got != c.want {
			t.Errorf("block %ds, finality %ds: %d confirmations, want %d", c.block, c.finality, got, c.want)
		}
	}
}

func chainRow(blockTime, finality int64) registry.Chain {
	return registry.Chain{ID: fmt.Sprintf("eip155:%d", testChainID), NumericID: big.NewInt(testChainID), BlockTimeSeconds: blockTime, FinalitySeconds: finality}
}

// One transaction executes one intent: after it made one intent submitted, reading its block again
// (a restart, a rewind) does not give it to an identical pending intent, nor does a block older
// than an intent hold that intent's transaction.
func TestAHeldTransactionAndAnOlderBlockMatchNothing(t *testing.T) {
	alice := newKey(t)
	data := []byte{7}
	tx := signed(t, alice, 0, tokenAddr, data)
	x := NewIndex()
	first := pendingIntent(1, alice, data)
	first.Status = v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseConfirmed, Hash: tx.Hash().Hex()}
	x.Upsert(first)
	x.Upsert(pendingIntent(2, alice, data))
	if got := x.Match(testChainID, testSigner, time.Now(), []*types.Transaction{tx}); len(got) != 0 {
		t.Fatalf("the transaction of a confirmed intent matched %v", matchedNames(got))
	}
	if x.HeldBy(tx.Hash()) != "int-01" {
		t.Fatalf("HeldBy = %q", x.HeldBy(tx.Hash()))
	}

	fresh := NewIndex()
	later := pendingIntent(3, alice, data)
	later.CreationTimestamp = metav1.NewTime(time.Now())
	fresh.Upsert(later)
	old := signed(t, alice, 1, tokenAddr, data)
	if got := fresh.Match(testChainID, testSigner, time.Now().Add(-time.Hour), []*types.Transaction{old}); len(got) != 0 {
		t.Fatalf("a block an hour older than the intent matched %v", matchedNames(got))
	}
	if got := fresh.Match(testChainID, testSigner, time.Now(), []*types.Transaction{old}); len(got) != 1 {
		t.Fatalf("a block of now did not match the intent: %v", matchedNames(got))
	}
}
