package rfq

import (
	"slices"
	"sync"
	"time"
)

// latencyWindow is how many recent answers a filler's median latency is taken over.
const latencyWindow = 64

// fillerState is what the Market keeps of one filler across requests: its share (requests in
// flight), its breaker and its statistics.
type fillerState struct {
	mu       sync.Mutex
	inFlight int
	// failures counts consecutive failures; at the threshold the breaker opens until openUntil.
	// It is not reset when the cooldown ends, so the first failure after it opens the breaker
	// again at once (half-open), and a success closes it.
	failures  int
	openUntil time.Time

	quotes, wins int64
	latencies    [latencyWindow]time.Duration
	latencyCount int
}

func (m *Market) state(name string) *fillerState {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.fillers[name]
	if !ok {
		s = &fillerState{}
		m.fillers[name] = s
	}
	return s
}

// Forget drops what the Market keeps of a filler that no longer exists (its Filler resource was
// deleted), so that the map stays bounded by the fillers that exist.
func (m *Market) Forget(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.fillers, name)
}

func (s *fillerState) release() {
	s.mu.Lock()
	s.inFlight--
	s.mu.Unlock()
}

func (s *fillerState) win() {
	s.mu.Lock()
	s.wins++
	s.mu.Unlock()
}

// record feeds the breaker, the statistics and the metrics with one answer (or its absence).
func (m *Market) record(name string, outcome Outcome, latency time.Duration) {
	s := m.state(name)
	s.mu.Lock()
	switch {
	case outcome.failure():
		s.failures++
		if s.failures >= m.opts.BreakerFailures {
			s.openUntil = m.opts.Now().Add(m.opts.BreakerCooldown)
		}
	default:
		s.failures = 0
	}
	if outcome == OutcomeOK {
		s.quotes++
	}
	if outcome != OutcomeTimeout && outcome != OutcomeError {
		s.latencies[s.latencyCount%latencyWindow] = latency
		s.latencyCount++
	}
	s.mu.Unlock()
	m.opts.Metrics.observe(name, outcome, latency, true)
}

// Stats is what the Market knows of one filler, for its Filler's status.
type Stats struct {
	// Quotes counts valid quotes at or above the floor; Wins the requests it won.
	Quotes, Wins int64
	// Fills and Fades come from Options.Fades (zero without it).
	Fills, Fades int64
	// RecentFades counts the fades within the fade window, FadeWindow (zero without Fades).
	RecentFades int
	FadeWindow  time.Duration
	// QuoteLatency is the median time to an answer over the last answers (0: none yet).
	QuoteLatency time.Duration
	// NotAskedUntil is when a fading filler is asked again (zero: it is asked).
	NotAskedUntil time.Time
	// BreakerOpenUntil is when an open breaker lets the filler be asked again (zero: closed).
	BreakerOpenUntil time.Time
}

// Stats returns what the Market knows of a filler.
func (m *Market) Stats(name string) Stats {
	m.mu.Lock()
	s, ok := m.fillers[name]
	m.mu.Unlock()
	var st Stats
	if ok {
		s.mu.Lock()
		st.Quotes, st.Wins = s.quotes, s.wins
		n := min(s.latencyCount, latencyWindow)
		if n > 0 {
			recent := slices.Clone(s.latencies[:n])
			slices.Sort(recent)
			st.QuoteLatency = recent[(n-1)/2]
		}
		if m.opts.Now().Before(s.openUntil) {
			st.BreakerOpenUntil = s.openUntil
		}
		s.mu.Unlock()
	}
	if f := m.opts.Fades; f != nil {
		fs := f.Stats(name, m.opts.Now())
		st.Fills, st.Fades, st.RecentFades, st.NotAskedUntil = fs.Fills, fs.Fades, fs.RecentFades, fs.NotAskedUntil
		st.FadeWindow = f.Window()
	}
	return st
}
