// Package gasless checks a user's signature of a gasless order (ERC-7683 openFor through Permit2)
// before the service accepts it and offers the order to fillers: the signer is the order's user
// (ECDSA, or EIP-1271 for a contract account, asked through the node), the Permit2 nonce is
// unused, the user's balance and allowance to Permit2 cover the input, and an eth_call of openFor
// succeeds. All of it is one batched round trip to the origin chain's node.
package gasless

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/reverts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// Kind names why a signed order is refused; each becomes its own problem type in the API.
type Kind string

// The refusals, in the order they are checked.
const (
	// KindBadSignature: the signature is not the order's user's (recovered another address, or
	// the contract account's isValidSignature refused it).
	KindBadSignature Kind = "signature-invalid"
	// KindNonceUsed: the Permit2 nonce is already spent or cancelled in the user's nonceBitmap.
	KindNonceUsed Kind = "nonce-used"
	// KindBalanceShort: the user holds less of tokenIn than the order's input.
	KindBalanceShort Kind = "insufficient-balance"
	// KindAllowanceShort: the user's ERC-20 allowance to Permit2 is below the order's input.
	KindAllowanceShort Kind = "permit2-allowance-short"
	// KindOpenReverts: openFor would revert for another reason (the settlement contract's or
	// Permit2's error is in the detail).
	KindOpenReverts Kind = "open-would-revert"
)

// Refusal is a signed order the service must not accept, and why.
type Refusal struct {
	Kind   Kind
	Detail string
}

func (r *Refusal) Error() string { return string(r.Kind) + ": " + r.Detail }

// Batcher sends JSON-RPC calls in one round trip (jsonrpc.Client.Batch): its error is the round
// trip's own; each element carries its answer or the node's refusal of it.
type Batcher interface {
	Batch(ctx context.Context, elems []rpc.BatchElem, check func() error) error
}

// Signed is a gasless order, its user's signature, and the Permit2 of its origin chain.
type Signed struct {
	Order     settlement.GaslessOrder
	Signature []byte
	Permit2   common.Address
}

// eip1271Magic is isValidSignature's answer for a valid signature.
var eip1271Magic = [4]byte{0x16, 0x26, 0xba, 0x7e}

// eip1271ABI is EIP-1271's one function.
var eip1271ABI = func() abi.ABI {
	parsed, err := abi.JSON(strings.NewReader(`[{"type":"function","name":"isValidSignature","stateMutability":"view",
"inputs":[{"name":"hash","type":"bytes32"},{"name":"signature","type":"bytes"}],"outputs":[{"name":"","type":"bytes4"}]}]`))
	if err != nil {
		panic(err)
	}
	return parsed
}()

var (
	erc20      = contracts.NewTestToken() // balanceOf and allowance: plain ERC-20
	permit2ABI = contracts.NewPermit2()
)

// Gas bounds of the calls of Verify that run the user's code. A Safe (1 owner, the devchain's)
// answers isValidSignature and opens its order with a small part of these (measured by
// TestGasBoundsCoverASafe, which fails when the margin falls under 4x); the bounds leave room for
// Safes with more owners and other smart accounts, and are far below a node's eth_call cap (50M
// gas by default in geth), which a looping wallet would burn on every check.
const (
	SignerGas  = 500_000
	OpenForGas = 2_000_000
)

// Holding is what a user holds of a token on a chain and allows Permit2 to take of it.
type Holding struct {
	Balance, Allowance *big.Int
}

// Available is what orders of the holding can take: the lesser of the balance and the allowance.
func (h Holding) Available() *big.Int {
	if h.Allowance.Cmp(h.Balance) < 0 {
		return h.Allowance
	}
	return h.Balance
}

// Verify returns nil when the node says the signed order can be opened now, a *Refusal when it
// cannot, and another error when the node could not be asked (the caller answers 503, not 422).
func Verify(ctx context.Context, node Batcher, s Signed) error {
	_, err := Check(ctx, node, s)
	return err
}

