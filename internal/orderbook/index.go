package orderbook

import (
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// Order is one entry of the order book (OpenAPI Order): what a filler needs to open a signed
// gasless order with openFor, and nothing of the account that owns it.
type Order struct {
	OrderID            string                      `json:"orderId"`
	IntentID           string                      `json:"intentId"`
	Status             v1alpha1.IntentPhase        `json:"status"`
	Type               v1alpha1.IntentType         `json:"type"`
	OriginChainID      string                      `json:"originChainId"`
	DestinationChainID string                      `json:"destinationChainId"`
	Order              transferrecord.OrderJSON    `json:"order"`
	Signature          string                      `json:"signature"`
	OpenFor            v1alpha1.TransactionPayload `json:"openFor"`
	CreatedAt          time.Time                   `json:"createdAt"`
	// Auction is the order's market terms: who may fill it until when, and what a fill owes as
	// time passes (the order's own fields, shown in display units).
	Auction     *intent.Auction `json:"auction,omitempty"`
	environment v1alpha1.Environment
	token       string // the input token, CAIP-10, for the token filter
}

// Filter selects orders; zero fields select all.
type Filter struct {
	Status v1alpha1.IntentPhase
	// Chain is the origin chain (CAIP-2); Token the input token (CAIP-10).
	Chain, Token string
}

func (f Filter) matches(o *Order) bool {
	return (f.Status == "" || o.Status == f.Status) && (f.Chain == "" || o.OriginChainID == f.Chain) &&
		(f.Token == "" || strings.EqualFold(o.token, f.Token))
}

// index holds the listed gasless orders of every environment, newest first (by intent id), and
// the resourceVersion last seen of every gasless intent, listed or not, so that an older version
// (the watch's, behind the book's own write) never brings back an order that left the book.
type index struct {
	mu     sync.RWMutex
	byName map[string]*Order
	sorted map[v1alpha1.Environment][]*Order
	seen   map[string]string
	// holds is the Permit2 nonce every unfinished gasless intent holds, by name; held counts
	// them by holder (nonceHolder) and nonce, so that Nonce never hands one out twice.
	holds map[string]nonceHold
	held  map[nonceHold]int
}

// nonceHold is a Permit2 nonce of one user on one chain.
type nonceHold struct{ holder, nonce string }

// nonceHolder keys a user's nonces on a chain (CAIP-2, 0x address; case-insensitive).
func nonceHolder(chainID, user string) string { return strings.ToLower(chainID + ":" + user) }

// holds reports whether an unfinished intent of user on chainID holds the Permit2 nonce.
func (x *index) holding(chainID, user string, nonce *big.Int) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.held[nonceHold{nonceHolder(chainID, user), nonce.String()}] > 0
}

// holdLocked records (finished false) or forgets the nonce ti holds.
func (x *index) holdLocked(ti *v1alpha1.TransferIntent, finished bool) {
	if prev, ok := x.holds[ti.Name]; ok {
		if x.held[prev]--; x.held[prev] <= 0 {
			delete(x.held, prev)
		}
		delete(x.holds, ti.Name)
	}
	if finished || ti.Spec.Gasless == nil {
		return
	}
	from, err := caip.ParseAccountID(ti.Spec.Request.From)
	if err != nil {
		return
	}
	h := nonceHold{nonceHolder(ti.Spec.FromChain, from.Address), ti.Spec.Gasless.Nonce}
	x.holds[ti.Name] = h
	x.held[h]++
}

// EventHandler feeds the book from the TransferIntent informer.
func (b *Book) EventHandler() toolscache.ResourceEventHandler {
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { b.observe(obj) },
		UpdateFunc: func(_, obj any) { b.observe(obj) },
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if ti, ok := obj.(*v1alpha1.TransferIntent); ok {
				b.index.remove(ti.Name)
			}
		},
	}
}

func (b *Book) observe(obj any) {
	if ti, ok := obj.(*v1alpha1.TransferIntent); ok {
		b.index.upsert(ti)
	}
}

