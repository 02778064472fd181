package gasless

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// MaxBatch bounds the calls of one round trip of ReadStandings: a node may refuse larger batches
// (geth's default batch limit is 1,000 items), and a small one keeps each answer quick.
const MaxBatch = 100

// Query asks what a user's listed orders on one chain still stand on: the user's holding of each
// token (balance, allowance to Permit2) and whether each Permit2 nonce is spent.
type Query struct {
	User   common.Address
	Tokens []common.Address
	Nonces []*big.Int
}

// Standing is the answer to a Query: Holdings by token, Spent by nonce (decimal).
type Standing struct {
	Holdings map[common.Address]Holding
	Spent    map[string]bool
}

// ReadStandings answers queries of one chain whose Permit2 is permit2, in round trips of at most
// MaxBatch calls (a user's nonces of one bitmap word are one call). An error is the node's: the
// caller then knows nothing new, and changes nothing.
func ReadStandings(ctx context.Context, node Batcher, permit2 common.Address, queries []Query) ([]Standing, error) {
	type word struct {
		user common.Address
		pos  string
	}
	var (
		elems   []rpc.BatchElem
		answers []*hexutil.Bytes
		words   = map[word]int{} // the element of each user's bitmap word
	)
	add := func(to common.Address, data []byte) int {
		out := new(hexutil.Bytes)
		answers = append(answers, out)
		elems = append(elems, rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{"to": to, "data": hexutil.Bytes(data)}, "latest"}, Result: out})
		return len(elems) - 1
	}
	type index struct{ balance, allowance map[common.Address]int }
	at := make([]index, len(queries))
	for i, q := range queries {
		at[i] = index{map[common.Address]int{}, map[common.Address]int{}}
		for _, token := range q.Tokens {
			if _, ok := at[i].balance[token]; ok {
				continue
			}
			at[i].balance[token] = add(token, erc20.PackBalanceOf(q.User))
			at[i].allowance[token] = add(token, erc20.PackAllowance(q.User, permit2))
		}
		for _, n := range q.Nonces {
			pos, _ := settlement.NonceBit(n)
			w := word{q.User, pos.String()}
			if _, ok := words[w]; !ok {
				words[w] = add(permit2, permit2ABI.PackNonceBitmap(q.User, pos))
			}
		}
	}
	for start := 0; start < len(elems); start += MaxBatch {
		batch := elems[start:min(start+MaxBatch, len(elems))]
		if err := node.Batch(ctx, batch, nil); err != nil {
			return nil, err
		}
		for _, e := range batch {
			if e.Error != nil {
				return nil, fmt.Errorf("%s: %w", e.Method, e.Error)
			}
		}
	}
	out := make([]Standing, len(queries))
	for i, q := range queries {
		s := Standing{Holdings: map[common.Address]Holding{}, Spent: map[string]bool{}}
		for token, e := range at[i].balance {
			balance, err := erc20.UnpackBalanceOf(*answers[e])
			if err != nil {
				return nil, fmt.Errorf("balanceOf: %w", err)
			}
			allowance, err := erc20.UnpackAllowance(*answers[at[i].allowance[token]])
			if err != nil {
				return nil, fmt.Errorf("allowance: %w", err)
			}
			s.Holdings[token] = Holding{Balance: balance, Allowance: allowance}
		}
		for _, n := range q.Nonces {
			pos, _ := settlement.NonceBit(n)
			bitmap, err := permit2ABI.UnpackNonceBitmap(*answers[words[word{q.User, pos.String()}]])
			if err != nil {
				return nil, fmt.Errorf("nonceBitmap: %w", err)
			}
			s.Spent[n.String()] = settlement.NonceUsed(n, bitmap)
		}
		out[i] = s
	}
	return out, nil
}
