package filler

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-logr/logr/testr"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/devchain"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// gaslessChain is a dev chain (with the genesis Permit2) carrying a TestToken and a settlement
// contract, and a Chain of the filler's on it.
type gaslessChain struct {
	dev               *devchain.Chain
	token, settlement common.Address
	filler            *Chain
}

func newGaslessChain(t *testing.T, id int64) *gaslessChain {
	t.Helper()
	c := &gaslessChain{dev: devchain.Start(t, id)}
	c.token = c.dev.DeployTestToken(t, "Test USD", "TUSD", 6)
	var err error
	if c.settlement, err = c.dev.DeploySettlement(crypto.PubkeyToAddress(newTestKey(t).PublicKey), settlement.MinRefundDelay); err != nil {
		t.Fatal(err)
	}
	if c.filler, err = Dial(t.Context(), uint64(id), c.dev.URL, c.settlement); err != nil { //nolint:gosec // a test chain id
		t.Fatal(err)
	}
	t.Cleanup(c.filler.Client.Close)
	return c
}

func newTestKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// read is an eth_call of calldata on to, unpacked.
func read[T any](t *testing.T, c *gaslessChain, to common.Address, calldata []byte, unpack func([]byte) (T, error)) T {
	t.Helper()
	out, err := c.dev.Backend.Client().CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: calldata}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := unpack(out)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// signedBridge is a bridge of user's TUSD from origin to recipient on dest, as a gasless order
// signed by user through Permit2, and its orderId.
func signedBridge(t *testing.T, origin, dest *gaslessChain, user *ecdsa.PrivateKey, recipient common.Address) (settlement.GaslessOrder, []byte, common.Hash) {
	t.Helper()
	return signedBridgeWithDrop(t, origin, dest, user, recipient, nil)
}

