package watcher

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// The informer delivers an intent some time after the API stored it, and the client may send its
// transaction at once: on a busy machine the follower read the block that holds the transaction
// before the intent was in the index, and the intent stayed pending for good (an e2e bridge never
// confirmed). When the intent arrives, the follower reads again the blocks it processed since
// shortly before the intent was made, and finds the transaction; blocks processed well before it
// are not read again.
func TestAnIntentThatReachesTheWatcherAfterItsBlockIsFound(t *testing.T) {
	dev, f, x, kube := newLateFixture(t)
	m, chain := f.metrics, f.chain
	step := func() { t.Helper(); stepOnce(t, f) }

	for range 3 {
		dev.Backend.Commit()
	}
	step()
	for n, b := range f.recent {
		b.at = b.at.Add(-time.Minute) // processed a minute before the intent was made
		f.recent[n] = b
	}
	early := f.cursor

	recipient := common.HexToAddress("0x2222222222222222222222222222222222222222")
	wei := big.NewInt(1_000_000)
	id := intent.NewIntentID(time.Now())
	name, err := intent.ObjectNameFromID(id)
	if err != nil {
		t.Fatal(err)
	}
	stored := &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: metav1.Now()},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, FromChain: chain.ID,
			Request: v1alpha1.TransferRequest{From: "eip155:31337:" + crypto.PubkeyToAddress(dev.Funder.PublicKey).Hex()},
			Tx:      &v1alpha1.TransactionPayload{To: recipient.Hex(), Value: wei.String(), Data: "0x", ChainID: 31337},
		},
		Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhasePending},
	}
	if err := kube.Create(t.Context(), stored); err != nil {
		t.Fatal(err)
	}
	dev.SendValue(t, recipient, wei) // the client pays at once, in block early+1
	step()
	if got := intentNamed(t, kube, name); got.Status.Phase != v1alpha1.IntentPhasePending {
		t.Fatalf("the intent was matched before it reached the index: %s", got.Status.Phase)
	}

	x.Upsert(intentNamed(t, kube, name)) // the informer delivers it now
	step()
	got := intentNamed(t, kube, name)
	if got.Status.Phase != v1alpha1.IntentPhaseSubmitted || got.Status.BlockNumber != int64(early+1) { //nolint:gosec // a small block number
		t.Fatalf("phase %s in block %d; want submitted in block %d, found when the intent arrived", got.Status.Phase, got.Status.BlockNumber, early+1)
	}
	if n := testutil.ToFloat64(m.rereads.WithLabelValues(chain.ID)); n != 1 {
		t.Errorf("%v blocks read again; want 1: the blocks processed a minute before the intent cannot hold its transaction", n)
	}

	step() // nothing arrived since: nothing is read again
	if n := testutil.ToFloat64(m.rereads.WithLabelValues(chain.ID)); n != 1 {
		t.Errorf("%v blocks read again after a step with no arrival; want still 1", n)
	}
}

