package watcher

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/reverts"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// follower follows one chain: it matches each new block's transactions to the chain's pending
// intents, then reads the receipts of its submitted intents to confirm, fail or drop them. It is
// driven by step; it is not safe for concurrent use.
type follower struct {
	chain     registry.Chain
	chainID   uint64
	namespace string
	node      *jsonrpc.Client
	index     *Index
	writer    *intentstatus.Writer
	signer    types.Signer
	opts      Options
	log       logr.Logger
	metrics   *metrics

	// cursor is the last block processed; placed says the first step has set it.
	cursor uint64
	placed bool
	// recent holds the last processed blocks, to notice a reorg (a new block whose parent is not
	// the block processed at its height) and to read again the blocks processed before an intent
	// reached the index (rereadForLate).
	recent map[uint64]processedBlock
	// last is the cursor's block, recorded as progress.
	last jsonrpc.Header
	// recorded is when progress was last written; dirty says a step moved the cursor since.
	recorded time.Time
	dirty    bool
	// misses counts, per submitted intent reported without a block, the steps in a row its
	// transaction was unknown to the node.
	misses map[string]int
	// finality is the node's finalized block, read at most once per step (when a bridge needs it).
	finality finalityView
	// witnesses are the chain's other endpoints, which must agree with the node on a bridge fill
	// before it is attested; chains is the live chain table, for the settlement contracts' checks.
	witnesses []*witness
	chains    *registry.ChainTable
	// reported holds, per fill not attested yet, the reason last logged and counted, so that a fill
	// waiting step after step is reported once per reason.
	reported map[common.Hash]string
	// refundBlocks holds the block of each recorded refund this follower saw, to tell a refund
	// whose block left the chain from one whose receipt the node has not indexed yet.
	refundBlocks map[common.Hash]blockRef
	// cancelsRead is, per cancelling intent, the final block at which its hard cancel was last
	// read and not found: it is read again only at a newer final block (followCancels).
	cancelsRead map[string]uint64
	// rereadTo is the highest block read again for late intents: blocks up to it are not counted
	// twice in the block metrics.
	rereadTo uint64
	// now stamps the blocks' processing; time.Now when nil (tests move it).
	now func() time.Time
}

func newFollower(chain registry.Chain, namespace string, node *jsonrpc.Client, index *Index, writer *intentstatus.Writer, opts Options, log logr.Logger, m *metrics) *follower {
	m.follow(chain.ID)
	return &follower{
		chain: chain, chainID: chain.NumericID.Uint64(), namespace: namespace, node: node, index: index, writer: writer,
		signer: types.LatestSignerForChainID(chain.NumericID), opts: opts, log: log, metrics: m,
		recent: map[uint64]processedBlock{}, misses: map[string]int{}, reported: map[common.Hash]string{},
		refundBlocks: map[common.Hash]blockRef{},
	}
}

// close closes the connections to the node and the witnesses.
func (f *follower) close() {
	f.node.Close()
	for _, w := range f.witnesses {
		w.Close()
	}
}

// confirmations is how deep a block must be for its transactions to be final on this chain: the
// chain's finality in blocks, at least 1 (the block that holds the transaction).
func confirmations(c registry.Chain) uint64 {
	if c.BlockTimeSeconds <= 0 {
		return 1
	}
	return max(1, uint64((c.FinalitySeconds+c.BlockTimeSeconds-1)/c.BlockTimeSeconds)) //nolint:gosec // both are validated positive
}

// lookbackBlocks is how many blocks before the head a watcher with no usable progress starts at.
func lookbackBlocks(c registry.Chain, lookback time.Duration) uint64 {
	bt := max(c.BlockTimeSeconds, 1)
	return uint64(lookback / (time.Duration(bt) * time.Second)) //nolint:gosec // a positive duration
}

