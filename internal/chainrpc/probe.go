package chainrpc

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
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
