package intent

import (
	"context"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Default gas units per step, used when ChainData cannot estimate. They are deliberately on the
// high side of typical mainnet costs: an estimate that is too low makes a quote look cheaper
// than the transaction the user will sign.
const (
	// GasNativeTransfer is the fixed cost of a plain value transfer.
	GasNativeTransfer uint64 = 21_000
	// GasERC20Transfer covers transfer() on common tokens, including a first write to a new holder.
	GasERC20Transfer uint64 = 65_000
	// GasOpenOrder covers open() on the settlement contract, which a swap, a bridge or both take
	// alike (the filler pays for the rest): measured at 162,000 (native) to 306,000 (an ERC-20,
	// first order of an account) on the local chains, which run every fork.
	GasOpenOrder uint64 = 350_000
	// GasCallDataZeroByte and GasCallDataNonZeroByte are the EIP-2028 calldata costs, added for
	// the client's callData; execution of that call by its target is not estimable statically.
	GasCallDataZeroByte    uint64 = 4
	GasCallDataNonZeroByte uint64 = 16
)

// ChainQuery is what one simulation asks of the chain it starts on. A ChainData answers all of it
// in one round trip to the chain's node.
type ChainQuery struct {
	// Holder is the request's from.
	Holder common.Address
	// Tokens are the tokens whose balance of Holder is read: the asset and, for gas, the native token.
	Tokens []registry.Token
	// Tx, when set, is the exact transaction the service returns; it is estimated as sent by Holder.
	Tx *Tx
	// Amount, when set with Tx, is what Tx takes from Holder, in base units of the asset: of the
	// ERC-20 Tx calls (a transfer) or of Allowance's token (an order), or the native value. The
	// reader derives Tx's estimate only when Holder's balances (and allowance) cover it.
	Amount *big.Int
	// Kind is what Tx does (a transfer, a swap, a bridge): transactions of one kind to one contract
	// take the same path through its code, which the reader's derived estimates rely on.
	Kind Type
	// Allowance, when set, reads Holder's ERC-20 allowance toward a spender.
	Allowance *AllowanceQuery
	// Contract, when set, is checked to hold code: the settlement contract an order is sent to.
	Contract *common.Address
	// Feeds are AggregatorV3 price feeds whose latestRoundData() is read in the same round trip.
	Feeds []common.Address
}

// FeedRound is a price feed's latestRoundData(), as far as the simulation uses it: the answer in
// the feed's decimals and when it was updated.
type FeedRound struct {
	Answer    *big.Int
	UpdatedAt time.Time
}

// AllowanceQuery names an ERC-20 allowance: of Token, from the holder, toward Spender.
type AllowanceQuery struct {
	Token   registry.Token
	Spender common.Address
}

// ChainState is a chain's answer to a ChainQuery. A nil value or zero GasUnits means "unknown",
// which is not an error: the simulation falls back to the chain's defaults for it.
type ChainState struct {
	// Balances of Holder in base units, by token CAIP-10 address.
	Balances map[string]*big.Int
	// GasPrice is the price per gas a transaction sent now should offer, in wei.
	GasPrice *big.Int
	// GasUnits is the gas limit the service puts on Tx: the node's estimate with a safety margin.
	GasUnits uint64
	// EstimateError is the node's refusal to estimate Tx; usually the transaction would revert.
	EstimateError error
	// Allowance is Holder's allowance of the queried token toward its spender, in base units.
	Allowance *big.Int
	// ContractMissing is true when the node answered that the queried Contract holds no code.
	ContractMissing bool
	// Feeds are the queried feeds' rounds; a feed the node could not read is absent, or has its
	// error in FeedErrors.
	Feeds map[common.Address]FeedRound
	// FeedErrors are the reasons feeds could not be read (the call reverted, the answer did not
	// decode).
	FeedErrors map[common.Address]error
}

// ChainData is what the simulation asks of a chain. StaticChainData answers from the chain table;
// internal/chain/chaindata reads the chain's node. An error means the chain could not be asked at all
// (its node is slow, down or not the chain it should be): the simulation then answers from the
// static defaults with a warning, never with a failure.
type ChainData interface {
	Read(ctx context.Context, chain registry.Chain, q ChainQuery) (ChainState, error)
}

// StaticChainData answers from the chain table alone: the default gas price, no balance, no
// estimate.
type StaticChainData struct{}

// Read implements ChainData.
func (StaticChainData) Read(_ context.Context, chain registry.Chain, _ ChainQuery) (ChainState, error) {
	return ChainState{GasPrice: chain.DefaultGasPriceWei}, nil
}

// DefaultGasUnits is the gas of the one transaction the client sends for path, plus the calldata
// cost of the client's callData. An order (a swap, a bridge or both) is one open() whatever its
// steps; a transfer costs GasNativeTransfer or GasERC20Transfer depending on the token.
func DefaultGasUnits(path []Step, native bool, callData []byte) uint64 {
	var units uint64
	switch {
	case slices.Contains(path, StepSwap) || slices.Contains(path, StepBridge):
		units = GasOpenOrder
	case native:
		units = GasNativeTransfer
	default:
		units = GasERC20Transfer
	}
	return units + callDataGas(callData)
}

func callDataGas(data []byte) uint64 {
	var units uint64
	for _, b := range data {
		if b == 0 {
			units += GasCallDataZeroByte
		} else {
			units += GasCallDataNonZeroByte
		}
	}
	return units
}
