package orderbook

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/gasless"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// orderIntent is a stored gasless intent of order, created at created, in phase with sig.
func orderIntent(t *testing.T, name string, created time.Time, o settlement.Order, openDeadline uint64, phase v1alpha1.IntentPhase, sig string) *v1alpha1.TransferIntent {
	t.Helper()
	data, err := settlement.OpenData(o)
	if err != nil {
		t.Fatal(err)
	}
	id, err := settlement.ID(o)
	if err != nil {
		t.Fatal(err)
	}
	chain := fmt.Sprintf("eip155:%d", o.OriginChainId)
	return &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "tis"},
		Spec: v1alpha1.TransferIntentSpec{
			ID: intent.NewIntentID(created), Environment: v1alpha1.EnvironmentTest, Type: v1alpha1.IntentTypeSwap, FromChain: chain, ToChain: chain,
			OrderID: id.Hex(), Request: v1alpha1.TransferRequest{From: chain + ":" + o.User.Hex(), Asset: v1alpha1.TransferAsset{In: chain + ":" + o.TokenIn.Hex()}},
			Tx: &v1alpha1.TransactionPayload{To: o.OriginSettler.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: o.OriginChainId.Int64()},
			Gasless: &v1alpha1.GaslessTerms{Permit2: contracts.CanonicalPermit2.Hex(), Nonce: new(big.Int).SetBytes(o.Nonce[:]).String(),
				OpenDeadline: metav1.NewTime(time.Unix(int64(openDeadline), 0))},
		},
		Status: v1alpha1.TransferIntentStatus{Phase: phase, Signature: sig},
	}
}

// A wallet's orders in the book, served oldest first: a stuffer's many newer orders never push a
// genuine older order of another user off the first page, and the stuffer's own are served only
// as far as its funds go once they are known.
func TestTheBookIsServedOldestFirst(t *testing.T) {
	b := &Book{}
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	token := common.HexToAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3")
	order := func(user common.Address, n int) settlement.Order {
		var nonce [32]byte
		big.NewInt(int64(n)).FillBytes(nonce[:])
		return settlement.Order{OriginSettler: common.HexToAddress("0xe7"), OriginChainId: big.NewInt(1337), User: user,
			DestinationChainId: big.NewInt(1337), Recipient: user, TokenIn: token, TokenOut: token, AmountIn: big.NewInt(1_000_000),
			MinAmountOut: big.NewInt(990_000), Deadline: 1_900_000_000, Nonce: nonce, DestinationSettler: common.HexToAddress("0xe7")}
	}
	genuine, stuffer := common.HexToAddress("0x0a"), common.HexToAddress("0x0b")
	b.index.upsert(orderIntent(t, "genuine", start, order(genuine, 1), 1_899_999_000, v1alpha1.IntentPhaseSigned, aSignature))
	for n := range 300 {
		b.index.upsert(orderIntent(t, fmt.Sprintf("stuffed-%d", n), start.Add(time.Duration(n+1)*time.Second), order(stuffer, 100+n),
			1_899_999_000, v1alpha1.IntentPhaseSigned, aSignature))
	}
	page, more := b.List(v1alpha1.EnvironmentTest, Filter{}, nil, 50)
	if len(page) != 50 || !more || page[0].Order.User != genuine.Hex() {
		t.Fatalf("first page: %d orders (more %v), first of %s; want the genuine order first", len(page), more, page[0].Order.User)
	}
	// Every order is reached by paging.
	seen := len(page)
	for more {
		after := PositionOf(page[len(page)-1])
		page, more = b.List(v1alpha1.EnvironmentTest, Filter{}, &after, 50)
		seen += len(page)
	}
	if seen != 301 {
		t.Fatalf("paging reached %d orders, want 301", seen)
	}
	// Once the stuffer's wallet is known to hold one unit, one of its orders is served: the oldest.
	b.index.mu.Lock()
	b.index.covers[walletOf("eip155:1337", stuffer.Hex())] = map[common.Address]gasless.Holding{token: {Balance: big.NewInt(1_000_000), Allowance: math.MaxBig256}}
	b.index.coverLocked(walletOf("eip155:1337", stuffer.Hex()))
	b.index.mu.Unlock()
	page, more = b.List(v1alpha1.EnvironmentTest, Filter{}, nil, 50)
	if len(page) != 2 || more || page[0].Order.User != genuine.Hex() || page[1].CreatedAt != start.Add(time.Second) {
		t.Fatalf("with the stuffer's funds known: %d orders (more %v)", len(page), more)
	}
}

// chainTable is the registry's chains, for the book.
type chainTable map[string]registry.Chain