// List returns a page of env's orders matching f, newest first, after the intent id after, and
// whether more follow.
func (b *Book) List(env v1alpha1.Environment, f Filter, after string, limit int) ([]Order, bool) {
	b.index.mu.RLock()
	defer b.index.mu.RUnlock()
	list := b.index.sorted[env]
	start := 0
	if after != "" {
		start, _ = slices.BinarySearchFunc(list, after, func(o *Order, id string) int { return -strings.Compare(o.IntentID, id) })
		if start < len(list) && list[start].IntentID == after {
			start++
		}
	}
	out := make([]Order, 0, min(limit, len(list)-start))
	for _, o := range list[start:] {
		if !f.matches(o) {
			continue
		}
		if len(out) == limit {
			return out, true
		}
		out = append(out, *o)
	}
	return out, false
}

// upsert places ti when it is a listed gasless order and removes it otherwise; an object older
// than the one placed is ignored, so that the book can take its own writes ahead of the watch.
func (x *index) upsert(ti *v1alpha1.TransferIntent) {
	if ti.Spec.Gasless == nil {
		return // never in the book
	}
	o, listed := orderOf(ti)
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.byName == nil {
		x.byName, x.sorted, x.seen = map[string]*Order{}, map[v1alpha1.Environment][]*Order{}, map[string]string{}
		x.holds, x.held = map[string]nonceHold{}, map[nonceHold]int{}
	}
	if prev := x.seen[ti.Name]; prev != "" && ti.ResourceVersion != "" {
		if c, err := resourceversion.CompareResourceVersion(ti.ResourceVersion, prev); err == nil && c < 0 {
			return
		}
	}
	x.seen[ti.Name] = ti.ResourceVersion
	x.holdLocked(ti, intent.Finished(intentstatus.Phase(ti)))
	x.removeLocked(ti.Name)
	if !listed {
		return
	}
	x.byName[ti.Name] = o
	list := x.sorted[o.environment]
	i, _ := slices.BinarySearchFunc(list, o.IntentID, func(e *Order, id string) int { return -strings.Compare(e.IntentID, id) })
	x.sorted[o.environment] = slices.Insert(list, i, o)
}

func (x *index) remove(name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeLocked(name)
	delete(x.seen, name)
	if h, ok := x.holds[name]; ok {
		if x.held[h]--; x.held[h] <= 0 {
			delete(x.held, h)
		}
		delete(x.holds, name)
	}
}

func (x *index) removeLocked(name string) {
	o, ok := x.byName[name]
	if !ok {
		return
	}
	delete(x.byName, name)
	list := x.sorted[o.environment]
	if i, found := slices.BinarySearchFunc(list, o.IntentID, func(e *Order, id string) int { return -strings.Compare(e.IntentID, id) }); found {
		x.sorted[o.environment] = slices.Delete(list, i, i+1)
	}
}

// listed says whether the book shows ti: a gasless order that was signed and is not finished
// (signed: offered; submitted: opened, so that a filler sees an order it opened until it is
// settled) unless its user withdrew it (cancelling). An unsigned order has no signature yet.
func listed(ti *v1alpha1.TransferIntent, phase v1alpha1.IntentPhase) bool {
	return ti.Spec.Gasless != nil && ti.Status.Signature != "" && !intent.Finished(phase) && phase != v1alpha1.IntentPhaseCancelling
}

// orderOf is ti's book entry, when it is a gasless order in a listed phase.
func orderOf(ti *v1alpha1.TransferIntent) (*Order, bool) {
	phase := intentstatus.Phase(ti)
	if !listed(ti, phase) {
		return nil, false
	}
	g, _, err := transferrecord.GaslessOrderOf(ti)
	if err != nil {
		return nil, false
	}
	sig, err := hexutil.Decode(ti.Status.Signature)
	if err != nil {
		return nil, false
	}
	data, err := settlement.OpenForData(g, sig)
	if err != nil {
		return nil, false
	}
	return &Order{
		OrderID: ti.Spec.OrderID, IntentID: ti.Spec.ID, Status: phase, Type: ti.Spec.Type,
		OriginChainID: ti.Spec.FromChain, DestinationChainID: ti.Spec.ToChain,
		Order: transferrecord.OrderJSONOf(g), Signature: ti.Status.Signature,
		OpenFor:   v1alpha1.TransactionPayload{To: g.OriginSettler.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: ti.Spec.Tx.ChainID},
		CreatedAt: intent.IDTime(ti.Spec.ID).UTC(), environment: ti.Spec.Environment, token: ti.Spec.Request.Asset.In,
		Auction: transferrecord.AuctionOf(ti.Spec),
	}, true
}
