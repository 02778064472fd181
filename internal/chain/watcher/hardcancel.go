package watcher

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
	"github.com/transferintent/transfer-intent-service/internal/chain/gasless"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
)

// Cancelling is a gasless intent its user cancelled (soft) while a filler could still open it: it
// ends cancelled at its open deadline, or earlier once its user's hard cancel is final
// (followCancels).
type Cancelling struct {
	Name string
	// User is the order's user, whose Permit2 nonce the order spends; Permit2 is the contract of
	// the signature's domain; Nonce the order's Permit2 nonce.
	User    common.Address
	Permit2 common.Address
	Nonce   *big.Int
	// OrderID and Settler are the order and the settlement contract that opens it (spec.tx.to).
	OrderID common.Hash
	Settler common.Address
}

// cancellingOf is the intent's Cancelling entry, when it is a gasless order whose terms read.
func cancellingOf(ti *v1alpha1.TransferIntent, user common.Address) (Cancelling, bool) {
	g := ti.Spec.Gasless
	if g == nil || ti.Spec.Tx == nil || !common.IsHexAddress(g.Permit2) || !common.IsHexAddress(ti.Spec.Tx.To) || ti.Spec.OrderID == "" {
		return Cancelling{}, false
	}
	nonce, ok := new(big.Int).SetString(g.Nonce, 10)
	if !ok || nonce.Sign() < 0 || nonce.BitLen() > 256 {
		return Cancelling{}, false
	}
	return Cancelling{
		Name: ti.Name, User: user, Permit2: common.HexToAddress(g.Permit2), Nonce: nonce,
		OrderID: common.HexToHash(ti.Spec.OrderID), Settler: common.HexToAddress(ti.Spec.Tx.To),
	}, true
}

// orderStatusNone is the settlement contract's Status.None: the order was never opened (Opened,
// Settled and Refunded all follow an open).
const orderStatusNone = 0

// settlementABI packs and unpacks orders(orderId).
var settlementABI = contracts.NewSettlement()

// cancelsPerBatch bounds the intents of one round trip: two calls each, within gasless.MaxBatch.
const cancelsPerBatch = gasless.MaxBatch / 2

// followCancels ends the chain's cancelling intents whose user's hard cancel is final: at the
// final block (the node's finalized block, or the bridge depth on a node without the tag; a reorg
// cannot undo what a final block says), the order's Permit2 nonce is spent and the settlement
// contract never opened the order. Permit2 sets a nonce's bit only by invalidateUnorderedNonces
// or by a permit transfer with it, and a permit transfer with this nonce is this order's openFor,
// which would have opened it: so the bit without the open is the hard cancel, and no filler can
// ever open the order. The effect is read rather than the UnorderedNonceInvalidation log, so no
// log has to be seen. Each intent is read at most once per final block (only a newer final block
// can change the answer), in batches; an answer that fails changes nothing and is read again at
// the next step.
func (f *follower) followCancels(ctx context.Context, head uint64) error {
	list := f.index.Cancelling(f.chainID)
	if len(list) == 0 {
		f.cancelsRead = nil
		return nil
	}
	final, ok, err := f.finalBlock(ctx, head)
	if err != nil || !ok {
		return err
	}
	due := make([]Cancelling, 0, len(list))
	read := make(map[string]uint64, len(list))
	for _, c := range list {
		if at, ok := f.cancelsRead[c.Name]; ok && at == final {
			read[c.Name] = at
			continue
		}
		due = append(due, c)
	}
	f.cancelsRead = read // forgets the intents no longer cancelling
	for len(due) > 0 {
		batch := due[:min(len(due), cancelsPerBatch)]
		due = due[len(batch):]
		ended, err := f.readCancels(ctx, batch, final)
		if err != nil {
			return err
		}
		for _, c := range batch {
			if !ended[c.Name] {
				continue
			}
			if err := f.endCancelled(ctx, c, final); err != nil {
				return err
			}
		}
	}
	return nil
}

