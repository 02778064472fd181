// Package chaindata reads live chain data from each chain's node for the simulation: balances,
// fee data and the gas estimate of the exact transaction the service returns, in one batched
// round trip per simulation (intent.ChainData), through the chain's jsonrpc client.
//
// What every simulation on a chain asks alike at a block (the fees, the price feeds' rounds, the
// settlement contract's code) is read once per block into the chain's view (view.go), and the
// chain id once per connection; a simulation's batch then holds its balances and allowance, read
// at the view's block while the view follows the head (else with the head, so that it never uses
// a view older than the head its batch was answered at), and its estimate unless one of its shape
// was measured at that block (estimate.go). It never uses a view not confirmed current within one
// block time: then it reads everything itself.
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
	"k8s.io/utils/clock"

	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/reverts"
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
	DefaultViewIdle         = 10 * time.Second
)

// NodeIdleConns is how many idle connections to one node the reader keeps.
const NodeIdleConns = 64

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
	// DisableView makes every simulation read everything itself, the shared answers included,
	// as before the chains' views (the baseline BenchmarkChainView compares with).
	DisableView bool
	// LegacyTransport reaches the nodes as before (the baseline BenchmarkChainView compares
	// with): answers gzipped and 2 idle connections a node. By default the reader asks for plain
	// answers, a simulation's being a few hundred bytes that cost the node and the reader more to
	// compress and decompress than they save on the wire, and keeps NodeIdleConns connections to
	// each node for simulations at once.
	LegacyTransport bool
	// ViewPoll is how often a chain in demand is asked for its head (eth_blockNumber) to keep its
	// view current; by default half its block time, between 250ms and 5s. Negative: never; the
	// view then learns of new heads from simulations and ObserveHead only.
	ViewPoll time.Duration
	// ViewIdle is how long after its last simulation a chain's view keeps following the head,
	// and a feed or contract no simulation asked about stays in its refreshes.
	ViewIdle time.Duration
	// Clock tells a view's age; the real clock when nil.
	Clock clock.PassiveClock
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
	views *views                   // nil with Options.DisableView
}

// New returns a reader with opts. Close it to stop following the heads of its chains.
func New(opts Options) (*Reader, error) {
	defaults.Positive(&opts.CallTimeout, DefaultCallTimeout)
	defaults.Positive(&opts.Failures, DefaultFailures)
	defaults.Positive(&opts.Cooldown, DefaultCooldown)
	defaults.Positive(&opts.GasMarginPercent, DefaultGasMarginPercent)
	defaults.Positive(&opts.ViewIdle, DefaultViewIdle)
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	nodeOpts := jsonrpc.Options{
		Caller: Caller, Timeout: opts.CallTimeout, Failures: opts.Failures, Cooldown: opts.Cooldown, Metrics: opts.Metrics,
	}
	if !opts.LegacyTransport {
		nodeOpts.Uncompressed, nodeOpts.IdleConns = true, NodeIdleConns
	}
	nodes := jsonrpc.NewPool(nodeOpts)
	r := &Reader{opts: opts, nodes: nodes, token: contracts.NewTestToken(), feed: contracts.NewTestPriceFeed()}
	if !opts.DisableView {
		r.views = newViews(opts, r.readShared)
	}
	return r, nil
}

// Close stops following heads; reads still work, each reading everything itself.
func (r *Reader) Close() {
	if r.views != nil {
		r.views.close()
	}
}

// Read implements intent.ChainData: one batch to the chain's node, through its breaker. With the
// chain's view fresh, the batch holds only what depends on q.
func (r *Reader) Read(ctx context.Context, chain registry.Chain, q intent.ChainQuery) (intent.ChainState, error) {
	if chain.RPCURL == "" {
		return intent.ChainState{GasPrice: chain.DefaultGasPriceWei}, nil
	}
	node, err := r.nodes.Client(ctx, chain.ID, chain.RPCURL)
	if err != nil {
		return intent.ChainState{}, fmt.Errorf("connecting to the node of %s: %w", chain.ID, err)
	}
	if r.views == nil || r.views.closed() {
		state, _, err := r.readAll(ctx, node, chain, q, true)
		return state, err
	}
	return r.readWithView(ctx, r.views.use(chain, node, q), node, chain, q)
}

