// Package watcher follows each Chain with an RPC endpoint and moves its intents through the
// lifecycle: a pending intent whose exact transaction (recipient, value, calldata, and sender
// recovered with the chain's signer) appears in a block becomes submitted, with its hash and
// block; once the block is the chain's confirmation depth deep, the receipt decides confirmed or
// failed; a block that leaves the chain before that (a reorg) drops the intent back to pending.
//
// It runs on the elected leader only (a leader-election Runnable) with one goroutine per chain,
// and records its progress (the last block matched) in the Chain's status.watch, where a new
// leader resumes, catching up on the blocks it missed within Options.Lookback.
package watcher

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/defaults"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Caller names the watcher's round trips in the jsonrpc metrics.
const Caller = "watcher"

// Defaults of Options.
const (
	DefaultLookback         = time.Hour
	DefaultCallTimeout      = 10 * time.Second
	DefaultMaxBlocksPerStep = 500
	DefaultBlocksPerBatch   = 10
	DefaultReceiptsPerBatch = 100
	DefaultProgressInterval = 10 * time.Second
	DefaultDropAfterMisses  = 3
	DefaultMaxBackoff       = 30 * time.Second
)

// Options are the watcher's settings; zero values take the defaults.
type Options struct {
	// PollInterval is how often a chain's node is asked for new blocks; by default half the
	// chain's block time, between 250ms and 5s.
	PollInterval time.Duration
	// Lookback bounds the catch-up of a watcher that starts with no progress recorded, or with
	// progress older than this: it starts this long (in the chain's block time) before the head.
	Lookback time.Duration
	// CallTimeout bounds every call to a node.
	CallTimeout time.Duration
	// MaxBlocksPerStep bounds the blocks one step reads before it follows the receipts.
	MaxBlocksPerStep uint64
	// BlocksPerBatch is how many blocks one JSON-RPC batch reads.
	BlocksPerBatch uint64
	// ReceiptsPerBatch is how many receipts one JSON-RPC batch reads.
	ReceiptsPerBatch uint64
	// ProgressInterval is how often progress is written to the Chain's status.
	ProgressInterval time.Duration
	// DropAfterMisses is how many steps in a row a reported transaction may be unknown to the node
	// before the intent goes back to pending.
	DropAfterMisses int
	// MaxBackoff bounds the wait after a failed step.
	MaxBackoff time.Duration
	// Metrics receives the watcher's metrics; nil leaves them unregistered.
	Metrics prometheus.Registerer
	// RPCMetrics receives the round trips to the nodes; nil records none.
	RPCMetrics *jsonrpc.Metrics
	// Attester signs the fills of bridges once final, so that fillers can claim the escrow on the
	// origin chain; nil attests nothing (bridges are confirmed, but their fillers wait).
	Attester *settlement.Attester
	// SingleSourceAttestation lets the attester sign a bridge fill that one endpoint alone reports,
	// on a Chain without witnessRpcs: a lying or intercepted node can then forge a payout. For local
	// development chains only (--unsafe-single-rpc-attestation).
	SingleSourceAttestation bool
	// TrustedSources lists, per destination chain, the RPC hosts whose word may release a bridge
	// escrow (--attestation-trusted-hosts): for a chain on it, a fill is attested only when two of
	// its endpoints on the list agree. Empty: the Chain's own endpoints.
	TrustedSources registry.TrustedSources
	// FillerName, when set, names the Filler whose payout address on a chain (CAIP-2) an address
	// is, "" for none: a fill's record names its filler (registry.FillerDirectory.NameOf).
	FillerName func(chain string, address common.Address) string
	// Heads, when set, is told each head the watcher reads of a chain (by its CAIP-2 id): the
	// simulation's chain view follows heads without asking the node again (chaindata.ObserveHead).
	// It must not block.
	Heads func(chain string, head uint64)
}