func (c chainTable) Get(id string) (registry.Chain, bool) { ch, ok := c[id]; return ch, ok }

// world is a dev chain (real JSON-RPC, Permit2 at its canonical address, the settlement contract)
// and a book over it that records signatures in a fake API server.
type world struct {
	t          *testing.T
	chain      *devchain.Chain
	settlement common.Address
	token      common.Address
	kube       client.Client
	book       *Book
	created    time.Time
	n          int
}

var tokenABI = contracts.NewTestToken()

func newWorld(t *testing.T) *world {
	t.Helper()
	chain := devchain.Start(t, 1337)
	w := &world{t: t, chain: chain, created: time.Now().Add(-time.Hour).Truncate(time.Millisecond)}
	attester, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	if w.settlement, err = chain.DeploySettlement(crypto.PubkeyToAddress(attester.PublicKey), settlement.MinRefundDelay); err != nil {
		t.Fatal(err)
	}
	w.token = chain.DeployTestToken(t, "Test USD", "TUSD", 6)
	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	w.kube = fake.NewClientBuilder().WithScheme(scheme).WithStatusSubresource(&v1alpha1.TransferIntent{}).Build()
	w.book = &Book{
		Chains: chainTable{"eip155:1337": {ID: "eip155:1337", NumericID: chain.ID, RPCURL: chain.URL}},
		Writer: &intentstatus.Writer{Client: w.kube, APIReader: w.kube},
	}
	return w
}

// wallet is a user holding amount of the token, with Permit2 allowed all of it.
func (w *world) wallet(amount int64) *ecdsa.PrivateKey {
	w.t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		w.t.Fatal(err)
	}
	user := crypto.PubkeyToAddress(key.PublicKey)
	w.chain.SendValue(w.t, user, big.NewInt(params.Ether))
	w.chain.Mint(w.t, w.token, user, big.NewInt(amount))
	w.chain.Transact(w.t, key, w.token, tokenABI.PackApprove(contracts.CanonicalPermit2, math.MaxBig256))
	return key
}

// intent stores a new unsigned gasless swap of amountIn of user's tokens, a second younger than
// the one before, and returns it with the user's signature of its typed data.
func (w *world) intent(user *ecdsa.PrivateKey, amountIn int64) (*v1alpha1.TransferIntent, []byte) {
	w.t.Helper()
	w.n++
	addr := crypto.PubkeyToAddress(user.PublicKey)
	var nonce [32]byte
	big.NewInt(int64(7_000 + w.n)).FillBytes(nonce[:])
	now := uint64(time.Now().Unix())
	o := settlement.Order{
		Account: crypto.Keccak256Hash([]byte("acme")), OriginSettler: w.settlement, OriginChainId: w.chain.ID, User: addr,
		DestinationChainId: w.chain.ID, Recipient: addr, TokenIn: w.token, TokenOut: w.token, AmountIn: big.NewInt(amountIn),
		MinAmountOut: big.NewInt(amountIn * 99 / 100), Deadline: now + 3600, Nonce: nonce, DestinationSettler: w.settlement,
	}
	ti := orderIntent(w.t, fmt.Sprintf("intent-%d", w.n), w.created.Add(time.Duration(w.n)*time.Second), o, now+600, "", "")
	if err := w.kube.Create(context.Background(), ti); err != nil {
		w.t.Fatal(err)
	}
	g, err := settlement.Gasless(o, now+600)
	if err != nil {
		w.t.Fatal(err)
	}
	sig, err := devchain.SignGasless(user, g, contracts.CanonicalPermit2)
	if err != nil {
		w.t.Fatal(err)
	}
	return ti, sig
}

// signed is ti as another replica's informer brings it once its signature was recorded there.
func (w *world) signed(ti *v1alpha1.TransferIntent, sig []byte, version int) *v1alpha1.TransferIntent {
	s := ti.DeepCopy()
	s.ResourceVersion = fmt.Sprint(1000 + version)
	s.Status.Phase, s.Status.Signature = v1alpha1.IntentPhaseSigned, hexutil.Encode(sig)
	return s
}

func (w *world) listed(b *Book) []string {
	w.t.Helper()
	orders, _ := b.List(v1alpha1.EnvironmentTest, Filter{}, nil, 100)
	var out []string
	for _, o := range orders {
		out = append(out, o.OrderID)
	}
	return out
}

func (w *world) recheck(b *Book) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Recheck(ctx); err != nil {
		w.t.Fatal(err)
	}
}

func isProblem(err error, kind intent.ProblemKind) bool {
	var p *intent.Problem
	return errors.As(err, &p) && p.Kind == kind
}

