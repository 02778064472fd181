package orderbook

import (
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/chain/gasless"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// Order is one entry of the order book (OpenAPI OrderBookEntry): what a filler needs to open a
// signed gasless order with openFor, and nothing of the account or intent that owns it.
type Order struct {
	OrderID            string                      `json:"orderId"`
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
	funds       funds
	// hidden says why the book leaves the order out (reserve.go): "" when it is served.
	hidden hiddenReason
}

// funds is what an order takes from its user's wallet when it is opened, for the bound of a
// wallet's outstanding orders (reserve.go).
type funds struct {
	name     string         // the intent's object name
	chain    string         // the origin chain, CAIP-2
	wallet   string         // walletOf(chain, user)
	user     common.Address // the order's user
	token    common.Address // tokenIn
	amountIn *big.Int
	nonce    *big.Int // the Permit2 nonce
	permit2  common.Address
}

// Position is where an order stands in the book: the book is served oldest first, by creation
// time and then orderId, so that a filler reading it page by page reaches the orders that waited
// longest first. Both are fields of the entry, so a cursor made of them tells nothing more.
type Position struct {
	CreatedAt time.Time
	OrderID   string
}

// PositionOf is o's position, the cursor after it.
func PositionOf(o Order) Position { return Position{CreatedAt: o.CreatedAt, OrderID: o.OrderID} }

func (p Position) compare(q Position) int {
	if c := p.CreatedAt.Compare(q.CreatedAt); c != 0 {
		return c
	}
	return strings.Compare(p.OrderID, q.OrderID)
}

func (o *Order) position() Position { return PositionOf(*o) }

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

// index holds the listed gasless orders of every environment, oldest first (by Position), and
// the resourceVersion last seen of every gasless intent, listed or not, so that an older version
// (the watch's, behind the book's own write) never brings back an order that left the book.
type index struct {
	mu     sync.RWMutex
	byName map[string]*Order
	sorted map[v1alpha1.Environment][]*Order
	seen   map[string]string
	// byWallet is the listed orders of each wallet (walletOf), by name: the bound of a wallet's
	// outstanding orders reads it (reserve.go).
	byWallet map[string]map[string]*Order
	// covers is what each wallet was last read to hold of each token (reserve.go); a wallet's
	// entry goes with its last listed order.
	covers map[string]map[common.Address]gasless.Holding
	// spent names the listed orders whose Permit2 nonce the last read found spent.
	spent map[string]bool
	// pending is the input of signatures being recorded on this replica, by wallet and token.
	pending map[string]map[common.Address]*big.Int
	// holds is the Permit2 nonce every unfinished gasless intent holds, by name; held counts
	// them by holder (walletOf) and nonce, so that Nonce never hands one out twice.
	holds map[string]nonceHold
	held  map[nonceHold]int
}

// nonceHold is a Permit2 nonce of one user on one chain.
type nonceHold struct{ holder, nonce string }

// walletOf keys a user's orders and nonces on a chain (CAIP-2, 0x address; case-insensitive).
func walletOf(chainID, user string) string { return strings.ToLower(chainID + ":" + user) }

// holds reports whether an unfinished intent of user on chainID holds the Permit2 nonce.
func (x *index) holding(chainID, user string, nonce *big.Int) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.held[nonceHold{walletOf(chainID, user), nonce.String()}] > 0
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
	h := nonceHold{walletOf(ti.Spec.FromChain, from.Address), ti.Spec.Gasless.Nonce}
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

// List returns a page of env's orders matching f, oldest first, after the position after (nil:
// from the first), and whether more follow. An order that left the book since its position was
// handed out still marks the place: the next page starts after it.
func (b *Book) List(env v1alpha1.Environment, f Filter, after *Position, limit int) ([]Order, bool) {
	b.index.mu.RLock()
	defer b.index.mu.RUnlock()
	list := b.index.sorted[env]
	start := 0
	if after != nil {
		start, _ = slices.BinarySearchFunc(list, *after, func(o *Order, p Position) int { return o.position().compare(p) })
		if start < len(list) && list[start].position() == *after {
			start++
		}
	}
	out := make([]Order, 0, min(limit, len(list)-start))
	for _, o := range list[start:] {
		if o.hidden != "" || !f.matches(o) {
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
	x.initLocked()
	if prev := x.seen[ti.Name]; prev != "" && ti.ResourceVersion != "" {
		if c, err := resourceversion.CompareResourceVersion(ti.ResourceVersion, prev); err == nil && c < 0 {
			return
		}
	}
	x.seen[ti.Name] = ti.ResourceVersion
	x.holdLocked(ti, intent.Finished(intentstatus.Phase(ti)))
	prev := x.removeLocked(ti.Name)
	if !listed {
		delete(x.spent, ti.Name)
		if prev != nil {
			x.forgetCoverLocked(prev.funds.wallet)
		}
		return
	}
	x.byName[ti.Name] = o
	list := x.sorted[o.environment]
	i, _ := slices.BinarySearchFunc(list, o.position(), func(e *Order, p Position) int { return e.position().compare(p) })
	x.sorted[o.environment] = slices.Insert(list, i, o)
	if x.byWallet[o.funds.wallet] == nil {
		x.byWallet[o.funds.wallet] = map[string]*Order{}
	}
	x.byWallet[o.funds.wallet][ti.Name] = o
	x.coverLocked(o.funds.wallet)
}

func (x *index) initLocked() {
	if x.byName == nil {
		x.byName, x.sorted, x.seen = map[string]*Order{}, map[v1alpha1.Environment][]*Order{}, map[string]string{}
		x.byWallet, x.holds, x.held = map[string]map[string]*Order{}, map[string]nonceHold{}, map[nonceHold]int{}
		x.covers, x.spent, x.pending = map[string]map[common.Address]gasless.Holding{}, map[string]bool{}, map[string]map[common.Address]*big.Int{}
	}
}

func (x *index) remove(name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if prev := x.removeLocked(name); prev != nil {
		x.forgetCoverLocked(prev.funds.wallet)
	}
	delete(x.seen, name)
	delete(x.spent, name)
	if h, ok := x.holds[name]; ok {
		if x.held[h]--; x.held[h] <= 0 {
			delete(x.held, h)
		}
		delete(x.holds, name)
	}
}

// removeLocked takes the order name out of the book and returns it (nil when it was not in it).
// What is known of its wallet's funds stays: the caller forgets it (forgetCoverLocked) when the
// order is not put back, so that an order left out for want of funds cannot come back merely by
// being removed and placed again (an informer's resync).
func (x *index) removeLocked(name string) *Order {
	o, ok := x.byName[name]
	if !ok {
		return nil
	}
	delete(x.byName, name)
	list := x.sorted[o.environment]
	if i, found := slices.BinarySearchFunc(list, o.position(), func(e *Order, p Position) int { return e.position().compare(p) }); found {
		x.sorted[o.environment] = slices.Delete(list, i, i+1)
	}
	if orders := x.byWallet[o.funds.wallet]; orders != nil {
		if delete(orders, name); len(orders) == 0 {
			delete(x.byWallet, o.funds.wallet)
		}
	}
	x.coverLocked(o.funds.wallet)
	return o
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
	g, permit2, err := transferrecord.GaslessOrderOf(ti)
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
	f, err := fundsOf(ti, g, permit2)
	if err != nil {
		return nil, false
	}
	return &Order{
		OrderID: ti.Spec.OrderID, Status: phase, Type: ti.Spec.Type,
		OriginChainID: ti.Spec.FromChain, DestinationChainID: ti.Spec.ToChain,
		Order: transferrecord.OrderJSONOf(g), Signature: ti.Status.Signature,
		OpenFor:   v1alpha1.TransactionPayload{To: g.OriginSettler.Hex(), Data: hexutil.Encode(data), Value: "0", ChainID: ti.Spec.Tx.ChainID},
		CreatedAt: intent.IDTime(ti.Spec.ID).UTC(), environment: ti.Spec.Environment, token: ti.Spec.Request.Asset.In,
		Auction: transferrecord.AuctionOf(ti.Spec),
		funds:   f,
	}, true
}

// fundsOf is what ti's order g takes from its user's wallet.
func fundsOf(ti *v1alpha1.TransferIntent, g settlement.GaslessOrder, permit2 common.Address) (funds, error) {
	o, err := settlement.Decode(g.OrderData)
	if err != nil {
		return funds{}, err
	}
	return funds{name: ti.Name, chain: ti.Spec.FromChain, wallet: walletOf(ti.Spec.FromChain, o.User.Hex()), user: o.User,
		token: o.TokenIn, amountIn: o.AmountIn, nonce: g.Nonce, permit2: permit2}, nil
}
