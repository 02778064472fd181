package intent

import (
	"context"
	"errors"
	"math/big"

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
	// GasSwap covers a settlement order that swaps through one pool.
	GasSwap uint64 = 180_000
	// GasBridge covers a settlement order that locks funds and emits a cross-chain message.
	GasBridge uint64 = 250_000
	// GasCallDataZeroByte and GasCallDataNonZeroByte are the EIP-2028 calldata costs, added for
	// the client's callData; execution of that call by its target is not estimable statically.
	GasCallDataZeroByte    uint64 = 4
	GasCallDataNonZeroByte uint64 = 16
)

// ChainData is what the simulation asks of a chain. The static implementation answers from the
// chain table; an RPC-backed one (chain integration work) can replace it without touching the
// domain. known=false means "no answer", which is not an error.
type ChainData interface {
	// Balance is the holder's balance of token in base units.
	Balance(ctx context.Context, chain registry.Chain, tok registry.Token, holder common.Address) (balance *big.Int, known bool, err error)
	// GasPrice is the current gas price in wei.
	GasPrice(ctx context.Context, chain registry.Chain) (*big.Int, error)
	// EstimateGas estimates the gas units of tx sent by from.
	EstimateGas(ctx context.Context, chain registry.Chain, from common.Address, tx Tx) (units uint64, known bool, err error)
}

// StaticChainData answers from the chain table alone: default gas price, no balance, no estimate.
type StaticChainData struct{}

var errNoGasPrice = errors.New("chain has no default gas price")

// Balance is never known without a node.
func (StaticChainData) Balance(context.Context, registry.Chain, registry.Token, common.Address) (*big.Int, bool, error) {
	return nil, false, nil
}

// GasPrice is the chain's DefaultGasPriceWei.
func (StaticChainData) GasPrice(_ context.Context, chain registry.Chain) (*big.Int, error) {
	if chain.DefaultGasPriceWei == nil {
		return nil, errNoGasPrice
	}
	return chain.DefaultGasPriceWei, nil
}

// EstimateGas is never known without a node; the per-step defaults apply.
func (StaticChainData) EstimateGas(context.Context, registry.Chain, common.Address, Tx) (uint64, bool, error) {
	return 0, false, nil
}

// DefaultGasUnits is the gas of one transaction executing path, plus the calldata cost of the
// client's callData. A swap+bridge is one settlement call doing both, so its steps add up. A
// transfer costs GasNativeTransfer or GasERC20Transfer depending on the token.
func DefaultGasUnits(path []Step, native bool, callData []byte) uint64 {
	var units uint64
	for _, s := range path {
		switch {
		case s == StepSwap:
			units += GasSwap
		case s == StepBridge:
			units += GasBridge
		case native:
			units += GasNativeTransfer
		default:
			units += GasERC20Transfer
		}
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
