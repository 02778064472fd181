package watcher

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
)

// settlementContract is the chain's settlement contract, if it has one.
func (f *follower) settlementContract() (common.Address, bool) {
	if !common.IsHexAddress(f.chain.SettlementAddress) {
		return common.Address{}, false
	}
	return common.HexToAddress(f.chain.SettlementAddress), true
}

// settlementLogs reads the settlement contract's order events in the blocks, by block number.
func (f *follower) settlementLogs(ctx context.Context, blocks []jsonrpc.Block) (map[uint64][]types.Log, error) {
	contract, ok := f.settlementContract()
	if !ok {
		return nil, nil
	}
	hashes := make([]common.Hash, len(blocks))
	for i, b := range blocks {
		hashes[i] = b.Hash
	}
	logs, err := f.node.LogsOfBlocks(ctx, hashes, contract, settlement.Topics())
	if err != nil {
		return nil, err
	}
	byBlock := make(map[uint64][]types.Log, len(blocks))
	for i, b := range blocks {
		byBlock[b.Number] = logs[i]
	}
	return byBlock, nil
}

// errLogsOfAnotherBlock: the logs were read from another branch than the block (a reorg between
// the two calls); the step is tried again.
var errLogsOfAnotherBlock = errors.New("the node's logs and blocks disagree (a reorg between two calls)")

// orderEvents applies the settlement contract's events of block b to the orders they name. An
// event counts only from the order's own contract: Opened and Refunded from the contract its
// transaction calls, Filled from its destinationSettler. A look-alike contract can emit the same
// events (and the node's address filter is not trusted), but it holds no escrow and pays nobody.
func (f *follower) orderEvents(ctx context.Context, b jsonrpc.Block, logs []types.Log) error {
	for _, l := range logs {
		if l.BlockHash != b.Hash {
			return errLogsOfAnotherBlock
		}
		if l.Removed {
			continue
		}
		ev, ok, err := settlement.Parse(l)
		if err != nil {
			f.log.Info("an event of the settlement contract does not decode", "tx", l.TxHash.Hex(), "index", l.Index, "error", err.Error())
			continue
		}
		if !ok {
			continue // not an order event of this contract's ABI
		}
		ref, ok := f.index.Order(ev.OrderID)
		if !ok {
			continue // not ours, or settled already
		}
		var obs intentstatus.Observation
		switch {
		case ev.Kind == settlement.EventOpened && ref.Origin == f.chainID && l.Address == ref.Domain.Contract && intent.Takes(ref.Phase, intent.EventSubmit):
			obs = f.opened(l, b)
		case ev.Kind == settlement.EventFilled && ref.Dest == f.chainID && l.Address == ref.DestSettler && (ref.Fill == nil || ref.Fill.Hash != l.TxHash):
			obs = f.filled(ev, b)
		case ev.Kind == settlement.EventRefunded && ref.Origin == f.chainID && l.Address == ref.Domain.Contract &&
			ref.Phase == v1alpha1.IntentPhaseSubmitted && ref.Refund != l.TxHash:
			f.refundBlocks[l.TxHash] = blockRef{number: b.Number, hash: b.Hash}
			// Recorded, not ended: a refund in a block that leaves the chain refunded nothing.
			// followRefunds fails the intent once the refund is final.
			obs = intentstatus.Observation{
				Order: &intentstatus.OrderNews{RefundHash: l.TxHash}, Reason: v1alpha1.ReasonRefundIncluded,
				Message: fmt.Sprintf("the escrow was refunded to %s in transaction %s (block %d); the intent fails once that is final",
					ev.Party.Hex(), l.TxHash.Hex(), b.Number),
			}
		case ev.Kind == settlement.EventRefundAllowed && ref.Origin == f.chainID && l.Address == ref.Domain.Contract &&
			ref.Phase == v1alpha1.IntentPhaseSubmitted && !ref.RefundAllowed:
			obs = refundAllowed(l, b)
		default:
			continue
		}
		if err := f.apply(ctx, ref.Name, obs); err != nil {
			return err
		}
	}
	return nil
}

// opened: the order was opened by a transaction the service did not write (a smart account's
// call, or a filler's openFor of a gasless order): the contract checked that its user sent it or
// signed it through Permit2, so it is the intent's transaction.
func (f *follower) opened(l types.Log, b jsonrpc.Block) intentstatus.Observation {
	return intentstatus.Observation{
		Event: intent.EventSubmit, Hash: l.TxHash, Block: b.Number, BlockHash: b.Hash, Reason: v1alpha1.ReasonIncluded,
		Message: fmt.Sprintf("the order was opened by transaction %s in block %d (%s)", l.TxHash.Hex(), b.Number, b.Hash.Hex()),
	}
}