// signedBridgeWithDrop is signedBridge with a native drop (gas on arrival), nil for none.
func signedBridgeWithDrop(t *testing.T, origin, dest *gaslessChain, user *ecdsa.PrivateKey, recipient common.Address, drop *big.Int) (settlement.GaslessOrder, []byte, common.Hash) {
	t.Helper()
	head, err := origin.dev.Backend.Client().HeaderByNumber(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	now := max(uint64(time.Now().Unix()), head.Time) //nolint:gosec // the wall clock is positive
	var nonce [32]byte
	copy(nonce[:], crypto.Keccak256(crypto.FromECDSA(newTestKey(t))))
	o := settlement.Order{
		Account: crypto.Keccak256Hash([]byte("acme")), OriginSettler: origin.settlement, OriginChainId: origin.dev.ID,
		User: crypto.PubkeyToAddress(user.PublicKey), DestinationChainId: dest.dev.ID, Recipient: recipient,
		TokenIn: origin.token, TokenOut: dest.token, AmountIn: big.NewInt(5_000_000), MinAmountOut: big.NewInt(4_990_000),
		Deadline: now + 3600, Nonce: nonce, DestinationSettler: dest.settlement, NativeDropAmount: drop,
	}
	g, err := settlement.Gasless(o, now+600)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := devchain.SignGasless(user, g, contracts.CanonicalPermit2)
	if err != nil {
		t.Fatal(err)
	}
	id, err := settlement.ID(o)
	if err != nil {
		t.Fatal(err)
	}
	return g, sig, id
}

// listed is an order of GET /v2/orders as the API answers it, offering openForData.
func listed(id common.Hash, g settlement.GaslessOrder, sig, openForData []byte) map[string]any {
	return map[string]any{
		"orderId": id.Hex(), "intentId": "int_transfer_01JC0000000000000000000000", "status": "signed", "type": "bridge",
		"originChainId": fmt.Sprintf("eip155:%s", g.OriginChainId), "destinationChainId": "eip155:1338",
		"order": map[string]any{
			"originSettler": g.OriginSettler.Hex(), "user": g.User.Hex(), "nonce": g.Nonce.String(),
			"originChainId": g.OriginChainId.String(), "openDeadline": g.OpenDeadline, "fillDeadline": g.FillDeadline,
			"orderDataType": hexutil.Encode(g.OrderDataType[:]), "orderData": hexutil.Encode(g.OrderData),
		},
		"signature": hexutil.Encode(sig),
		"openFor":   map[string]any{"to": g.OriginSettler.Hex(), "data": hexutil.Encode(openForData), "value": "0", "chainId": g.OriginChainId.Uint64()},
		"createdAt": "2026-12-01T18:00:00Z",
	}
}

// The filler reads the order book page by page with its filler key, opens a signed order with
// openFor on the origin chain (real Permit2 and settlement contract), fills it on the destination,
// and opens it once however often the book still lists it; an order whose listed openFor is not
// the one of its order and signature is never sent.
func TestOpensGaslessOrdersOfTheBook(t *testing.T) {
	origin, dest, fillerKey, user, recipient := newGaslessBridge(t)
	erc20 := contracts.NewTestToken()

	good, goodSig, goodID := signedBridge(t, origin, dest, user, recipient)
	goodData, err := settlement.OpenForData(good, goodSig)
	if err != nil {
		t.Fatal(err)
	}
	// Another order, validly signed, listed with the openFor of another signature.
	bad, badSig, badID := signedBridge(t, origin, dest, user, recipient)
	otherSig, err := devchain.SignDigest(newTestKey(t), crypto.Keccak256([]byte("another")))
	if err != nil {
		t.Fatal(err)
	}
	badData, err := settlement.OpenForData(bad, otherSig)
	if err != nil {
		t.Fatal(err)
	}

	const ordersKey = "sk_test_filler"
	var firstPages, secondPages atomic.Int32
	book := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v2/orders" {
			http.NotFound(w, r) // attestations: no bridge is final here
			return
		}
		if r.Header.Get("api-key") != ordersKey || r.URL.Query().Get("status") != "signed" {
			http.Error(w, "want the filler key and status=signed", http.StatusForbidden)
			return
		}
		page := []map[string]any{listed(goodID, good, goodSig, goodData)}
		if r.URL.Query().Get("cursor") == "" {
			firstPages.Add(1)
			w.Header().Set("Link", `</v2/orders?status=signed&limit=100&cursor=2>; rel="next"`)
		} else {
			secondPages.Add(1)
			page = []map[string]any{listed(badID, bad, badSig, badData)}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(page)
	}))
	defer book.Close()

	f := &Filler{
		Key: fillerKey, Quote: AtMinimum, API: book.URL, APIKey: "sk_test_demo", OrdersKey: ordersKey, Log: testr.New(t),
		Chains: map[uint64]*Chain{1337: origin.filler, 1338: dest.filler},
	}
	step := func() {
		t.Helper()
		if err := f.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
		origin.dev.Backend.Commit()
		dest.dev.Backend.Commit()
	}
	received := func() *big.Int {
		return read(t, dest, dest.token, erc20.PackBalanceOf(recipient), erc20.UnpackBalanceOf)
	}
	// Two steps before the origin chain makes a block: the openFor is still pending, the call of it
	// still succeeds, and only the filler's memory keeps it from a second one.
	for range 2 {
		if err := f.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); received().Sign() == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("the recipient received nothing in 30s; the filler sent %d transactions", len(f.Sent))
		}
		step()
	}
	for range 3 { // the book still lists both orders
		step()
	}

	if got := received(); got.Cmp(big.NewInt(4_990_000)) != 0 {
		t.Errorf("the recipient received %s; want the order's minimum 4990000", got)
	}
	opens := 0
	for _, tx := range f.Sent {
		if bytes.Equal(tx.Data(), goodData) && *tx.To() == origin.settlement && tx.ChainId().Cmp(origin.dev.ID) == 0 {
			opens++
		}
		if bytes.Equal(tx.Data(), badData) {
			t.Error("the filler sent the listed openFor that disagrees with its order and signature")
		}
	}
	if opens != 1 {
		t.Errorf("the filler sent the order's openFor %d times; want once", opens)
	}
	if firstPages.Load() < 4 || secondPages.Load() < 4 {
		t.Errorf("the book's pages were read %d and %d times; want at every step", firstPages.Load(), secondPages.Load())
	}
	settlementABI := contracts.NewSettlement()
	if status := read(t, origin, origin.settlement, settlementABI.PackOrders(goodID), settlementABI.UnpackOrders); status != 1 {
		t.Errorf("the order's status on the origin chain is %d; want 1 (Opened, awaiting its attestation)", status)
	}
	if status := read(t, origin, origin.settlement, settlementABI.PackOrders(badID), settlementABI.UnpackOrders); status != 0 {
		t.Errorf("the order listed with another openFor has status %d on chain; want 0 (never opened)", status)
	}
}