// Check is Verify that also answers the user's holding of the order's input token, as the node
// read it in the same round trip (for the bound of the user's outstanding orders).
func Check(ctx context.Context, node Batcher, s Signed) (Holding, error) {
	o, err := settlement.Decode(s.Order.OrderData)
	if err != nil {
		return Holding{}, &Refusal{KindOpenReverts, "the order's data is not an Order: " + err.Error()}
	}
	typed, err := settlement.PermitTypedData(s.Order, s.Permit2)
	if err != nil {
		return Holding{}, &Refusal{KindOpenReverts, err.Error()}
	}
	digest, err := settlement.PermitDigest(typed)
	if err != nil {
		return Holding{}, &Refusal{KindOpenReverts, err.Error()}
	}
	openFor, err := settlement.OpenForData(s.Order, s.Signature)
	if err != nil {
		return Holding{}, &Refusal{KindOpenReverts, err.Error()}
	}
	isValid, err := eip1271ABI.Pack("isValidSignature", digest, s.Signature)
	if err != nil {
		return Holding{}, err
	}
	var code, magic, bitmap, balance, allowance, opened hexutil.Bytes
	call := func(to common.Address, data []byte, out *hexutil.Bytes, gas uint64) rpc.BatchElem {
		msg := map[string]any{"to": to, "data": hexutil.Bytes(data)}
		if gas > 0 {
			msg["gas"] = hexutil.Uint64(gas)
		}
		return rpc.BatchElem{Method: "eth_call", Args: []any{msg, "latest"}, Result: out}
	}
	batch := []rpc.BatchElem{
		{Method: "eth_getCode", Args: []any{o.User, "latest"}, Result: &code},
		// The user's contract and openFor (which runs it again, through Permit2) are the user's
		// code: bounded, so that a wallet cannot make every check cost the node's gas cap.
		call(o.User, isValid, &magic, SignerGas),
		call(s.Permit2, settlement.NonceBitmapData(o.User, s.Order.Nonce), &bitmap, 0),
		call(o.TokenIn, erc20.PackBalanceOf(o.User), &balance, 0),
		call(o.TokenIn, erc20.PackAllowance(o.User, s.Permit2), &allowance, 0),
		call(o.OriginSettler, openFor, &opened, OpenForGas),
	}
	if err := node.Batch(ctx, batch, nil); err != nil {
		return Holding{}, err
	}
	for _, i := range []int{0, 2, 3, 4} { // the reads that must answer
		if batch[i].Error != nil {
			return Holding{}, fmt.Errorf("%s: %w", batch[i].Method, batch[i].Error)
		}
	}
	if err := checkSigner(o.User, digest, s.Signature, code, magic, batch[1].Error); err != nil {
		return Holding{}, err
	}
	return checkFunds(s, o, bitmap, balance, allowance, batch[5].Error)
}

// checkSigner: an account without code signs with its key; one with code answers EIP-1271.
func checkSigner(user common.Address, digest common.Hash, sig, code, magic []byte, callErr error) error {
	if len(code) == 0 {
		signer, err := settlement.RecoverSigner(digest, sig)
		if err != nil {
			return &Refusal{KindBadSignature, err.Error()}
		}
		if signer != user {
			return &Refusal{KindBadSignature, fmt.Sprintf("signed by %s, not by the order's user %s", signer.Hex(), user.Hex())}
		}
		return nil
	}
	if callErr != nil || len(magic) < 4 || [4]byte(magic[:4]) != eip1271Magic {
		return &Refusal{KindBadSignature, fmt.Sprintf("the contract account %s does not accept the signature (EIP-1271 isValidSignature)", user.Hex())}
	}
	return nil
}

func checkFunds(s Signed, o settlement.Order, bitmap, balance, allowance []byte, openErr error) (Holding, error) {
	word, err := permit2ABI.UnpackNonceBitmap(bitmap)
	if err != nil {
		return Holding{}, fmt.Errorf("nonceBitmap: %w", err)
	}
	if settlement.NonceUsed(s.Order.Nonce, word) {
		return Holding{}, &Refusal{KindNonceUsed, fmt.Sprintf("Permit2 nonce %s of %s is already used or cancelled", s.Order.Nonce, o.User.Hex())}
	}
	var h Holding
	if h.Balance, err = erc20.UnpackBalanceOf(balance); err != nil {
		return Holding{}, fmt.Errorf("balanceOf: %w", err)
	} else if h.Balance.Cmp(o.AmountIn) < 0 {
		return Holding{}, &Refusal{KindBalanceShort, fmt.Sprintf("%s holds %s base units of %s; the order takes %s", o.User.Hex(), h.Balance, o.TokenIn.Hex(), o.AmountIn)}
	}
	if h.Allowance, err = erc20.UnpackAllowance(allowance); err != nil {
		return Holding{}, fmt.Errorf("allowance: %w", err)
	} else if h.Allowance.Cmp(o.AmountIn) < 0 {
		return Holding{}, &Refusal{KindAllowanceShort, fmt.Sprintf("%s allows Permit2 %s base units of %s; the order takes %s: approve Permit2 once", o.User.Hex(), h.Allowance, o.TokenIn.Hex(), o.AmountIn)}
	}
	if openErr != nil {
		return Holding{}, &Refusal{KindOpenReverts, "openFor would revert: " + revertReason(openErr)}
	}
	return h, nil
}

// revertReason names the error in a call's revert data (internal/chain/reverts): the settlement
// contract's, Permit2's or the token's, with its arguments.
func revertReason(err error) string {
	data, ok := jsonrpc.RevertData(err)
	if !ok || len(data) < 4 {
		return err.Error()
	}
	return reverts.Decode(data).String()
}