// One wallet holding one unit signs five orders of the full unit: the first is accepted, the
// others are refused (orders-exceed-funds) and nothing of them is written; the book lists one.
// Another replica, which learnt the five signed orders from its informer (as when two replicas
// accept signatures at once), serves only the oldest once it has read the wallet.
func TestAWalletListsOnlyWhatItCovers(t *testing.T) {
	w := newWorld(t)
	const unit = 1_000_000
	user := w.wallet(unit)
	var intents []*v1alpha1.TransferIntent
	var sigs [][]byte
	for i := range 5 {
		ti, sig := w.intent(user, unit)
		intents, sigs = append(intents, ti), append(sigs, sig)
		written, err := w.book.Sign(t.Context(), ti, sig)
		if i == 0 {
			if err != nil || written.Status.Phase != v1alpha1.IntentPhaseSigned {
				t.Fatalf("the first order: %v", err)
			}
			continue
		}
		if !isProblem(err, KindOrdersExceedFunds) {
			t.Fatalf("order %d of a wallet that covers one: %v, want %s", i, err, KindOrdersExceedFunds)
		}
		var stored v1alpha1.TransferIntent
		if err := w.kube.Get(t.Context(), client.ObjectKeyFromObject(ti), &stored); err != nil || stored.Status.Signature != "" {
			t.Fatalf("a refused signature was written: %v %q", err, stored.Status.Signature)
		}
	}
	if got := w.listed(w.book); len(got) != 1 || got[0] != intents[0].Spec.OrderID {
		t.Fatalf("the book lists %v, want the first order alone", got)
	}

	other := &Book{Chains: w.book.Chains}
	for i, ti := range intents {
		other.index.upsert(w.signed(ti, sigs[i], i))
	}
	if got := w.listed(other); len(got) != 5 {
		t.Fatalf("before the wallet is read: %d listed", len(got))
	}
	w.recheck(other)
	if got := w.listed(other); len(got) != 1 || got[0] != intents[0].Spec.OrderID {
		t.Fatalf("after the read the book lists %v, want the oldest order alone", got)
	}
}

// A listed order whose funds move away leaves the book at the next read, stays out while the
// wallet is still short (whatever the informer brings again), and returns when the funds do; an
// order whose Permit2 nonce is spent elsewhere leaves the book.
func TestOrdersLeaveTheBookWhenTheirFundsOrNonceGo(t *testing.T) {
	w := newWorld(t)
	const unit = 1_000_000
	user, other := w.wallet(unit), w.wallet(unit)
	ti, sig := w.intent(user, unit)
	if _, err := w.book.Sign(t.Context(), ti, sig); err != nil {
		t.Fatal(err)
	}
	spender, spenderSig := w.intent(other, unit)
	if _, err := w.book.Sign(t.Context(), spender, spenderSig); err != nil {
		t.Fatal(err)
	}
	w.recheck(w.book)
	if got := w.listed(w.book); len(got) != 2 {
		t.Fatalf("listed %v, want both orders", got)
	}

	// The user sends its tokens away.
	w.chain.Transact(t, user, w.token, tokenABI.PackTransfer(common.HexToAddress("0xdead"), big.NewInt(unit)))
	w.recheck(w.book)
	if got := w.listed(w.book); len(got) != 1 || got[0] != spender.Spec.OrderID {
		t.Fatalf("after the funds left: %v, want the other wallet's order alone", got)
	}
	w.book.index.upsert(w.signed(ti, sig, 50)) // a resync of the informer
	if got := w.listed(w.book); len(got) != 1 {
		t.Fatalf("an unfunded order came back with the informer: %v", got)
	}
	w.chain.Mint(t, w.token, crypto.PubkeyToAddress(user.PublicKey), big.NewInt(unit))
	w.recheck(w.book)
	if got := w.listed(w.book); len(got) != 2 {
		t.Fatalf("after the funds came back: %v, want both orders", got)
	}

	// The other user spends its order's nonce through Permit2 directly (another application, or
	// the hard cancel), without the service.
	nonce, _ := new(big.Int).SetString(spender.Spec.Gasless.Nonce, 10)
	word, bit := settlement.NonceBit(nonce)
	w.chain.Transact(t, other, contracts.CanonicalPermit2,
		contracts.NewPermit2().PackInvalidateUnorderedNonces(word, new(big.Int).Lsh(big.NewInt(1), bit)))
	w.recheck(w.book)
	if got := w.listed(w.book); len(got) != 1 || got[0] != ti.Spec.OrderID {
		t.Fatalf("after the nonce was spent: %v, want the first user's order alone", got)
	}
}
