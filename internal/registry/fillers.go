package registry

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Filler is a Ready Filler resource as the request for quotes needs it. Its Secret signs every
// request for quotes; it is kept in memory only and never logged (String leaves it out).
type Filler struct {
	// Name is the Filler resource's name.
	Name string
	// Account is the name of its Account.
	Account string
	// URL is the quote endpoint (spec.quoteURL).
	URL string
	// Secret is the signing secret (whsec_...) from the Filler's generated Secret.
	Secret string
	// Routes are the routes it quotes.
	Routes []FillerRoute
	// Payouts are its payout addresses by CAIP-2 chain id.
	Payouts map[string]common.Address
	// NotAskedUntil is when a fading filler is asked again (status.notAskedUntil, written by the
	// leader from the fades every replica counts); zero: it is asked.
	NotAskedUntil time.Time
}

// AskedAt reports whether the filler is asked for quotes at now: it is not while fading.
func (f Filler) AskedAt(now time.Time) bool { return !now.Before(f.NotAskedUntil) }

// FillerRoute is one route of a filler. Empty token lists mean any token.
type FillerRoute struct {
	From, To  string
	TokensIn  []string
	TokensOut []string
}

// String names the filler without its secret.
func (f Filler) String() string { return "Filler " + f.Name }

// GoString keeps the secret out of %#v too.
func (f Filler) GoString() string { return f.String() }

// Payout returns the filler's payout address on a chain.
func (f Filler) Payout(chain string) (common.Address, bool) {
	a, ok := f.Payouts[chain]
	return a, ok
}

// routeKey is an (origin, destination) pair of CAIP-2 chain ids.
type routeKey struct{ from, to string }

// servingEntry is a filler on one route, with its token sets (nil: any token).
type servingEntry struct {
	filler              *Filler
	tokensIn, tokensOut map[string]struct{}
}

// fillerSnapshot is one immutable state of the directory.
type fillerSnapshot struct {
	byName  map[string]*Filler
	byRoute map[routeKey][]servingEntry // each sorted by filler name
	// byPayout names the filler of a payout address on a chain (the first by name).
	byPayout map[payoutKey]string
}

// payoutKey is a payout address on a CAIP-2 chain.
type payoutKey struct {
	chain   string
	address common.Address
}

// FillerDirectory is the read model of the Ready fillers, by route: the request for quotes asks it
// which fillers serve an order. Reads are lock-free (one atomic load of an immutable snapshot);
// writes, one per Filler reconcile, rebuild the snapshot, which is cheap at the number of fillers a
// market has. The zero value is ready to use.
type FillerDirectory struct {
	mu       sync.Mutex // serialises writers
	fillers  map[string]Filler
	snapshot atomic.Pointer[fillerSnapshot]
}

// NewFillerDirectory returns an empty directory.
func NewFillerDirectory() *FillerDirectory { return &FillerDirectory{} }

// Upsert publishes a Ready filler, replacing one of the same name.
func (d *FillerDirectory) Upsert(f Filler) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.fillers == nil {
		d.fillers = map[string]Filler{}
	}
	d.fillers[f.Name] = f
	d.publishLocked()
}

// Delete withdraws a filler (not Ready, or gone). Deleting an unknown name does nothing.
func (d *FillerDirectory) Delete(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.fillers[name]; !ok {
		return
	}
	delete(d.fillers, name)
	d.publishLocked()
}

func (d *FillerDirectory) publishLocked() {
	s := &fillerSnapshot{byName: make(map[string]*Filler, len(d.fillers)), byRoute: map[routeKey][]servingEntry{},
		byPayout: map[payoutKey]string{}}
	for name, f := range d.fillers {
		s.byName[name] = &f
		for chain, address := range f.Payouts {
			k := payoutKey{chain, address}
			if other, taken := s.byPayout[k]; !taken || name < other {
				s.byPayout[k] = name
			}
		}
		for _, r := range f.Routes {
			k := routeKey{r.From, r.To}
			s.byRoute[k] = append(s.byRoute[k], servingEntry{filler: &f, tokensIn: tokenSet(r.TokensIn), tokensOut: tokenSet(r.TokensOut)})
		}
	}
	for k, entries := range s.byRoute {
		slices.SortFunc(entries, func(a, b servingEntry) int { return strings.Compare(a.filler.Name, b.filler.Name) })
		s.byRoute[k] = entries
	}
	d.snapshot.Store(s)
}

func tokenSet(tokens []string) map[string]struct{} {
	if len(tokens) == 0 {
		return nil
	}
	set := make(map[string]struct{}, len(tokens))
	for _, t := range tokens {
		set[tokenKey(t)] = struct{}{}
	}
	return set
}

// tokenKey spells a CAIP-10 token address one way: eip155 addresses are compared without their
// EIP-55 case.
func tokenKey(t string) string {
	if strings.HasPrefix(t, "eip155:") {
		return strings.ToLower(t)
	}
	return t
}

func (e servingEntry) serves(tokenIn, tokenOut string) bool {
	if e.tokensIn != nil {
		if _, ok := e.tokensIn[tokenKey(tokenIn)]; !ok {
			return false
		}
	}
	if e.tokensOut != nil {
		if _, ok := e.tokensOut[tokenKey(tokenOut)]; !ok {
			return false
		}
	}
	return true
}

// Serving returns the Ready fillers that serve an order from the chain from to the chain to
// (CAIP-2), giving up tokenIn for tokenOut (CAIP-10), sorted by name. A filler with several
// matching routes is listed once. The slice is the caller's; the fillers are shared, do not modify
// them.
func (d *FillerDirectory) Serving(from, to, tokenIn, tokenOut string) []Filler {
	s := d.snapshot.Load()
	if s == nil {
		return nil
	}
	var out []Filler
	for _, e := range s.byRoute[routeKey{from, to}] {
		if e.serves(tokenIn, tokenOut) && (len(out) == 0 || out[len(out)-1].Name != e.filler.Name) {
			out = append(out, *e.filler)
		}
	}
	return out
}

// Get returns the Ready filler of a name.
func (d *FillerDirectory) Get(name string) (Filler, bool) {
	s := d.snapshot.Load()
	if s == nil {
		return Filler{}, false
	}
	f, ok := s.byName[name]
	if !ok {
		return Filler{}, false
	}
	return *f, true
}

// NameOf names the Ready filler whose payout address on chain (CAIP-2) is address; "" when none
// is (several fillers sharing a payout address: the first by name).
func (d *FillerDirectory) NameOf(chain string, address common.Address) string {
	s := d.snapshot.Load()
	if s == nil {
		return ""
	}
	return s.byPayout[payoutKey{chain, address}]
}

// Len returns the number of Ready fillers.
func (d *FillerDirectory) Len() int {
	s := d.snapshot.Load()
	if s == nil {
		return 0
	}
	return len(s.byName)
}
