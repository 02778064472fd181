package caip

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// NamespaceEIP155 is the only CAIP-2 namespace the service acts on. Other namespaces parse (they
// are valid CAIP) but are refused by the domain with 422.
const NamespaceEIP155 = "eip155"

// The syntax of the identifiers as regular expressions. The CRDs carry the same expressions: the
// Pattern markers (a test in internal/controller compares every one with its Go mirror) and, for
// the eip155 forms, CEL rules of api/v1alpha1. The controllers' Go validation compiles these, and
// the parsers below accept what they match (a test here ties them), but for eip155 chain ids of 20
// digits, which a request may name and a Chain cannot (docs/decisions.md).
const (
	// ChainIDPattern is CAIP-2: namespace ":" reference.
	ChainIDPattern = `^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$`
	// EIP155ChainIDPattern is the one spelling of an eip155 chain id: no leading zero, not zero.
	EIP155ChainIDPattern = `^eip155:[1-9][0-9]{0,18}$`
	// AccountIDPattern is CAIP-10: a CAIP-2 chain id ":" an account address.
	AccountIDPattern = `^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$`
	// EIP155AccountIDPattern is an eip155 CAIP-10 account id with a 0x address.
	EIP155AccountIDPattern = `^eip155:[0-9]+:0x[0-9a-fA-F]{40}$`
	// HexAddressPattern is an EVM address: 0x and 40 hex digits.
	HexAddressPattern = `^0x[0-9a-fA-F]{40}$`
)

var (
	// ErrInvalidChainID is wrapped by every CAIP-2 syntax error.
	ErrInvalidChainID = errors.New("invalid CAIP-2 chain id")
	// ErrInvalidAccountID is wrapped by every CAIP-10 syntax error.
	ErrInvalidAccountID = errors.New("invalid CAIP-10 account id")
	// ErrInvalidAddress is wrapped when an eip155 address is not 0x followed by 40 hex digits.
	ErrInvalidAddress = errors.New("invalid EVM address")
	// ErrChecksumMismatch is wrapped when a mixed-case eip155 address fails its EIP-55 checksum.
	ErrChecksumMismatch = errors.New("EIP-55 checksum mismatch")
)

// ChainID is a parsed CAIP-2 identifier. It is comparable, so it can key maps.
type ChainID struct {
	Namespace string
	Reference string
}

// String is the CAIP-2 form, e.g. "eip155:1".
func (c ChainID) String() string { return c.Namespace + ":" + c.Reference }

// EIP155 returns the numeric chain id of an eip155 chain. ParseChainID has already checked that
// the reference fits, so ok is false only for other namespaces.
func (c ChainID) EIP155() (id uint64, ok bool) {
	if c.Namespace != NamespaceEIP155 {
		return 0, false
	}
	id, err := strconv.ParseUint(c.Reference, 10, 64)
	return id, err == nil
}

// ParseChainID parses CAIP-2 (ChainIDPattern): namespace [-a-z0-9]{3,8}, ":", reference
// [-_a-zA-Z0-9]{1,32}.
// For eip155 the reference must also be a canonical decimal chain id (no sign, no leading zero,
// not zero, at most 2^64-1) so that one chain has exactly one spelling.
func ParseChainID(s string) (ChainID, error) {
	ns, ref, found := strings.Cut(s, ":")
	if !found {
		return ChainID{}, fmt.Errorf("%w %q: want <namespace>:<reference>", ErrInvalidChainID, s)
	}
	if !charsIn(ns, 3, 8, isNamespaceChar) {
		return ChainID{}, fmt.Errorf("%w %q: namespace must match [-a-z0-9]{3,8}", ErrInvalidChainID, s)
	}
	if !charsIn(ref, 1, 32, isReferenceChar) {
		return ChainID{}, fmt.Errorf("%w %q: reference must match [-_a-zA-Z0-9]{1,32}", ErrInvalidChainID, s)
	}
	if ns == NamespaceEIP155 {
		if err := checkEIP155Reference(ref); err != nil {
			return ChainID{}, fmt.Errorf("%w %q: %w", ErrInvalidChainID, s, err)
		}
	}
	return ChainID{Namespace: ns, Reference: ref}, nil
}

