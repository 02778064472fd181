// Package chaindata reads live chain data from each chain's node for the simulation: balances,
// fee data and the gas estimate of the exact transaction the service returns, in one batched
// round trip per simulation (intent.ChainData), through the chain's jsonrpc client.
//
// A node is never on the request path without a bound: every batch has a deadline
// (Options.CallTimeout), and after Options.Failures failed batches in a row a chain's circuit
// breaker opens for Options.Cooldown, during which reads fail at once instead of paying the
// timeout again. The simulation then answers from the chain's static defaults with a warning.
// A node that reports another chain id than its Chain's CAIP-2 id is refused like a failed one.
package chaindata

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/sony/gobreaker/v2"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/defaults"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Defaults of Options.
const (
	DefaultCallTimeout      = 300 * time.Millisecond
	DefaultFailures         = 3
	DefaultCooldown         = 30 * time.Second
	DefaultGasMarginPercent = 20
)

// Options are the reader's settings; zero values take the defaults.
type Options struct {
	// CallTimeout bounds one batched round trip to a node.
	CallTimeout time.Duration
	// Failures is how many failed batches in a row open a chain's breaker.
	Failures uint32
	// Cooldown is how long an open breaker refuses reads before it lets one through again.
	Cooldown time.Duration
	// GasMarginPercent is added to the node's gas estimate to make the transaction's gas limit:
	// state can change between the quote and the send, and an out-of-gas transaction still pays.
	GasMarginPercent uint64
	// Metrics receives the per-chain round trips; nil records none.
	Metrics *jsonrpc.Metrics
}

// ErrWrongChain is returned when a node reports another chain id than its Chain declares.
var ErrWrongChain = jsonrpc.ErrWrongChain

// Caller names the simulation's reads in the jsonrpc metrics.
const Caller = "simulation"

// Reader implements intent.ChainData over JSON-RPC. A chain without an RPC URL is answered from
// its static defaults, like intent.StaticChainData.
type Reader struct {
	opts  Options
	nodes *jsonrpc.Pool
	token *contracts.TestToken     // the ERC-20 ABI: balanceOf and allowance are standard
	feed  *contracts.TestPriceFeed // the AggregatorV3 ABI: latestRoundData is standard
}

// New returns a reader with opts.
func New(opts Options) (*Reader, error) {
	defaults.Positive(&opts.CallTimeout, DefaultCallTimeout)
	defaults.Positive(&opts.Failures, DefaultFailures)
	defaults.Positive(&opts.Cooldown, DefaultCooldown)
	defaults.Positive(&opts.GasMarginPercent, DefaultGasMarginPercent)
	nodes := jsonrpc.NewPool(jsonrpc.Options{
		Caller: Caller, Timeout: opts.CallTimeout, Failures: opts.Failures, Cooldown: opts.Cooldown, Metrics: opts.Metrics,
	})
	return &Reader{opts: opts, nodes: nodes, token: contracts.NewTestToken(), feed: contracts.NewTestPriceFeed()}, nil
}

// Read implements intent.ChainData: one batch to the chain's node, through its breaker.
func (r *Reader) Read(ctx context.Context, chain registry.Chain, q intent.ChainQuery) (intent.ChainState, error) {
	if chain.RPCURL == "" {
		return intent.ChainState{GasPrice: chain.DefaultGasPriceWei}, nil
	}
	node, err := r.nodes.Client(ctx, chain.ID, chain.RPCURL)
	if err != nil {
		return intent.ChainState{}, fmt.Errorf("connecting to the node of %s: %w", chain.ID, err)
	}
	return r.read(ctx, node, chain, q)
}

// call is one element of the batch and where its answer goes.
type call struct {
	elem  rpc.BatchElem
	apply func(*intent.ChainState, error)
}