// finalBlock is the highest block final by the follower's finality view of this step (read once
// per step, as for a bridge's transactions): the node's finalized block, or the block the bridge
// depth under head; ok is false when no block is that deep yet.
func (f *follower) finalBlock(ctx context.Context, head uint64) (uint64, bool, error) {
	if !f.finality.read {
		h, served, err := f.node.FinalizedHeader(ctx)
		if err != nil {
			return 0, false, err
		}
		f.finality = finalityView{read: true, served: served, block: h.Number}
	}
	if f.finality.served {
		return f.finality.block, f.finality.block > 0, nil
	}
	depth := bridgeConfirmations(f.chain)
	if head+1 <= depth {
		return 0, false, nil
	}
	return head + 1 - depth, true, nil
}

// readCancels reads, at block, each intent's Permit2 nonce bit and its order's status in one
// round trip, and answers which are hard-cancelled (spent and never opened). The intents it could
// not read are remembered as not read, and the others as read at block; an error is the node's.
func (f *follower) readCancels(ctx context.Context, batch []Cancelling, block uint64) (map[string]bool, error) {
	at := hexutil.Uint64(block)
	elems := make([]rpc.BatchElem, 0, 2*len(batch))
	answers := make([]hexutil.Bytes, 2*len(batch))
	call := func(to common.Address, data []byte, out *hexutil.Bytes) rpc.BatchElem {
		return rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{"to": to, "data": hexutil.Bytes(data)}, at}, Result: out}
	}
	for i, c := range batch {
		elems = append(elems,
			call(c.Permit2, settlement.NonceBitmapData(c.User, c.Nonce), &answers[2*i]),
			call(c.Settler, settlementABI.PackOrders(c.OrderID), &answers[2*i+1]))
	}
	if err := f.node.Batch(ctx, elems, nil); err != nil {
		return nil, err
	}
	ended := map[string]bool{}
	for i, c := range batch {
		spent, opened, err := cancelAnswers(c, elems[2*i:2*i+2], answers[2*i], answers[2*i+1])
		if err != nil {
			// A node that refuses one call (or a contract that answers nonsense) holds back only
			// this intent: it ends at its open deadline if never read.
			f.log.V(1).Info("cannot read whether a cancelling order's nonce is spent", "intent", c.Name, "block", block, "error", err.Error())
			continue
		}
		f.cancelsRead[c.Name] = block
		ended[c.Name] = spent && !opened
	}
	return ended, nil
}

// cancelAnswers decodes the nonceBitmap and orders answers of c.
func cancelAnswers(c Cancelling, elems []rpc.BatchElem, bitmap, status hexutil.Bytes) (spent, opened bool, err error) {
	for _, e := range elems {
		if e.Error != nil {
			return false, false, e.Error
		}
	}
	word, err := permit2ABI.UnpackNonceBitmap(bitmap)
	if err != nil {
		return false, false, fmt.Errorf("nonceBitmap: %w", err)
	}
	s, err := settlementABI.UnpackOrders(status)
	if err != nil {
		return false, false, fmt.Errorf("orders: %w", err)
	}
	return settlement.NonceUsed(c.Nonce, word), s != orderStatusNone, nil
}

// permit2ABI unpacks nonceBitmap.
var permit2ABI = contracts.NewPermit2()

// endCancelled ends c cancelled: its hard cancel is final at block.
func (f *follower) endCancelled(ctx context.Context, c Cancelling, block uint64) error {
	msg := fmt.Sprintf("the user's hard cancel (Permit2 nonce invalidation) is final: at block %d nonce %s of %s is spent and the order was never opened, so no filler can open it",
		block, c.Nonce, c.User.Hex())
	_, _, changed, err := f.writer.Change(ctx, f.key(c.Name), intentstatus.EndHardCancelled(msg))
	if err == nil && changed {
		f.metrics.transition(f.chain.ID, intent.EventExpire)
		f.log.Info("a cancelling order's hard cancel is final: cancelled", "intent", c.Name, "orderId", c.OrderID.Hex(), "block", block)
	}
	return ignoreGone(err)
}
