package jsonrpc

import (
	"context"
	"sync"

	"github.com/sony/gobreaker/v2"
)

// Pool keeps one client per chain for one caller, dialled on first use and again when the Chain's
// URL changes, so that a breaker remembers a node across requests. A client replaced while a call
// is under way on it ends that call (for http(s), closing does nothing). The client of a deleted
// Chain stays until the process ends: for http(s) it holds no connection of its own.
type Pool struct {
	opts Options

	mu      sync.Mutex
	clients map[string]*Client // by chain CAIP-2 id
}

// NewPool returns an empty pool whose clients take opts.
func NewPool(opts Options) *Pool {
	return &Pool{opts: opts, clients: map[string]*Client{}}
}

// Client returns the client of chain's node at url.
func (p *Pool) Client(ctx context.Context, chain, url string) (*Client, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.clients[chain]; c != nil && c.url == url {
		return c, nil
	}
	c, err := Dial(ctx, chain, url, p.opts)
	if err != nil {
		return nil, err
	}
	if old := p.clients[chain]; old != nil {
		old.Close()
		// The new client's breaker starts closed without a state change to report.
		p.opts.Metrics.breaker(chain, p.opts.Caller, gobreaker.StateClosed)
	}
	p.clients[chain] = c
	return c, nil
}

// Close closes every client.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for chain, c := range p.clients {
		c.Close()
		delete(p.clients, chain)
	}
}