func checkEIP155Reference(ref string) error {
	if !charsIn(ref, 1, 20, isDigit) || ref[0] == '0' {
		return errors.New("eip155 reference must be a decimal chain id without leading zeros")
	}
	if _, err := strconv.ParseUint(ref, 10, 64); err != nil {
		return errors.New("eip155 chain id out of range")
	}
	return nil
}

// AccountID is a parsed CAIP-10 identifier. For eip155, Address is in EIP-55 form, so two
// spellings of one account compare equal.
type AccountID struct {
	Chain   ChainID
	Address string
}

// String is the normalised CAIP-10 form, e.g. "eip155:1:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".
func (a AccountID) String() string { return a.Chain.String() + ":" + a.Address }

// EVMAddress returns the address of an eip155 account; ok is false for other namespaces.
func (a AccountID) EVMAddress() (addr common.Address, ok bool) {
	if a.Chain.Namespace != NamespaceEIP155 {
		return common.Address{}, false
	}
	return common.HexToAddress(a.Address), true
}

// ParseAccountID parses CAIP-10: <CAIP-2>:<address>, address [-.%a-zA-Z0-9]{1,128}. An eip155
// address must also pass ParseEVMAddress and is returned in EIP-55 form.
func ParseAccountID(s string) (AccountID, error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return AccountID{}, fmt.Errorf("%w %q: want <namespace>:<reference>:<address>", ErrInvalidAccountID, s)
	}
	chain, err := ParseChainID(s[:i])
	if err != nil {
		return AccountID{}, fmt.Errorf("%w %q: %w", ErrInvalidAccountID, s, err)
	}
	addr := s[i+1:]
	if !charsIn(addr, 1, 128, isAccountAddressChar) {
		return AccountID{}, fmt.Errorf("%w %q: address must match [-.%%a-zA-Z0-9]{1,128}", ErrInvalidAccountID, s)
	}
	if chain.Namespace == NamespaceEIP155 {
		_, checksummed, err := parseEVMAddress(addr)
		if err != nil {
			return AccountID{}, fmt.Errorf("%w %q: %w", ErrInvalidAccountID, s, err)
		}
		addr = checksummed
	}
	return AccountID{Chain: chain, Address: addr}, nil
}

// ParseEVMAddress accepts "0x" + 40 hex digits. All-lowercase or all-uppercase hex carries no
// checksum and is accepted; mixed case is a checksum and must match EIP-55 exactly, because a
// mismatch usually means a mistyped address. The error deliberately does not suggest the
// "corrected" checksum: for a typo that would be the checksum of the wrong account.
func ParseEVMAddress(s string) (common.Address, error) {
	addr, _, err := parseEVMAddress(s)
	return addr, err
}

// parseEVMAddress is ParseEVMAddress that also returns the address's EIP-55 form, computed once
// (a Keccak-256 of the address) for both the check of a mixed-case s and the caller's use.
func parseEVMAddress(s string) (common.Address, string, error) {
	if !strings.HasPrefix(s, "0x") || !common.IsHexAddress(s) {
		return common.Address{}, "", fmt.Errorf("%w %q: want 0x followed by 40 hex digits", ErrInvalidAddress, s)
	}
	addr := common.HexToAddress(s)
	checksummed := addr.Hex()
	if hasMixedCase(s[2:]) && checksummed != s {
		return common.Address{}, "", fmt.Errorf("%w for %q: check the address for typos", ErrChecksumMismatch, s)
	}
	return addr, checksummed, nil
}

func hasMixedCase(hex string) bool {
	lower := strings.ContainsAny(hex, "abcdef")
	upper := strings.ContainsAny(hex, "ABCDEF")
	return lower && upper
}

// charsIn reports whether s has between minLen and maxLen bytes, all accepted by ok. It stands in
// for the CAIP regular expressions at a fraction of their cost on the request path.
func charsIn(s string, minLen, maxLen int, ok func(byte) bool) bool {
	if len(s) < minLen || len(s) > maxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func isNamespaceChar(c byte) bool { return c == '-' || isLower(c) || isDigit(c) }

func isReferenceChar(c byte) bool {
	return c == '-' || c == '_' || isLower(c) || isUpper(c) || isDigit(c)
}

func isAccountAddressChar(c byte) bool {
	return c == '-' || c == '.' || c == '%' || isLower(c) || isUpper(c) || isDigit(c)
}
