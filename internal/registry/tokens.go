package registry

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// TokenRegistry is the set of served token definitions (GET /v2/tokens).
//
// It holds every definition the controller published, by object name, and serves a subset: on
// each chain, definitions are taken oldest first (CreatedAt, then name) and one is served unless an
// already served definition has the same address or the same symbol (symbols compare without
// case: USDC and usdc on one chain would confuse every client). So deleting the older of two
// conflicting definitions serves the newer at once, with no reconcile in between.
//
// Reads are lock-free; see the package comment. The zero value is ready to use.
type TokenRegistry struct {
	mu      sync.Mutex       // serialises writers
	entries map[string]Token // every published definition, by object name; guarded by mu
	// blockedBy maps each entry to the served definition it conflicts with, "" when served.
	blockedBy        map[string]string
	onChange         []func()
	onConflictChange []func(chainIDs []string)

	snap atomic.Pointer[tokenSnapshot]
}

// tokenSnapshot is immutable once published.
type tokenSnapshot struct {
	version   uint64
	list      []Token            // served, sorted by chain then symbol
	byChain   map[string][]Token // sub-slices of list
	byAddress map[string]Token   // by normalised CAIP-10 address
	bySymbol  map[string]Token   // by symbolKey
}

var emptyTokenSnapshot = &tokenSnapshot{
	byChain: map[string][]Token{}, byAddress: map[string]Token{}, bySymbol: map[string]Token{},
}

// NewTokenRegistry returns an empty registry.
func NewTokenRegistry() *TokenRegistry { return &TokenRegistry{} }

func (r *TokenRegistry) load() *tokenSnapshot {
	if s := r.snap.Load(); s != nil {
		return s
	}
	return emptyTokenSnapshot
}

func symbolKey(chainID, symbol string) string { return chainID + "\x00" + strings.ToUpper(symbol) }

// List returns the served tokens sorted by chain (CompareChainIDs) then symbol. The slice is
// shared: do not modify it.
func (r *TokenRegistry) List() []Token { return r.load().list }

// ByChain returns the served tokens of one chain, sorted by symbol. The slice is shared: do not
// modify it.
func (r *TokenRegistry) ByChain(caip2 string) []Token { return r.load().byChain[caip2] }

// ByAddress returns the served token at a CAIP-10 address. An eip155 address may be given in any
// case: it is compared in its EIP-55 form.
// The request path hands it addresses already in EIP-55 form, so the exact key is tried first and
// the (Keccak) normalisation runs only on a miss.
func (r *TokenRegistry) ByAddress(caip10 string) (Token, bool) {
	byAddress := r.load().byAddress
	if t, ok := byAddress[caip10]; ok {
		return t, true
	}
	t, ok := byAddress[NormalizeCAIP10(caip10)]
	return t, ok
}

// BySymbol returns the served token with the symbol (compared without case) on a chain.
func (r *TokenRegistry) BySymbol(caip2, symbol string) (Token, bool) {
	t, ok := r.load().bySymbol[symbolKey(caip2, symbol)]
	return t, ok
}

// Version increases with every change of the served set; a cache of an encoded List keyed by it
// is current while the version is.
func (r *TokenRegistry) Version() uint64 { return r.load().version }

// OnChange registers fn to be called after every change of the served set (not after writes that
// changed nothing served). fn runs on the writer's goroutine after the change is visible; it must
// not block and must not write to the registry.
func (r *TokenRegistry) OnChange(fn func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.onChange = append(r.onChange, fn)
}

// OnConflictChange registers fn to be called when a write changed the conflict state of
// definitions other than the one written (one became served, or lost to or now conflicts with
// another), with the chains of those definitions, so that their status can be brought up to date.
// The same rules as for OnChange apply to fn.
func (r *TokenRegistry) OnConflictChange(fn func(chainIDs []string)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.onConflictChange = append(r.onConflictChange, fn)
}

// Upsert publishes a definition, keyed by t.Name. It returns the name of the older definition
// served instead of it, or "" when t is served. The address is stored in canonical form (EIP-55).
func (r *TokenRegistry) Upsert(t Token) (conflictWith string) {
	t.Address = NormalizeCAIP10(t.Address)
	r.mu.Lock()
	if r.entries == nil {
		r.entries = map[string]Token{}
	}
	r.entries[t.Name] = t
	changed, affected := r.publishLocked(t.Name)
	conflictWith = r.blockedBy[t.Name]
	onChange, onConflict := r.listenersLocked(changed, affected)
	r.mu.Unlock()
	r.tell(onChange, onConflict, affected)
	return conflictWith
}

