package orderbook

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
)

// gaslessIntent is a stored gasless bridge from chain 1337 in phase, signed when sig is set.
func gaslessIntent(t *testing.T, n int, env v1alpha1.Environment, phase v1alpha1.IntentPhase, sig string) *v1alpha1.TransferIntent {
	t.Helper()
	settler := common.HexToAddress("0x00000000000000000000000000000000000000e7")
	token := common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
	nonce := big.NewInt(int64(1000 + n))
	var nonceBytes [32]byte
	nonce.FillBytes(nonceBytes[:])
	order := settlement.Order{
		OriginSettler: settler, OriginChainId: big.NewInt(1337), User: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
		DestinationChainId: big.NewInt(1338), Recipient: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
		TokenIn: token, TokenOut: token, AmountIn: big.NewInt(5_000_000), MinAmountOut: big.NewInt(4_900_000),
		Deadline: 1_900_000_000, Nonce: nonceBytes, DestinationSettler: settler,
	}
	data, err := settlement.OpenData(order)
	if err != nil {
		t.Fatal(err)
	}
	id, err := settlement.ID(order)
	if err != nil {
		t.Fatal(err)
	}
	ulid := fmt.Sprintf("01JA%06d%016d", n, 0) // created n ms apart: ids and createdAt sort by n
	return &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("int-transfer-%d", n), ResourceVersion: fmt.Sprint(n)},
		Spec: v1alpha1.TransferIntentSpec{
			ID: "int_transfer_" + ulid, Environment: env, Type: v1alpha1.IntentTypeBridge, FromChain: "eip155:1337", ToChain: "eip155:1338",
			OrderID: id.Hex(), Request: v1alpha1.TransferRequest{Asset: v1alpha1.TransferAsset{In: "eip155:1337:" + token.Hex()}},
			Tx: &v1alpha1.TransactionPayload{To: settler.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: 1337},
			Gasless: &v1alpha1.GaslessTerms{Permit2: "0x000000000022D473030F116dDEE9F6B43aC78BA3", Nonce: nonce.String(),
				OpenDeadline: metav1.NewTime(time.Unix(1_899_999_000, 0))},
		},
		Status: v1alpha1.TransferIntentStatus{Phase: phase, Signature: sig},
	}
}

var aSignature = "0x" + strings.Repeat("11", 65)

