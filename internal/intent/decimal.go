package intent

import (
	"fmt"
	"math/big"
	"strings"
)

// USDScale is the number of decimal places every USD figure is rounded to. Cents would show gas
// on L2s (often a fraction of a cent) as "0.00"; six places keep it visible.
const USDScale = 6

// ParseDecimal parses a non-negative exact decimal such as a USD price ("3150.25"), with the
// same narrow grammar as ParseAmount but allowing zero. The CRDs' price pattern is the same
// grammar, so every published price parses.
func ParseDecimal(s string) (*big.Rat, error) {
	intPart, fracPart, err := splitDecimal(s)
	if err != nil {
		return nil, err
	}
	if len(intPart)+len(fracPart) > 200 {
		return nil, fmt.Errorf("%w: %q is too long", ErrAmountSyntax, s)
	}
	num, _ := new(big.Int).SetString(intPart+fracPart, 10)
	return new(big.Rat).SetFrac(num, pow10(len(fracPart))), nil
}

// FormatUSD renders a USD figure: rounded half up (away from zero) to USDScale places, then
// trailing zeros trimmed down to two places, so "4.095325", "0.35" and "0.00" all read as money.
// Callers compute with exact values and round once, here, at the end.
func FormatUSD(r *big.Rat) string {
	if r == nil {
		return "0.00"
	}
	scaled := roundHalfUp(new(big.Rat).Mul(r, new(big.Rat).SetInt(pow10(USDScale))))
	s := FormatAmount(scaled, USDScale)
	intPart, fracPart, _ := strings.Cut(s, ".")
	for len(fracPart) < 2 {
		fracPart += "0"
	}
	return intPart + "." + fracPart
}

// roundHalfUp rounds to the nearest integer, halves away from zero.
func roundHalfUp(r *big.Rat) *big.Int {
	num := new(big.Int).Abs(r.Num())
	q, rem := new(big.Int).QuoRem(num, r.Denom(), new(big.Int))
	if rem.Lsh(rem, 1).Cmp(r.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if r.Sign() < 0 {
		q.Neg(q)
	}
	return q
}

// pow10 is 10^n, read only: for n up to 77 (the most decimals a uint256 amount can use) it is a
// shared value computed once, since every simulation scales amounts, prices and fees by it.
// Callers pass it to big.Rat.SetFrac, SetInt and Mul, which copy or only read their operands.
func pow10(n int) *big.Int {
	if n >= 0 && n < len(powersOf10) {
		return powersOf10[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

var powersOf10 = func() [78]*big.Int {
	var t [78]*big.Int
	t[0] = big.NewInt(1)
	for i := 1; i < len(t); i++ {
		t[i] = new(big.Int).Mul(t[i-1], big.NewInt(10))
	}
	return t
}()