// Delete removes the definition objectName. A definition that lost a conflict to it is served
// from now on.
func (r *TokenRegistry) Delete(objectName string) {
	r.mu.Lock()
	if _, ok := r.entries[objectName]; !ok {
		r.mu.Unlock()
		return
	}
	delete(r.entries, objectName)
	changed, affected := r.publishLocked(objectName)
	onChange, onConflict := r.listenersLocked(changed, affected)
	r.mu.Unlock()
	r.tell(onChange, onConflict, affected)
}

func (r *TokenRegistry) listenersLocked(changed bool, affected []string) ([]func(), []func([]string)) {
	var onChange []func()
	var onConflict []func([]string)
	if changed {
		onChange = slices.Clone(r.onChange)
	}
	if len(affected) > 0 {
		onConflict = slices.Clone(r.onConflictChange)
	}
	return onChange, onConflict
}

func (r *TokenRegistry) tell(onChange []func(), onConflict []func([]string), affected []string) {
	for _, fn := range onChange {
		fn()
	}
	notify(onConflict, affected)
}

// publishLocked recomputes the served set. It publishes a new snapshot when the served set
// changed, and returns whether it did and the chains of entries other than written whose conflict
// state changed.
func (r *TokenRegistry) publishLocked(written string) (changed bool, affectedChains []string) {
	byChain := map[string][]Token{}
	for _, t := range r.entries {
		byChain[t.ChainID] = append(byChain[t.ChainID], t)
	}
	blockedBy := make(map[string]string, len(r.entries))
	var served []Token
	for _, defs := range byChain {
		slices.SortFunc(defs, func(a, b Token) int { return compareAge(a.CreatedAt, a.Name, b.CreatedAt, b.Name) })
		addressOwner := map[string]string{}
		symbolOwner := map[string]string{}
		for _, t := range defs {
			sk := symbolKey(t.ChainID, t.Symbol)
			if owner, ok := addressOwner[t.Address]; ok {
				blockedBy[t.Name] = owner
				continue
			}
			if owner, ok := symbolOwner[sk]; ok {
				blockedBy[t.Name] = owner
				continue
			}
			addressOwner[t.Address], symbolOwner[sk] = t.Name, t.Name
			blockedBy[t.Name] = ""
			served = append(served, t)
		}
	}

	affected := map[string]bool{}
	for name, blocker := range blockedBy {
		if old, ok := r.blockedBy[name]; name != written && (!ok || old != blocker) {
			affected[r.entries[name].ChainID] = true
		}
	}
	r.blockedBy = blockedBy
	for id := range affected {
		affectedChains = append(affectedChains, id)
	}
	slices.SortFunc(affectedChains, CompareChainIDs)

	slices.SortFunc(served, compareServedTokens)
	old := r.load()
	if slices.EqualFunc(old.list, served, tokenEqual) {
		return false, affectedChains
	}
	s := &tokenSnapshot{
		version:   old.version + 1,
		list:      slices.Clip(served),
		byChain:   map[string][]Token{},
		byAddress: make(map[string]Token, len(served)),
		bySymbol:  make(map[string]Token, len(served)),
	}
	for start := 0; start < len(served); {
		end := start + 1
		for end < len(served) && served[end].ChainID == served[start].ChainID {
			end++
		}
		s.byChain[served[start].ChainID] = served[start:end:end]
		start = end
	}
	for _, t := range served {
		s.byAddress[t.Address] = t
		s.bySymbol[symbolKey(t.ChainID, t.Symbol)] = t
	}
	r.snap.Store(s)
	return true, affectedChains
}

func compareServedTokens(a, b Token) int {
	return cmp.Or(
		CompareChainIDs(a.ChainID, b.ChainID),
		strings.Compare(a.Symbol, b.Symbol),
		strings.Compare(a.Address, b.Address),
	)
}

func tokenEqual(a, b Token) bool {
	return a.Name == b.Name && a.Symbol == b.Symbol && a.ChainID == b.ChainID && a.Address == b.Address &&
		a.Decimals == b.Decimals && ptrEqual(a.Metadata, b.Metadata) && a.PriceUSD == b.PriceUSD &&
		ptrEqual(a.PriceFeed, b.PriceFeed) && bigEqual(a.MaxAmount, b.MaxAmount) && a.CreatedAt.Equal(b.CreatedAt)
}

func ptrEqual[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