// refundAllowed records the guardian's allowRefund of the order: its record offers the refund
// now. Recorded when seen, not when final: an allowance that leaves the chain in a reorg makes the
// refund the record offers revert (RefundTooEarly), which costs its sender gas and moves nothing.
func refundAllowed(l types.Log, b jsonrpc.Block) intentstatus.Observation {
	return intentstatus.Observation{
		Order: &intentstatus.OrderNews{RefundAllowed: true}, Reason: v1alpha1.ReasonRefundAllowed,
		Message: fmt.Sprintf("the guardian allowed the order's refund before its deadline in transaction %s (block %d): its user may take the escrow back now",
			l.TxHash.Hex(), b.Number),
	}
}

// filled records a fill on this (destination) chain; it confirms the intent once final.
func (f *follower) filled(ev settlement.Event, b jsonrpc.Block) intentstatus.Observation {
	fill := f.fillStatus(ev.Log.TxHash, b.Number, b.Hash, ev.Party, ev.Amount)
	return intentstatus.Observation{
		Order: &intentstatus.OrderNews{Fill: fill}, Reason: v1alpha1.ReasonFilled,
		Message: fmt.Sprintf("filled on %s by %s with %s base units in transaction %s, block %d; final at %d confirmations",
			f.chain.ID, ev.Party.Hex(), ev.Amount, ev.Log.TxHash.Hex(), b.Number, confirmations(f.chain)),
	}
}

// followFills confirms the orders whose fill on this chain is final, attesting bridge fills, and
// forgets fills whose block left the chain.
func (f *follower) followFills(ctx context.Context, head uint64) error {
	fills := f.index.Fills(f.chainID)
	keepOnly(f.reported, fills, func(ref OrderRef) common.Hash { return ref.Fill.Hash })
	return forEachReceipt(ctx, f, fills, func(ref OrderRef) common.Hash { return ref.Fill.Hash },
		func(ref OrderRef, r *jsonrpc.Receipt) error { return f.followFill(ctx, ref, r, head) })
}

// followRefunds fails the orders whose refund on this (origin) chain is final, and forgets a
// refund whose final receipt does not refund the order.
func (f *follower) followRefunds(ctx context.Context, head uint64) error {
	refunds := f.index.Refunds(f.chainID)
	keepOnly(f.refundBlocks, refunds, func(ref OrderRef) common.Hash { return ref.Refund })
	return forEachReceipt(ctx, f, refunds, func(ref OrderRef) common.Hash { return ref.Refund },
		func(ref OrderRef, r *jsonrpc.Receipt) error { return f.followRefund(ctx, ref, r, head) })
}

// blockRef is a block by number and hash.
type blockRef struct {
	number uint64
	hash   common.Hash
}

// followRefund decides on one recorded refund from its receipt (nil: none). Final, it fails the
// intent when the receipt carries the order's Refunded event from its origin contract, and is
// forgotten otherwise: the escrow is still held.
func (f *follower) followRefund(ctx context.Context, ref OrderRef, r *jsonrpc.Receipt, head uint64) error {
	if r == nil {
		return f.refundWithoutReceipt(ctx, ref, head)
	}
	f.refundBlocks[ref.Refund] = blockRef{number: r.BlockNumber, hash: r.BlockHash}
	final, err := f.final(ctx, r.BlockNumber, head, ref.IsBridge())
	if err != nil || !final {
		return err
	}
	refunded := orderEvent(r, ref.Domain.Contract, settlement.EventRefunded, ref.OrderID, nil)
	if r.Status != types.ReceiptStatusSuccessful || refunded == nil {
		return f.forgetRefund(ctx, ref, fmt.Sprintf("transaction %s, final in block %d, does not refund the order", ref.Refund.Hex(), r.BlockNumber))
	}
	to := "its owner"
	if ev, ok, err := settlement.Parse(*refunded); err == nil && ok {
		to = ev.Party.Hex()
	}
	return f.apply(ctx, ref.Name, intentstatus.Observation{
		Event: intent.EventFail, Order: &intentstatus.OrderNews{RefundHash: ref.Refund}, Reason: v1alpha1.ReasonRefunded, Failure: v1alpha1.FailureRefunded,
		Message: fmt.Sprintf("the escrow was refunded to %s in transaction %s (block %d, %s), final: the order was not filled in time",
			to, ref.Refund.Hex(), r.BlockNumber, r.BlockHash.Hex()),
	})
}

// refundWithoutReceipt forgets a recorded refund whose block left the chain: another block holds
// its height. A node that lags, or knows no block there, is waited for, as for a fill. A refund
// whose block this follower never saw (recorded before a restart) is waited for too: only its
// receipt can end it then.
func (f *follower) refundWithoutReceipt(ctx context.Context, ref OrderRef, head uint64) error {
	at, ok := f.refundBlocks[ref.Refund]
	if !ok || at.number > head {
		return nil
	}
	if canonical, err := f.stillCanonical(ctx, at.number, at.hash); err != nil || canonical {
		return err
	}
	return f.forgetRefund(ctx, ref, fmt.Sprintf("block %d that held the refund %s left the chain in a reorg", at.number, ref.Refund.Hex()))
}

