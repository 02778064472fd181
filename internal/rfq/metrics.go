package rfq

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the requests for quotes by filler (the Filler resource's name, never its URL). A nil
// *Metrics records nothing.
type Metrics struct {
	duration *prometheus.HistogramVec
	quotes   *prometheus.CounterVec
	wins     *prometheus.CounterVec
	fades    *prometheus.CounterVec
}

// NewMetrics registers the metrics with reg (once per process; nil: unregistered, for tests).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tis_rfq_quote_duration_seconds",
			Help:    "Time from the start of a request for quotes to a filler's answer (or its end), by filler.",
			Buckets: []float64{.005, .01, .025, .05, .1, .15, .2, .3, .4, .5, .75, 1},
		}, []string{"filler"}),
		quotes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_rfq_quotes_total",
			Help: "Fillers asked (or skipped) for quotes, by filler and outcome (ok, no_quote, timeout, error, too_large, bad_json, below_floor, above_ceiling, above_max_in, below_min_in, wrong_request, wrong_filler, busy, breaker_open, fading).",
		}, []string{"filler", "outcome"}),
		wins: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_rfq_wins_total",
			Help: "Requests for quotes won, by filler.",
		}, []string{"filler"}),
		fades: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_rfq_fades_total",
			Help: "Orders a filler won and did not fill within its exclusivity, by filler.",
		}, []string{"filler"}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.duration, m.quotes, m.wins, m.fades} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *Metrics) observe(filler string, outcome Outcome, took time.Duration, asked bool) {
	if m == nil {
		return
	}
	m.quotes.WithLabelValues(filler, string(outcome)).Inc()
	if asked {
		m.duration.WithLabelValues(filler).Observe(took.Seconds())
	}
}

func (m *Metrics) win(filler string) {
	if m != nil {
		m.wins.WithLabelValues(filler).Inc()
	}
}

func (m *Metrics) fade(filler string) {
	if m != nil {
		m.fades.WithLabelValues(filler).Inc()
	}
}
