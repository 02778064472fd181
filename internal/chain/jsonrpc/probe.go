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
	// SettlementCode says the code is this release's settlement contract, byte for byte outside
	// its immutables (contracts.IsSettlementCode).
	SettlementCode bool
	// Attester is the contract's attester(); AttesterKnown is false when the call failed (the code
	// is not the settlement contract).
	Attester      common.Address
	AttesterKnown bool
	// RefundDelay is the contract's refundDelay(), in seconds: how long after an order's deadline
	// its user may take the escrow back. RefundDelayKnown is false when the call failed.
	RefundDelay      uint64
	RefundDelayKnown bool
}

// settlementBinding is the settlement contract's ABI; its methods are safe for concurrent use.
var settlementBinding = contracts.NewSettlement()

// ProbeSettlement asks the node, in one batch, whether contract holds code, which attester it
// accepts and how long its refund delay is: what the Chain controller reports in a Chain's status.
func (c *Client) ProbeSettlement(ctx context.Context, contract common.Address) (Settlement, error) {
	var code, out, delay hexutil.Bytes
	call := func(data []byte) []any {
		return []any{map[string]any{"to": contract, "data": hexutil.Bytes(data)}, "latest"}
	}
	batch := []rpc.BatchElem{
		{Method: "eth_getCode", Args: []any{contract, "latest"}, Result: &code},
		{Method: "eth_call", Args: call(settlementBinding.PackAttester()), Result: &out},
		{Method: "eth_call", Args: call(settlementBinding.PackRefundDelay()), Result: &delay},
	}
	if err := c.Batch(ctx, batch, nil); err != nil {
		return Settlement{}, err
	}
	if batch[0].Error != nil {
		return Settlement{}, batch[0].Error
	}
	s := Settlement{HasCode: len(code) > 0, SettlementCode: contracts.IsSettlementCode(code)}
	if batch[1].Error == nil {
		if attester, err := settlementBinding.UnpackAttester(out); err == nil {
			s.Attester, s.AttesterKnown = attester, true
		}
	}
	if batch[2].Error == nil {
		if d, err := settlementBinding.UnpackRefundDelay(delay); err == nil {
			s.RefundDelay, s.RefundDelayKnown = d, true
		}
	}
	return s, nil
}
