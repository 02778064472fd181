package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// ErrNotFound is a block, transaction or receipt the node does not have.
var ErrNotFound = ethereum.NotFound

// ChainID is the node's chain id.
func (c *Client) ChainID(ctx context.Context) (*big.Int, error) {
	var id hexutil.Big
	if err := c.Call(ctx, &id, "eth_chainId"); err != nil {
		return nil, err
	}
	return id.ToInt(), nil
}

// Head is the number of the node's latest block.
func (c *Client) Head(ctx context.Context) (uint64, error) {
	var head hexutil.Uint64
	err := c.Call(ctx, &head, "eth_blockNumber")
	return uint64(head), err
}

// Block is what the watcher reads of a block.
type Block struct {
	Number     uint64
	Hash       common.Hash
	ParentHash common.Hash
	Time       time.Time
	// Txs are the block's transactions of the types go-ethereum knows; others (an L2's deposit
	// transactions) cannot be an intent's and are left out.
	Txs []*types.Transaction
}

// UnmarshalJSON decodes a block as eth_getBlockByNumber answers it with its transactions.
func (b *Block) UnmarshalJSON(data []byte) error {
	var raw struct {
		Number       hexutil.Uint64    `json:"number"`
		Hash         common.Hash       `json:"hash"`
		ParentHash   common.Hash       `json:"parentHash"`
		Timestamp    hexutil.Uint64    `json:"timestamp"`
		Transactions []json.RawMessage `json:"transactions"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*b = Block{
		Number: uint64(raw.Number), Hash: raw.Hash, ParentHash: raw.ParentHash,
		Time: time.Unix(int64(raw.Timestamp), 0).UTC(), //nolint:gosec // block timestamps fit in int64
		Txs:  make([]*types.Transaction, 0, len(raw.Transactions)),
	}
	for _, rawTx := range raw.Transactions {
		tx := new(types.Transaction)
		if err := tx.UnmarshalJSON(rawTx); err == nil {
			b.Txs = append(b.Txs, tx)
		}
	}
	return nil
}

// Blocks reads blocks first..last (inclusive) with their transactions in one batch. It stops at
// the first block the node does not have yet, so it may return fewer.
func (c *Client) Blocks(ctx context.Context, first, last uint64) ([]Block, error) {
	raw := make([]*Block, last-first+1)
	elems := make([]rpc.BatchElem, len(raw))
	for i := range raw {
		elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.Uint64(first + uint64(i)), true}, Result: &raw[i]}
	}
	if err := c.Batch(ctx, elems, nil); err != nil {
		return nil, err
	}
	blocks := make([]Block, 0, len(raw))
	for i, b := range raw {
		if elems[i].Error != nil {
			if len(blocks) > 0 {
				break
			}
			return nil, elems[i].Error
		}
		if b == nil { // null: the node has no such block yet
			break
		}
		blocks = append(blocks, *b)
	}
	return blocks, nil
}

// Header is a block's identity.
type Header struct {
	Number uint64
	Hash   common.Hash
	Time   time.Time
}

// HeaderByNumber is the canonical block at num; ErrNotFound when the node has none.
func (c *Client) HeaderByNumber(ctx context.Context, num uint64) (Header, error) {
	return c.header(ctx, hexutil.Uint64(num))
}

// FinalizedHeader is the node's latest finalized block (the `finalized` block tag); served is
// false when the node does not serve the tag: it answers with no block, or with the JSON-RPC
// errors of an unknown method or argument (an older node, a chain without finality). Any other
// error is an error: a node that is syncing or rate-limited must not turn "finalized" into a
// count of blocks for one call.
func (c *Client) FinalizedHeader(ctx context.Context) (h Header, served bool, err error) {
	h, err = c.header(ctx, "finalized")
	var answer rpc.Error
	switch {
	case err == nil:
		return h, true, nil
	case errors.Is(err, ErrNotFound):
		return Header{}, false, nil
	case errors.As(err, &answer) && (answer.ErrorCode() == -32601 || answer.ErrorCode() == -32602):
		return Header{}, false, nil
	default:
		return Header{}, false, err
	}
}

// header is the block that eth_getBlockByNumber names by number or tag; ErrNotFound for none.
func (c *Client) header(ctx context.Context, numberOrTag any) (Header, error) {
	var h *struct {
		Number    hexutil.Uint64 `json:"number"`
		Hash      common.Hash    `json:"hash"`
		Timestamp hexutil.Uint64 `json:"timestamp"`
	}
	if err := c.Call(ctx, &h, "eth_getBlockByNumber", numberOrTag, false); err != nil {
		return Header{}, err
	}
	if h == nil {
		return Header{}, ErrNotFound
	}
	return Header{Number: uint64(h.Number), Hash: h.Hash, Time: time.Unix(int64(h.Timestamp), 0).UTC()}, nil //nolint:gosec // see Block.UnmarshalJSON
}

// Receipt is what the watcher reads of a receipt.
type Receipt struct {
	Status      uint64
	BlockNumber uint64
	BlockHash   common.Hash
	GasUsed     uint64
	Logs        []types.Log
}

// Receipts reads the receipts of the transactions in one batch; a transaction the node has no
// receipt for (not mined, or mined in a block that is no longer canonical) gets nil.
func (c *Client) Receipts(ctx context.Context, hashes []common.Hash) ([]*Receipt, error) {
	type rpcReceipt struct {
		Status      hexutil.Uint64 `json:"status"`
		BlockNumber hexutil.Uint64 `json:"blockNumber"`
		BlockHash   common.Hash    `json:"blockHash"`
		GasUsed     hexutil.Uint64 `json:"gasUsed"`
		Logs        []types.Log    `json:"logs"`
	}
	results := make([]*rpcReceipt, len(hashes))
	elems := make([]rpc.BatchElem, len(hashes))
	for i, h := range hashes {
		elems[i] = rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{h}, Result: &results[i]}
	}
	if err := c.Batch(ctx, elems, nil); err != nil {
		return nil, err
	}
	out := make([]*Receipt, len(hashes))
	for i, r := range results {
		if elems[i].Error != nil {
			return nil, fmt.Errorf("receipt of %s: %w", hashes[i], elems[i].Error)
		}
		if r != nil {
			out[i] = &Receipt{Status: uint64(r.Status), BlockNumber: uint64(r.BlockNumber), BlockHash: r.BlockHash, GasUsed: uint64(r.GasUsed), Logs: r.Logs}
		}
	}
	return out, nil
}

// Transaction is a transaction the node knows, and where it is mined (Block 0: not yet).
type Transaction struct {
	Tx        *types.Transaction
	Block     uint64
	BlockHash common.Hash
}

// TransactionByHash is the transaction with the hash; ErrNotFound when the node does not know it.
func (c *Client) TransactionByHash(ctx context.Context, hash common.Hash) (Transaction, error) {
	var raw json.RawMessage
	if err := c.Call(ctx, &raw, "eth_getTransactionByHash", hash); err != nil {
		return Transaction{}, err
	}
	if len(raw) == 0 || string(raw) == "null" {
		return Transaction{}, ErrNotFound
	}
	tx := new(types.Transaction)
	if err := tx.UnmarshalJSON(raw); err != nil {
		return Transaction{}, fmt.Errorf("decoding transaction %s: %w", hash, err)
	}
	var where struct {
		BlockNumber *hexutil.Uint64 `json:"blockNumber"`
		BlockHash   *common.Hash    `json:"blockHash"`
	}
	if err := json.Unmarshal(raw, &where); err != nil {
		return Transaction{}, fmt.Errorf("decoding transaction %s: %w", hash, err)
	}
	out := Transaction{Tx: tx}
	if where.BlockNumber != nil && where.BlockHash != nil {
		out.Block, out.BlockHash = uint64(*where.BlockNumber), *where.BlockHash
	}
	return out, nil
}

// RevertReason replays the transaction, sent by from, on the state before its block and answers
// its revert data (internal/chain/reverts decodes it), or, when the node gave none, its error's
// text. It is a best effort (transactions earlier in the block are not replayed): both empty when
// nothing could be learnt.
func (c *Client) RevertReason(ctx context.Context, from common.Address, tx *types.Transaction, block uint64) (data []byte, message string) {
	if block == 0 || tx.To() == nil {
		return nil, ""
	}
	args := map[string]any{"from": from, "to": tx.To(), "gas": hexutil.Uint64(tx.Gas()), "value": (*hexutil.Big)(tx.Value()), "data": hexutil.Bytes(tx.Data())}
	var out hexutil.Bytes
	err := c.Call(ctx, &out, "eth_call", args, hexutil.Uint64(block-1))
	if err == nil {
		return nil, ""
	}
	if raw, ok := RevertData(err); ok && len(raw) > 0 {
		return raw, ""
	}
	return nil, err.Error()
}

// RevertData is the revert data a node's answer to a call carries (a JSON-RPC error with data),
// and whether there was any.
func RevertData(err error) ([]byte, bool) {
	var data rpc.DataError
	if !errors.As(err, &data) {
		return nil, false
	}
	revert, ok := data.ErrorData().(string)
	if !ok {
		return nil, false
	}
	raw, decErr := hexutil.Decode(revert)
	return raw, decErr == nil
}

// LogsOfBlocks reads, in one batch, the logs of address with one of topics in each of the blocks
// named by hash (EIP-234's blockHash filter). A node that does not have one of the blocks answers
// an error rather than no logs, so a lagging node behind a load balancer cannot make the watcher
// skip events, as a block-number range could.
func (c *Client) LogsOfBlocks(ctx context.Context, blocks []common.Hash, address common.Address, topics []common.Hash) ([][]types.Log, error) {
	results := make([][]types.Log, len(blocks))
	elems := make([]rpc.BatchElem, len(blocks))
	for i, h := range blocks {
		filter := map[string]any{"blockHash": h, "address": address, "topics": [][]common.Hash{topics}}
		elems[i] = rpc.BatchElem{Method: "eth_getLogs", Args: []any{filter}, Result: &results[i]}
	}
	if err := c.Batch(ctx, elems, nil); err != nil {
		return nil, err
	}
	for i := range elems {
		if elems[i].Error != nil {
			return nil, fmt.Errorf("logs of block %s: %w", blocks[i], elems[i].Error)
		}
	}
	return results, nil
}
