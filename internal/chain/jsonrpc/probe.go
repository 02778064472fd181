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
	// AllRefundsAllowed is the contract's allRefundsAllowed(): the guardian lets every order be
	// refunded now (false when the call failed).
	AllRefundsAllowed bool
	// Permit2 is the contract's permit2(), through which it pulls gasless orders; Permit2Known is
	// false when the call failed.
	Permit2      common.Address
	Permit2Known bool
	// Permit2HasCode and Permit2Code say what the Chain's Permit2 address holds: code at all, and
	// Permit2's (contracts.IsPermit2Code).
	Permit2HasCode bool
	Permit2Code    bool
}

// settlementBinding is the settlement contract's ABI; its methods are safe for concurrent use.
var settlementBinding = contracts.NewSettlement()

// ProbeSettlement asks the node, in one batch, whether contract holds code, which attester it
// accepts, how long its refund delay is, which Permit2 it pulls through, whether permit2 holds
// Permit2's code, and whether the guardian allowed every refund: what the Chain controller reports
// in a Chain's status.
func (c *Client) ProbeSettlement(ctx context.Context, contract, permit2 common.Address) (Settlement, error) {
	var code, out, delay, pulls, permit2Code, allRefunds hexutil.Bytes
	call := func(data []byte) []any {
		return []any{map[string]any{"to": contract, "data": hexutil.Bytes(data)}, "latest"}
	}
	batch := []rpc.BatchElem{
		{Method: "eth_getCode", Args: []any{contract, "latest"}, Result: &code},
		{Method: "eth_call", Args: call(settlementBinding.PackAttester()), Result: &out},
		{Method: "eth_call", Args: call(settlementBinding.PackRefundDelay()), Result: &delay},
		{Method: "eth_call", Args: call(settlementBinding.PackPermit2()), Result: &pulls},
		{Method: "eth_getCode", Args: []any{permit2, "latest"}, Result: &permit2Code},
		{Method: "eth_call", Args: call(settlementBinding.PackAllRefundsAllowed()), Result: &allRefunds},
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
	if batch[3].Error == nil {
		if p, err := settlementBinding.UnpackPermit2(pulls); err == nil {
			s.Permit2, s.Permit2Known = p, true
		}
	}
	if batch[4].Error == nil {
		s.Permit2HasCode, s.Permit2Code = len(permit2Code) > 0, contracts.IsPermit2Code(permit2Code)
	}
	if batch[5].Error == nil {
		s.AllRefundsAllowed, _ = settlementBinding.UnpackAllRefundsAllowed(allRefunds)
	}
	return s, nil
}
