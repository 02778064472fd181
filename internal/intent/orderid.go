package intent

import (
	"crypto/rand"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// OrderInputs are the fields an orderId commits to: the settlement contract's Order.
type OrderInputs struct {
	// Account is the owning Account's name; it is hashed (AccountWord) so every word is static;
	// with the installation's AccountKey only the installation can recompute it.
	Account     string
	FromChainID uint64
	From        common.Address
	// OriginSettler is the settlement contract on the source chain that escrows the order (zero
	// for a transfer): the orderId belongs to one contract on one chain.
	OriginSettler common.Address
	ToChainID     uint64
	To            common.Address
	TokenIn       common.Address
	TokenOut      common.Address
	// Amount is in base units of TokenIn; MinAmountOut in base units of TokenOut (Amount for a
	// transfer).
	Amount       *big.Int
	MinAmountOut *big.Int
	// Deadline is the effective deadline in unix seconds.
	Deadline uint64
	// Nonce makes two otherwise identical intents distinct.
	Nonce [32]byte
	// AccountKey keys the account word (AccountWord); empty: unkeyed.
	AccountKey []byte
	// DestinationSettler is the settlement contract on the destination chain; zero for a transfer.
	DestinationSettler common.Address
	// StartAmountOut, DecayStart and DecayEnd are the Dutch decay of the output down to
	// MinAmountOut (nil StartAmountOut: none); ExclusiveFiller, ExclusivityDeadline and
	// ExclusivityOverrideBps its exclusivity (zero: none). MarketTerms sets them.
	StartAmountOut         *big.Int
	DecayStart, DecayEnd   uint64
	ExclusiveFiller        common.Address
	ExclusivityDeadline    uint64
	ExclusivityOverrideBps uint32
	// NativeDrop is the gas on arrival: native token of the destination chain, in base units, the
	// filler pays the recipient with the fill (nil: none).
	NativeDrop *big.Int
	// FeeAmount (base units of TokenIn, nil: none) is the integrator fee credited to FeeRecipient
	// when the order is paid out.
	FeeAmount    *big.Int
	FeeRecipient common.Address
}

// Order is the settlement contract's order for in.
func (in OrderInputs) Order() settlement.Order {
	return settlement.Order{
		Account: AccountWord(in.AccountKey, in.Account), OriginSettler: in.OriginSettler,
		OriginChainId: new(big.Int).SetUint64(in.FromChainID), User: in.From,
		DestinationChainId: new(big.Int).SetUint64(in.ToChainID), Recipient: in.To,
		TokenIn: in.TokenIn, TokenOut: in.TokenOut, AmountIn: in.Amount, MinAmountOut: in.MinAmountOut,
		Deadline: in.Deadline, Nonce: in.Nonce, DestinationSettler: in.DestinationSettler,
		StartAmountOut: in.StartAmountOut, DecayStart: in.DecayStart, DecayEnd: in.DecayEnd,
		ExclusiveFiller: in.ExclusiveFiller, ExclusivityDeadline: in.ExclusivityDeadline,
		ExclusivityOverrideBps: new(big.Int).SetUint64(uint64(in.ExclusivityOverrideBps)),
		NativeDropAmount:       in.NativeDrop,
		FeeAmount:              in.FeeAmount, FeeRecipient: in.FeeRecipient,
	}
}

// OrderID is keccak256(abi.encode(order)), the id the settlement contract computes for the order:
// deterministic for the same inputs, unique per intent through the nonce. Transfers, which never
// meet the contract, get theirs the same way.
func OrderID(in OrderInputs) (common.Hash, error) {
	if err := checkUint256(in.Amount); err != nil {
		return common.Hash{}, err
	}
	if err := checkUint256(in.MinAmountOut); err != nil {
		return common.Hash{}, err
	}
	return settlement.ID(in.Order())
}

// NewNonce draws a random 32-byte nonce from the operating system.
func NewNonce() ([32]byte, error) {
	var n [32]byte
	_, err := rand.Read(n[:])
	return n, err
}

// OpenedOrder is the order a stored intent's transaction (to, calldata, chain id) opens, read
// back from its calldata, when it is a well-formed open of the stored orderId on the contract the
// transaction calls, on the transaction's chain. Anything else is no order: the watcher matches
// none of its events, and no refund is built for it. It is the one reading of an intent's order
// for both: a refund built from it names exactly the order the contract escrowed, or none
// (another order is another orderId, which the contract's refund refuses as NotOpened).
func OpenedOrder(to, data string, chainID int64, orderID string) (settlement.Order, bool) {
	if !common.IsHexAddress(to) {
		return settlement.Order{}, false
	}
	order, err := settlement.OrderOfOpenData(common.FromHex(data))
	if err != nil {
		return settlement.Order{}, false
	}
	id, err := settlement.ID(order)
	if err != nil || id != common.HexToHash(orderID) || order.OriginSettler != common.HexToAddress(to) ||
		!order.OriginChainId.IsInt64() || order.OriginChainId.Int64() != chainID {
		return settlement.Order{}, false
	}
	return order, true
}

// AccountWord is the order's account word: keccak256 of a domain tag, the installation's key and
// the account's name, so that whoever reads orders on chain cannot tell which orders share an
// account by hashing guessed names (an unkeyed hash of a name is a dictionary lookup away). The
// contract treats the word as opaque. Without a key (AccountKey empty: a development install, or
// one that has not set --order-account-key-file) it is keccak256(name), as before.
func AccountWord(key []byte, account string) common.Hash {
	if len(key) == 0 {
		return crypto.Keccak256Hash([]byte(account))
	}
	return crypto.Keccak256Hash([]byte("transfer-intent-service/order-account"), key, []byte{0}, []byte(account))
}
