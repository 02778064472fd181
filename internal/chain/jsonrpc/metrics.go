package jsonrpc

import (
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sony/gobreaker/v2"
)

// Metrics are the round trips of every client, by chain (its CAIP-2 id, never the URL) and caller.
// A nil *Metrics records nothing.
type Metrics struct {
	calls    *prometheus.CounterVec
	duration *prometheus.HistogramVec
	open     *prometheus.GaugeVec
}

// NewMetrics registers the metrics with reg (once per process: every client shares them).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_chain_rpc_calls_total",
			Help: "JSON-RPC round trips (a call or a batch) to chain nodes, by chain, caller and outcome (ok, error, wrong_chain).",
		}, []string{"chain", "caller", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tis_chain_rpc_duration_seconds",
			Help:    "Duration of JSON-RPC round trips to chain nodes, by chain and caller.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10},
		}, []string{"chain", "caller"}),
		open: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "tis_chain_rpc_degraded",
			Help: "1 while a caller's circuit breaker for a chain's node is open (the node is skipped; simulations use static defaults).",
		}, []string{"chain", "caller"}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.calls, m.duration, m.open} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *Metrics) observe(chain, caller string, took time.Duration, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	switch {
	case errors.Is(err, ErrWrongChain):
		outcome = "wrong_chain"
	case err != nil:
		outcome = "error"
	}
	m.calls.WithLabelValues(chain, caller, outcome).Inc()
	m.duration.WithLabelValues(chain, caller).Observe(took.Seconds())
}

func (m *Metrics) breaker(chain, caller string, to gobreaker.State) {
	if m == nil {
		return
	}
	degraded := 0.0
	if to == gobreaker.StateOpen {
		degraded = 1
	}
	m.open.WithLabelValues(chain, caller).Set(degraded)
}
