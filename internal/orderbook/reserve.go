package orderbook

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/gasless"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// The bound of a wallet's outstanding orders (issue 47, item 4). A signed order is a promise that
// the wallet will hold its input when a filler opens it; nothing on chain reserves it. So that one
// unit cannot back a hundred full-balance orders in the book:
//
//   - a signature is refused (KindOrdersExceedFunds, nothing written) when the wallet's signed
//     orders of the token, with the new one, take more than it holds and allows Permit2, as the
//     node answered in the signature's own check;
//   - the book serves a wallet's signed orders of a token oldest first for as long as what they
//     take stays within what the wallet was last read to hold and allow (coverLocked); the rest
//     are left out (hidden, not moved to another state), and so is an order whose Permit2 nonce
//     was found spent. Recheck reads every such wallet again on a schedule, so orders leave the
//     book when their funds or nonce go, and come back only when a read finds them standing.
//
// The first bound holds per replica (two replicas may accept one signature each at the same
// moment); the second closes that gap on every replica at its next read.

// KindOrdersExceedFunds refuses a signature whose order, with the wallet's other signed orders of
// the token, would take more than the wallet holds and allows Permit2.
const KindOrdersExceedFunds intent.ProblemKind = "orders-exceed-funds"

// DefaultRecheckInterval is how often Start reads the wallets of the book's signed orders again:
// about a block of a slow chain, so that an order whose funds left is served for seconds, not for
// as long as it lives.
const DefaultRecheckInterval = 15 * time.Second

// hiddenReason says why the book leaves a listed order out.
type hiddenReason string

const (
	// hiddenUnfunded: the wallet's older signed orders of the token take what it holds.
	hiddenUnfunded hiddenReason = "unfunded"
	// hiddenNonceSpent: the order's Permit2 nonce is spent: no filler can open it.
	hiddenNonceSpent hiddenReason = "nonce-spent"
)

// coverLocked decides which of wallet's listed orders the book serves. An opened (submitted)
// order is always served: its input left the wallet when it was opened. A signed order is left
// out when its nonce was found spent, or when the wallet's older signed orders of the same token,
// with it, take more than the wallet was last read to hold and allow Permit2; a wallet never read
// (its orders came from another replica's signature a moment ago) is taken as covering them.
func (x *index) coverLocked(wallet string) {
	orders := x.byWallet[wallet]
	signed := make([]*Order, 0, len(orders))
	for _, o := range orders {
		o.hidden = ""
		switch {
		case o.Status != v1alpha1.IntentPhaseSigned:
		case x.spent[o.funds.name]:
			o.hidden = hiddenNonceSpent
		default:
			signed = append(signed, o)
		}
	}
	slices.SortFunc(signed, func(a, b *Order) int { return a.position().compare(b.position()) })
	taken := map[common.Address]*big.Int{}
	for _, o := range signed {
		h, known := x.covers[wallet][o.funds.token]
		if !known {
			continue
		}
		t := new(big.Int).Add(orZero(taken[o.funds.token]), o.funds.amountIn)
		if t.Cmp(h.Available()) > 0 {
			o.hidden = hiddenUnfunded
			continue
		}
		taken[o.funds.token] = t
	}
}

func orZero(n *big.Int) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	return n
}

// outstandingLocked is what the wallet's signed orders of token other than name take, with the
// signatures being recorded on this replica: every listed one whose nonce is not spent, served or
// not (an order left out for want of funds comes back when they do).
func (x *index) outstandingLocked(f funds) *big.Int {
	sum := new(big.Int).Set(orZero(x.pending[f.wallet][f.token]))
	for name, o := range x.byWallet[f.wallet] {
		if name != f.name && o.Status == v1alpha1.IntentPhaseSigned && o.funds.token == f.token && !x.spent[name] {
			sum.Add(sum, o.funds.amountIn)
		}
	}
	return sum
}

// reserve holds f's input for a signature being recorded, when the wallet's outstanding orders of
// the token leave room for it in h (what the node just answered); it records h as what the wallet
// holds either way. release gives the hold back: call it once the signature is in the book (or
// was not written).
func (x *index) reserve(f funds, h gasless.Holding) (outstanding *big.Int, release func(), ok bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.initLocked()
	if x.covers[f.wallet] == nil {
		x.covers[f.wallet] = map[common.Address]gasless.Holding{}
	}
	x.covers[f.wallet][f.token] = h
	x.coverLocked(f.wallet)
	outstanding = x.outstandingLocked(f)
	if new(big.Int).Add(outstanding, f.amountIn).Cmp(h.Available()) > 0 {
		x.forgetCoverLocked(f.wallet)
		return outstanding, nil, false
	}
	if x.pending[f.wallet] == nil {
		x.pending[f.wallet] = map[common.Address]*big.Int{}
	}
	x.pending[f.wallet][f.token] = new(big.Int).Add(orZero(x.pending[f.wallet][f.token]), f.amountIn)
	return outstanding, func() {
		x.mu.Lock()
		defer x.mu.Unlock()
		left := new(big.Int).Sub(x.pending[f.wallet][f.token], f.amountIn)
		if x.pending[f.wallet][f.token] = left; left.Sign() <= 0 {
			delete(x.pending[f.wallet], f.token)
			if len(x.pending[f.wallet]) == 0 {
				delete(x.pending, f.wallet)
			}
		}
		x.forgetCoverLocked(f.wallet)
	}, true
}

