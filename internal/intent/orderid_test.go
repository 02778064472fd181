package intent

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

func sampleOrderInputs() OrderInputs {
	var nonce [32]byte
	for i := range nonce {
		nonce[i] = byte(i + 1)
	}
	return OrderInputs{
		Account: "acme", FromChainID: 1, From: common.HexToAddress(alice), ToChainID: 8453, To: common.HexToAddress(bob),
		TokenIn: common.HexToAddress(usdcMainnet), TokenOut: common.HexToAddress(usdcBase),
		Amount: big.NewInt(1_500_500_000), MinAmountOut: big.NewInt(1_490_011_505), Deadline: 1_900_000_000, Nonce: nonce,
		OriginSettler: common.HexToAddress(settlement1), DestinationSettler: common.HexToAddress(settlement2),
	}
}

// TestOrderIDMatchesManualEncoding recomputes the orderId without the ABI package: the settlement
// contract's Order is twenty-two 32-byte words, each left-padded, concatenated, hashed; an order
// with no market terms has no decay (its start amount is its floor), no exclusivity, no fee and no
// native drop.
func TestOrderIDMatchesManualEncoding(t *testing.T) {
	in := sampleOrderInputs()
	pad := func(b []byte) []byte { return common.LeftPadBytes(b, 32) }
	var preimage []byte
	for _, w := range [][]byte{
		crypto.Keccak256([]byte("acme")), pad(in.OriginSettler[:]),
		pad(big.NewInt(1).Bytes()), pad(in.From[:]),
		pad(big.NewInt(8453).Bytes()), pad(in.To[:]),
		pad(in.TokenIn[:]), pad(in.TokenOut[:]),
		pad(in.Amount.Bytes()), pad(in.MinAmountOut.Bytes()), pad(in.MinAmountOut.Bytes()),
		pad(nil), pad(nil), pad(nil), pad(nil), pad(nil), pad(nil), pad(nil), pad(nil),
		pad(big.NewInt(1_900_000_000).Bytes()),
		in.Nonce[:], pad(in.DestinationSettler[:]),
	} {
		preimage = append(preimage, w...)
	}
	if len(preimage) != 704 {
		t.Fatalf("preimage is %d bytes, want 704", len(preimage))
	}
	want := common.BytesToHash(crypto.Keccak256(preimage))
	got, err := OrderID(in)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("OrderID = %s, want %s", got.Hex(), want.Hex())
	}
	if len(got.Hex()) != 66 {
		t.Errorf("OrderID hex %q is not 0x + 64 digits", got.Hex())
	}
}

// Every input must change the id, or two different intents could share an on-chain order.
func TestOrderIDCommitsToEveryInput(t *testing.T) {
	base, _ := OrderID(sampleOrderInputs())
	again, _ := OrderID(sampleOrderInputs())
	if base != again {
		t.Fatal("OrderID is not deterministic")
	}
	mutations := map[string]func(*OrderInputs){
		"account":   func(in *OrderInputs) { in.Account = "acme2" },
		"fromChain": func(in *OrderInputs) { in.FromChainID = 10 },
		"from":      func(in *OrderInputs) { in.From = common.HexToAddress(bob) },
		"toChain":   func(in *OrderInputs) { in.ToChainID = 10 },
		"to":        func(in *OrderInputs) { in.To = common.HexToAddress(alice) },
		"tokenIn":   func(in *OrderInputs) { in.TokenIn = common.HexToAddress(wethMainnet) },
		"tokenOut":  func(in *OrderInputs) { in.TokenOut = common.HexToAddress(wethMainnet) },
		"amount":    func(in *OrderInputs) { in.Amount = big.NewInt(1) },
		"deadline":  func(in *OrderInputs) { in.Deadline++ },
		"nonce":     func(in *OrderInputs) { in.Nonce[31] ^= 1 },
		"minOut":    func(in *OrderInputs) { in.MinAmountOut = big.NewInt(1) },
		"settler":   func(in *OrderInputs) { in.DestinationSettler = common.HexToAddress(settlement1) },
		"origin":    func(in *OrderInputs) { in.OriginSettler = common.HexToAddress(settlement2) },
	}
	for name, mutate := range mutations {
		in := sampleOrderInputs()
		mutate(&in)
		if got, _ := OrderID(in); got == base {
			t.Errorf("changing %s did not change the orderId", name)
		}
	}
}

func TestOrderIDRefusesNonUint256(t *testing.T) {
	in := sampleOrderInputs()
	in.Amount = new(big.Int).Lsh(big.NewInt(1), 256)
	if _, err := OrderID(in); err == nil {
		t.Error("OrderID accepted an amount above 2^256-1")
	}
}

func TestNewNonceIsRandom(t *testing.T) {
	a, errA := NewNonce()
	b, errB := NewNonce()
	if errA != nil || errB != nil || a == b || a == [32]byte{} {
		t.Errorf("NewNonce gave %x, %x (%v, %v)", a, b, errA, errB)
	}
}

// With the installation's key, the order's account word is not keccak256 of the name: whoever
// reads orders on chain cannot find an account's orders by hashing guessed names; the same key
// and name give the same word, so the installation's orderIds stay deterministic.
func TestAccountWordIsKeyed(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	name := "acme"
	guessed := crypto.Keccak256Hash([]byte(name))
	if AccountWord(nil, name) != guessed {
		t.Fatal("without a key the word is no longer keccak256 of the name")
	}
	word := AccountWord(key, name)
	if word == guessed || word != AccountWord(key, name) || word == AccountWord([]byte("another installation's key, 32 b"), name) ||
		word == AccountWord(key, "acme2") {
		t.Fatalf("keyed word %s: guessable, not deterministic or shared across keys/names", word)
	}
	in := OrderInputs{Account: name, AccountKey: key, Amount: big.NewInt(1), MinAmountOut: big.NewInt(1)}
	if in.Order().Account != word {
		t.Fatal("the order does not carry the keyed word")
	}
}
