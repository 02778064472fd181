package chaindata

import (
	"context"
	"maps"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// snapshot is what every simulation on a chain asks alike, as of one block: the gas price (the
// block's base fee plus the priority fee, or the legacy price), the price feeds' rounds and
// whether contracts hold code. It is never changed once made: a newer answer is a new snapshot.
type snapshot struct {
	head      uint64
	headKnown bool
	gasPrice  *big.Int
	feeds     map[common.Address]feedAnswer
	missing   map[common.Address]bool // by contract: true when it holds no code
}

// feedAnswer is a feed's round, or why it could not be read.
type feedAnswer struct {
	round intent.FeedRound
	err   error
}

// covers says whether the snapshot answers every shared question of q.
func (s *snapshot) covers(q intent.ChainQuery) bool {
	for _, f := range q.Feeds {
		if _, ok := s.feeds[f]; !ok {
			return false
		}
	}
	if q.Contract != nil {
		if _, ok := s.missing[*q.Contract]; !ok {
			return false
		}
	}
	return true
}

// fill copies the snapshot's answers to q's shared questions into state.
func (s *snapshot) fill(state *intent.ChainState, q intent.ChainQuery) {
	if s.gasPrice != nil {
		state.GasPrice = new(big.Int).Set(s.gasPrice)
	}
	if len(q.Feeds) > 0 {
		state.Feeds = make(map[common.Address]intent.FeedRound, len(q.Feeds))
		state.FeedErrors = map[common.Address]error{}
	}
	for _, f := range q.Feeds {
		answer, ok := s.feeds[f]
		switch {
		case !ok:
		case answer.err != nil:
			state.FeedErrors[f] = answer.err
		default:
			state.Feeds[f] = answer.round
		}
	}
	if q.Contract != nil {
		state.ContractMissing = s.missing[*q.Contract]
	}
}

// merged is s with what other, read at the same block, answered besides.
func (s *snapshot) merged(other *snapshot) *snapshot {
	out := *s
	out.feeds = maps.Clone(s.feeds)
	maps.Copy(out.feeds, other.feeds)
	out.missing = maps.Clone(s.missing)
	maps.Copy(out.missing, other.missing)
	return &out
}

// readWithView answers q from the chain's view and one batch of what depends on q, when the view
// is fresh (verified within one block time) and covers q. When the view follows the head (its
// poller runs, or the chain watcher told it within one block time), the batch reads q's state at
// the view's block (readPinned). Otherwise the batch also asks the head: a view older than the
// head the node answered at is never used; the simulation then waits for the chain's one refresh
// at that head. A missing, stale or partial view makes the simulation read everything itself, as
// without a view, and offer what it read to the view.
func (r *Reader) readWithView(ctx context.Context, v *view, node *jsonrpc.Client, chain registry.Chain, q intent.ChainQuery) (intent.ChainState, error) {
	snap, checked, followed := v.usable(q, r.opts.Clock.Now(), blockTime(chain))
	if snap == nil {
		state, read, err := r.readAll(ctx, node, chain, q, !checked)
		if err == nil {
			v.offer(node, read, r.opts.Clock.Now())
		}
		return state, err
	}
	if followed {
		return r.readPinned(ctx, v, snap, node, chain, q, !checked)
	}
	state, head, err := r.readRequest(ctx, node, chain, q, !checked)
	if err != nil {
		return intent.ChainState{}, err
	}
	v.checked(node)
	if snap, err = v.atHead(ctx, snap, head, q); err != nil {
		return intent.ChainState{}, err
	}
	if snap == nil {
		state, _, err := r.readAll(ctx, node, chain, q, false)
		return state, err
	}
	snap.fill(&state, q)
	return state, nil
}

// readPinned answers q from snap and one batch of q's own state at snap's block, without asking
// the head: the view follows it for every simulation. Pinning the reads to the block keeps them
// consistent with the fees and prices of snap, which is at most one block time behind the node.
// The estimate is derived when a transaction of q's shape was measured at that block (estimate.go);
// the batch asks it when none of q's kind was, and a second round trip when q's own reads show
// another shape or a transaction that would not run. A read the node could not answer at the
// block (a provider's backend behind it) makes the simulation read everything at the head.
func (r *Reader) readPinned(ctx context.Context, v *view, snap *snapshot, node *jsonrpc.Client, chain registry.Chain, q intent.ChainQuery, checkID bool) (intent.ChainState, error) {
	block := hexutil.Uint64(snap.head)
	state := intent.ChainState{Balances: map[string]*big.Int{}}
	calls := r.requestCalls(&state, q, block)
	d := derivable(q)
	if d != nil && d.recipient != nil {
		calls = append(calls, r.balanceOfCall(tokenAddress(*d.asset), *d.recipient, block, func(b *big.Int) { d.recipientBalance = b }))
	}
	var units uint64
	asked := q.Tx != nil && (d == nil || !v.knows(snap.head, d))
	if asked {
		calls = append(calls, r.estimateCall(&state, q, block, &units))
	}
	if err := send(ctx, node, chain, calls, checkID); err != nil {
		return intent.ChainState{}, err
	}
	v.checked(node)
	if !answered(state, q) {
		state, _, err := r.readAll(ctx, node, chain, q, false)
		return state, err
	}
	usual := d != nil && d.complete(state, q)
	if !asked && q.Tx != nil {
		if gas, ok := v.derive(snap.head, d, usual); ok {
			state.GasUnits = r.withMargin(gas)
		} else if err := send(ctx, node, chain, []call{r.estimateCall(&state, q, block, &units)}, false); err != nil {
			return intent.ChainState{}, err
		}
	}
	if usual && units > 0 {
		v.learn(snap.head, d, units)
	}
	snap.fill(&state, q)
	return state, nil
}

// answered says whether the node answered every read of q's own state.
func answered(state intent.ChainState, q intent.ChainQuery) bool {
	for _, tok := range q.Tokens {
		if state.Balances[tok.Address] == nil {
			return false
		}
	}
	return q.Allowance == nil || state.Allowance != nil
}

// atHead is a snapshot of head or newer that covers q: snap itself, or else the chain's refresh.
// It is nil when there is none to trust: the node did not say its head (0), the refresh was
// answered from behind it (a load-balanced provider), or began before q's feeds were wanted.
func (v *view) atHead(ctx context.Context, snap *snapshot, head uint64, q intent.ChainQuery) (*snapshot, error) {
	if head == 0 {
		return nil, nil
	}
	if head > snap.head {
		fresh, err := v.refresh(ctx, head, q)
		if err != nil {
			return nil, err
		}
		if fresh.head < head || !fresh.covers(q) {
			return nil, nil
		}
		snap = fresh
	}
	v.seen(head, v.vs.opts.Clock.Now())
	return snap, nil
}

// blockTime is how old a view may be: one block of the chain.
func blockTime(chain registry.Chain) time.Duration {
	return time.Duration(max(chain.BlockTimeSeconds, 1)) * time.Second
}

// pollInterval is how often a chain in demand is asked for its head: by default half its block
// time, between 250ms and 5s, as the chain watcher polls.
func (vs *views) pollInterval(chain registry.Chain) time.Duration {
	if vs.opts.ViewPoll != 0 {
		return vs.opts.ViewPoll
	}
	return min(max(blockTime(chain)/2, 250*time.Millisecond), 5*time.Second)
}

// readSharedFunc reads a chain's shared answers (Reader.readShared).
type readSharedFunc func(ctx context.Context, node *jsonrpc.Client, chain registry.Chain, feeds, contracts []common.Address, checkID bool) (*snapshot, error)

// views are the chains' views. Each follows its chain's head while simulations come (polling
// eth_blockNumber, or told by the chain watcher through ObserveHead) and stops after
// Options.ViewIdle without one, so an unused chain costs its node nothing.
type views struct {
	opts       Options
	readShared readSharedFunc
	ctx        context.Context // ends with close: the pollers and refreshes stop
	cancel     context.CancelFunc

	mu      sync.Mutex
	byChain map[string]*view
}

func newViews(opts Options, read readSharedFunc) *views {
	ctx, cancel := context.WithCancel(context.Background())
	return &views{opts: opts, readShared: read, ctx: ctx, cancel: cancel, byChain: map[string]*view{}}
}

func (vs *views) close() { vs.cancel() }

func (vs *views) closed() bool { return vs.ctx.Err() != nil }

// view is one chain's shared answers and what keeps them current.
type view struct {
	vs *views

	mu       sync.Mutex
	chain    registry.Chain  // the latest row a simulation used
	node     *jsonrpc.Client // the client the view reads through
	idOK     bool            // node's chain id was checked (once per client: on connect)
	snap     *snapshot
	verified time.Time // when the node last said snap's block is its head (or older)
	lastUse  time.Time
	fedAt    time.Time // when the watcher last told the head
	polling  bool
	flight   *flight
	measured estimates // the node's estimates of transactions of a shape, at the view's latest block
	// wanted are the feeds and contracts simulations asked about, with when they last did: a
	// refresh reads those asked within ViewIdle.
	feeds, contracts map[common.Address]time.Time
}

// use is the chain's view, as a simulation of q through node finds it; it notes the demand and
// q's shared questions, and starts following the head.
func (vs *views) use(chain registry.Chain, node *jsonrpc.Client, q intent.ChainQuery) *view {
	vs.mu.Lock()
	v := vs.byChain[chain.ID]
	if v == nil {
		v = &view{vs: vs, feeds: map[common.Address]time.Time{}, contracts: map[common.Address]time.Time{}}
		vs.byChain[chain.ID] = v
	}
	vs.mu.Unlock()
	now := vs.opts.Clock.Now()
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.node != node { // a new URL: another node, whose chain id is not checked yet
		v.node, v.idOK, v.snap, v.measured = node, false, nil, estimates{}
	}
	v.chain, v.lastUse = chain, now
	for _, f := range q.Feeds {
		v.feeds[f] = now
	}
	for _, c := range contractsOf(q) {
		v.contracts[c] = now
	}
	if !v.polling && vs.opts.ViewPoll >= 0 {
		v.polling = true
		go vs.follow(v)
	}
	return v
}

// usable is the snapshot a simulation of q may start from (nil: read everything), whether the
// view's node has had its chain id checked, and whether the view follows the head by itself (its
// poller runs, or the chain watcher told the head within maxAge).
func (v *view) usable(q intent.ChainQuery, now time.Time, maxAge time.Duration) (snap *snapshot, checked, followed bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	followed = v.polling || now.Sub(v.fedAt) <= maxAge
	if v.snap == nil || now.Sub(v.verified) > maxAge || !v.snap.covers(q) {
		return nil, v.idOK, followed
	}
	return v.snap, v.idOK, followed
}

// knows says whether a transaction of d's kind was measured at block.
func (v *view) knows(block uint64, d *derivation) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.measured.knows(block, d)
}

