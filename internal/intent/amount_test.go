package intent

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

func bigInt(t testing.TB, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad test integer %q", s)
	}
	return n
}

const maxUint256Str = "115792089237316195423570985008687907853269984665640564039457584007913129639935"

func TestParseAmount(t *testing.T) {
	tests := []struct {
		in       string
		decimals int32
		want     string // base units; empty when an error is expected
		wantErr  error
	}{
		{in: "1.5", decimals: 6, want: "1500000"},
		{in: "1", decimals: 6, want: "1000000"},
		{in: "0.000001", decimals: 6, want: "1"},
		{in: "1.000000", decimals: 6, want: "1000000"},
		{in: "123", decimals: 0, want: "123"},
		{in: "3150.25", decimals: 18, want: "3150250000000000000000"},
		{in: "0.5", decimals: 1, want: "5"},
		{in: maxUint256Str, decimals: 0, want: maxUint256Str},
		{in: "115792089237316195423570985008687907853269984665640564039457.584007913129639935", decimals: 18, want: maxUint256Str},
		{in: "115792089237316195423570985008687907853269984665640564039457.584007913129639936", decimals: 18, wantErr: ErrAmountOverflow},
		{in: "115792089237316195423570985008687907853269984665640564039457584007913129639936", decimals: 0, wantErr: ErrAmountOverflow},
		{in: strings.Repeat("9", 79), decimals: 0, wantErr: ErrAmountOverflow},
		{in: "1", decimals: 78, wantErr: ErrAmountOverflow},
		{in: "1.0", decimals: 0, wantErr: ErrAmountPrecision},
		{in: "0.0000001", decimals: 6, wantErr: ErrAmountPrecision},
		{in: "1.1234567", decimals: 6, wantErr: ErrAmountPrecision},
		{in: "0", decimals: 6, wantErr: ErrAmountZero},
		{in: "0.000", decimals: 6, wantErr: ErrAmountZero},
		{in: "", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "-1", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "+1", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "1e6", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "1E6", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "1.5e-3", decimals: 6, wantErr: ErrAmountSyntax},
		{in: " 1", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "1 ", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "1\n", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "0x10", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "1.", decimals: 6, wantErr: ErrAmountSyntax},
		{in: ".5", decimals: 6, wantErr: ErrAmountSyntax},
		{in: ".", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "01", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "00.5", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "1,000", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "1_000", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "1.2.3", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "NaN", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "Inf", decimals: 6, wantErr: ErrAmountSyntax},
		{in: "١", decimals: 6, wantErr: ErrAmountSyntax}, // Arabic-Indic digit one
		{in: "1/2", decimals: 6, wantErr: ErrAmountSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAmount(tt.in, tt.decimals)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("ParseAmount(%q, %d) = %v, %v; want %v", tt.in, tt.decimals, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseAmount(%q, %d): %v", tt.in, tt.decimals, err)
			}
			if got.String() != tt.want {
				t.Errorf("ParseAmount(%q, %d) = %s, want %s", tt.in, tt.decimals, got, tt.want)
			}
		})
	}
}

func TestParseAmountRefusesBadDecimals(t *testing.T) {
	for _, d := range []int32{-1, MaxDecimals + 1} {
		if _, err := ParseAmount("1", d); err == nil {
			t.Errorf("ParseAmount with decimals %d succeeded", d)
		}
	}
}

func TestFormatAmount(t *testing.T) {
	tests := []struct {
		base     string
		decimals int32
		want     string
	}{
		{"1500000", 6, "1.5"},
		{"1000000", 6, "1"},
		{"1", 6, "0.000001"},
		{"0", 6, "0"},
		{"123", 0, "123"},
		{"10", 1, "1"},
		{"3150250000000000000000", 18, "3150.25"},
		{maxUint256Str, 18, "115792089237316195423570985008687907853269984665640564039457.584007913129639935"},
		{"-1500000", 6, "-1.5"},
	}
	for _, tt := range tests {
		if got := FormatAmount(bigInt(t, tt.base), tt.decimals); got != tt.want {
			t.Errorf("FormatAmount(%s, %d) = %q, want %q", tt.base, tt.decimals, got, tt.want)
		}
	}
}

// FuzzParseAmount: never panics; anything accepted is in 1..2^256-1 and round-trips through
// FormatAmount, which spells it as the input minus insignificant fraction zeros.
func FuzzParseAmount(f *testing.F) {
	for _, seed := range []string{"1.5", "0.000001", "1e6", "-1", "01", "1.", ".5", maxUint256Str, "0", " 1", "1.000"} {
		f.Add(seed, uint8(6))
	}
	f.Fuzz(func(t *testing.T, s string, decimals uint8) {
		d := int32(decimals)
		got, err := ParseAmount(s, d)
		if err != nil {
			if got != nil {
				t.Fatalf("ParseAmount(%q) returned a value with an error", s)
			}
			return
		}
		if got.Sign() <= 0 || got.Cmp(maxUint256) > 0 {
			t.Fatalf("ParseAmount(%q, %d) = %s, outside 1..2^256-1", s, d, got)
		}
		formatted := FormatAmount(got, d)
		back, err := ParseAmount(formatted, d)
		if err != nil || back.Cmp(got) != 0 {
			t.Fatalf("round trip %q -> %s -> %q -> %v, %v", s, got, formatted, back, err)
		}
		want := s
		if strings.Contains(want, ".") {
			want = strings.TrimSuffix(strings.TrimRight(want, "0"), ".")
		}
		if formatted != want {
			t.Fatalf("FormatAmount(ParseAmount(%q)) = %q, want %q", s, formatted, want)
		}
	})
}

func TestParseDecimal(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"3150.25", "12601/4"}, {"0", "0/1"}, {"1.00", "1/1"}, {"0.000001", "1/1000000"},
	} {
		got, err := ParseDecimal(tt.in)
		if err != nil || got.String() != tt.want {
			t.Errorf("ParseDecimal(%q) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "-1", "1e3", "1.", "abc", " 1"} {
		if _, err := ParseDecimal(bad); err == nil {
			t.Errorf("ParseDecimal(%q) succeeded", bad)
		}
	}
}

func TestFormatUSD(t *testing.T) {
	rat := func(s string) *big.Rat {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("bad rat %q", s)
		}
		return r
	}
	tests := []struct {
		in   *big.Rat
		want string
	}{
		{rat("0"), "0.00"},
		{rat("1"), "1.00"},
		{rat("1.5"), "1.50"},
		{rat("0.35"), "0.35"},
		{rat("4.095325"), "4.095325"},
		{rat("0.0000005"), "0.000001"}, // half rounds up
		{rat("0.00000049"), "0.00"},    // below half rounds down
		{rat("2.0000004999"), "2.00"},  // trailing zeros trimmed to two places
		{rat("1/3"), "0.333333"},       // exact rational, rounded once
		{rat("2/3"), "0.666667"},       // rounded up
		{rat("12345678901234567890.125"), "12345678901234567890.125"},
		{nil, "0.00"},
	}
	for _, tt := range tests {
		if got := FormatUSD(tt.in); got != tt.want {
			t.Errorf("FormatUSD(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