func (o Options) withDefaults() Options {
	defaults.Positive(&o.Lookback, DefaultLookback)
	defaults.Positive(&o.CallTimeout, DefaultCallTimeout)
	defaults.Positive(&o.ProgressInterval, DefaultProgressInterval)
	defaults.Positive(&o.MaxBackoff, DefaultMaxBackoff)
	defaults.Positive(&o.MaxBlocksPerStep, DefaultMaxBlocksPerStep)
	defaults.Positive(&o.BlocksPerBatch, DefaultBlocksPerBatch)
	defaults.Positive(&o.ReceiptsPerBatch, DefaultReceiptsPerBatch)
	defaults.Positive(&o.DropAfterMisses, DefaultDropAfterMisses)
	return o
}

// pollInterval is how often the chain is polled.
func (o Options) pollInterval(c registry.Chain) time.Duration {
	if o.PollInterval > 0 {
		return o.PollInterval
	}
	return min(max(time.Duration(c.BlockTimeSeconds)*time.Second/2, 250*time.Millisecond), 5*time.Second)
}

// Watcher runs a follower per Chain with an RPC endpoint, on the leader.
type Watcher struct {
	// Namespace holds the Chains and intents.
	Namespace string
	// Chains is the served chain table; the watcher follows its rows with an RPCURL and reacts to
	// its changes.
	Chains *registry.ChainTable
	// Index is the pending and submitted intents, fed from the informer.
	Index *Index
	// Synced reports whether Index has received the informer's initial list.
	Synced func() bool
	// Writer records transitions and progress.
	Writer *intentstatus.Writer
	// Cache reads the Chains' recorded progress.
	Cache client.Reader
	Options
	Log logr.Logger

	metrics *metrics
}

// New returns a watcher with its metrics registered.
func New(w Watcher) (*Watcher, error) {
	w.Options = w.withDefaults()
	m, err := newMetrics(w.Metrics)
	if err != nil {
		return nil, err
	}
	w.metrics = m
	return &w, nil
}

// NeedLeaderElection makes the manager start the watcher on the elected leader only.
func (w *Watcher) NeedLeaderElection() bool { return true }

// running is a follower's goroutine.
type running struct {
	chain  registry.Chain
	cancel context.CancelFunc
	done   chan struct{}
}

