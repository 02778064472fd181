package watcher

import (
	"crypto/sha256"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
)

// txKey identifies what a transaction does apart from who sent it: its recipient, value and
// calldata (sha256 of them). The service wrote each intent's transaction exactly, so a block's
// transaction whose key is in the index is a candidate, and its sender decides.
type txKey [sha256.Size]byte

// keyOf is the key of a transaction to `to` with value wei (at most 256 bits) and calldata.
func keyOf(to common.Address, value *big.Int, data []byte) txKey {
	h := sha256.New()
	h.Write(to[:])
	var v [32]byte
	value.FillBytes(v[:])
	h.Write(v[:])
	h.Write(data)
	var k txKey
	h.Sum(k[:0])
	return k
}

// keyOfTx is the key of a signed transaction; ok is false for a contract creation (no `to`) or a
// value beyond uint256, which no intent has.
func keyOfTx(tx *types.Transaction) (txKey, bool) {
	to := tx.To()
	if to == nil {
		return txKey{}, false
	}
	v := tx.Value()
	if v.Sign() < 0 || v.BitLen() > 256 {
		return txKey{}, false
	}
	return keyOf(*to, v, tx.Data()), true
}

// Pending is an intent waiting for its transaction.
type Pending struct {
	// Name is the TransferIntent object's name; ID its API id.
	Name, ID string
	// From is the address that must send the transaction.
	From common.Address
	// CreatedAt is when the intent was stored: a block older than that cannot hold its
	// transaction (the client had not been given it yet).
	CreatedAt time.Time
}

// Submitted is an intent whose transaction is known, followed until its receipt is final.
type Submitted struct {
	Name, ID string
	From     common.Address
	Hash     common.Hash
	// Block and BlockHash are where the transaction was seen; zero when only its hash is known
	// (reported by the client, not yet in a block).
	Block     uint64
	BlockHash common.Hash
	// Order is set for a swap or bridge: its transaction opens the order, and the fill, not the
	// transaction, confirms it. OpenFinal says the opening is final (condition OrderOpened): its
	// receipt needs no more reading. A fill seen earlier does not make it so: the opening could
	// still revert or leave the chain.
	Order, OpenFinal bool
	// Bridge says the order is filled on another chain: its opening is final only at the bridge
	// depth (finalized tag, or BridgeMinConfirmations).
	Bridge bool
	// OrderID and Settler are the order's id and the settlement contract its transaction calls: an
	// opening counts only with that contract's Opened(OrderID) event in the final receipt.
	OrderID common.Hash
	Settler common.Address
}

// Index holds, per chain (numeric EIP-155 id), the pending intents by the key of their
// transaction and the submitted intents by name, fed from the TransferIntent informer. Matching a
// block costs a map lookup per transaction, whatever the number of pending intents. It is safe
// for concurrent use.
type Index struct {
	mu     sync.RWMutex
	chains map[uint64]*chainIndex
	// where is each intent's place in the index, by object name, with the resourceVersion it was
	// placed from: an informer event older than a write the watcher applied ahead of it is ignored.
	where map[string]placement
	// held maps each transaction hash an intent follows or followed (submitted, confirmed,
	// failed) to that intent's name: one transaction executes one intent, so a held hash is never
	// matched to, or accepted for, another.
	held map[common.Hash]string
	// orders are the swaps and bridges still to be settled, by orderId; orderOf is each one's
	// orderId by object name.
	orders  map[common.Hash]*OrderRef
	orderOf map[string]common.Hash
	// late is, per chain, the span of wall-clock time in which that chain's follower may have
	// read blocks that hold the transaction or an event of an intent the index learnt of since:
	// see Late.
	late map[uint64]lateSpan
	// now is the clock arrivals are stamped with.
	now func() time.Time
}

// lateSpan: blocks processed from From to Until may hold what intents that arrived since asked
// for.
type lateSpan struct{ From, Until time.Time }

// arrivalSkew allows for the clocks of the replica that created an intent (its id's time) and the
// leader that runs the watcher: a block processed up to this long before the intent's id was
// made is read again when the intent arrives late.
const arrivalSkew = 2 * time.Second