// step processes the blocks the node has beyond the cursor (at most Options.MaxBlocksPerStep),
// then the receipts of the submitted intents, and records progress when it is due. It reports
// whether the follower is still behind the head.
func (f *follower) step(ctx context.Context) (behind bool, err error) {
	head, err := f.node.Head(ctx)
	if err != nil {
		return false, err
	}
	if f.opts.Heads != nil {
		f.opts.Heads(f.chain.ID, head)
	}
	f.finality = finalityView{}
	if !f.placed {
		f.start(head, nil)
	}
	f.rereadForLate()
	processed := uint64(0)
	for f.cursor < head && processed < f.opts.MaxBlocksPerStep {
		last := min(head, f.cursor+min(f.opts.BlocksPerBatch, f.opts.MaxBlocksPerStep-processed))
		blocks, err := f.node.Blocks(ctx, f.cursor+1, last)
		if err != nil {
			return false, err
		}
		if len(blocks) == 0 {
			break
		}
		logs, err := f.settlementLogs(ctx, blocks)
		if err != nil {
			return false, err
		}
		n, err := f.process(ctx, blocks, logs)
		processed += n
		if err != nil {
			return false, err
		}
	}
	if err := f.followSubmitted(ctx, head); err != nil {
		return false, err
	}
	if err := f.followFills(ctx, head); err != nil {
		return false, err
	}
	if err := f.followRefunds(ctx, head); err != nil {
		return false, err
	}
	if err := f.followCancels(ctx, head); err != nil {
		return false, err
	}
	f.metrics.observeHead(f.chain.ID, head, f.cursor)
	return f.cursor < head, f.recordProgress(ctx, false)
}

// start places the cursor: at the recorded progress, unless it is older than the look-back (then
// the look-back bounds the catch-up), or at the look-back when nothing was recorded.
func (f *follower) start(head uint64, progress *v1alpha1.ChainWatchStatus) {
	back := lookbackBlocks(f.chain, f.opts.Lookback)
	floor := uint64(0)
	if head > back {
		floor = head - back
	}
	f.cursor, f.placed = floor, true
	if progress != nil && progress.ProcessedBlock > 0 && uint64(progress.ProcessedBlock) >= floor && uint64(progress.ProcessedBlock) <= head {
		f.cursor = uint64(progress.ProcessedBlock)
		f.recent[f.cursor] = processedBlock{hash: common.HexToHash(progress.ProcessedBlockHash)}
	}
	f.log.Info("following the chain", "from", f.cursor+1, "head", head, "confirmations", confirmations(f.chain))
}

// process matches the blocks in order. A block whose parent is not the one processed at its
// height means a reorg: the cursor steps back to the fork point and the rest is read again.
func (f *follower) process(ctx context.Context, blocks []jsonrpc.Block, logs map[uint64][]types.Log) (uint64, error) {
	done := uint64(0)
	for _, b := range blocks {
		if want, ok := f.recent[b.Number-1]; ok && b.Number > 0 && b.ParentHash != want.hash {
			before := f.cursor
			if err := f.rewind(ctx); err != nil {
				return done, err
			}
			if f.cursor == before {
				// The node says block n-1 is the one processed, yet block n builds on another: nodes
				// behind one URL that disagree. Back off rather than spin.
				return done, fmt.Errorf("block %d does not build on block %d (%s) the node reported before", b.Number, before, want.hash.Hex())
			}
			return done, nil
		}
		// Stamped before the index is read: an intent that reaches the index after this instant
		// was not matched against the block, and the block is read again for it (rereadForLate).
		matchedAt, start := f.clock(), time.Now()
		for _, m := range f.index.Match(f.chainID, f.signer, b.Time, b.Txs) {
			if err := f.submit(ctx, m, b); err != nil {
				return done, err
			}
		}
		if err := f.orderEvents(ctx, b, logs[b.Number]); err != nil {
			return done, err
		}
		if b.Number > f.rereadTo {
			f.metrics.observeBlock(f.chain.ID, time.Since(start), len(b.Txs))
		}
		f.advance(jsonrpc.Header{Number: b.Number, Hash: b.Hash, Time: b.Time}, matchedAt)
		done++
	}
	return done, nil
}

