package intent

import (
	"crypto/rand"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// OrderInputs are the fields an orderId commits to.
type OrderInputs struct {
	// Account is the owning Account's name; it is hashed so every word is static and a contract
	// or auditor can recompute it as keccak256(bytes(account)).
	Account     string
	FromChainID uint64
	From        common.Address
	ToChainID   uint64
	To          common.Address
	TokenIn     common.Address
	TokenOut    common.Address
	// Amount is in base units of TokenIn.
	Amount *big.Int
	// Deadline is the effective deadline in unix seconds.
	Deadline uint64
	// Nonce makes two otherwise identical intents distinct.
	Nonce [32]byte
}

// orderIDArguments is the layout of the orderId preimage, ten static 32-byte words:
// abi.encode(bytes32 keccak256(account), uint256 fromChainId, address from, uint256 toChainId,
// address to, address tokenIn, address tokenOut, uint256 amount, uint64 deadline, bytes32 nonce).
// The chain ids are included because one address is a different account on each chain.
var orderIDArguments = mustArguments(
	"bytes32", "uint256", "address", "uint256", "address", "address", "address", "uint256", "uint64", "bytes32")

func mustArguments(types ...string) abi.Arguments {
	args := make(abi.Arguments, len(types))
	for i, t := range types {
		typ, err := abi.NewType(t, "", nil)
		if err != nil {
			panic("intent: bad ABI type " + t)
		}
		args[i] = abi.Argument{Type: typ}
	}
	return args
}

// OrderID is keccak256 of the ABI encoding of in: deterministic for the same inputs, unique per
// intent through the nonce.
func OrderID(in OrderInputs) (common.Hash, error) {
	if err := checkUint256(in.Amount); err != nil {
		return common.Hash{}, err
	}
	encoded, err := orderIDArguments.Pack(
		[32]byte(crypto.Keccak256Hash([]byte(in.Account))), new(big.Int).SetUint64(in.FromChainID), in.From,
		new(big.Int).SetUint64(in.ToChainID), in.To, in.TokenIn, in.TokenOut, in.Amount, in.Deadline, in.Nonce)
	if err != nil {
		return common.Hash{}, err
	}
	return crypto.Keccak256Hash(encoded), nil
}

// NewNonce draws a random 32-byte nonce from the operating system.
func NewNonce() ([32]byte, error) {
	var n [32]byte
	_, err := rand.Read(n[:])
	return n, err
}