// forgetRefund clears a recorded refund that did not, or no longer does, refund the order.
func (f *follower) forgetRefund(ctx context.Context, ref OrderRef, why string) error {
	delete(f.refundBlocks, ref.Refund)
	reason, next := v1alpha1.ReasonOpened, "the order waits for a fill or a refund"
	if ref.Fill != nil {
		reason, next = v1alpha1.ReasonFilled, "its recorded fill "+ref.Fill.Hash.Hex()+" is confirmed once final"
	}
	return f.apply(ctx, ref.Name, intentstatus.Observation{
		Order: &intentstatus.OrderNews{ClearRefund: true}, Reason: reason,
		Message: why + ": the settlement contract still holds the escrow; " + next,
	})
}

// keepOnly drops from m, a follower's memory of fills or refunds by transaction hash, the entries
// of those no longer waiting (attested, cleared, gone): key is each waiting one's hash.
func keepOnly[V any](m map[common.Hash]V, waiting []OrderRef, key func(OrderRef) common.Hash) {
	if len(m) == 0 {
		return
	}
	keep := make(map[common.Hash]bool, len(waiting))
	for _, ref := range waiting {
		keep[key(ref)] = true
	}
	for h := range m {
		if !keep[h] {
			delete(m, h)
		}
	}
}

// followFill decides on one recorded fill from its receipt (nil: none): forgotten when it left
// the chain or no longer fills, confirmed when final and the opening is final too.
func (f *follower) followFill(ctx context.Context, ref OrderRef, r *jsonrpc.Receipt, head uint64) error {
	if r == nil {
		return f.fillWithoutReceipt(ctx, ref, head)
	}
	if !f.fills(r, ref) {
		// The same transaction mined again after a reorg need not fill again (a solver contract
		// that catches AlreadyFilled, say): only its own Filled event counts.
		if f.witnessHoldsFill(ctx, ref) {
			return nil
		}
		return f.apply(ctx, ref.Name, intentstatus.Observation{
			Order: &intentstatus.OrderNews{ClearFill: true}, Reason: v1alpha1.ReasonDropped,
			Message: fmt.Sprintf("transaction %s, now in block %d, no longer fills the order; waiting for a fill again", ref.Fill.Hash.Hex(), r.BlockNumber),
		})
	}
	if ref.Refund != (common.Hash{}) {
		// The escrow's refund is recorded: the order fails when it is final, or the fill is
		// confirmed once the refund is forgotten. Both can be real for a bridge whose attestation
		// came later than the refund delay; the refund decides, as the escrow is gone.
		return nil
	}
	final, err := f.final(ctx, r.BlockNumber, head, ref.IsBridge())
	if err != nil || !final || ref.Phase != v1alpha1.IntentPhaseSubmitted || !ref.OpenFinal {
		return err // not final yet, or the order's opening is not final yet on its origin chain
	}
	return f.confirmFill(ctx, ref, r)
}

// fillWithoutReceipt forgets a fill whose block left the chain: another block holds its height.
// A node that lags behind the one that reported the fill is waited for, and so is one that knows
// no block at that height at all: behind a load balancer, the backend that answers the header may
// lag the one that answered the head. Forgetting on a missing block would be for good (the cursor
// is past it and an order is filled once), leaving a real fill unattested.
func (f *follower) fillWithoutReceipt(ctx context.Context, ref OrderRef, head uint64) error {
	if ref.Fill.Block > head {
		return nil
	}
	if canonical, err := f.stillCanonical(ctx, ref.Fill.Block, ref.Fill.BlockHash); err != nil || canonical {
		return err
	}
	if f.witnessHoldsFill(ctx, ref) {
		return nil
	}
	return f.apply(ctx, ref.Name, intentstatus.Observation{
		Order: &intentstatus.OrderNews{ClearFill: true}, Reason: v1alpha1.ReasonDropped,
		Message: fmt.Sprintf("block %d that held the fill %s left the chain in a reorg; waiting for a fill again", ref.Fill.Block, ref.Fill.Hash.Hex()),
	})
}

