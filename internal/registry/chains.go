package registry

import (
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
)

// ChainTable is the table of served chains, keyed by CAIP-2 id.
//
// It holds every Chain object the controller published, by object name; the served row for an id
// is the oldest object with that id (then the smallest name), so that a second Chain object for an
// existing id cannot silently replace the first. Reads are lock-free; see the package comment.
// The zero value is ready to use.
type ChainTable struct {
	mu        sync.Mutex       // serialises writers
	entries   map[string]Chain // every published object, by object name; guarded by mu
	listeners []func(chainIDs []string)

	snap atomic.Pointer[chainSnapshot]
}

// chainSnapshot is immutable once published.
type chainSnapshot struct {
	version uint64
	byID    map[string]Chain
	list    []Chain // sorted by ID (CompareChainIDs)
}

var emptyChainSnapshot = &chainSnapshot{byID: map[string]Chain{}}

// NewChainTable returns an empty table.
func NewChainTable() *ChainTable { return &ChainTable{} }

func (t *ChainTable) load() *chainSnapshot {
	if s := t.snap.Load(); s != nil {
		return s
	}
	return emptyChainSnapshot
}

// Get returns the served chain with the CAIP-2 id.
func (t *ChainTable) Get(caip2 string) (Chain, bool) {
	c, ok := t.load().byID[caip2]
	return c, ok
}

// List returns the served chains sorted by ID. The slice is shared: do not modify it.
func (t *ChainTable) List() []Chain { return t.load().list }

// Version increases with every change of the served chains.
func (t *ChainTable) Version() uint64 { return t.load().version }

// OnChange registers fn to be called after every write that changed the served row of some chain
// ids (added, removed, replaced or edited), with those ids. fn runs on the writer's goroutine,
// after the change is visible to readers; it must not block and must not write to the table.
func (t *ChainTable) OnChange(fn func(chainIDs []string)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.listeners = append(t.listeners, fn)
}

// Upsert publishes the Chain object objectName. It returns the name of the older object that
// defines the same chain id and is served instead, or "" when c is served.
func (t *ChainTable) Upsert(objectName string, c Chain) (conflictWith string) {
	c.Name = objectName
	t.mu.Lock()
	if t.entries == nil {
		t.entries = map[string]Chain{}
	}
	t.entries[objectName] = c
	changed, listeners := t.publishLocked()
	winner := t.load().byID[c.ID].Name
	t.mu.Unlock()
	notify(listeners, changed)
	if winner != objectName {
		return winner
	}
	return ""
}

// Delete removes the Chain object objectName. An object that lost a conflict to it is served
// from now on.
func (t *ChainTable) Delete(objectName string) {
	t.mu.Lock()
	if _, ok := t.entries[objectName]; !ok {
		t.mu.Unlock()
		return
	}
	delete(t.entries, objectName)
	changed, listeners := t.publishLocked()
	t.mu.Unlock()
	notify(listeners, changed)
}

// publishLocked rebuilds the snapshot from the entries and publishes it when the served rows
// changed. It returns the changed ids and the listeners to tell.
func (t *ChainTable) publishLocked() ([]string, []func([]string)) {
	old := t.load()
	byID := make(map[string]Chain, len(t.entries))
	for _, c := range t.entries {
		if cur, ok := byID[c.ID]; !ok || olderChain(c, cur) {
			byID[c.ID] = c
		}
	}
	var changed []string
	for id, c := range byID {
		if prev, ok := old.byID[id]; !ok || !chainEqual(prev, c) {
			changed = append(changed, id)
		}
	}
	for id := range old.byID {
		if _, ok := byID[id]; !ok {
			changed = append(changed, id)
		}
	}
	if len(changed) == 0 {
		return nil, nil
	}
	list := make([]Chain, 0, len(byID))
	for _, c := range byID {
		list = append(list, c)
	}
	slices.SortFunc(list, func(a, b Chain) int { return CompareChainIDs(a.ID, b.ID) })
	slices.SortFunc(changed, CompareChainIDs)
	t.snap.Store(&chainSnapshot{version: old.version + 1, byID: byID, list: slices.Clip(list)})
	return changed, slices.Clone(t.listeners)
}

func olderChain(a, b Chain) bool { return compareAge(a.CreatedAt, a.Name, b.CreatedAt, b.Name) < 0 }

func chainEqual(a, b Chain) bool {
	return a.ID == b.ID &&
		bigEqual(a.NumericID, b.NumericID) && a.Environment == b.Environment &&
		a.DisplayName == b.DisplayName && a.NativeSymbol == b.NativeSymbol &&
		a.NativeDecimals == b.NativeDecimals && a.BlockTimeSeconds == b.BlockTimeSeconds &&
		a.FinalitySeconds == b.FinalitySeconds && bigEqual(a.DefaultGasPriceWei, b.DefaultGasPriceWei) &&
		a.NativeTokenPriceUSD == b.NativeTokenPriceUSD && a.SettlementAddress == b.SettlementAddress &&
		a.SettlementVerified == b.SettlementVerified &&
		a.Permit2Address == b.Permit2Address && a.Permit2Verified == b.Permit2Verified && ptrEqual(a.Refund, b.Refund) &&
		a.RPCURL == b.RPCURL && a.Name == b.Name && a.CreatedAt.Equal(b.CreatedAt) &&
		slices.Equal(a.WitnessURLs, b.WitnessURLs) && a.BridgeMinConfirmations == b.BridgeMinConfirmations &&
		a.ExplorerURL == b.ExplorerURL && ptrEqual(a.NativePriceFeed, b.NativePriceFeed) &&
		bigEqual(a.MaxGasOnArrival, b.MaxGasOnArrival)
}

func bigEqual(a, b *big.Int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Cmp(b) == 0
}

// notify calls each listener with arg, when there is something to tell.
func notify[T any](listeners []func(T), arg T) {
	for _, fn := range listeners {
		fn(arg)
	}
}