// read sends every question of q, and the chain id, in one batch: balances, allowance, code, the
// estimate and each price feed's latestRoundData() are elements of the same round trip.
func (r *Reader) read(ctx context.Context, node *jsonrpc.Client, chain registry.Chain, q intent.ChainQuery) (intent.ChainState, error) {
	var (
		chainID hexutil.Big
		head    struct {
			BaseFee *hexutil.Big `json:"baseFeePerGas"`
		}
		tip      hexutil.Big
		legacy   hexutil.Big
		estimate hexutil.Uint64
	)
	calls := []call{
		{elem: rpc.BatchElem{Method: "eth_chainId", Result: &chainID}},
		{elem: rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head}},
		{elem: rpc.BatchElem{Method: "eth_maxPriorityFeePerGas", Result: &tip}},
		{elem: rpc.BatchElem{Method: "eth_gasPrice", Result: &legacy}},
	}
	state := intent.ChainState{Balances: map[string]*big.Int{}}
	if len(q.Feeds) > 0 {
		state.Feeds = make(map[common.Address]intent.FeedRound, len(q.Feeds))
		state.FeedErrors = map[common.Address]error{}
	}
	for _, tok := range q.Tokens {
		calls = append(calls, r.balanceCall(tok, q.Holder))
	}
	if a := q.Allowance; a != nil {
		calls = append(calls, r.allowanceCall(a.Token, q.Holder, a.Spender))
	}
	if q.Contract != nil {
		calls = append(calls, codeCall(*q.Contract))
	}
	if q.Tx != nil {
		calls = append(calls, call{
			elem: rpc.BatchElem{Method: "eth_estimateGas", Args: []any{txArgs(q.Holder, *q.Tx)}, Result: &estimate},
			apply: func(st *intent.ChainState, err error) {
				if err != nil {
					st.EstimateError = err
					return
				}
				st.GasUnits = uint64(estimate) * (100 + r.opts.GasMarginPercent) / 100
			},
		})
	}
	for _, feed := range q.Feeds {
		calls = append(calls, r.feedCall(feed))
	}
	elems := make([]rpc.BatchElem, len(calls))
	for i := range calls {
		elems[i] = calls[i].elem
	}
	// The chain id is judged inside the round trip, so that a node of another chain counts
	// against the breaker like one that does not answer.
	var refused error
	err := node.Batch(ctx, elems, func() error {
		switch {
		case elems[0].Error != nil:
			refused = fmt.Errorf("the node of %s did not report its chain id: %w", chain.ID, elems[0].Error)
		case chain.NumericID == nil || chainID.ToInt().Cmp(chain.NumericID) != 0:
			refused = fmt.Errorf("%w: %s declares chain id %v, its node reports %v", ErrWrongChain, chain.ID, chain.NumericID, chainID.ToInt())
		}
		return refused
	})
	switch {
	case refused != nil:
		return intent.ChainState{}, refused
	case errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests):
		return intent.ChainState{}, err // the simulation's warning quotes it as it was
	case err != nil:
		return intent.ChainState{}, fmt.Errorf("the node of %s did not answer: %w", chain.ID, err)
	}
	state.GasPrice = gasPrice(elems[1].Error, head.BaseFee, elems[2].Error, &tip, elems[3].Error, &legacy)
	for i := 4; i < len(calls); i++ {
		calls[i].apply(&state, elems[i].Error)
	}
	return state, nil
}

// gasPrice is what a transaction sent now pays per gas: on an EIP-1559 chain the latest base fee
// plus the suggested priority fee, otherwise the node's legacy gas price; nil when neither came.
func gasPrice(headErr error, baseFee *hexutil.Big, tipErr error, tip *hexutil.Big, legacyErr error, legacy *hexutil.Big) *big.Int {
	if headErr == nil && baseFee != nil && tipErr == nil {
		return new(big.Int).Add(baseFee.ToInt(), tip.ToInt())
	}
	if legacyErr == nil {
		return new(big.Int).Set(legacy.ToInt())
	}
	return nil
}