// call is one element of the batch and where its answer goes.
type call struct {
	elem  rpc.BatchElem
	apply func(error)
}

// readAll sends every question of q in one batch, the chain id first when checkID: balances,
// allowance, code, the estimate, the fees and each price feed's latestRoundData() are elements of
// the same round trip. The shared part of the answer comes back as a snapshot too.
func (r *Reader) readAll(ctx context.Context, node *jsonrpc.Client, chain registry.Chain, q intent.ChainQuery, checkID bool) (intent.ChainState, *snapshot, error) {
	state := intent.ChainState{Balances: map[string]*big.Int{}}
	shared, finish := r.sharedCalls(q.Feeds, contractsOf(q))
	calls := append(shared, r.requestCalls(&state, q, latest)...)
	if q.Tx != nil {
		calls = append(calls, r.estimateCall(&state, q, latest, nil))
	}
	if err := send(ctx, node, chain, calls, checkID); err != nil {
		return intent.ChainState{}, nil, err
	}
	snap := finish()
	snap.fill(&state, q)
	return state, snap, nil
}

// readRequest sends only what depends on q, and the number of the head the node answers it at.
// head is 0 when the node did not say.
func (r *Reader) readRequest(ctx context.Context, node *jsonrpc.Client, chain registry.Chain, q intent.ChainQuery, checkID bool) (intent.ChainState, uint64, error) {
	state := intent.ChainState{Balances: map[string]*big.Int{}}
	var head hexutil.Uint64
	headKnown := false
	calls := append([]call{{
		elem:  rpc.BatchElem{Method: "eth_blockNumber", Result: &head},
		apply: func(err error) { headKnown = err == nil },
	}}, r.requestCalls(&state, q, latest)...)
	if q.Tx != nil {
		calls = append(calls, r.estimateCall(&state, q, latest, nil))
	}
	if err := send(ctx, node, chain, calls, checkID); err != nil {
		return intent.ChainState{}, 0, err
	}
	if !headKnown {
		return state, 0, nil
	}
	return state, uint64(head), nil
}

// readShared reads what every simulation on the chain asks alike: the view's refresh.
func (r *Reader) readShared(ctx context.Context, node *jsonrpc.Client, chain registry.Chain, feeds, contracts []common.Address, checkID bool) (*snapshot, error) {
	shared, finish := r.sharedCalls(feeds, contracts)
	if err := send(ctx, node, chain, shared, checkID); err != nil {
		return nil, err
	}
	snap := finish()
	if !snap.headKnown {
		return nil, fmt.Errorf("the node of %s did not report its latest block", chain.ID)
	}
	return snap, nil
}

// send sends calls in one batch through node's breaker and applies each answer; with checkID the
// chain id is asked first and judged inside the round trip, so that a node of another chain
// counts against the breaker like one that does not answer.
func send(ctx context.Context, node *jsonrpc.Client, chain registry.Chain, calls []call, checkID bool) error {
	var chainID hexutil.Big
	if checkID {
		calls = append([]call{{elem: rpc.BatchElem{Method: "eth_chainId", Result: &chainID}}}, calls...)
	}
	elems := make([]rpc.BatchElem, len(calls))
	for i := range calls {
		elems[i] = calls[i].elem
	}
	var refused error
	err := node.Batch(ctx, elems, func() error {
		if checkID {
			refused = judgeChainID(chain, elems[0].Error, chainID.ToInt())
		}
		return refused
	})
	switch {
	case refused != nil:
		return refused
	case errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests):
		return err // the simulation's warning quotes it as it was
	case err != nil:
		return fmt.Errorf("the node of %s did not answer: %w", chain.ID, err)
	}
	for i := range calls {
		if calls[i].apply != nil {
			calls[i].apply(elems[i].Error)
		}
	}
	return nil
}

