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
	b := make([]byte, 32*13)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	word := func(i int) []byte { return b[i*32 : (i+1)*32] }
	var o Order
	copy(o.Account[:], word(0))
	o.OriginSettler = common.BytesToAddress(word(1))
	o.OriginChainId = new(big.Int).SetBytes(word(2))
	o.User = common.BytesToAddress(word(3))
	o.DestinationChainId = new(big.Int).SetBytes(word(4)[24:])
	o.Recipient = common.BytesToAddress(word(5))
	o.TokenIn = common.BytesToAddress(word(6))
	o.TokenOut = common.BytesToAddress(word(7))
	o.AmountIn = new(big.Int).SetBytes(word(8))
	o.MinAmountOut = new(big.Int).SetBytes(word(9)[16:])
	o.Deadline = new(big.Int).SetBytes(word(10)[24:]).Uint64()
	copy(o.Nonce[:], word(11))
	o.DestinationSettler = common.BytesToAddress(word(12))
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
		if err != nil || back.AmountIn.Cmp(o.AmountIn) != 0 || back.DestinationSettler != o.DestinationSettler || back.Deadline != o.Deadline {
			t.Fatalf("Decode(Encode(o)) = %+v, %v", back, err)
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
