package caip

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The hand-written parsers stand in for the patterns on the request path (a fraction of the cost of
// a regular expression); these tests hold them to accepting exactly what the patterns match, on
// random strings built from the characters that matter, so the rule is one rule.
var (
	chainIDRE       = regexp.MustCompile(ChainIDPattern)
	eip155ChainIDRE = regexp.MustCompile(EIP155ChainIDPattern)
	accountIDRE     = regexp.MustCompile(AccountIDPattern)
	hexAddressRE    = regexp.MustCompile(HexAddressPattern)
)

// randomIdentifier draws a string likely to sit near the patterns' edges: namespaces such as
// eip155, short and long references, colons in odd places, hex and non-hex characters.
func randomIdentifier(r *rand.Rand) string {
	parts := []string{"eip155", "cosmos", "ab", "abcdefghi", "EIP155", ":", ":", "0", "1", "01", "137",
		"18446744073709551615", "-", "_", ".", "%", "x", "0x", strings.Repeat("a", 32), strings.Repeat("f", 40),
		strings.Repeat("A", 40), "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "g", " ", "é"}
	var b strings.Builder
	for n := 1 + r.IntN(5); n > 0; n-- {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

// eip155Reference20 reports an eip155 reference of 20 digits: the parser takes every uint64, the
// CRD pattern stops at 19 digits (no real chain is near 10^19); the only difference, by design.
func eip155Reference20(s string) bool {
	ref, ok := strings.CutPrefix(s, NamespaceEIP155+":")
	if i := strings.IndexByte(ref, ':'); i >= 0 {
		ref = ref[:i]
	}
	return ok && len(ref) == 20
}

func TestParseChainIDAcceptsWhatThePatternsMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 50_000 {
		s := randomIdentifier(r)
		if eip155Reference20(s) {
			continue
		}
		_, err := ParseChainID(s)
		want := chainIDRE.MatchString(s) && (!strings.HasPrefix(s, NamespaceEIP155+":") || eip155ChainIDRE.MatchString(s))
		if (err == nil) != want {
			t.Fatalf("ParseChainID(%q) error %v; the patterns say valid=%v", s, err, want)
		}
	}
}

func TestParseAccountIDAcceptsWhatThePatternsMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 50_000 {
		s := randomIdentifier(r)
		if eip155Reference20(s) {
			continue
		}
		_, err := ParseAccountID(s)
		i := strings.LastIndexByte(s, ':')
		want := accountIDRE.MatchString(s)
		if want && strings.HasPrefix(s, NamespaceEIP155+":") {
			// The chain part must be canonical and the address 0x-hex with a valid checksum (the
			// checksum is no syntax; ParseEVMAddress has its own vectors).
			want = eip155ChainIDRE.MatchString(s[:i]) && hexAddressRE.MatchString(s[i+1:])
			if want {
				if _, err := ParseEVMAddress(s[i+1:]); err != nil {
					continue
				}
			}
		}
		if (err == nil) != want {
			t.Fatalf("ParseAccountID(%q) error %v; the patterns say valid=%v", s, err, want)
		}
	}
}
