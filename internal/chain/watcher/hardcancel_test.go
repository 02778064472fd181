package watcher

import (
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// A cancelling gasless intent ends cancelled once its user's hard cancel (Permit2's
// invalidateUnorderedNonces of the order's nonce) is in a final block, well before its open
// deadline; while that block is not final yet it stays cancelling. An order whose nonce a filler's
// openFor spent is not ended by the rule: the settlement contract opened it. The chain has no
// settlement address for the follower, so the Opened event is not followed here and only the
// order's status on the contract tells the two apart, as for a follower that has not read the
// open's block yet.
func TestAFinalHardCancelEndsACancellingOrder(t *testing.T) {
	dev, f, x, kube := newLateFixture(t)
	settler, token, user := gaslessWorld(t, dev)

	cancelled := cancellingOrder(t, dev, kube, settler, token, user, "hard-cancelled")
	opened := cancellingOrder(t, dev, kube, settler, token, user, "opened")
	for _, name := range []string{cancelled.name, opened.name} {
		x.Upsert(intentNamed(t, kube, name))
	}
	phase := func(name string) v1alpha1.IntentPhase { t.Helper(); return intentNamed(t, kube, name).Status.Phase }

	// The simulated node finalizes every 32nd block: past block 32, so that the block after it
	// (the hard cancel's) is final only at block 64.
	for head, _ := f.node.Head(t.Context()); head < 33; head, _ = f.node.Head(t.Context()) {
		dev.Commit()
	}
	cancelAt := dev.Transact(t, user, contracts.CanonicalPermit2, settlement.CancelData(cancelled.order.Nonce)).BlockNumber.Uint64()
	openAt := dev.Transact(t, dev.Funder, settler, openForData(t, opened)).BlockNumber.Uint64()
	if cancelAt <= 32 || cancelAt > 63 || openAt > 63 {
		t.Fatalf("the hard cancel in block %d and the open in block %d; want both between 33 and 63", cancelAt, openAt)
	}
	stepOnce(t, f)
	if p := phase(cancelled.name); p != v1alpha1.IntentPhaseCancelling {
		t.Fatalf("the hard cancel in block %d ended the intent %s before its block was final (finalized: 32)", cancelAt, p)
	}

	for head, _ := f.node.Head(t.Context()); head < 64; head, _ = f.node.Head(t.Context()) {
		dev.Commit()
	}
	stepOnce(t, f)
	got := intentNamed(t, kube, cancelled.name)
	if got.Status.Phase != v1alpha1.IntentPhaseCancelled {
		t.Fatalf("the hard cancel is final (block %d, finalized 64) and the intent is %s; want cancelled", cancelAt, got.Status.Phase)
	}
	if time.Now().After(cancelled.openDeadline) {
		t.Fatal("the test ran past the open deadline: the intent could have ended there")
	}
	c := meta.FindStatusCondition(got.Status.Conditions, v1alpha1.ConditionTransaction)
	if c == nil || c.Reason != v1alpha1.ReasonHardCancelled || c.Status != metav1.ConditionFalse {
		t.Errorf("Transaction condition %+v; want False %s", c, v1alpha1.ReasonHardCancelled)
	}
	if p := phase(opened.name); p != v1alpha1.IntentPhaseCancelling {
		t.Errorf("the order a filler opened (its nonce spent by openFor in block %d) is %s; want still cancelling: only the chain's Opened ends it", openAt, p)
	}
	if n := len(x.Cancelling(31337)); n != 1 {
		t.Errorf("%d cancelling intents in the index; want 1, the opened order", n)
	}
}

// On a node that does not serve the finalized tag, a hard cancel is final at the Chain's bridge
// depth (bridgeMinConfirmations here), as a bridge's transaction is: one block short of it, the
// intent is still cancelling.
func TestAHardCancelIsFinalAtTheBridgeDepthWithoutTheFinalizedTag(t *testing.T) {
	dev, f, x, kube := newLateFixture(t)
	settler, token, user := gaslessWorld(t, dev)
	proxy := dev.NewProxy(t)
	proxy.Lie(func(method string, params, result json.RawMessage) json.RawMessage {
		if method == "eth_getBlockByNumber" && strings.Contains(string(params), `"finalized"`) {
			return json.RawMessage("null") // a node without the tag
		}
		return result
	})
	node, err := jsonrpc.Dial(t.Context(), "eip155:31337", proxy.URL, jsonrpc.Options{Caller: Caller})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Close)
	f.node, f.chain.BridgeMinConfirmations = node, 5
	o := cancellingOrder(t, dev, kube, settler, token, user, "hard-cancelled")
	x.Upsert(intentNamed(t, kube, o.name))

	at := dev.Transact(t, user, contracts.CanonicalPermit2, settlement.CancelData(o.order.Nonce)).BlockNumber.Uint64()
	for head, _ := f.node.Head(t.Context()); head < at+3; head, _ = f.node.Head(t.Context()) {
		dev.Commit()
	}
	stepOnce(t, f)
	if p := intentNamed(t, kube, o.name).Status.Phase; p != v1alpha1.IntentPhaseCancelling {
		t.Fatalf("the hard cancel 4 blocks deep (bridge depth 5) ended the intent %s", p)
	}
	dev.Commit()
	stepOnce(t, f)
	if p := intentNamed(t, kube, o.name).Status.Phase; p != v1alpha1.IntentPhaseCancelled {
		t.Fatalf("the hard cancel 5 blocks deep (bridge depth 5) left the intent %s; want cancelled", p)
	}
}