// witnessHoldsFill reports whether a witness of the chain still holds the recorded fill: a
// successful receipt in the recorded block with the order's Filled event. The node alone then does
// not make the watcher forget it: forgetting a fill is for good (its block is behind the cursor and
// an order is filled once), so a node that hides a real fill would leave its filler unpaid, while
// keeping a fill that is really gone costs nothing (nothing is signed without the node's final
// receipt, and a new fill replaces the record). Told once per fill; each witness is asked within
// the client's call deadline.
func (f *follower) witnessHoldsFill(ctx context.Context, ref OrderRef) bool {
	for i, w := range f.witnesses {
		if ok, _ := f.servesChain(ctx, i, w); !ok {
			continue
		}
		receipts, err := w.Receipts(ctx, []common.Hash{ref.Fill.Hash})
		if err != nil || receipts[0] == nil {
			continue
		}
		if r := receipts[0]; r.BlockHash == ref.Fill.BlockHash && f.fills(r, ref) {
			if f.reported[ref.Fill.Hash] != reportedKeptByWitness {
				f.reported[ref.Fill.Hash] = reportedKeptByWitness
				f.log.Info("the node no longer shows a fill that a witness still holds; keeping it", "intent", ref.Name,
					"fill", ref.Fill.Hash.Hex(), "block", ref.Fill.Block, "witness", i)
			}
			return true
		}
	}
	return false
}

// reportedKeptByWitness marks, in follower.reported, a fill kept on a witness's word.
const reportedKeptByWitness = "kept_by_witness"

// confirmFill confirms the order with its final fill and, for a bridge, the attestation that
// releases the escrow to the filler.
func (f *follower) confirmFill(ctx context.Context, ref OrderRef, r *jsonrpc.Receipt) error {
	fill := f.fillStatus(ref.Fill.Hash, r.BlockNumber, r.BlockHash, ref.Fill.Filler, ref.Fill.AmountOut)
	msg := fmt.Sprintf("the fill %s on %s is final (block %d)", ref.Fill.Hash.Hex(), f.chain.ID, r.BlockNumber)
	if ref.IsBridge() {
		if ok, err := f.attestable(ctx, ref, r); err != nil || !ok {
			return err // not on this evidence: waits for the next step
		}
		if f.opts.Attester == nil {
			msg += "; no attestation: the service has no attester key, so the filler cannot be repaid until one is configured"
			f.log.Error(nil, "a bridge fill is final but no attester key is configured", "intent", ref.Name, "orderId", ref.OrderID.Hex())
			f.metrics.unattestedFill(f.chain.ID, unattestedNoKey)
		} else {
			att, err := f.opts.Attester.Attest(ctx, ref.Domain, ref.OrderID, ref.Fill.Filler, ref.Fill.AmountOut)
			if err != nil {
				f.metrics.unattestedFill(f.chain.ID, unattestedSigning)
				return fmt.Errorf("attesting the fill of %s: %w", ref.Name, err)
			}
			fill.Attestation = hexutil.Encode(att.Signature)
			msg += fmt.Sprintf("; attested for %s, which releases the escrow to %s", ref.Domain.Contract.Hex(), ref.Fill.Filler.Hex())
		}
	}
	return f.apply(ctx, ref.Name, intentstatus.Observation{Event: intent.EventConfirm, Order: &intentstatus.OrderNews{Fill: fill}, Reason: v1alpha1.ReasonConfirmed, Message: msg})
}

// fillStatus is the status record of a fill on this chain, naming the Filler whose payout
// address filler is, when Options.FillerName knows one.
func (f *follower) fillStatus(tx common.Hash, block uint64, blockHash common.Hash, filler common.Address, amountOut *big.Int) *v1alpha1.FillStatus {
	fill := &v1alpha1.FillStatus{
		ChainID: f.chain.ID, Hash: tx.Hex(), BlockNumber: int64(block), BlockHash: blockHash.Hex(), //nolint:gosec // block numbers are far below 2^63
		Filler: filler.Hex(), AmountOut: amountOut.String(),
	}
	if f.opts.FillerName != nil {
		fill.FillerName = f.opts.FillerName(f.chain.ID, filler)
	}
	return fill
}

// fills reports whether the receipt carries the recorded fill: a success with the Filled event of
// the order's destinationSettler for the order, by the same filler for the same amount.
func (f *follower) fills(r *jsonrpc.Receipt, ref OrderRef) bool {
	return r.Status == types.ReceiptStatusSuccessful && fillLog(r, ref) != nil
}

// fillLog is the receipt's Filled event of the order's destinationSettler for the recorded fill
// (filler and amount), nil when it has none.
func fillLog(r *jsonrpc.Receipt, ref OrderRef) *types.Log {
	return orderEvent(r, ref.DestSettler, settlement.EventFilled, ref.OrderID, func(ev settlement.Event) bool {
		return ev.Party == ref.Fill.Filler && ev.Amount.Cmp(ref.Fill.AmountOut) == 0
	})
}

// apply writes obs and counts its transition.
func (f *follower) apply(ctx context.Context, name string, obs intentstatus.Observation) error {
	_, changed, err := f.writer.Apply(ctx, f.key(name), obs)
	if err == nil && changed && obs.Event != "" {
		f.metrics.transition(f.chain.ID, obs.Event)
	}
	return ignoreGone(err)
}
