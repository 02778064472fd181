package filler

import (
	"encoding/json"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-logr/logr"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// Gas on arrival (issue 45): the filler sends the order's native drop as the fill's value, and the
// recipient's native balance rises by exactly the drop, beside its ERC-20 output. A filler
// without the native token to pay the drop leaves the order rather than send a fill that reverts.
func TestTheFillDeliversTheNativeDrop(t *testing.T) {
	c := newGaslessChain(t, 1338)
	key := newTestKey(t)
	me := crypto.PubkeyToAddress(key.PublicKey)
	c.dev.Mint(t, c.token, me, big.NewInt(10_000_000))
	c.dev.SendValue(t, me, big.NewInt(1e18))
	c.dev.Commit()
	f := &Filler{Key: key, Quote: AtMinimum, Log: logr.Discard(), Chains: map[uint64]*Chain{1338: c.filler}}
	f.Step(t.Context()) //nolint:errcheck // only to set the filler up
	head, err := c.filler.Client.HeaderByNumber(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	recipient := common.HexToAddress("0x000000000000000000000000000000000000D209")
	drop := big.NewInt(2_000_000_000_000_000) // 0.002 ETH
	o := settlement.Order{
		OriginChainId: big.NewInt(1337), DestinationChainId: big.NewInt(1338), DestinationSettler: c.settlement,
		Recipient: recipient, TokenOut: c.token, AmountIn: big.NewInt(1_000_000),
		StartAmountOut: big.NewInt(990_000), MinAmountOut: big.NewInt(990_000), NativeDropAmount: drop, Deadline: head.Time + 3600,
	}
	id, err := settlement.ID(o)
	if err != nil {
		t.Fatal(err)
	}
	before, err := c.filler.Client.BalanceAt(t.Context(), recipient, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.fill(t.Context(), id, o); err != nil {
		t.Fatalf("fill: %v", err)
	}
	c.dev.Commit()
	fillTx := f.Sent[len(f.Sent)-1]
	receipt, err := c.filler.Client.TransactionReceipt(t.Context(), fillTx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if receipt.Status != 1 {
		t.Fatalf("the fill reverted (status %d); want it successful", receipt.Status)
	}
	if fillTx.Value().Cmp(drop) != 0 {
		t.Errorf("the fill's value is %s wei; want the drop, %s", fillTx.Value(), drop)
	}
	after, err := c.filler.Client.BalanceAt(t.Context(), recipient, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := new(big.Int).Sub(after, before); got.Cmp(drop) != 0 {
		t.Errorf("the recipient's native balance rose by %s wei; want exactly the drop, %s", got, drop)
	}

	// A filler holding the token but no native token cannot pay the drop: the order is skipped.
	poor := newTestKey(t)
	c.dev.Mint(t, c.token, crypto.PubkeyToAddress(poor.PublicKey), big.NewInt(10_000_000))
	c.dev.Commit()
	g := &Filler{Key: poor, Quote: AtMinimum, Log: logr.Discard(), Chains: map[uint64]*Chain{1338: c.filler}}
	var skipped skip
	if _, _, err := g.worth(t.Context(), o); !errors.As(err, &skipped) {
		t.Errorf("a filler without native token for the drop: %v; want the order skipped", err)
	}

	// open() is anyone's call: an order asking a drop above the filler's bound is skipped, however
	// much native token the filler holds; at the bound it is worth filling.
	f.MaxNativeDrop = new(big.Int).Sub(drop, big.NewInt(1))
	if _, _, err := f.worth(t.Context(), o); !errors.As(err, &skipped) {
		t.Errorf("a drop one wei above the filler's bound: %v; want the order skipped", err)
	}
	f.MaxNativeDrop = drop
	if _, _, err := f.worth(t.Context(), o); err != nil && !strings.Contains(err.Error(), "filled") {
		t.Errorf("a drop at the filler's bound: %v; want it worth filling", err)
	}
}

// A gasless order whose signed Permit2 witness carries a native drop: the filler opens it with
// openFor and fills it, and the recipient's native balance rises by exactly the drop.
func TestAGaslessOrderDeliversItsNativeDrop(t *testing.T) {
	origin, dest, fillerKey, user, recipient := newGaslessBridge(t)
	erc20 := contracts.NewTestToken()

	drop := big.NewInt(3_000_000_000_000_000) // 0.003 ETH
	g, sig, id := signedBridgeWithDrop(t, origin, dest, user, recipient, drop)
	data, err := settlement.OpenForData(g, sig)
	if err != nil {
		t.Fatal(err)
	}
	const ordersKey = "sk_test_filler"
	book := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v2/orders" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode([]map[string]any{listed(id, g, sig, data)})
	}))
	defer book.Close()
	f := &Filler{
		Key: fillerKey, Quote: AtMinimum, API: book.URL, APIKey: "sk_test_demo", OrdersKey: ordersKey, Log: logr.Discard(),
		Chains: map[uint64]*Chain{1337: origin.filler, 1338: dest.filler},
	}
	received := func() *big.Int {
		return read(t, dest, dest.token, erc20.PackBalanceOf(recipient), erc20.UnpackBalanceOf)
	}
	for deadline := time.Now().Add(30 * time.Second); received().Sign() == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("the recipient received nothing in 30s; the filler sent %d transactions", len(f.Sent))
		}
		if err := f.Step(t.Context()); err != nil {
			t.Fatal(err)
		}
		origin.dev.Backend.Commit()
		dest.dev.Backend.Commit()
	}
	native, err := dest.filler.Client.BalanceAt(t.Context(), recipient, nil)
	if err != nil {
		t.Fatal(err)
	}
	if native.Cmp(drop) != 0 {
		t.Errorf("the recipient holds %s wei; want exactly the drop, %s", native, drop)
	}
}
