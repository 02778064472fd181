// Package reverts decodes why a contract call reverted, from its revert data: the settlement
// contract's custom errors (and those of the libraries it uses), Permit2's, OpenZeppelin's ERC-20
// errors (ERC-6093), Error(string) and Panic(uint256). It is the one decoder of revert data: the
// chain watcher's failures, the gasless checks and the simulation's refused estimates all name
// errors through it. It decodes with go-ethereum's abi package over the contracts' bindings, so a
// changed error in contracts/src changes the decoding with `make contracts`.
package reverts

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
)

// Revert is what a revert's data says.
type Revert struct {
	// Name is the error's name: a custom error's (ERC20InsufficientBalance), Error for
	// Error(string), Panic for Panic(uint256); "" when the data names no error the decoder knows.
	Name string
	// Args are the error's arguments in order, named as its ABI names them.
	Args []Arg
	// Code is the failure code the error amounts to: one of the codes a client can act on, or
	// FailureReverted for any other revert.
	Code v1alpha1.FailureCode
	// Data is the revert data itself.
	Data []byte
}

// Arg is one argument of an error, as text: addresses in EIP-55, integers in decimal, bytes in
// 0x hex, strings as they are (at most MaxArgBytes, valid UTF-8, control characters dropped: a
// contract chooses them).
type Arg struct {
	Name  string
	Value string
}

// known is the decoder's table of custom errors by selector, from the ABIs of the contracts an
// intent's transaction reaches: the settlement contract (its libraries' errors are in its ABI),
// Permit2 (gasless orders) and any OpenZeppelin ERC-20 the order moves. The first ABI wins a
// selector two of them share (they share it only for the same signature).
var known = func() map[[4]byte]abi.Error {
	out := map[[4]byte]abi.Error{}
	for _, a := range []abi.ABI{contracts.NewSettlement().GetABI(), contracts.NewPermit2().GetABI(), contracts.NewIERC20Errors().GetABI()} {
		for _, e := range a.Errors {
			if _, taken := out[[4]byte(e.ID[:4])]; !taken {
				out[[4]byte(e.ID[:4])] = e
			}
		}
	}
	return out
}()

// codeBySignature maps the errors a client can act on to their failure code, by signature so
// that two contracts' errors of one name (Permit2's InvalidAmount(uint256), the settlement's
// InvalidAmount()) are never confused. A test holds every signature to the ABIs.
var codeBySignature = map[string]v1alpha1.FailureCode{
	"ERC20InsufficientBalance(address,uint256,uint256)":   v1alpha1.FailureInsufficientBalance,
	"ERC20InsufficientAllowance(address,uint256,uint256)": v1alpha1.FailureInsufficientAllowance,
	"InsufficientAllowance(uint256)":                      v1alpha1.FailureInsufficientAllowance, // Permit2
	"AllowanceExpired(uint256)":                           v1alpha1.FailureInsufficientAllowance, // Permit2
	"DeadlinePassed()":                                    v1alpha1.FailureDeadlinePassed,
	"OpenDeadlinePassed()":                                v1alpha1.FailureDeadlinePassed,
	"SignatureExpired(uint256)":                           v1alpha1.FailureDeadlinePassed, // Permit2
	"BelowMinimum(uint256,uint256)":                       v1alpha1.FailureBelowMinimum,
	"AlreadyOpened(bytes32)":                              v1alpha1.FailureAlreadyOpened,
	"EnforcedPause()":                                     v1alpha1.FailurePaused,
	"InsufficientBalance(uint256,uint256)":                v1alpha1.FailureInsufficientBalance, // the settlement's native value
	"InvalidNonce()":                                      v1alpha1.FailureNonceUsed,           // Permit2
	"InvalidSignature()":                                  v1alpha1.FailureInvalidSignature,    // Permit2
	"InvalidSigner()":                                     v1alpha1.FailureInvalidSignature,    // Permit2
	"InvalidSignatureLength()":                            v1alpha1.FailureInvalidSignature,    // Permit2
	"InvalidContractSignature()":                          v1alpha1.FailureInvalidSignature,    // Permit2
}

// codeByMessage maps the Error(string) reasons of tokens built before ERC-6093 (OpenZeppelin 4,
// which most deployed ERC-20s, USDC among them, descend from) to the same codes.
var codeByMessage = map[string]v1alpha1.FailureCode{
	"ERC20: transfer amount exceeds balance":   v1alpha1.FailureInsufficientBalance,
	"ERC20: transfer amount exceeds allowance": v1alpha1.FailureInsufficientAllowance,
	"ERC20: insufficient allowance":            v1alpha1.FailureInsufficientAllowance,
}

