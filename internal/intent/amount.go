package intent

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// MaxDecimals bounds a token's decimals. ERC-20 decimals is a uint8; the bound also stops a bad
// registry entry from making ParseAmount allocate without limit.
const MaxDecimals = 255

// maxUint256Digits is the number of decimal digits of 2^256-1; a longer integer part overflows
// whatever the decimals, so it is refused before any big-number work.
const maxUint256Digits = 78

var (
	// ErrAmountSyntax means the amount is not an unsigned decimal such as "1" or "1.5".
	ErrAmountSyntax = errors.New("not an unsigned decimal number such as \"1\" or \"1.5\"")
	// ErrAmountZero means the amount is zero; an intent must move something.
	ErrAmountZero = errors.New("amount must be greater than zero")
	// ErrAmountPrecision means the amount has more fraction digits than the token's decimals.
	ErrAmountPrecision = errors.New("amount has more fraction digits than the token has decimals")
	// ErrAmountOverflow means the amount in base units does not fit in a uint256.
	ErrAmountOverflow = errors.New("amount overflows uint256")
)

var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// ParseAmount converts a decimal string in display units into base units: "1.5" with 6 decimals
// is 1500000. The grammar is deliberately narrow, (0|[1-9][0-9]*)(\.[0-9]+)?, so that every
// amount has one obvious reading:
//   - no sign, exponent, hex, spaces, thousands separators, or leading zeros ("01");
//   - "1." and ".5" are refused: each is a likely truncation of something else;
//   - more fraction digits than decimals is refused, even trailing zeros ("1.0" for a
//     0-decimal token), so the precision check never depends on the digits' values;
//   - zero and values above 2^256-1 base units are refused.
//
// Only math/big is used: a float64 cannot hold 18-decimal amounts exactly.
func ParseAmount(s string, decimals int32) (*big.Int, error) {
	if decimals < 0 || decimals > MaxDecimals {
		return nil, fmt.Errorf("token decimals %d outside 0..%d", decimals, MaxDecimals)
	}
	intPart, fracPart, err := splitDecimal(s)
	if err != nil {
		return nil, err
	}
	if len(fracPart) > int(decimals) {
		return nil, fmt.Errorf("%w: %q has %d fraction digits, the token has %d decimals",
			ErrAmountPrecision, s, len(fracPart), decimals)
	}
	if len(intPart) > maxUint256Digits {
		return nil, ErrAmountOverflow
	}
	digits := intPart + fracPart + strings.Repeat("0", int(decimals)-len(fracPart))
	base, _ := new(big.Int).SetString(digits, 10) // digits are [0-9]+, checked by splitDecimal
	if base.Sign() == 0 {
		return nil, ErrAmountZero
	}
	if base.Cmp(maxUint256) > 0 {
		return nil, ErrAmountOverflow
	}
	return base, nil
}

// FormatAmount is the inverse of ParseAmount: base units to the shortest decimal string
// (1500000 with 6 decimals is "1.5", 1000000 is "1"). ParseAmount(FormatAmount(x, d), d) == x.
func FormatAmount(base *big.Int, decimals int32) string {
	if base == nil {
		return "0"
	}
	digits := new(big.Int).Abs(base).String()
	sign := ""
	if base.Sign() < 0 {
		sign = "-"
	}
	d := max(int(decimals), 0)
	if len(digits) <= d {
		digits = strings.Repeat("0", d-len(digits)+1) + digits
	}
	intPart, fracPart := digits[:len(digits)-d], strings.TrimRight(digits[len(digits)-d:], "0")
	if fracPart == "" {
		return sign + intPart
	}
	return sign + intPart + "." + fracPart
}

// splitDecimal checks the unsigned decimal grammar shared by amounts and prices and returns the
// digits on each side of the point. Its errors name the common mistake, so clients can fix it.
func splitDecimal(s string) (intPart, fracPart string, err error) {
	intPart, fracPart, hasPoint := strings.Cut(s, ".")
	switch {
	case s == "":
		return "", "", fmt.Errorf("%w: empty", ErrAmountSyntax)
	case strings.TrimSpace(s) != s:
		return "", "", fmt.Errorf("%w: %q has surrounding spaces", ErrAmountSyntax, s)
	case s[0] == '-' || s[0] == '+':
		return "", "", fmt.Errorf("%w: %q has a sign", ErrAmountSyntax, s)
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		return "", "", fmt.Errorf("%w: %q is hex", ErrAmountSyntax, s)
	case strings.ContainsAny(s, "eE"):
		return "", "", fmt.Errorf("%w: %q uses an exponent", ErrAmountSyntax, s)
	case intPart == "" || (hasPoint && fracPart == ""):
		return "", "", fmt.Errorf("%w: %q needs digits on both sides of the point", ErrAmountSyntax, s)
	case strings.Trim(intPart, decimalDigits) != "" || strings.Trim(fracPart, decimalDigits) != "":
		return "", "", fmt.Errorf("%w: %q has a character other than digits and one point", ErrAmountSyntax, s)
	case len(intPart) > 1 && intPart[0] == '0':
		return "", "", fmt.Errorf("%w: %q has a leading zero", ErrAmountSyntax, s)
	}
	return intPart, fracPart, nil
}

// decimalDigits are the only characters of an amount besides its point.
const decimalDigits = "0123456789"