type placement struct {
	chain           uint64
	key             txKey // for a pending intent
	phase           v1alpha1.IntentPhase
	resourceVersion string
	hash            common.Hash // the transaction it holds, if any
}

type chainIndex struct {
	pending   map[txKey][]Pending // each list is sorted by ID: the oldest intent is matched first
	submitted map[string]Submitted
	// cancelling are the gasless intents of this origin chain that their user cancelled while a
	// filler could still open them, by name: the only ones whose hard cancel is looked for.
	cancelling map[string]Cancelling
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{
		chains: map[uint64]*chainIndex{}, where: map[string]placement{}, held: map[common.Hash]string{},
		orders: map[common.Hash]*OrderRef{}, orderOf: map[string]common.Hash{},
		late: map[uint64]lateSpan{}, now: time.Now,
	}
}

// EventHandler feeds the index from the TransferIntent informer.
func (x *Index) EventHandler() toolscache.ResourceEventHandler {
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { x.observe(obj) },
		UpdateFunc: func(_, obj any) { x.observe(obj) },
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if ti, ok := obj.(*v1alpha1.TransferIntent); ok {
				x.mu.Lock()
				defer x.mu.Unlock()
				x.removeLocked(ti.Name, ti.Spec.ID)
			}
		},
	}
}

func (x *Index) observe(obj any) {
	if ti, ok := obj.(*v1alpha1.TransferIntent); ok {
		x.Upsert(ti)
	}
}

// Upsert places the intent by its phase: pending intents by their transaction's key, submitted
// ones by name; others leave the index. An object older than the one last placed is ignored, so
// the watcher can apply its own writes ahead of the watch.
func (x *Index) Upsert(ti *v1alpha1.TransferIntent) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if prev, ok := x.where[ti.Name]; ok && prev.resourceVersion != "" && ti.ResourceVersion != "" {
		if c, err := resourceversion.CompareResourceVersion(ti.ResourceVersion, prev.resourceVersion); err == nil && c < 0 {
			return
		}
	}
	_, known := x.where[ti.Name]
	x.removeLocked(ti.Name, ti.Spec.ID)
	chainID, ok := txChain(ti)
	if !ok {
		return
	}
	from, ok := fromAddress(ti)
	if !ok {
		return
	}
	ci := x.chains[chainID]
	if ci == nil {
		ci = &chainIndex{pending: map[txKey][]Pending{}, submitted: map[string]Submitted{}, cancelling: map[string]Cancelling{}}
		x.chains[chainID] = ci
	}
	place := placement{chain: chainID, phase: intentstatus.Phase(ti), resourceVersion: ti.ResourceVersion}
	if ti.Status.Hash != "" && place.phase != v1alpha1.IntentPhasePending {
		place.hash = common.HexToHash(ti.Status.Hash)
		x.held[place.hash] = ti.Name
	}
	switch place.phase {
	case v1alpha1.IntentPhasePending:
		key, ok := intentKey(ti.Spec.Tx)
		if !ok {
			return
		}
		place.key = key
		p := Pending{Name: ti.Name, ID: ti.Spec.ID, From: from, CreatedAt: ti.CreationTimestamp.Time}
		list := ci.pending[key]
		i, _ := slices.BinarySearchFunc(list, p.ID, func(e Pending, id string) int { return strings.Compare(e.ID, id) })
		ci.pending[key] = slices.Insert(list, i, p)
	case v1alpha1.IntentPhaseSubmitted:
		s := Submitted{Name: ti.Name, ID: ti.Spec.ID, From: from, Hash: common.HexToHash(ti.Status.Hash),
			Order: ti.Spec.Type != v1alpha1.IntentTypeTransfer}
		s.OpenFinal = s.Order && openFinal(ti)
		if s.Order {
			s.OrderID, s.Settler = common.HexToHash(ti.Spec.OrderID), common.HexToAddress(ti.Spec.Tx.To)
			s.Bridge = ti.Spec.FromChain != ti.Spec.ToChain
		}
		if ti.Status.BlockNumber > 0 && ti.Status.BlockHash != "" {
			s.Block, s.BlockHash = uint64(ti.Status.BlockNumber), common.HexToHash(ti.Status.BlockHash)
		}
		ci.submitted[ti.Name] = s
	case v1alpha1.IntentPhaseCancelling:
		if c, ok := cancellingOf(ti, from); ok {
			ci.cancelling[ti.Name] = c
		}
	default:
		place.resourceVersion = ti.ResourceVersion // remembered so an older event cannot re-add it
	}
	order := x.placeOrderLocked(ti, place.phase)
	x.where[ti.Name] = place
	if !known {
		x.arrivedLocked(ti, chainID, place.phase, order)
	}
}