// The book lists signed (and opened) gasless orders of the key's environment only, oldest first;
// a cancel, an end or a withdrawal takes an order out; filters and cursors page through it.
func TestBookListsSignedOrdersOfOneEnvironment(t *testing.T) {
	b := &Book{}
	numbers := map[string]int{} // orderId -> n
	for n, tc := range []struct {
		env   v1alpha1.Environment
		phase v1alpha1.IntentPhase
		sig   string
	}{
		{v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseSigned, aSignature},     // 0: listed
		{v1alpha1.EnvironmentTest, "", ""},                                     // 1: unsigned (implied): not listed
		{v1alpha1.EnvironmentLive, v1alpha1.IntentPhaseSigned, aSignature},     // 2: another environment
		{v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseSubmitted, aSignature},  // 3: opened: listed as submitted
		{v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseCancelling, aSignature}, // 4: withdrawn
		{v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseConfirmed, aSignature},  // 5: settled
		{v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseSigned, aSignature},     // 6: listed
	} {
		ti := gaslessIntent(t, n, tc.env, tc.phase, tc.sig)
		numbers[ti.Spec.OrderID] = n
		b.index.upsert(ti)
	}
	ids := func(orders []Order) []int {
		var out []int
		for _, o := range orders {
			out = append(out, numbers[o.OrderID])
		}
		return out
	}
	got, more := b.List(v1alpha1.EnvironmentTest, Filter{Status: v1alpha1.IntentPhaseSigned}, nil, 10)
	if fmt.Sprint(ids(got)) != "[0 6]" || more {
		t.Fatalf("signed test orders = %v (more %v), want [0 6]", ids(got), more)
	}
	if got, _ := b.List(v1alpha1.EnvironmentTest, Filter{Status: v1alpha1.IntentPhaseSubmitted}, nil, 10); fmt.Sprint(ids(got)) != "[3]" {
		t.Errorf("submitted = %v, want [3]", ids(got))
	}
	if got, _ := b.List(v1alpha1.EnvironmentLive, Filter{}, nil, 10); fmt.Sprint(ids(got)) != "[2]" {
		t.Errorf("live = %v, want [2]", ids(got))
	}

	page, more := b.List(v1alpha1.EnvironmentTest, Filter{}, nil, 1)
	if fmt.Sprint(ids(page)) != "[0]" || !more {
		t.Fatalf("first page = %v (more %v)", ids(page), more)
	}
	cursor := PositionOf(page[0])
	page, _ = b.List(v1alpha1.EnvironmentTest, Filter{}, &cursor, 10)
	if fmt.Sprint(ids(page)) != "[3 6]" {
		t.Errorf("after the cursor = %v, want [3 6]", ids(page))
	}
	if got, _ := b.List(v1alpha1.EnvironmentTest, Filter{Chain: "eip155:1338"}, nil, 10); len(got) != 0 {
		t.Errorf("orders from 1338: %v", ids(got))
	}
	if got, _ := b.List(v1alpha1.EnvironmentTest, Filter{Token: "eip155:1337:0x5fbdb2315678afecb367f032d93f642f64180aa3"}, nil, 10); len(got) != 3 {
		t.Errorf("by token (any case): %v", ids(got))
	}

	// The entry is what a filler needs: the openFor of the order and signature, nothing else.
	o := got[1] // order 6
	g, err := settlement.Gasless(mustOrder(t, gaslessIntent(t, 6, v1alpha1.EnvironmentTest, "", "")), 1_899_999_000)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := settlement.OpenForData(g, hexutil.MustDecode(aSignature))
	if o.OpenFor.Data != hexutil.Encode(want) || o.OpenFor.To != g.OriginSettler.Hex() || o.Signature != aSignature {
		t.Errorf("the entry's openFor is not openFor(order, signature, \"\"): %+v", o.OpenFor)
	}

	// A cancel withdraws it; an older version of the object cannot bring it back.
	cancelled := gaslessIntent(t, 6, v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseCancelling, aSignature)
	cancelled.ResourceVersion = "100"
	b.index.upsert(cancelled)
	b.index.upsert(gaslessIntent(t, 6, v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseSigned, aSignature)) // resourceVersion 6
	if got, _ := b.List(v1alpha1.EnvironmentTest, Filter{Status: v1alpha1.IntentPhaseSigned}, nil, 10); fmt.Sprint(ids(got)) != "[0]" {
		t.Errorf("after the cancel = %v, want [0]", ids(got))
	}
	b.index.remove("int-transfer-0")
	if got, _ := b.List(v1alpha1.EnvironmentTest, Filter{Status: v1alpha1.IntentPhaseSigned}, nil, 10); len(got) != 0 {
		t.Errorf("after the delete = %v", ids(got))
	}
}

