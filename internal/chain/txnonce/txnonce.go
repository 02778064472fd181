// Package txnonce hands out the nonces of the transactions a process sends from its own keys.
//
// A node's pending nonce (eth_getTransactionCount at "pending") trails a transaction it has just
// accepted: geth adds an incoming transaction to its pool and promotes it in the background
// (legacypool.Add without sync), so a second send right after the first can read the same nonce
// and be refused ("already known" when the two transactions are the same, "replacement
// transaction underpriced" when they are not) or, worse, replace the first. A Tracker remembers
// the nonce it handed out last per sender and hands out the next one, never the same twice.
//
// What it remembers expires: a transaction the node drops (evicted, or refused after Next) would
// otherwise leave a gap no later transaction can fill. The node's view trails ours only by the
// pool's promotion lag, milliseconds: once the tracker has been ahead of the node for Window
// (counted from when it went ahead, however many nonces it handed out since), the node's view
// is the truth.
package txnonce

import (
	"context"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Window is how long a handed-out nonce is trusted over a lower pending nonce from the node.
const Window = 10 * time.Second

// PendingNoncer is the part of a node client that reads a sender's pending nonce
// (ethclient.Client and simulated.Client have it).
type PendingNoncer interface {
	PendingNonceAt(ctx context.Context, account common.Address) (uint64, error)
}

// Tracker hands out nonces per sender. The zero value is ready; it is safe for concurrent use.
type Tracker struct {
	// Now is the clock (time.Now when nil); tests set it.
	Now func() time.Time

	mu   sync.Mutex
	next map[common.Address]handedOut
}

type handedOut struct {
	nonce uint64 // the next nonce to hand out
	// aheadSince is when the tracker went ahead of the node's pending nonce (zero while it is
	// not): the window runs from there, not from the last nonce handed out, so that a steady
	// stream of sends cannot keep a gap open.
	aheadSince time.Time
}

// Next returns the nonce for from's next transaction: the node's pending nonce, or one past the
// nonce this Tracker handed out last if that is higher and recent.
func (t *Tracker) Next(ctx context.Context, node PendingNoncer, from common.Address) (uint64, error) {
	pending, err := node.PendingNonceAt(ctx, from)
	if err != nil {
		return 0, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	nonce, since := pending, time.Time{}
	if last, ok := t.next[from]; ok && last.nonce > pending {
		since = last.aheadSince
		if since.IsZero() {
			since = now
		}
		if now.Sub(since) < Window {
			nonce = last.nonce
		} else {
			since = time.Time{} // the node's view is the truth again
		}
	}
	if t.next == nil {
		t.next = map[common.Address]handedOut{}
	}
	t.next[from] = handedOut{nonce: nonce + 1, aheadSince: since}
	return nonce, nil
}

// Unused gives back a nonce Next handed out whose transaction the node refused, so the next
// transaction takes it; it does nothing when a later nonce was handed out since.
func (t *Tracker) Unused(from common.Address, nonce uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if last, ok := t.next[from]; ok && last.nonce == nonce+1 {
		t.next[from] = handedOut{nonce: nonce, aheadSince: last.aheadSince}
	}
}

func (t *Tracker) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}