// balanceCall reads holder's balance of tok: eth_getBalance for the native token, ERC-20
// balanceOf otherwise. A failed element leaves the balance unknown.
func (r *Reader) balanceCall(tok registry.Token, holder common.Address) call {
	_, address, _ := registry.SplitCAIP10(tok.Address)
	if common.HexToAddress(address) == common.HexToAddress(registry.NativeTokenAddress) {
		var balance hexutil.Big
		return call{
			elem: rpc.BatchElem{Method: "eth_getBalance", Args: []any{holder, "latest"}, Result: &balance},
			apply: func(st *intent.ChainState, err error) {
				if err == nil {
					st.Balances[tok.Address] = balance.ToInt()
				}
			},
		}
	}
	var out hexutil.Bytes
	to := common.HexToAddress(address)
	return call{
		elem: rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{"to": to, "data": hexutil.Bytes(r.token.PackBalanceOf(holder))}, "latest"}, Result: &out},
		apply: func(st *intent.ChainState, err error) {
			if err != nil {
				return
			}
			if balance, err := r.token.UnpackBalanceOf(out); err == nil {
				st.Balances[tok.Address] = balance
			}
		},
	}
}

// allowanceCall reads holder's ERC-20 allowance of tok toward spender; a failed element leaves it
// unknown.
func (r *Reader) allowanceCall(tok registry.Token, holder, spender common.Address) call {
	_, address, _ := registry.SplitCAIP10(tok.Address)
	var out hexutil.Bytes
	return call{
		elem: rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{
			"to": common.HexToAddress(address), "data": hexutil.Bytes(r.token.PackAllowance(holder, spender)),
		}, "latest"}, Result: &out},
		apply: func(st *intent.ChainState, err error) {
			if err != nil {
				return
			}
			if allowance, err := r.token.UnpackAllowance(out); err == nil {
				st.Allowance = allowance
			}
		},
	}
}

// feedCall reads an AggregatorV3's latestRoundData(); a failed element records why.
func (r *Reader) feedCall(feed common.Address) call {
	var out hexutil.Bytes
	return call{
		elem: rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{
			"to": feed, "data": hexutil.Bytes(r.feed.PackLatestRoundData()),
		}, "latest"}, Result: &out},
		apply: func(st *intent.ChainState, err error) {
			if err != nil {
				st.FeedErrors[feed] = fmt.Errorf("latestRoundData() failed: %w", err)
				return
			}
			round, err := r.feed.UnpackLatestRoundData(out)
			if err != nil {
				st.FeedErrors[feed] = fmt.Errorf("latestRoundData() answered %d bytes, not a round (is %s a price feed?)", len(out), feed.Hex())
				return
			}
			var updated time.Time
			if round.UpdatedAt.IsInt64() {
				updated = time.Unix(round.UpdatedAt.Int64(), 0)
			}
			st.Feeds[feed] = intent.FeedRound{Answer: round.Answer, UpdatedAt: updated}
		},
	}
}

// codeCall asks whether addr holds code; a failed element leaves it unknown (not missing).
func codeCall(addr common.Address) call {
	var code hexutil.Bytes
	return call{
		elem: rpc.BatchElem{Method: "eth_getCode", Args: []any{addr, "latest"}, Result: &code},
		apply: func(st *intent.ChainState, err error) {
			st.ContractMissing = err == nil && len(code) == 0
		},
	}
}

// txArgs are the eth_estimateGas arguments of tx sent by from.
func txArgs(from common.Address, tx intent.Tx) map[string]any {
	args := map[string]any{"from": from, "to": common.HexToAddress(tx.To)}
	if data := common.FromHex(tx.Data); len(data) > 0 {
		args["data"] = hexutil.Bytes(data)
	}
	if value, ok := new(big.Int).SetString(tx.Value, 10); ok && value.Sign() > 0 {
		args["value"] = (*hexutil.Big)(value)
	}
	return args
}
