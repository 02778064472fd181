package intent

import (
	"fmt"
	"strings"
)

// Type is the inferred operation type served in the API ("type" field, list filter).
type Type string

// The types, as the API names them.
const (
	TypeTransfer Type = "transfer"
	TypeSwap     Type = "swap"
	TypeBridge   Type = "bridge"
)

// ParseType parses a type filter value.
func ParseType(s string) (Type, error) {
	switch t := Type(s); t {
	case TypeTransfer, TypeSwap, TypeBridge:
		return t, nil
	}
	return "", fmt.Errorf("unknown intent type %q: want transfer, swap or bridge", s)
}

// Step is one primitive operation of resolvedPath.
type Step string

// The steps, as resolvedPath names them.
const (
	StepTransfer Step = "transfer"
	StepSwap     Step = "swap"
	StepBridge   Step = "bridge"
)

// Type infers the operation type (docs/decisions.md) from the request alone:
// different chains -> bridge; same chain and an asset pair with in != out -> swap; else transfer.
// Addresses are EIP-55 normalised, so two spellings of one token are not a swap.
func (p Parsed) Type() Type {
	switch {
	case p.From.Chain != p.To.Chain:
		return TypeBridge
	case p.IsPair && p.AssetIn != p.AssetOut:
		return TypeSwap
	default:
		return TypeTransfer
	}
}

// ResolvePath lists the primitive steps of an intent. A bridge also swaps when the token
// changes, which is judged by canonical symbol: USDC on Ethereum to USDC on Base is one bridge,
// USDC on Ethereum to ETH on Base is ["swap", "bridge"]. A symbol is the registry's statement that
// two contracts are the same asset; addresses cannot say that across chains. Symbols compare
// without case, as the registry's symbol index does.
func ResolvePath(t Type, symbolIn, symbolOut string) []Step {
	switch {
	case t == TypeSwap:
		return []Step{StepSwap}
	case t == TypeBridge && !strings.EqualFold(symbolIn, symbolOut):
		return []Step{StepSwap, StepBridge}
	case t == TypeBridge:
		return []Step{StepBridge}
	default:
		return []Step{StepTransfer}
	}
}