// forgetCoverLocked drops what is known of a wallet that lists no order.
func (x *index) forgetCoverLocked(wallet string) {
	if len(x.byWallet[wallet]) == 0 && len(x.pending[wallet]) == 0 {
		delete(x.covers, wallet)
	}
}

// exceedsFunds is the refusal of a signature past the wallet's funds.
func exceedsFunds(f funds, outstanding *big.Int, h gasless.Holding) error {
	return &intent.Problem{Kind: KindOrdersExceedFunds, Field: "signature",
		Detail: fmt.Sprintf("%s's signed orders of %s outstanding take %s base units; with this order's %s they would take more than the %s it holds and allows Permit2: cancel an order, or add funds",
			f.user.Hex(), f.token.Hex(), outstanding, f.amountIn, h.Available()),
		Details: map[string]any{"outstanding": outstanding.String(), "amountIn": f.amountIn.String(), "available": h.Available().String()}}
}

// source is the chain and Permit2 a group of wallets is read through.
type source struct {
	chain   string
	permit2 common.Address
}

// walletRead is one wallet's query, and the orders it asks about by name.
type walletRead struct {
	wallet string
	query  gasless.Query
	nonces map[string]string // order name -> nonce
}

// reads is what Recheck asks: every wallet with a signed listed order, by origin chain and Permit2.
func (x *index) reads() map[source][]walletRead {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := map[source][]walletRead{}
	for wallet, orders := range x.byWallet {
		var r *walletRead
		var src source
		for name, o := range orders {
			if o.Status != v1alpha1.IntentPhaseSigned {
				continue
			}
			if r == nil {
				src = source{o.funds.chain, o.funds.permit2}
				r = &walletRead{wallet: wallet, query: gasless.Query{User: o.funds.user}, nonces: map[string]string{}}
			}
			if !slices.Contains(r.query.Tokens, o.funds.token) {
				r.query.Tokens = append(r.query.Tokens, o.funds.token)
			}
			r.query.Nonces = append(r.query.Nonces, o.funds.nonce)
			r.nonces[name] = o.funds.nonce.String()
		}
		if r != nil {
			out[src] = append(out[src], *r)
		}
	}
	return out
}

// apply records what a read found of each wallet, and what the book serves of it now.
func (x *index) apply(reads []walletRead, standings []gasless.Standing) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for i, r := range reads {
		orders := x.byWallet[r.wallet]
		if len(orders) == 0 {
			continue // gone while it was read
		}
		if x.covers[r.wallet] == nil {
			x.covers[r.wallet] = map[common.Address]gasless.Holding{}
		}
		for token, h := range standings[i].Holdings {
			x.covers[r.wallet][token] = h
		}
		for name, nonce := range r.nonces {
			if _, listed := orders[name]; !listed {
				continue
			}
			if standings[i].Spent[nonce] {
				x.spent[name] = true
			} else {
				delete(x.spent, name) // a reorg gave the nonce back
			}
		}
		x.coverLocked(r.wallet)
	}
}

// Recheck reads again, on each origin chain, what the wallets of the book's signed orders hold
// and allow Permit2, and whether the orders' nonces are spent, and serves only what still stands
// (coverLocked). Each round trip is bounded by the Book's Timeout; a chain whose node does not
// answer keeps what was last known of its wallets. It returns the first node error, if any.
func (b *Book) Recheck(ctx context.Context) error {
	var first error
	for src, reads := range b.index.reads() {
		node, _, err := b.node(ctx, src.chain)
		if err == nil {
			queries := make([]gasless.Query, len(reads))
			for i, r := range reads {
				queries[i] = r.query
			}
			var standings []gasless.Standing
			if standings, err = gasless.ReadStandings(ctx, node, src.permit2, queries); err == nil {
				b.index.apply(reads, standings)
				continue
			}
		}
		if first == nil {
			first = fmt.Errorf("reading the wallets of the order book on %s: %w", src.chain, err)
		}
	}
	return first
}

// Start rechecks the book every RecheckInterval until ctx ends (a manager Runnable, on every
// replica: each serves its own book). A round lasts at most one interval.
func (b *Book) Start(ctx context.Context) error {
	interval := b.RecheckInterval
	if interval <= 0 {
		interval = DefaultRecheckInterval
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			round, cancel := context.WithTimeout(ctx, interval)
			if err := b.Recheck(round); err != nil {
				b.Log.V(1).Info("order book recheck incomplete", "error", err.Error())
			}
			cancel()
		}
	}
}

// NeedLeaderElection is false: every replica serves, and so rechecks, its own book.
func (*Book) NeedLeaderElection() bool { return false }
