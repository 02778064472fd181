package intent

import (
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// GaslessPlan is what a gasless intent adds to its plan: the Permit2 terms of the signature that
// lets a filler open its order (ERC-7683 openFor). The order itself is the plan's; its nonce is
// the Permit2 nonce (the settlement contract requires both to agree).
type GaslessPlan struct {
	// Permit2 is the origin chain's Permit2, the signature's EIP-712 domain and the spender of the
	// user's ERC-20 allowance.
	Permit2 common.Address
	// Nonce is the Permit2 nonce: the plan's nonce read as a uint256.
	Nonce *big.Int
	// OpenDeadline is the Permit2 deadline, in whole seconds: the order must be opened before it,
	// early enough to be filled by the order's deadline.
	OpenDeadline time.Time
}

// planGasless adds the Permit2 terms of a gasless request to plan, or the reasons it cannot be
// gasless to plan.Errors: only an order (a swap or bridge) of an ERC-20 on a chain whose Permit2
// the service verified can be opened by a filler, and only if the deadline leaves time to open
// and fill it.
func planGasless(plan *Plan, r resolved, now time.Time) {
	switch {
	case plan.Type == TypeTransfer:
		plan.Errors = append(plan.Errors, "execution gasless is for swaps and bridges: a filler opens an order of the settlement contract, and a transfer has none")
		return
	case r.tokenIn.native:
		plan.Errors = append(plan.Errors, fmt.Sprintf("execution gasless pulls an ERC-20 through Permit2; %s is the native token, which only its holder can send", r.tokenIn.Symbol))
		return
	case !r.from.Permit2Verified || !common.IsHexAddress(r.from.Permit2Address):
		plan.Errors = append(plan.Errors, fmt.Sprintf("execution gasless needs Permit2 on %s, and the service has not verified it there (the Chain's Permit2 condition)", r.from.ID))
		return
	}
	fill := time.Duration(estimatedTime(plan.ResolvedPath, r.from, r.to)-r.from.BlockTimeSeconds) * time.Second
	openDeadline := plan.Deadline.Add(-fill).Truncate(time.Second)
	if !openDeadline.After(now.Add(time.Duration(r.from.BlockTimeSeconds) * time.Second)) {
		plan.Errors = append(plan.Errors, fmt.Sprintf("deadline %s leaves no time for a filler to open the order and fill it (%s)",
			plan.Deadline.UTC().Format(time.RFC3339), fill))
		return
	}
	plan.Gasless = &GaslessPlan{
		Permit2:      common.HexToAddress(r.from.Permit2Address),
		Nonce:        new(big.Int).SetBytes(plan.Nonce[:]),
		OpenDeadline: openDeadline,
	}
}

// PermitNonce is the order nonce that is the Permit2 nonce n: n as 32 big-endian bytes.
func PermitNonce(n *big.Int) ([32]byte, error) {
	var out [32]byte
	if n.Sign() < 0 || n.BitLen() > 256 {
		return out, fmt.Errorf("Permit2 nonce %s is not a uint256", n)
	}
	n.FillBytes(out[:])
	return out, nil
}