// arrivedLocked records an intent new to the index on the chains whose blocks it is looked for in:
// a pending intent's transaction and its order's Opened event on its chain, an order's Filled
// event on its destination. The informer delivers an intent some time after it was stored, and
// the client may have sent its transaction at once: the chain's follower may have read the block
// that holds it before the intent was here to match. Each follower asks Late before reading on.
func (x *Index) arrivedLocked(ti *v1alpha1.TransferIntent, chainID uint64, phase v1alpha1.IntentPhase, order *OrderRef) {
	if phase != v1alpha1.IntentPhasePending && order == nil {
		return // a submitted transfer is followed by its hash, not found in blocks
	}
	created := intent.IDTime(ti.Spec.ID)
	if created.IsZero() {
		created = ti.CreationTimestamp.Time // a hand-made object: whole seconds
	}
	span := lateSpan{From: created.Add(-arrivalSkew), Until: x.now()}
	x.widenLateLocked(chainID, span)
	if order != nil && order.Dest != chainID {
		x.widenLateLocked(order.Dest, span)
	}
}

func (x *Index) widenLateLocked(chainID uint64, span lateSpan) {
	if prev, ok := x.late[chainID]; ok {
		if prev.From.Before(span.From) {
			span.From = prev.From
		}
		if prev.Until.After(span.Until) {
			span.Until = prev.Until
		}
	}
	x.late[chainID] = span
}

// Late returns and forgets the span of wall-clock time in which the chain's follower may have
// processed blocks holding what intents asked for that arrived in the index since the last call:
// ok is false when none arrived.
func (x *Index) Late(chainID uint64) (span lateSpan, ok bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	span, ok = x.late[chainID]
	delete(x.late, chainID)
	return span, ok
}

// removeLocked takes the intent out of wherever it is; id, its API id, finds it in a pending list.
func (x *Index) removeLocked(name, id string) {
	p, ok := x.where[name]
	if !ok {
		return
	}
	delete(x.where, name)
	x.removeOrderLocked(name)
	if p.hash != (common.Hash{}) && x.held[p.hash] == name {
		delete(x.held, p.hash)
	}
	ci := x.chains[p.chain]
	if ci == nil {
		return
	}
	switch p.phase {
	case v1alpha1.IntentPhasePending:
		// The list is sorted by id and may be long (identical payments: one recipient, one
		// amount): find the entry by a binary search rather than comparing every name, on every
		// update of any of them.
		list := ci.pending[p.key]
		removed := false
		i, _ := slices.BinarySearchFunc(list, id, func(e Pending, id string) int { return strings.Compare(e.ID, id) })
		for ; i < len(list) && list[i].ID == id; i++ {
			if list[i].Name == name {
				list, removed = slices.Delete(list, i, i+1), true
				break
			}
		}
		if !removed { // an id that is not the one it was placed under (a hand-made object): by name
			list = slices.DeleteFunc(list, func(e Pending) bool { return e.Name == name })
		}
		if len(list) == 0 {
			delete(ci.pending, p.key)
		} else {
			ci.pending[p.key] = list
		}
	case v1alpha1.IntentPhaseSubmitted:
		delete(ci.submitted, name)
	case v1alpha1.IntentPhaseCancelling:
		delete(ci.cancelling, name)
	}
}

// Match is a transaction of a block matched to a pending intent.
type Match struct {
	Pending
	Tx *types.Transaction
}

// createdSkew allows for the clocks of the API server and the chain's block producer.
const createdSkew = time.Minute

// HeldBy names the intent that follows or followed the transaction, or "".
func (x *Index) HeldBy(hash common.Hash) string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.held[hash]
}