func mustOrder(t *testing.T, ti *v1alpha1.TransferIntent) settlement.Order {
	t.Helper()
	o, err := settlement.OrderOfOpenData(hexutil.MustDecode(ti.Spec.Tx.Data))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// Sign and Cancel refuse what their phase does not take, before asking any node.
func TestSignAndCancelRefuseTheWrongPhase(t *testing.T) {
	b := &Book{}
	signed := gaslessIntent(t, 1, v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseSubmitted, aSignature)
	if _, err := b.Sign(t.Context(), signed, hexutil.MustDecode("0x"+strings.Repeat("22", 65))); !isConflict(err) {
		t.Errorf("Sign of a submitted intent: %v, want a conflict", err)
	}
	if _, err := b.Cancel(t.Context(), signed, ""); !isConflict(err) {
		t.Errorf("Cancel of a submitted intent: %v, want a conflict", err)
	}
	plain := gaslessIntent(t, 2, v1alpha1.EnvironmentTest, "", "")
	plain.Spec.Gasless = nil
	if _, err := b.Cancel(t.Context(), plain, ""); !isConflict(err) {
		t.Errorf("Cancel of a transaction intent: %v, want a conflict", err)
	}
	// The signature it holds already answers the intent as it is (idempotent).
	if got, err := b.Sign(t.Context(), signed, hexutil.MustDecode(aSignature)); err != nil || got != signed {
		t.Errorf("Sign with the held signature: %v, %v", got, err)
	}
}

func isConflict(err error) bool {
	var p *intent.Problem
	return errors.As(err, &p) && p.Kind == intent.KindConflict
}

// The book knows the Permit2 nonce every unfinished gasless intent holds, signed or not, and
// forgets it when the intent finishes or goes: Nonce never hands a held nonce out again.
func TestIndexKnowsTheNoncesUnfinishedIntentsHold(t *testing.T) {
	var x index
	user := "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"
	ti := gaslessIntent(t, 1, v1alpha1.EnvironmentTest, v1alpha1.IntentPhasePending, "") // created, not signed
	ti.Spec.Request.From = "eip155:1337:" + user
	nonce := big.NewInt(1001)
	x.upsert(ti)
	if !x.holding("eip155:1337", strings.ToLower(user), nonce) {
		t.Fatal("an unsigned pending gasless intent's nonce is not held")
	}
	if x.holding("eip155:1338", user, nonce) || x.holding("eip155:1337", user, big.NewInt(1002)) {
		t.Fatal("held on another chain, or another nonce")
	}
	done := ti.DeepCopy()
	done.ResourceVersion, done.Status.Phase = "2", v1alpha1.IntentPhaseExpired
	x.upsert(done)
	if x.holding("eip155:1337", user, nonce) {
		t.Fatal("a finished intent still holds its nonce")
	}
	again := ti.DeepCopy()
	again.ResourceVersion = "3"
	x.upsert(again)
	x.remove(again.Name)
	if x.holding("eip155:1337", user, nonce) || len(x.held) != 0 || len(x.holds) != 0 {
		t.Fatalf("a deleted intent still holds its nonce: %v %v", x.held, x.holds)
	}
}

// A reorg cannot undo a soft cancel: signed → cancel (cancelling) → a filler's late Open
// (submitted) → the Open leaves the chain (drop): the order is cancelling again, not signed, and
// the book does not list it again.
func TestACancelledOrderNeverReturnsToTheBook(t *testing.T) {
	b := &Book{}
	now := metav1.NewTime(time.Unix(1_800_000_000, 0))
	ti := gaslessIntent(t, 1, v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseSigned, aSignature)
	b.index.upsert(ti)
	if list, _ := b.List(v1alpha1.EnvironmentTest, Filter{}, nil, 10); len(list) != 1 {
		t.Fatalf("a signed order: listed %d, want 1", len(list))
	}
	if !intentstatus.Cancel(ti, now) || ti.Status.Phase != v1alpha1.IntentPhaseCancelling {
		t.Fatalf("cancel: phase %s", ti.Status.Phase)
	}
	open := common.HexToHash("0x0e")
	if !intentstatus.Observe(ti, intentstatus.Observation{Event: intent.EventSubmit, Hash: open, Block: 9, Reason: v1alpha1.ReasonOpened}, now) ||
		ti.Status.Phase != v1alpha1.IntentPhaseSubmitted {
		t.Fatalf("a late Open: phase %s", ti.Status.Phase)
	}
	if !intentstatus.Observe(ti, intentstatus.Observation{Event: intent.EventDrop, Hash: open, Reason: v1alpha1.ReasonDropped}, now) {
		t.Fatal("the Open's drop did not apply")
	}
	if ti.Status.Phase != v1alpha1.IntentPhaseCancelling {
		t.Fatalf("after the reorg: phase %s, want cancelling", ti.Status.Phase)
	}
	ti.ResourceVersion = "99"
	b.index.upsert(ti)
	if list, _ := b.List(v1alpha1.EnvironmentTest, Filter{}, nil, 10); len(list) != 0 {
		t.Fatalf("the cancelled order is listed again after a reorg: %+v", list)
	}
}