// Selectors of Solidity's built-in errors, which no contract ABI lists.
var (
	errorSelector = [4]byte{0x08, 0xc3, 0x79, 0xa0} // Error(string)
	panicSelector = [4]byte{0x4e, 0x48, 0x7b, 0x71} // Panic(uint256)
)

// Decode reads revert data. It never fails: data it cannot read is a revert with no Name and
// code reverted, which String shows by its selector.
func Decode(data []byte) Revert {
	r := Revert{Code: v1alpha1.FailureReverted, Data: data}
	if len(data) < 4 {
		return r
	}
	selector := [4]byte(data[:4])
	switch selector {
	case errorSelector, panicSelector:
		// abi.UnpackRevert reads both, and names the panic code (its table of Solidity's codes).
		reason, err := abi.UnpackRevert(data)
		if err != nil {
			return r
		}
		if selector == errorSelector {
			r.Name, r.Args = "Error", []Arg{{Name: "message", Value: bounded(reason)}}
			if code, ok := codeByMessage[reason]; ok {
				r.Code = code
			}
			return r
		}
		r.Name, r.Args = "Panic", []Arg{{Name: "reason", Value: reason}}
		return r
	}
	e, ok := known[selector]
	if !ok {
		return r
	}
	values, err := e.Unpack(data)
	if err != nil {
		return r // the selector of a known error, the arguments of none: not that error
	}
	list, _ := values.([]any)
	r.Name = e.Name
	for i, input := range e.Inputs {
		if i < len(list) {
			name := input.Name
			if name == "" {
				name = fmt.Sprintf("arg%d", i)
			}
			r.Args = append(r.Args, Arg{Name: name, Value: format(list[i])})
		}
	}
	if code, ok := codeBySignature[e.Sig]; ok {
		r.Code = code
	}
	return r
}

// String is the revert for people: the error with its arguments,
// ERC20InsufficientBalance(sender: 0x…, balance: 0, needed: 900000000); an Error(string) is its
// message alone, as nodes and wallets show it; a Panic its reason; data the decoder does not
// know is named by its selector.
func (r Revert) String() string {
	switch {
	case r.Name == "Error" && len(r.Args) == 1:
		return r.Args[0].Value
	case r.Name == "Panic" && len(r.Args) == 1:
		return "panic: " + r.Args[0].Value
	case r.Name != "":
		args := make([]string, len(r.Args))
		for i, a := range r.Args {
			args[i] = a.Name + ": " + a.Value
		}
		return r.Name + "(" + strings.Join(args, ", ") + ")"
	case len(r.Data) >= 4:
		return fmt.Sprintf("custom error 0x%x", r.Data[:4])
	default:
		return "reverted without a reason"
	}
}

// format is one argument as text.
func format(v any) string {
	switch v := v.(type) {
	case common.Address:
		return v.Hex()
	case *big.Int:
		return v.String()
	case [32]byte:
		return "0x" + hex.EncodeToString(v[:])
	case []byte:
		return bounded("0x" + hex.EncodeToString(v))
	case string:
		return bounded(v)
	default:
		return fmt.Sprint(v)
	}
}

// MaxArgBytes bounds an argument's text (a string argument, or bytes, is the contract's choice).
const MaxArgBytes = 256

// bounded is s as valid UTF-8 without control characters, cut to MaxArgBytes at a rune boundary.
func bounded(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) <= MaxArgBytes {
		return s
	}
	cut := MaxArgBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// Selector is the revert data's first four bytes as 0x hex; "" for shorter data.
func (r Revert) Selector() string {
	if len(r.Data) < 4 {
		return ""
	}
	return "0x" + hex.EncodeToString(r.Data[:4])
}

// Status is the revert as the intent's status keeps it (its failureError); nil for revert data
// of fewer than four bytes, which names nothing.
func (r Revert) Status() *v1alpha1.RevertError {
	if len(r.Data) < 4 {
		return nil
	}
	out := &v1alpha1.RevertError{Name: r.Name, Selector: r.Selector()}
	for _, a := range r.Args {
		if out.Args == nil {
			out.Args = map[string]string{}
		}
		out.Args[a.Name] = a.Value
	}
	return out
}