// judgeChainID refuses a node that did not say its chain id or serves another chain.
func judgeChainID(chain registry.Chain, err error, reported *big.Int) error {
	switch {
	case err != nil:
		return fmt.Errorf("the node of %s did not report its chain id: %w", chain.ID, err)
	case chain.NumericID == nil || reported.Cmp(chain.NumericID) != 0:
		return fmt.Errorf("%w: %s declares chain id %v, its node reports %v", ErrWrongChain, chain.ID, chain.NumericID, reported)
	}
	return nil
}

// latest is the block parameter of a read at the node's head.
const latest = "latest"

// requestCalls are the questions about the request's own state at block: the holder's balances
// and allowance.
func (r *Reader) requestCalls(state *intent.ChainState, q intent.ChainQuery, block any) []call {
	var calls []call
	for _, tok := range q.Tokens {
		calls = append(calls, r.balanceCall(state, tok, q.Holder, block))
	}
	if a := q.Allowance; a != nil {
		calls = append(calls, r.allowanceCall(state, a.Token, q.Holder, a.Spender, block))
	}
	return calls
}

// estimateCall asks the node's estimate of q's transaction at block (at its head when latest,
// which some providers take as a parameter they do not know), and puts it with the margin into
// state; units, when not nil, receives the estimate itself.
func (r *Reader) estimateCall(state *intent.ChainState, q intent.ChainQuery, block any, units *uint64) call {
	var estimate hexutil.Uint64
	args := []any{txArgs(q.Holder, *q.Tx)}
	if block != latest {
		args = append(args, block)
	}
	return call{
		elem: rpc.BatchElem{Method: "eth_estimateGas", Args: args, Result: &estimate},
		apply: func(err error) {
			if err != nil {
				state.EstimateError = namedRevert(err)
				return
			}
			state.GasUnits = r.withMargin(uint64(estimate))
			if units != nil {
				*units = uint64(estimate)
			}
		},
	}
}

// withMargin is the gas limit of a transaction estimated at units: Options.GasMarginPercent more.
func (r *Reader) withMargin(units uint64) uint64 {
	return units * (100 + r.opts.GasMarginPercent) / 100
}

// sharedCalls are the questions every simulation on the chain asks alike at a block: the latest
// block (its number and base fee), the priority fee, the legacy gas price, the feeds' rounds and
// whether the contracts hold code. finish turns the answers into a snapshot.
func (r *Reader) sharedCalls(feeds, contracts []common.Address) ([]call, func() *snapshot) {
	var (
		head struct {
			Number  *hexutil.Uint64 `json:"number"`
			BaseFee *hexutil.Big    `json:"baseFeePerGas"`
		}
		tip, legacy                hexutil.Big
		headErr, tipErr, legacyErr error
	)
	snap := &snapshot{feeds: make(map[common.Address]feedAnswer, len(feeds)), missing: make(map[common.Address]bool, len(contracts))}
	calls := []call{
		{elem: rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{latest, false}, Result: &head}, apply: func(err error) { headErr = err }},
		{elem: rpc.BatchElem{Method: "eth_maxPriorityFeePerGas", Result: &tip}, apply: func(err error) { tipErr = err }},
		{elem: rpc.BatchElem{Method: "eth_gasPrice", Result: &legacy}, apply: func(err error) { legacyErr = err }},
	}
	for _, feed := range feeds {
		calls = append(calls, r.feedCall(snap, feed))
	}
	for _, addr := range contracts {
		calls = append(calls, codeCall(snap, addr))
	}
	return calls, func() *snapshot {
		snap.gasPrice = gasPrice(headErr, head.BaseFee, tipErr, &tip, legacyErr, &legacy)
		if headErr == nil && head.Number != nil {
			snap.head, snap.headKnown = uint64(*head.Number), true
		}
		return snap
	}
}