// advance moves the cursor to h, matched at at, keeping the hashes of the last blocks that a reorg
// could replace. A block read again keeps the time it was first matched: it existed by then, so
// an intent created later than that (and the skew) cannot be in it, and the next arrival does not
// read it again.
func (f *follower) advance(h jsonrpc.Header, at time.Time) {
	f.cursor, f.last, f.dirty = h.Number, h, true
	if prev, ok := f.recent[h.Number]; ok && prev.hash == h.Hash && !prev.at.IsZero() {
		at = prev.at
	}
	f.recent[h.Number] = processedBlock{hash: h.Hash, at: at}
	keep := confirmations(f.chain) + reorgMargin
	if h.Number > keep {
		delete(f.recent, h.Number-keep)
	}
}

// processedBlock is a block the follower processed: its hash, and when (zero: before this
// follower, read from the recorded progress).
type processedBlock struct {
	hash common.Hash
	at   time.Time
}

// rereadForLate steps the cursor back to the first block processed while an intent that arrived
// in the index since could already have been in it: the informer delivers an intent some time
// after it is stored, and its client may send the transaction at once. Those blocks are matched
// again on the way forward; matching a block twice changes nothing (a held transaction is not
// matched again). Only the blocks the follower remembers can be read again: an intent that
// arrives later than that (confirmations + reorgMargin blocks) is still found when its client
// reports the transaction's hash.
func (f *follower) rereadForLate() {
	span, ok := f.index.Late(f.chainID)
	if !ok {
		return
	}
	first := uint64(0)
	for n, b := range f.recent {
		// A zero time is the recorded progress of an earlier follower: not matched by this one.
		if n <= f.cursor && !b.at.IsZero() && !b.at.Before(span.From) && !b.at.After(span.Until) && (first == 0 || n < first) {
			first = n
		}
	}
	if first == 0 {
		return
	}
	f.log.V(1).Info("reading blocks again for intents that reached the watcher after them", "from", first, "to", f.cursor)
	f.metrics.reread(f.chain.ID, f.cursor-first+1)
	f.rereadTo = max(f.rereadTo, f.cursor)
	f.cursor = first - 1
}

// clock is the follower's time source.
func (f *follower) clock() time.Time {
	if f.now != nil {
		return f.now()
	}
	return time.Now()
}

// reorgMargin is how many blocks beyond the confirmation depth the follower remembers, to find the
// fork point of a reorg deeper than the chain's finality promised.
const reorgMargin = 64

// rewind steps the cursor back while the canonical block at the cursor is not the one processed,
// so that the blocks of the new branch are matched. Past the blocks it remembers (a reorg while
// no watcher ran, found at the recorded progress), it steps back a whole confirmation depth and
// margin: matching a block twice changes nothing.
func (f *follower) rewind(ctx context.Context) error {
	from := f.cursor
	for f.cursor > 0 {
		want, ok := f.recent[f.cursor]
		if !ok {
			f.cursor -= min(f.cursor, confirmations(f.chain)+reorgMargin)
			break
		}
		h, err := f.node.HeaderByNumber(ctx, f.cursor)
		if err != nil && !errors.Is(err, jsonrpc.ErrNotFound) {
			return err
		}
		if err == nil && h.Hash == want.hash {
			break
		}
		delete(f.recent, f.cursor)
		f.cursor--
	}
	f.rereadTo = min(f.rereadTo, f.cursor) // the blocks of the new branch are new
	f.log.Info("reorg: stepping back", "from", from, "to", f.cursor)
	f.metrics.reorg(f.chain.ID)
	return nil
}

// submit records that the block holds m's transaction.
func (f *follower) submit(ctx context.Context, m Match, b jsonrpc.Block) error {
	_, changed, err := f.writer.Apply(ctx, f.key(m.Name), intentstatus.Observation{
		Event: intent.EventSubmit, Hash: m.Tx.Hash(), Block: b.Number, BlockHash: b.Hash,
		Reason: v1alpha1.ReasonIncluded,
		Message: fmt.Sprintf("transaction %s is in block %d (%s); final at %d confirmations",
			m.Tx.Hash().Hex(), b.Number, b.Hash.Hex(), confirmations(f.chain)),
	})
	if err == nil && changed {
		f.metrics.transition(f.chain.ID, intent.EventSubmit)
	}
	return ignoreGone(err)
}

