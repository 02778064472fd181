package intent

import (
	"math/big"
	"strings"
	"testing"
)

// The shared powers of ten stay what they are after every use of them the pricing makes: a caller
// that wrote into one would change every later amount, price and fee.
func TestPowersOfTenAreNotWrittenThrough(t *testing.T) {
	for _, s := range []string{"1.5", "3150.25", "0.000001", "12345678901234567890.123456789012345678"} {
		r, err := ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		_ = FormatUSD(r)
		_ = FormatUSD(new(big.Rat).Neg(r))
	}
	for _, tc := range []struct{ token, native int32 }{{6, 18}, {18, 18}, {0, 8}} {
		_ = new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(7), pow10(int(tc.token))), pow10(int(tc.native)))
	}
	for i, p := range powersOf10 {
		if want := "1" + strings.Repeat("0", i); p.String() != want {
			t.Fatalf("10^%d is %s", i, p)
		}
	}
	if got := pow10(80).String(); got != "1"+strings.Repeat("0", 80) {
		t.Fatalf("10^80 is %s", got)
	}
}