// derive is d's estimate at block from those measured, when d is usual and one of its shape was.
func (v *view) derive(block uint64, d *derivation, usual bool) (uint64, bool) {
	if !usual {
		return 0, false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.measured.derive(block, d)
}

// learn records the node's estimate units of d's transaction at block.
func (v *view) learn(block uint64, d *derivation, units uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.measured.learn(block, d, units)
}

// checked records that node's chain id was checked.
func (v *view) checked(node *jsonrpc.Client) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.node == node {
		v.idOK = true
	}
}

// offer installs s, read through node just now, when it is newer than the view (merged with the
// view when of the same block).
func (v *view) offer(node *jsonrpc.Client, s *snapshot, now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.node != node {
		return
	}
	v.idOK = true
	if s == nil || !s.headKnown {
		return
	}
	switch {
	case v.snap == nil || s.head > v.snap.head:
		v.snap = s
	case s.head == v.snap.head:
		v.snap = v.snap.merged(s)
	default:
		return
	}
	v.verified = now
}

// seen records that the node's head was head at now: the view stays fresh while it is not older.
// It reports whether the view is older.
func (v *view) seen(head uint64, now time.Time) (behind bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.snap == nil || head > v.snap.head {
		return true
	}
	v.verified = now
	return false
}

// flight is one refresh under way; every simulation that needs it waits for the same one.
type flight struct {
	done chan struct{}
	snap *snapshot
	err  error
}

