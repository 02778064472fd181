package rfq

import (
	"sync"
	"time"
)

// Defaults of Fades (docs/decisions.md, "Fades").
const (
	// DefaultFadeThreshold fades within DefaultFadeWindow ...
	DefaultFadeThreshold = 3
	DefaultFadeWindow    = time.Hour
	// ... keep a filler from being asked for DefaultFadeCooldown.
	DefaultFadeCooldown = 15 * time.Minute
	// DefaultMaxTrackedWins bounds the wins waiting for their fill; past it the oldest is
	// forgotten (neither a fill nor a fade).
	DefaultMaxTrackedWins = 100_000
)

// FadeOptions tune Fades; the zero value is the production one.
type FadeOptions struct {
	Threshold      int
	Window         time.Duration
	Cooldown       time.Duration
	MaxTrackedWins int
	// Metrics counts every fade (nil: none).
	Metrics *Metrics
}

// Fades counts, per filler, the orders it won and did not fill before its exclusivity ended.
// A filler with Threshold fades within Window is not asked for Cooldown. Memory is bounded: at
// most MaxTrackedWins wins wait for their fill, and each filler keeps the times of its fades
// within the window only.
//
// A win is a fade when its exclusivity passes without RecordFill from the winner (Sweep), or when
// another filler fills it first (the winner let its exclusivity go).
type Fades struct {
	opts FadeOptions

	mu      sync.Mutex
	wins    map[string]trackedWin // by order id
	order   []string              // order ids in the order they were won, for eviction
	fillers map[string]*fadeRecord
}

type trackedWin struct {
	filler         string
	exclusiveUntil time.Time
}

type fadeRecord struct {
	fills, fades  int64
	recent        []time.Time // fades within the window, oldest first
	notAskedUntil time.Time
}

// NewFades returns an empty record.
func NewFades(opts FadeOptions) *Fades {
	if opts.Threshold <= 0 {
		opts.Threshold = DefaultFadeThreshold
	}
	if opts.Window <= 0 {
		opts.Window = DefaultFadeWindow
	}
	if opts.Cooldown <= 0 {
		opts.Cooldown = DefaultFadeCooldown
	}
	if opts.MaxTrackedWins <= 0 {
		opts.MaxTrackedWins = DefaultMaxTrackedWins
	}
	return &Fades{opts: opts, wins: map[string]trackedWin{}, fillers: map[string]*fadeRecord{}}
}

func (f *Fades) record(filler string) *fadeRecord {
	r, ok := f.fillers[filler]
	if !ok {
		r = &fadeRecord{}
		f.fillers[filler] = r
	}
	return r
}

// RecordWin notes that filler won the order and holds its exclusivity until exclusiveUntil.
func (f *Fades) RecordWin(filler, orderID string, exclusiveUntil time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.wins[orderID]; !ok {
		f.order = append(f.order, orderID)
	}
	f.wins[orderID] = trackedWin{filler: filler, exclusiveUntil: exclusiveUntil}
	for len(f.wins) > f.opts.MaxTrackedWins && len(f.order) > 0 {
		delete(f.wins, f.order[0])
		f.order = f.order[1:]
	}
	if len(f.order) > 2*f.opts.MaxTrackedWins { // ids of wins already settled
		f.compact()
	}
}

// compact drops the settled order ids from the eviction order.
func (f *Fades) compact() {
	kept := f.order[:0]
	for _, id := range f.order {
		if _, ok := f.wins[id]; ok {
			kept = append(kept, id)
		}
	}
	f.order = kept
}

// Forget drops the win of an order that can no longer be filled through no fault of its winner
// (its user cancelled it): neither a fill nor a fade.
func (f *Fades) Forget(orderID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.wins, orderID)
}

// RecordFill notes that filler filled the order (seen on the destination chain) at the time at.
// A fill by the winner settles its win; a fill by another filler is the winner's fade.
func (f *Fades) RecordFill(orderID, filler string, at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w, ok := f.wins[orderID]
	if !ok {
		return
	}
	delete(f.wins, orderID)
	if w.filler == filler {
		f.record(filler).fills++
		return
	}
	f.fadeLocked(w.filler, at)
}

// Sweep counts a fade for every win whose exclusivity ended before now without its fill, and
// returns the fillers that faded (one entry per fade). Call it periodically (every few seconds).
func (f *Fades) Sweep(now time.Time) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var faded []string
	for id, w := range f.wins {
		if now.After(w.exclusiveUntil) {
			delete(f.wins, id)
			f.fadeLocked(w.filler, now)
			faded = append(faded, w.filler)
		}
	}
	if len(faded) > 0 {
		f.compact()
	}
	return faded
}

func (f *Fades) fadeLocked(filler string, at time.Time) {
	r := f.record(filler)
	r.fades++
	r.recent = append(pruned(r.recent, at.Add(-f.opts.Window)), at)
	if len(r.recent) >= f.opts.Threshold {
		r.notAskedUntil = at.Add(f.opts.Cooldown)
	}
	f.opts.Metrics.fade(filler)
}

// pruned drops the times before since.
func pruned(times []time.Time, since time.Time) []time.Time {
	i := 0
	for i < len(times) && times[i].Before(since) {
		i++
	}
	return append(times[:0], times[i:]...)
}

// NotAskedUntil reports whether the filler is past its threshold at now, and until when.
func (f *Fades) NotAskedUntil(filler string, now time.Time) (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.fillers[filler]
	if !ok || !now.Before(r.notAskedUntil) {
		return time.Time{}, false
	}
	return r.notAskedUntil, true
}

// FadeStats is what Fades knows of one filler.
type FadeStats struct {
	Fills, Fades  int64
	RecentFades   int
	NotAskedUntil time.Time
}

// Stats returns what Fades knows of a filler at now.
func (f *Fades) Stats(filler string, now time.Time) FadeStats {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.fillers[filler]
	if !ok {
		return FadeStats{}
	}
	st := FadeStats{Fills: r.fills, Fades: r.fades}
	since := now.Add(-f.opts.Window)
	for _, t := range r.recent {
		if !t.Before(since) {
			st.RecentFades++
		}
	}
	if now.Before(r.notAskedUntil) {
		st.NotAskedUntil = r.notAskedUntil
	}
	return st
}

// Window is the window fades are counted in (for messages).
func (f *Fades) Window() time.Duration { return f.opts.Window }

// Tracked returns the number of wins waiting for their fill.
func (f *Fades) Tracked() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.wins)
}