// gaslessWorld deploys a settlement contract (gasless orders through the genesis Permit2) and a
// TUSD token on dev, and makes a user who holds TUSD, has approved Permit2 and has ether for its
// hard cancel.
func gaslessWorld(t *testing.T, dev *devchain.Chain) (settler, token common.Address, user *ecdsa.PrivateKey) {
	t.Helper()
	attester, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	if settler, err = dev.DeploySettlement(crypto.PubkeyToAddress(attester.PublicKey), settlement.MinRefundDelay); err != nil {
		t.Fatal(err)
	}
	token = dev.DeployTestToken(t, "Test USD", "TUSD", 6)
	user = newKey(t)
	userAddr := crypto.PubkeyToAddress(user.PublicKey)
	dev.SendValue(t, userAddr, big.NewInt(params.Ether))
	dev.Mint(t, token, userAddr, big.NewInt(10_000_000))
	dev.Transact(t, user, token, contracts.NewTestToken().PackApprove(contracts.CanonicalPermit2, math.MaxBig256))
	return settler, token, user
}

// gaslessOrder is a cancelling gasless intent of the test and its signed order.
type gaslessOrder struct {
	name         string
	order        settlement.GaslessOrder
	signature    []byte
	openDeadline time.Time
}

// openForData is the calldata of a filler's openFor of o.
func openForData(t *testing.T, o gaslessOrder) []byte {
	t.Helper()
	data, err := settlement.OpenForData(o.order, o.signature)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// cancellingOrder stores a cancelling gasless swap of user's TUSD through settler, signed by user,
// openable for ten minutes, as the API leaves it after a soft cancel.
func cancellingOrder(t *testing.T, dev *devchain.Chain, kube client.Client, settler, token common.Address, user *ecdsa.PrivateKey, label string) gaslessOrder {
	t.Helper()
	var nonce [32]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		t.Fatal(err)
	}
	userAddr := crypto.PubkeyToAddress(user.PublicKey)
	now := uint64(time.Now().Unix()) //nolint:gosec // a positive time
	o := settlement.Order{
		Account: crypto.Keccak256Hash([]byte("acme")), OriginSettler: settler, OriginChainId: dev.ID,
		User: userAddr, DestinationChainId: dev.ID, Recipient: common.HexToAddress("0x00000000000000000000000000000000000b0b00"),
		TokenIn: token, TokenOut: token, AmountIn: big.NewInt(1_000_000), MinAmountOut: big.NewInt(990_000),
		Deadline: now + 3600, Nonce: nonce, DestinationSettler: settler,
	}
	g, err := settlement.Gasless(o, now+600)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := devchain.SignGasless(user, g, contracts.CanonicalPermit2)
	if err != nil {
		t.Fatal(err)
	}
	data, err := settlement.OpenData(o)
	if err != nil {
		t.Fatal(err)
	}
	orderID, err := settlement.ID(o)
	if err != nil {
		t.Fatal(err)
	}
	id := intent.NewIntentID(time.Now())
	name, err := intent.ObjectNameFromID(id)
	if err != nil {
		t.Fatal(err)
	}
	name += "-" + label
	deadline := time.Unix(int64(now+600), 0) //nolint:gosec // a near time
	cancelledAt := metav1.Now()
	ti := &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: metav1.Now()},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, Type: v1alpha1.IntentTypeSwap, FromChain: "eip155:31337", ToChain: "eip155:31337", OrderID: orderID.Hex(),
			Request:   v1alpha1.TransferRequest{From: "eip155:31337:" + userAddr.Hex()},
			Tx:        &v1alpha1.TransactionPayload{To: settler.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: 31337},
			Gasless:   &v1alpha1.GaslessTerms{Permit2: contracts.CanonicalPermit2.Hex(), Nonce: g.Nonce.String(), OpenDeadline: metav1.NewTime(deadline)},
			ExpiresAt: metav1.NewTime(deadline),
		},
		Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseCancelling, Signature: hexutil.Encode(sig), CancelledAt: &cancelledAt},
	}
	if err := kube.Create(t.Context(), ti); err != nil {
		t.Fatal(err)
	}
	return gaslessOrder{name: name, order: g, signature: sig, openDeadline: deadline}
}
