package registry

import (
	"cmp"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/caip"
)

// SplitCAIP2 splits a CAIP-2 chain id into its namespace and reference ("eip155:1" -> "eip155", "1").
// It checks only the shape namespace:reference, not the characters.
func SplitCAIP2(chainID string) (namespace, reference string, ok bool) {
	namespace, reference, ok = strings.Cut(chainID, ":")
	if !ok || namespace == "" || reference == "" || strings.Contains(reference, ":") {
		return "", "", false
	}
	return namespace, reference, true
}

// SplitCAIP10 splits a CAIP-10 account id into its CAIP-2 chain id and the account address
// ("eip155:1:0xabc..." -> "eip155:1", "0xabc...").
func SplitCAIP10(accountID string) (chainID, address string, ok bool) {
	i := strings.LastIndexByte(accountID, ':')
	if i <= 0 || i == len(accountID)-1 {
		return "", "", false
	}
	chainID, address = accountID[:i], accountID[i+1:]
	if _, _, ok := SplitCAIP2(chainID); !ok {
		return "", "", false
	}
	return chainID, address, true
}

// NormalizeAddress returns the canonical form of an address on a chain: EIP-55 for a 0x address of
// an eip155 chain, the input unchanged otherwise. It does not validate a checksum: a lookup by an
// all-lowercase address finds the token its checksummed form names.
func NormalizeAddress(namespace, address string) string {
	if namespace == caip.NamespaceEIP155 && isHexAddress(address) {
		return common.HexToAddress(address).Hex()
	}
	return address
}

// NormalizeCAIP10 returns a CAIP-10 account id with its address in canonical form (see
// NormalizeAddress). A string that is not CAIP-10 is returned unchanged.
func NormalizeCAIP10(accountID string) string {
	chainID, address, ok := SplitCAIP10(accountID)
	if !ok {
		return accountID
	}
	namespace, _, _ := SplitCAIP2(chainID)
	return chainID + ":" + NormalizeAddress(namespace, address)
}

// isHexAddress reports whether s is 0x (or 0X) followed by exactly 40 hex digits: go-ethereum's
// check, which alone would also take the 40 digits without a prefix.
func isHexAddress(s string) bool { return len(s) == 42 && common.IsHexAddress(s) }

// CompareChainIDs orders CAIP-2 ids the way people read them: by namespace, then by reference,
// numerically when both references are decimal numbers (eip155:2 before eip155:10).
func CompareChainIDs(a, b string) int {
	nsA, refA, _ := strings.Cut(a, ":")
	nsB, refB, _ := strings.Cut(b, ":")
	if c := strings.Compare(nsA, nsB); c != 0 {
		return c
	}
	if isDecimal(refA) && isDecimal(refB) {
		// Without leading zeros, a longer decimal is a larger number.
		ta, tb := strings.TrimLeft(refA, "0"), strings.TrimLeft(refB, "0")
		if c := cmp.Compare(len(ta), len(tb)); c != 0 {
			return c
		}
		if c := strings.Compare(ta, tb); c != 0 {
			return c
		}
	}
	return strings.Compare(refA, refB)
}

func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
