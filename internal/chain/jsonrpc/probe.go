package jsonrpc

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
)

// Probe asks the node for its chain id and latest block number in one batch: what the Chain
// controller reports in a Chain's status.
func (c *Client) Probe(ctx context.Context) (chainID *big.Int, head uint64, err error) {
	var id hexutil.Big
	var block hexutil.Uint64
	batch := []rpc.BatchElem{
		{Method: "eth_chainId", Result: &id},
		{Method: "eth_blockNumber", Result: &block},
	}
	if err := c.Batch(ctx, batch, nil); err != nil {
		return nil, 0, err
	}
	for _, e := range batch {
		if e.Error != nil {
			return nil, 0, e.Error
		}
	}
	return id.ToInt(), uint64(block), nil
}

// Settlement is what a node says of a Chain's settlement contract.
type Settlement struct {
	// HasCode is false when the address holds no code: no contract was deployed there.
	HasCode bool
	// Attester is the contract's attester(); AttesterKnown is false when the call failed (the code
	// is not the settlement contract).
	Attester      common.Address
	AttesterKnown bool
}

// settlementBinding is the settlement contract's ABI; its methods are safe for concurrent use.
var settlementBinding = contracts.NewSettlement()

// ProbeSettlement asks the node, in one batch, whether contract holds code and which attester it
// accepts: what the Chain controller reports in a Chain's status.
func (c *Client) ProbeSettlement(ctx context.Context, contract common.Address) (Settlement, error) {
	var code, out hexutil.Bytes
	batch := []rpc.BatchElem{
		{Method: "eth_getCode", Args: []any{contract, "latest"}, Result: &code},
		{Method: "eth_call", Args: []any{map[string]any{"to": contract, "data": hexutil.Bytes(settlementBinding.PackAttester())}, "latest"}, Result: &out},
	}
	if err := c.Batch(ctx, batch, nil); err != nil {
		return Settlement{}, err
	}
	if batch[0].Error != nil {
		return Settlement{}, batch[0].Error
	}
	s := Settlement{HasCode: len(code) > 0}
	if batch[1].Error == nil {
		if attester, err := settlementBinding.UnpackAttester(out); err == nil {
			s.Attester, s.AttesterKnown = attester, true
		}
	}
	return s, nil
}
