// Package chainrpc reads live chain data from each chain's JSON-RPC node for the simulation:
// balances, fee data and the gas estimate of the exact transaction the service returns, in one
// batched round trip per simulation (intent.ChainData).
//
// A node is never on the request path without a bound: every batch has a deadline
// (Options.CallTimeout), and after Options.Failures failed batches in a row a chain's circuit
// breaker opens for Options.Cooldown, during which reads fail at once instead of paying the
// timeout again. The simulation then answers from the chain's static defaults with a warning.
// A node that reports another chain id than its Chain's CAIP-2 id is refused like a failed one.
//
// RPC URLs may carry a provider's credential (they come from a Secret): they are never logged,
// put in errors, metrics or status.
package chainrpc

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/sony/gobreaker/v2"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
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
	// Metrics receives the per-chain call counts and latencies; nil leaves them unregistered.
	Metrics prometheus.Registerer
}

// ErrWrongChain is returned when a node reports another chain id than its Chain declares.
var ErrWrongChain = errors.New("the node serves another chain")

// Reader implements intent.ChainData over JSON-RPC. A chain without an RPC URL is answered from
// its static defaults, like intent.StaticChainData.
type Reader struct {
	opts    Options
	metrics *metrics
	token   *contracts.TestToken // the ERC-20 ABI: balanceOf and allowance are standard

	mu    sync.Mutex
	nodes map[string]*node // by chain CAIP-2 id
}

// node is one chain's endpoint: its client and breaker, replaced when the URL changes.
type node struct {
	url     string
	client  *rpc.Client
	breaker *gobreaker.CircuitBreaker[intent.ChainState]
}

// New returns a reader with opts.
func New(opts Options) (*Reader, error) {
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.Failures == 0 {
		opts.Failures = DefaultFailures
	}
	if opts.Cooldown <= 0 {
		opts.Cooldown = DefaultCooldown
	}
	if opts.GasMarginPercent == 0 {
		opts.GasMarginPercent = DefaultGasMarginPercent
	}
	m, err := newMetrics(opts.Metrics)
	if err != nil {
		return nil, err
	}
	return &Reader{opts: opts, metrics: m, token: contracts.NewTestToken(), nodes: map[string]*node{}}, nil
}

// Read implements intent.ChainData: one batch to the chain's node, through its breaker.
func (r *Reader) Read(ctx context.Context, chain registry.Chain, q intent.ChainQuery) (intent.ChainState, error) {
	if chain.RPCURL == "" {
		return intent.ChainState{GasPrice: chain.DefaultGasPriceWei}, nil
	}
	n, err := r.node(ctx, chain)
	if err != nil {
		return intent.ChainState{}, err
	}
	return n.breaker.Execute(func() (intent.ChainState, error) {
		start := time.Now()
		state, err := r.read(ctx, n.client, chain, q)
		err = Redact(err, n.url)
		r.metrics.observe(chain.ID, time.Since(start), err)
		return state, err
	})
}

// node returns the chain's endpoint, dialling (which for HTTP only parses the URL) on first use
// and again when the Chain's URL changed.
func (r *Reader) node(ctx context.Context, chain registry.Chain) (*node, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := r.nodes[chain.ID]; n != nil && n.url == chain.RPCURL {
		return n, nil
	}
	// For http(s) dialling only parses the URL; a ws(s) URL connects, within the call deadline.
	dialCtx, cancel := context.WithTimeout(ctx, r.opts.CallTimeout)
	defer cancel()
	client, err := rpc.DialContext(dialCtx, chain.RPCURL)
	if err != nil {
		// The error could quote the URL, which may hold a credential.
		return nil, fmt.Errorf("connecting to the node of %s: the RPC URL is not usable", chain.ID)
	}
	if old := r.nodes[chain.ID]; old != nil {
		old.client.Close()
	}
	n := &node{url: chain.RPCURL, client: client, breaker: gobreaker.NewCircuitBreaker[intent.ChainState](gobreaker.Settings{
		Name:        chain.ID,
		MaxRequests: 1,
		Timeout:     r.opts.Cooldown,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= r.opts.Failures },
		// A request its client abandoned says nothing about the node.
		IsExcluded:    func(err error) bool { return errors.Is(err, context.Canceled) },
		OnStateChange: func(name string, _, to gobreaker.State) { r.metrics.breaker(name, to) },
	})}
	r.nodes[chain.ID] = n
	return n, nil
}

// call is one element of the batch and where its answer goes.
type call struct {
	elem  rpc.BatchElem
	apply func(*intent.ChainState, error)
}

// read sends every question of q, and the chain id, in one batch, within CallTimeout.
func (r *Reader) read(ctx context.Context, client *rpc.Client, chain registry.Chain, q intent.ChainQuery) (intent.ChainState, error) {
	ctx, cancel := context.WithTimeout(ctx, r.opts.CallTimeout)
	defer cancel()
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
	elems := make([]rpc.BatchElem, len(calls))
	for i := range calls {
		elems[i] = calls[i].elem
	}
	if err := client.BatchCallContext(ctx, elems); err != nil {
		return intent.ChainState{}, fmt.Errorf("the node of %s did not answer: %w", chain.ID, err)
	}
	if elems[0].Error != nil {
		return intent.ChainState{}, fmt.Errorf("the node of %s did not report its chain id: %w", chain.ID, elems[0].Error)
	}
	if chain.NumericID == nil || chainID.ToInt().Cmp(chain.NumericID) != 0 {
		return intent.ChainState{}, fmt.Errorf("%w: %s declares chain id %v, its node reports %v", ErrWrongChain, chain.ID, chain.NumericID, chainID.ToInt())
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

// redacted is an error whose message no longer quotes the node's URL (net/http's errors do, and
// the URL may hold a credential), wrapping the original so that errors.Is still sees through it.
type redacted struct {
	msg string
	err error
}

func (e redacted) Error() string { return e.msg }
func (e redacted) Unwrap() error { return e.err }

// Redact returns err with every occurrence of the node's URL replaced by <rpc url>; errors.Is
// still sees the original through it.
func Redact(err error, url string) error {
	if err == nil || url == "" || !strings.Contains(err.Error(), url) {
		return err
	}
	return redacted{msg: strings.ReplaceAll(err.Error(), url, "<rpc url>"), err: err}
}