// The order book's next link is followed on the API's host only: the filler key goes with it.
func TestNextPageStaysOnTheAPI(t *testing.T) {
	api, _ := url.Parse("http://127.0.0.1:8080")
	page, _ := url.Parse("http://127.0.0.1:8080/v2/orders?status=signed")
	for link, want := range map[string]string{
		`</v2/orders?cursor=abc>; rel="next"`:                                  "http://127.0.0.1:8080/v2/orders?cursor=abc",
		`<http://127.0.0.1:8080/v2/orders?cursor=abc>; rel="prev next"`:        "http://127.0.0.1:8080/v2/orders?cursor=abc",
		`</v2/orders?cursor=0>; rel="prev", </v2/orders?cursor=abc>; rel=next`: "http://127.0.0.1:8080/v2/orders?cursor=abc",
		`</v2/orders?cursor=0>; rel="prev"`:                                    "",
		`<http://evil.example/v2/orders?cursor=abc>; rel="next"`:               "error",
		`<https://127.0.0.1:8080/v2/orders?cursor=abc>; rel="next"`:            "error",
		`/v2/orders?cursor=abc; rel="next"`:                                    "error",
	} {
		next, err := nextPage(api, page, http.Header{"Link": {link}})
		got := "error"
		if err == nil {
			got = ""
			if next != nil {
				got = next.String()
			}
		}
		if got != want {
			t.Errorf("Link %s: next %q (%v); want %q", link, got, err, want)
		}
	}
}

// newGaslessBridge is two chains (1337, 1338) with a filler funded on both and holding the
// destination token, and a user holding the origin token who approved Permit2 once (paying that
// one approval's gas), and a fresh recipient.
func newGaslessBridge(t *testing.T) (origin, dest *gaslessChain, fillerKey, user *ecdsa.PrivateKey, recipient common.Address) {
	t.Helper()
	origin, dest = newGaslessChain(t, 1337), newGaslessChain(t, 1338)
	fillerKey, user = newTestKey(t), newTestKey(t)
	fillerAddr, userAddr := crypto.PubkeyToAddress(fillerKey.PublicKey), crypto.PubkeyToAddress(user.PublicKey)
	recipient = crypto.PubkeyToAddress(newTestKey(t).PublicKey)
	for _, c := range []*gaslessChain{origin, dest} {
		c.dev.SendValue(t, fillerAddr, big.NewInt(1e18))
	}
	dest.dev.Mint(t, dest.token, fillerAddr, big.NewInt(1_000_000_000))
	origin.dev.SendValue(t, userAddr, big.NewInt(1e17))
	origin.dev.Mint(t, origin.token, userAddr, big.NewInt(10_000_000))
	maxUint256 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	origin.dev.Transact(t, user, origin.token, contracts.NewTestToken().PackApprove(contracts.CanonicalPermit2, maxUint256))
	return origin, dest, fillerKey, user, recipient
}