// Start follows every chain with an RPC endpoint until ctx ends, starting, restarting and stopping
// followers as Chains come, change and go.
func (w *Watcher) Start(ctx context.Context) error {
	changed := make(chan struct{}, 1)
	w.Chains.OnChange(func([]string) {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	if !toolscache.WaitForCacheSync(ctx.Done(), w.Synced) {
		return nil // stopping
	}
	runs := map[string]*running{}
	defer func() {
		for _, r := range runs {
			r.cancel()
		}
		for _, r := range runs {
			<-r.done
		}
	}()
	for {
		w.reconcile(ctx, runs)
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
		}
	}
}

// reconcile makes the set of followers match the chain table.
func (w *Watcher) reconcile(ctx context.Context, runs map[string]*running) {
	want := map[string]registry.Chain{}
	for _, c := range w.Chains.List() {
		if c.RPCURL != "" && c.NumericID != nil && c.NumericID.IsUint64() {
			want[c.ID] = c
		}
	}
	for id, r := range runs {
		if c, ok := want[id]; !ok || !sameFollow(c, r.chain) {
			r.cancel()
			<-r.done
			delete(runs, id)
		}
	}
	for id, c := range want {
		if _, ok := runs[id]; ok {
			continue
		}
		fctx, cancel := context.WithCancel(ctx)
		r := &running{chain: c, cancel: cancel, done: make(chan struct{})}
		runs[id] = r
		go func() {
			defer close(r.done)
			w.follow(fctx, c)
		}()
	}
}

// sameFollow reports whether a follower of a can go on for b.
func sameFollow(a, b registry.Chain) bool {
	return a.RPCURL == b.RPCURL && a.Name == b.Name && a.BlockTimeSeconds == b.BlockTimeSeconds &&
		a.FinalitySeconds == b.FinalitySeconds && a.NumericID.Cmp(b.NumericID) == 0 &&
		slices.Equal(a.WitnessURLs, b.WitnessURLs) && a.BridgeMinConfirmations == b.BridgeMinConfirmations &&
		a.SettlementAddress == b.SettlementAddress
}

// follow runs one chain's follower until ctx ends, backing off after failures.
func (w *Watcher) follow(ctx context.Context, chain registry.Chain) {
	log := w.Log.WithValues("chain", chain.ID)
	poll := w.pollInterval(chain)
	var (
		f       *follower
		backoff = poll
	)
	defer func() {
		if f != nil {
			// Leaving (shutdown, lost leadership, a changed Chain): record where we are, briefly.
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := f.recordProgress(fctx, true); err != nil {
				log.Error(err, "recording progress on the way out")
			}
			f.close()
		}
	}()
	for {
		wait := poll
		if f == nil {
			var err error
			if f, err = w.newFollower(ctx, chain, log); err != nil {
				w.metrics.failed(chain.ID)
				log.Error(err, "cannot follow the chain yet", "retryIn", backoff)
				wait, backoff = backoff, min(backoff*2, w.MaxBackoff)
			}
		} else {
			behind, err := f.step(ctx)
			switch {
			case ctx.Err() != nil:
				return
			case err != nil:
				w.metrics.failed(chain.ID)
				log.Error(err, "following the chain", "retryIn", backoff)
				wait, backoff = backoff, min(backoff*2, w.MaxBackoff)
			case behind:
				wait, backoff = 0, poll
			default:
				backoff = poll
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// newFollower connects to the chain's node, checks that it serves the chain, and places the
// follower at the recorded progress.
func (w *Watcher) newFollower(ctx context.Context, chain registry.Chain, log logr.Logger) (*follower, error) {
	// No breaker: the follower backs off by itself after a failed step (MaxBackoff).
	node, err := jsonrpc.Dial(ctx, chain.ID, chain.RPCURL, jsonrpc.Options{Caller: Caller, Timeout: w.CallTimeout, Metrics: w.RPCMetrics})
	if err != nil {
		return nil, err
	}
	id, err := node.ChainID(ctx)
	if err != nil {
		node.Close()
		return nil, err
	}
	if !sameChain(id, chain) {
		node.Close()
		return nil, fmt.Errorf("the node reports chain id %v, not %s", id, chain.ID)
	}
	var obj v1alpha1.Chain
	if err := w.Cache.Get(ctx, client.ObjectKey{Namespace: w.Namespace, Name: chain.Name}, &obj); err != nil {
		node.Close()
		return nil, fmt.Errorf("reading the progress of Chain %s: %w", chain.Name, err)
	}
	f := newFollower(chain, w.Namespace, node, w.Index, w.Writer, w.Options, log, w.metrics)
	f.chains = w.Chains
	f.witnesses = w.dialWitnesses(ctx, chain, log)
	head, err := node.Head(ctx)
	if err != nil {
		f.close()
		return nil, err
	}
	f.start(head, obj.Status.Watch)
	return f, nil
}

// dialWitnesses connects to the chain's witness endpoints. A witness that does not answer now is
// kept (it may answer later, is checked then, and abstains meanwhile: follower.servesChain); one
// that serves another chain is left out and logged, since its word about this chain means nothing.
func (w *Watcher) dialWitnesses(ctx context.Context, chain registry.Chain, log logr.Logger) []*witness {
	var out []*witness
	for i, url := range chain.WitnessURLs {
		c, err := jsonrpc.Dial(ctx, chain.ID, url, jsonrpc.Options{Caller: Caller, Timeout: w.CallTimeout, Metrics: w.RPCMetrics})
		if err != nil {
			log.Error(err, "cannot use a witness endpoint", "witness", i)
			continue
		}
		id, err := c.ChainID(ctx)
		if err == nil && !sameChain(id, chain) {
			log.Error(nil, "a witness endpoint serves another chain: left out", "witness", i, "chainId", id.String())
			c.Close()
			continue
		}
		out = append(out, &witness{Client: c, url: url, verified: err == nil})
	}
	return out
}
