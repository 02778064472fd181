package settlement

import (
	"bytes"
	"crypto/rand"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// randomOrder fills every field with random bytes, the numbers up to their widths.
func randomOrder(t testing.TB) Order {
	t.Helper()
	b := make([]byte, 32*22)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	word := func(i int) []byte { return b[i*32 : (i+1)*32] }
	number := func(i int) *big.Int { return new(big.Int).SetBytes(word(i)) }
	uint64At := func(i int) uint64 { return new(big.Int).SetBytes(word(i)[24:]).Uint64() }
	var o Order
	copy(o.Account[:], word(0))
	o.OriginSettler = common.BytesToAddress(word(1))
	o.OriginChainId = number(2)
	o.User = common.BytesToAddress(word(3))
	o.DestinationChainId = new(big.Int).SetBytes(word(4)[24:])
	o.Recipient = common.BytesToAddress(word(5))
	o.TokenIn = common.BytesToAddress(word(6))
	o.TokenOut = common.BytesToAddress(word(7))
	o.AmountIn = number(8)
	o.StartAmountOut = number(9)
	o.MinAmountOut = new(big.Int).SetBytes(word(10)[16:])
	o.DecayStart, o.DecayEnd = uint64At(11), uint64At(12)
	o.ExclusiveFiller = common.BytesToAddress(word(13))
	o.ExclusivityDeadline = uint64At(14)
	o.ExclusivityOverrideBps = number(15)
	o.FeeAmount = number(16)
	o.FeeRecipient = common.BytesToAddress(word(17))
	o.NativeDropAmount = number(18)
	o.Deadline = uint64At(19)
	copy(o.Nonce[:], word(20))
	o.DestinationSettler = common.BytesToAddress(word(21))
	return o
}

// The words written in place are the ABI packer's, for any order, and decode back to it.
func TestEncodeIsTheABIEncoding(t *testing.T) {
	for range 500 {
		o := randomOrder(t)
		got, err := Encode(o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := encodeByABI(o)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("Encode(%+v)\n= %x\nwant %x", o, got, want)
		}
		back, err := Decode(got)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := Encode(back); !bytes.Equal(again, got) {
			t.Fatalf("Decode(Encode(o)) = %+v, encoded again differently", back)
		}
	}
}

// BenchmarkOrderEncoding prints the in-place encoding next to the ABI packer's, measured in the
// same run.
func BenchmarkOrderEncoding(b *testing.B) {
	o := randomOrder(b)
	b.Run("abi-packer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = encodeByABI(o)
		}
	})
	b.Run("in-place", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = Encode(o)
		}
	})
}

// An order built without its market terms is a plain order: no decay (the start amount is the
// floor), no exclusivity, no fee, no native drop, and it encodes as one with those terms written
// out.
func TestPlainFillsTheMarketTermsIn(t *testing.T) {
	o := randomOrder(t)
	explicit := o
	explicit.StartAmountOut = o.MinAmountOut
	explicit.ExclusivityOverrideBps, explicit.FeeAmount, explicit.NativeDropAmount = new(big.Int), new(big.Int), new(big.Int)
	o.StartAmountOut, o.ExclusivityOverrideBps, o.FeeAmount, o.NativeDropAmount = nil, nil, nil, nil
	got, err := Encode(o)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Encode(explicit)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("an order without market terms encodes differently from one with them written out")
	}
}