// Match returns the pending intents of the chain that the transactions of a block made at
// blockTime execute: a transaction matches when its recipient, value and calldata are an
// intent's, it was sent by the intent's from, the block is not older than the intent, and no
// other intent holds the transaction already. The sender is recovered (signer) only for
// candidates, so a block costs a hash and a map lookup per transaction. Each intent is matched at
// most once, oldest first among identical ones.
func (x *Index) Match(chainID uint64, signer types.Signer, blockTime time.Time, txs []*types.Transaction) []Match {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ci := x.chains[chainID]
	if ci == nil || len(ci.pending) == 0 {
		return nil
	}
	var (
		matches []Match
		taken   map[string]bool
	)
	for _, tx := range txs {
		key, ok := keyOfTx(tx)
		if !ok {
			continue
		}
		candidates := ci.pending[key]
		if len(candidates) == 0 {
			continue
		}
		if _, held := x.held[tx.Hash()]; held {
			continue // a block read again after a restart or a rewind: its intent has it
		}
		sender, err := types.Sender(signer, tx)
		if err != nil {
			continue
		}
		for _, p := range candidates {
			if p.From != sender || taken[p.Name] || blockTime.Before(p.CreatedAt.Add(-createdSkew)) {
				continue
			}
			if taken == nil {
				taken = map[string]bool{}
			}
			taken[p.Name] = true
			matches = append(matches, Match{Pending: p, Tx: tx})
			break
		}
	}
	return matches
}

// Submitted returns the submitted intents of the chain whose transaction's receipt is still to be
// followed, in no order.
func (x *Index) Submitted(chainID uint64) []Submitted {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ci := x.chains[chainID]
	if ci == nil {
		return nil
	}
	out := make([]Submitted, 0, len(ci.submitted))
	for _, s := range ci.submitted {
		if !s.OpenFinal {
			out = append(out, s)
		}
	}
	return out
}

// Cancelling returns the cancelling gasless intents whose origin is the chain, in no order.
func (x *Index) Cancelling(chainID uint64) []Cancelling {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ci := x.chains[chainID]
	if ci == nil {
		return nil
	}
	out := make([]Cancelling, 0, len(ci.cancelling))
	for _, c := range ci.cancelling {
		out = append(out, c)
	}
	return out
}

// PendingCount is the number of pending intents of the chain.
func (x *Index) PendingCount(chainID uint64) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := 0
	if ci := x.chains[chainID]; ci != nil {
		for _, list := range ci.pending {
			n += len(list)
		}
	}
	return n
}

// openFinal reports whether the order's open transaction was seen final on its origin chain.
func openFinal(ti *v1alpha1.TransferIntent) bool {
	return meta.IsStatusConditionTrue(ti.Status.Conditions, v1alpha1.ConditionOrderOpened)
}

// txChain is the numeric chain id the intent's transaction is for.
func txChain(ti *v1alpha1.TransferIntent) (uint64, bool) {
	if ti.Spec.Tx == nil || ti.Spec.Tx.ChainID <= 0 {
		return 0, false
	}
	return uint64(ti.Spec.Tx.ChainID), true
}

// fromAddress is the address of the intent's from (CAIP-10).
func fromAddress(ti *v1alpha1.TransferIntent) (common.Address, bool) {
	acct, err := caip.ParseAccountID(ti.Spec.Request.From)
	if err != nil {
		return common.Address{}, false
	}
	return acct.EVMAddress()
}

// intentKey is the key of the transaction the service wrote for the intent.
func intentKey(tx *v1alpha1.TransactionPayload) (txKey, bool) {
	if tx == nil || !common.IsHexAddress(tx.To) {
		return txKey{}, false
	}
	value, ok := new(big.Int).SetString(tx.Value, 10)
	if !ok || value.Sign() < 0 || value.BitLen() > 256 {
		return txKey{}, false
	}
	data, err := hexutil.Decode(normaliseHex(tx.Data))
	if err != nil {
		return txKey{}, false
	}
	return keyOf(common.HexToAddress(tx.To), value, data), true
}

// normaliseHex accepts "0x" (no calldata), which hexutil.Decode reads as empty.
func normaliseHex(s string) string {
	if s == "" {
		return "0x"
	}
	return s
}