// contractsOf are the contracts q asks about.
func contractsOf(q intent.ChainQuery) []common.Address {
	if q.Contract == nil {
		return nil
	}
	return []common.Address{*q.Contract}
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
func (r *Reader) balanceCall(st *intent.ChainState, tok registry.Token, holder common.Address, block any) call {
	to := tokenAddress(tok)
	if to == common.HexToAddress(registry.NativeTokenAddress) {
		var balance hexutil.Big
		return call{
			elem: rpc.BatchElem{Method: "eth_getBalance", Args: []any{holder, block}, Result: &balance},
			apply: func(err error) {
				if err == nil {
					st.Balances[tok.Address] = balance.ToInt()
				}
			},
		}
	}
	return r.balanceOfCall(to, holder, block, func(balance *big.Int) { st.Balances[tok.Address] = balance })
}

// balanceOfCall reads holder's ERC-20 balance of token into set; a failed element sets nothing.
func (r *Reader) balanceOfCall(token, holder common.Address, block any, set func(*big.Int)) call {
	var out hexutil.Bytes
	return call{
		elem: rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{"to": token, "data": hexutil.Bytes(r.token.PackBalanceOf(holder))}, block}, Result: &out},
		apply: func(err error) {
			if err != nil {
				return
			}
			if balance, err := r.token.UnpackBalanceOf(out); err == nil {
				set(balance)
			}
		},
	}
}

// allowanceCall reads holder's ERC-20 allowance of tok toward spender; a failed element leaves it
// unknown.
func (r *Reader) allowanceCall(st *intent.ChainState, tok registry.Token, holder, spender common.Address, block any) call {
	var out hexutil.Bytes
	return call{
		elem: rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{
			"to": tokenAddress(tok), "data": hexutil.Bytes(r.token.PackAllowance(holder, spender)),
		}, block}, Result: &out},
		apply: func(err error) {
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
func (r *Reader) feedCall(snap *snapshot, feed common.Address) call {
	var out hexutil.Bytes
	return call{
		elem: rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{
			"to": feed, "data": hexutil.Bytes(r.feed.PackLatestRoundData()),
		}, latest}, Result: &out},
		apply: func(err error) {
			if err != nil {
				snap.feeds[feed] = feedAnswer{err: fmt.Errorf("latestRoundData() failed: %w", err)}
				return
			}
			round, err := r.feed.UnpackLatestRoundData(out)
			if err != nil {
				snap.feeds[feed] = feedAnswer{err: fmt.Errorf("latestRoundData() answered %d bytes, not a round (is %s a price feed?)", len(out), feed.Hex())}
				return
			}
			var updated time.Time
			if round.UpdatedAt.IsInt64() {
				updated = time.Unix(round.UpdatedAt.Int64(), 0)
			}
			snap.feeds[feed] = feedAnswer{round: intent.FeedRound{Answer: round.Answer, UpdatedAt: updated}}
		},
	}
}

// codeCall asks whether addr holds code; a failed element leaves it unknown (not missing).
func codeCall(snap *snapshot, addr common.Address) call {
	var code hexutil.Bytes
	return call{
		elem: rpc.BatchElem{Method: "eth_getCode", Args: []any{addr, latest}, Result: &code},
		apply: func(err error) {
			snap.missing[addr] = err == nil && len(code) == 0
		},
	}
}

// namedRevert is a node's refusal to estimate with the error its revert data names
// (internal/chain/reverts), so that the simulation's warning says ERC20InsufficientBalance(...)
// rather than a selector; err as it is when it carries no revert data.
func namedRevert(err error) error {
	data, ok := jsonrpc.RevertData(err)
	if !ok || len(data) < 4 {
		return err
	}
	return fmt.Errorf("%w: %s", err, reverts.Decode(data))
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