// The index marks as late the chains where a new intent is looked for in blocks: a pending
// intent's own chain, and an order's destination chain (its Filled event), whatever its phase.
// Updates of an intent it knows, and a submitted transfer (followed by hash), mark nothing.
func TestTheIndexMarksTheChainsANewIntentIsLookedForOn(t *testing.T) {
	user := orderUser
	order := settlement.Order{
		OriginSettler: originSettler, OriginChainId: big.NewInt(1337), User: user, DestinationChainId: big.NewInt(1338),
		AmountIn: big.NewInt(25_000_000), MinAmountOut: big.NewInt(24_000_000), DestinationSettler: destSettler,
	}
	data, err := settlement.OpenData(order)
	if err != nil {
		t.Fatal(err)
	}
	orderID, err := settlement.ID(order)
	if err != nil {
		t.Fatal(err)
	}
	made := time.Now().Add(-time.Minute)
	id := intent.NewIntentID(made)
	bridge := &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: "bridge", ResourceVersion: "5"},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, Type: v1alpha1.IntentTypeBridge, FromChain: "eip155:1337", ToChain: "eip155:1338", OrderID: orderID.Hex(),
			Request: v1alpha1.TransferRequest{From: "eip155:1337:" + user.Hex()},
			Tx:      &v1alpha1.TransactionPayload{To: originSettler.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: 1337},
		},
		Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseSubmitted, Hash: common.HexToHash("0x0e").Hex()},
	}
	x := NewIndex()
	x.Upsert(bridge)
	for _, chain := range []uint64{1337, 1338} {
		span, ok := x.Late(chain)
		if !ok || !span.From.Equal(intent.IDTime(id).Add(-arrivalSkew)) || span.Until.Before(made) {
			t.Errorf("chain %d: late %v %+v; want from the id's time less %v", chain, ok, span, arrivalSkew)
		}
		if _, again := x.Late(chain); again {
			t.Errorf("chain %d is still late once asked", chain)
		}
	}

	bridge.ResourceVersion = "6"
	x.Upsert(bridge)
	if _, ok := x.Late(1338); ok {
		t.Error("an update of an intent the index knows marked its destination late")
	}

	transfer := pendingIntent(1, newKey(t), nil)
	transfer.Status = v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseSubmitted, Hash: common.HexToHash("0x0f").Hex()}
	x.Upsert(transfer)
	if _, ok := x.Late(testChainID); ok {
		t.Error("a submitted transfer, followed by its hash, marked its chain late")
	}
	x.Upsert(pendingIntent(2, newKey(t), nil))
	if _, ok := x.Late(testChainID); !ok {
		t.Error("a new pending transfer did not mark its chain late")
	}
}

// Under a steady stream of new intents, one a step and a second apart, each step reads again only
// the blocks matched in the arrivalSkew before the new intent: a block read again keeps the time it
// was first matched, so the re-reads do not snowball (they grew by a block a step before).
func TestReadingAgainStaysBoundedUnderASteadyStreamOfIntents(t *testing.T) {
	dev, f, x, _ := newLateFixture(t)
	clock := time.Now()
	f.now = func() time.Time { return clock }
	x.now = f.now
	key := newKey(t)
	reread := func() float64 { return testutil.ToFloat64(f.metrics.rereads.WithLabelValues(f.chain.ID)) }
	before := 0.0
	for i := range 8 {
		dev.Backend.Commit()
		clock = clock.Add(time.Second)
		ti := pendingIntent(i, key, []byte{byte(i)}) // never paid: only its arrival matters
		ti.Spec.ID = intent.NewIntentID(clock)
		x.Upsert(ti)
		stepOnce(t, f)
		// Matched at clock-1s and clock-2s: the blocks of the two steps before (none at first).
		if got, want := reread()-before, float64(min(i, 2)); got != want {
			t.Errorf("step %d read %v blocks again; want %v", i, got, want)
		}
		before = reread()
	}
}

// newLateFixture is a follower of a simulated chain (eip155:31337) over an empty index, writing
// through a fake client of namespace "default" whose writes reach the index at once.
func newLateFixture(t testing.TB) (*devchain.Chain, *follower, *Index, client.Client) {
	t.Helper()
	dev := devchain.Start(t, 31337)
	node, err := jsonrpc.Dial(t.Context(), "eip155:31337", dev.URL, jsonrpc.Options{Caller: Caller})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Close)
	m, err := newMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	x := NewIndex()
	kube := fake.NewClientBuilder().WithScheme(v1alpha1.Scheme()).WithStatusSubresource(&v1alpha1.TransferIntent{}).Build()
	chain := registry.Chain{ID: "eip155:31337", NumericID: big.NewInt(31337), RPCURL: dev.URL, BlockTimeSeconds: 1}
	f := newFollower(chain, "default", node, x, &intentstatus.Writer{Client: kube, APIReader: kube, Written: x.Upsert},
		Options{}.withDefaults(), logr.Discard(), m)
	return dev, f, x, kube
}

func stepOnce(t testing.TB, f *follower) {
	t.Helper()
	if _, err := f.step(t.Context()); err != nil {
		t.Fatal(err)
	}
}
