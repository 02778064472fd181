package filler

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-logr/logr"

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
}
