package chainrpc

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
)

// Probe asks the node at url for its chain id and latest block number in one batch within
// timeout: what the Chain controller reports in a Chain's status. Its errors never quote the URL.
func Probe(ctx context.Context, url string, timeout time.Duration) (chainID *big.Int, head uint64, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client, err := rpc.DialContext(ctx, url)
	if err != nil {
		return nil, 0, fmt.Errorf("the RPC URL is not usable")
	}
	defer client.Close()
	var id hexutil.Big
	var block hexutil.Uint64
	batch := []rpc.BatchElem{
		{Method: "eth_chainId", Result: &id},
		{Method: "eth_blockNumber", Result: &block},
	}
	if err := client.BatchCallContext(ctx, batch); err != nil {
		return nil, 0, Redact(err, url)
	}
	for _, e := range batch {
		if e.Error != nil {
			return nil, 0, Redact(e.Error, url)
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

// ProbeSettlement asks the node at url, in one batch within timeout, whether contract holds code
// and which attester it accepts: what the Chain controller reports in a Chain's status. Its errors
// never quote the URL.
func ProbeSettlement(ctx context.Context, url string, contract common.Address, timeout time.Duration) (Settlement, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client, err := rpc.DialContext(ctx, url)
	if err != nil {
		return Settlement{}, fmt.Errorf("the RPC URL is not usable")
	}
	defer client.Close()
	binding := contracts.NewSettlement()
	var code, out hexutil.Bytes
	batch := []rpc.BatchElem{
		{Method: "eth_getCode", Args: []any{contract, "latest"}, Result: &code},
		{Method: "eth_call", Args: []any{map[string]any{"to": contract, "data": hexutil.Bytes(binding.PackAttester())}, "latest"}, Result: &out},
	}
	if err := client.BatchCallContext(ctx, batch); err != nil {
		return Settlement{}, Redact(err, url)
	}
	if batch[0].Error != nil {
		return Settlement{}, Redact(batch[0].Error, url)
	}
	s := Settlement{HasCode: len(code) > 0}
	if batch[1].Error == nil {
		if attester, err := binding.UnpackAttester(out); err == nil {
			s.Attester, s.AttesterKnown = attester, true
		}
	}
	return s, nil
}