// followSubmitted reads the receipts of the chain's submitted intents in batches and moves each
// on: confirmed or failed once its block is deep enough, dropped when its block left the chain.
func (f *follower) followSubmitted(ctx context.Context, head uint64) error {
	return forEachReceipt(ctx, f, f.index.Submitted(f.chainID), func(s Submitted) common.Hash { return s.Hash },
		func(s Submitted, r *jsonrpc.Receipt) error { return f.follow(ctx, s, r, head) })
}

// forEachReceipt reads the receipts of items' transactions (hash names each one's) in batches of
// ReceiptsPerBatch and hands each item its receipt (nil: none), in order, until decide fails.
func forEachReceipt[T any](ctx context.Context, f *follower, items []T, hash func(T) common.Hash, decide func(T, *jsonrpc.Receipt) error) error {
	for len(items) > 0 {
		n := min(len(items), int(f.opts.ReceiptsPerBatch)) //nolint:gosec // a small option
		batch := items[:n]
		items = items[n:]
		hashes := make([]common.Hash, len(batch))
		for i, item := range batch {
			hashes[i] = hash(item)
		}
		receipts, err := f.node.Receipts(ctx, hashes)
		if err != nil {
			return err
		}
		for i, item := range batch {
			if err := decide(item, receipts[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// follow decides on one submitted intent from its receipt (nil: none).
func (f *follower) follow(ctx context.Context, s Submitted, r *jsonrpc.Receipt, head uint64) error {
	if r == nil {
		return f.noReceipt(ctx, s, head)
	}
	delete(f.misses, s.Name)
	depth := uint64(0)
	if head >= r.BlockNumber {
		depth = head - r.BlockNumber + 1
	}
	need := confirmations(f.chain)
	final, err := f.final(ctx, r.BlockNumber, head, s.Bridge)
	if err != nil {
		return err
	}
	obs := intentstatus.Observation{Hash: s.Hash, Block: r.BlockNumber, BlockHash: r.BlockHash}
	switch {
	case final && r.Status == types.ReceiptStatusSuccessful && s.Order && !opens(r, s):
		// The exact transaction succeeded without opening the order (a receipt that lost the event,
		// or a contract that did something else): no escrow is held, so no fill may be confirmed.
		obs.Event, obs.Reason, obs.Failure = intent.EventFail, v1alpha1.ReasonNotOpened, v1alpha1.FailureNotOpened
		obs.Message = fmt.Sprintf("transaction %s succeeded in block %d (%s), final, but its receipt has no Opened(%s) event of %s: the order is not open and nothing is escrowed",
			s.Hash.Hex(), r.BlockNumber, r.BlockHash.Hex(), s.OrderID.Hex(), s.Settler.Hex())
	case final && r.Status == types.ReceiptStatusSuccessful && s.Order:
		// An order is confirmed by its fill (followFills), not by its opening.
		obs.Reason = v1alpha1.ReasonOpened
		obs.Message = fmt.Sprintf("the order was opened by transaction %s in block %d (%s), final: the settlement contract holds the escrow until a fill or the refund",
			s.Hash.Hex(), r.BlockNumber, r.BlockHash.Hex())
	case final && r.Status == types.ReceiptStatusSuccessful:
		obs.Event, obs.Reason = intent.EventConfirm, v1alpha1.ReasonConfirmed
		obs.Message = fmt.Sprintf("transaction %s succeeded in block %d (%s), %d blocks deep", s.Hash.Hex(), r.BlockNumber, r.BlockHash.Hex(), depth)
	case r.Status != types.ReceiptStatusSuccessful && final:
		obs.Event, obs.Reason = intent.EventFail, v1alpha1.ReasonReverted
		var why string
		obs.Failure, obs.FailureError, why = f.whyReverted(ctx, s, r)
		obs.Message = fmt.Sprintf("transaction %s reverted in block %d (%s), gas used %d", s.Hash.Hex(), r.BlockNumber, r.BlockHash.Hex(), r.GasUsed)
		if why != "" {
			obs.Message += ": " + truncate(why, maxReasonBytes)
		}
	case s.Block != r.BlockNumber || s.BlockHash != r.BlockHash:
		// Mined since it was reported, or moved to another block by a reorg: follow it there.
		obs.Reason = v1alpha1.ReasonIncluded
		obs.Message = fmt.Sprintf("transaction %s is in block %d (%s); final at %d confirmations", s.Hash.Hex(), r.BlockNumber, r.BlockHash.Hex(), need)
	default:
		return nil // not deep enough yet
	}
	_, changed, err := f.writer.Apply(ctx, f.key(s.Name), obs)
	if err == nil && changed && obs.Event != "" {
		f.metrics.transition(f.chain.ID, obs.Event)
	}
	return ignoreGone(err)
}

// opens reports whether the receipt carries the Opened event of the order from the contract its
// transaction called.
func opens(r *jsonrpc.Receipt, s Submitted) bool {
	return orderEvent(r, s.Settler, settlement.EventOpened, s.OrderID, nil) != nil
}

// orderEvent is the receipt's first event of kind for orderID from contract that also meets also
// (nil: any), nil when it has none.
func orderEvent(r *jsonrpc.Receipt, contract common.Address, kind string, orderID common.Hash, also func(settlement.Event) bool) *types.Log {
	for i, l := range r.Logs {
		if l.Address != contract || l.Removed {
			continue
		}
		ev, ok, err := settlement.Parse(l)
		if err == nil && ok && ev.Kind == kind && ev.OrderID == orderID && (also == nil || also(ev)) {
			return &r.Logs[i]
		}
	}
	return nil
}

// final reports whether a transaction in block n is final: at the chain's confirmation depth under
// head; for a bridge's transaction, which releases an escrow on the attester's word, in the node's
// finalized block where the node serves that tag, or else at the bridge depth.
func (f *follower) final(ctx context.Context, n, head uint64, bridge bool) (bool, error) {
	if head < n {
		return false, nil
	}
	if !bridge {
		return head-n+1 >= confirmations(f.chain), nil
	}
	if !f.finality.read {
		h, served, err := f.node.FinalizedHeader(ctx)
		if err != nil {
			return false, err
		}
		f.finality = finalityView{read: true, served: served, block: h.Number}
	}
	return f.finality.holds(n, head, bridgeConfirmations(f.chain)), nil
}

// finalityView is a node's finalized block as read once per step.
type finalityView struct {
	read, served bool
	block        uint64
}

// holds reports whether block n is final by this view: under the finalized block when the node
// serves the tag, else depth blocks deep under head.
func (v finalityView) holds(n, head, depth uint64) bool {
	if v.served {
		return n <= v.block
	}
	return head >= n && head-n+1 >= depth
}

// bridgeConfirmations is the depth at which a bridge's transaction is final on a node without the
// finalized tag: the chain's finality in blocks, and never less than its BridgeMinConfirmations.
func bridgeConfirmations(c registry.Chain) uint64 {
	return max(confirmations(c), c.BridgeMinDepth())
}

// noReceipt decides on a submitted intent whose transaction has no receipt. Seen in a block: the
// block must have left the chain (the canonical block at its height differs) before the intent is
// dropped, so a node that merely lags drops nothing. Reported without a block: dropped once the
// node has not known the transaction for Options.DropAfterMisses steps in a row.
func (f *follower) noReceipt(ctx context.Context, s Submitted, head uint64) error {
	var msg string
	if s.Block > 0 {
		if s.Block > head {
			return nil // the node lags behind the one that reported the block: wait
		}
		if canonical, err := f.stillCanonical(ctx, s.Block, s.BlockHash); err != nil || canonical {
			return err // still canonical (the node has not indexed the receipt yet), or unknown
		}
		msg = fmt.Sprintf("block %d (%s) that held transaction %s left the chain in a reorg; waiting for the transaction again", s.Block, s.BlockHash.Hex(), s.Hash.Hex())
	} else {
		_, err := f.node.TransactionByHash(ctx, s.Hash)
		switch {
		case err == nil:
			delete(f.misses, s.Name)
			return nil // still waiting to be mined
		case !errors.Is(err, jsonrpc.ErrNotFound):
			return err
		}
		f.misses[s.Name]++
		if f.misses[s.Name] < f.opts.DropAfterMisses {
			return nil
		}
		delete(f.misses, s.Name)
		msg = fmt.Sprintf("the node no longer knows transaction %s (dropped or replaced); waiting for the transaction again", s.Hash.Hex())
	}
	_, changed, err := f.writer.Apply(ctx, f.key(s.Name), intentstatus.Observation{Event: intent.EventDrop, Hash: s.Hash, Reason: v1alpha1.ReasonDropped, Message: msg})
	if err == nil && changed {
		f.metrics.transition(f.chain.ID, intent.EventDrop)
	}
	return ignoreGone(err)
}

// stillCanonical says whether the block seen at height n, with hash want, may still be on the
// chain: true unless the node names another block at that height. A node that knows no block there
// although its head is past it (a backend behind a load balancer that lags the one that answered
// the head) proves nothing, so that counts as canonical too: only another block is a reorg.
func (f *follower) stillCanonical(ctx context.Context, n uint64, want common.Hash) (bool, error) {
	h, err := f.node.HeaderByNumber(ctx, n)
	switch {
	case errors.Is(err, jsonrpc.ErrNotFound):
		return true, nil
	case err != nil:
		return false, err
	}
	return h.Hash == want, nil
}

// whyReverted asks the node, within a short deadline, why the transaction of receipt r reverted:
// out of gas when it used its whole gas limit (sent again with more gas it may pass); else the
// code of the error its revert data names (internal/chain/reverts: insufficient_balance, ...),
// reverted for any other. It answers the decoded error and the reason in words too; a node that
// cannot say leaves it reverted, with neither.
func (f *follower) whyReverted(ctx context.Context, s Submitted, r *jsonrpc.Receipt) (v1alpha1.FailureCode, *v1alpha1.RevertError, string) {
	ctx, cancel := context.WithTimeout(ctx, f.opts.CallTimeout)
	defer cancel()
	tx, err := f.node.TransactionByHash(ctx, s.Hash)
	if err != nil {
		return v1alpha1.FailureReverted, nil, ""
	}
	code := revertedCode(tx.Tx.Gas(), r.GasUsed)
	data, message := f.node.RevertReason(ctx, s.From, tx.Tx, tx.Block)
	if data == nil {
		return code, nil, message
	}
	decoded := reverts.Decode(data)
	if code == v1alpha1.FailureReverted {
		code = decoded.Code
	}
	return code, decoded.Status(), decoded.String()
}

// revertedCode is the failure of a transaction that reverted having used gasUsed of its limit:
// an exceptional halt for want of gas consumes the whole limit, a revert returns what is left.
func revertedCode(limit, gasUsed uint64) v1alpha1.FailureCode {
	if limit > 0 && gasUsed >= limit {
		return v1alpha1.FailureOutOfGas
	}
	return v1alpha1.FailureReverted
}

// recordProgress writes the cursor to the Chain's status when it moved and the last record is
// older than Options.ProgressInterval (or force).
func (f *follower) recordProgress(ctx context.Context, force bool) error {
	if !f.dirty || f.last.Number == 0 || (!force && time.Since(f.recorded) < f.opts.ProgressInterval) {
		return nil
	}
	if err := recordProgress(ctx, f.writer.Client, client.ObjectKey{Namespace: f.namespace, Name: f.chain.Name}, f.last, f.writer.Now()); err != nil {
		return err
	}
	f.recorded, f.dirty = time.Now(), false
	return nil
}

func (f *follower) key(name string) client.ObjectKey {
	return client.ObjectKey{Namespace: f.namespace, Name: name}
}

// ignoreGone treats an intent deleted meanwhile as done.
func ignoreGone(err error) error { return client.IgnoreNotFound(err) }

// sameChain reports whether the node serves the chain.
func sameChain(id *big.Int, chain registry.Chain) bool {
	return chain.NumericID != nil && id != nil && id.Cmp(chain.NumericID) == 0
}

// maxReasonBytes bounds a revert reason quoted in a condition message (a contract chooses it).
const maxReasonBytes = 256

// truncate cuts s to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