// refresh is the view at head or newer: the one the view holds, else the chain's refresh, which
// it starts unless one is under way. A burst of simulations at a new head so costs the node one
// read of the shared answers, not one each. The refresh runs apart from ctx (a caller that gives
// up does not fail the others), within the reader's call deadline.
func (v *view) refresh(ctx context.Context, head uint64, q intent.ChainQuery) (*snapshot, error) {
	v.mu.Lock()
	snap := v.snap
	v.mu.Unlock()
	if snap != nil && snap.head >= head && snap.covers(q) {
		return snap, nil // refreshed since this simulation looked
	}
	f := v.startRefresh()
	select {
	case <-f.done:
		return f.snap, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// startRefresh returns the refresh under way, or starts one.
func (v *view) startRefresh() *flight {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.flight != nil {
		return v.flight
	}
	f := &flight{done: make(chan struct{})}
	v.flight = f
	node, chain, checkID := v.node, v.chain, !v.idOK
	feeds, contracts := v.wanted(v.vs.opts.Clock.Now())
	go func() {
		f.snap, f.err = v.vs.readShared(v.vs.ctx, node, chain, feeds, contracts, checkID)
		if f.err == nil {
			v.offer(node, f.snap, v.vs.opts.Clock.Now())
		}
		v.mu.Lock()
		v.flight = nil
		v.mu.Unlock()
		close(f.done)
	}()
	return f
}

// wanted are the feeds and contracts asked about within ViewIdle of now; the others are
// forgotten (a token or chain that was reconfigured). Call with v.mu held.
func (v *view) wanted(now time.Time) (feeds, contracts []common.Address) {
	keep := func(set map[common.Address]time.Time) []common.Address {
		var out []common.Address
		for addr, at := range set {
			if now.Sub(at) > v.vs.opts.ViewIdle {
				delete(set, addr)
				continue
			}
			out = append(out, addr)
		}
		return out
	}
	return keep(v.feeds), keep(v.contracts)
}

// follow polls the chain's head while simulations come, and refreshes the view when the head
// moved. A failed poll changes nothing: the view ages, and simulations read for themselves after
// one block time.
func (vs *views) follow(v *view) {
	for {
		v.mu.Lock()
		interval := vs.pollInterval(v.chain)
		v.mu.Unlock()
		timer := time.NewTimer(interval)
		select {
		case <-vs.ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
		now := vs.opts.Clock.Now()
		v.mu.Lock()
		if now.Sub(v.lastUse) > vs.opts.ViewIdle {
			v.polling = false
			v.mu.Unlock()
			return
		}
		fed, node := now.Sub(v.fedAt) < interval, v.node
		v.mu.Unlock()
		if fed {
			continue
		}
		if head, err := node.Head(vs.ctx); err == nil {
			v.observe(head, now)
		}
	}
}

// observe handles news of the head: the view stays fresh, or is refreshed in the background.
func (v *view) observe(head uint64, now time.Time) {
	if v.seen(head, now) {
		v.startRefresh()
	}
}

// ObserveHead tells the reader that chain's head is head (the chain watcher follows it anyway):
// the view of a chain in demand is refreshed at once, and its own polling rests.
func (r *Reader) ObserveHead(chain string, head uint64) {
	if r.views == nil {
		return
	}
	r.views.mu.Lock()
	v := r.views.byChain[chain]
	r.views.mu.Unlock()
	if v == nil {
		return
	}
	now := r.opts.Clock.Now()
	v.mu.Lock()
	idle := now.Sub(v.lastUse) > r.opts.ViewIdle
	if !idle {
		v.fedAt = now
	}
	v.mu.Unlock()
	if !idle {
		v.observe(head, now)
	}
}
