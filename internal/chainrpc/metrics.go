package chainrpc

import (
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sony/gobreaker/v2"
)

// metrics are per chain (its CAIP-2 id), never per URL.
type metrics struct {
	calls    *prometheus.CounterVec
	duration *prometheus.HistogramVec
	open     *prometheus.GaugeVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_chain_rpc_calls_total",
			Help: "Batched JSON-RPC round trips to chain nodes, by chain and outcome (ok, error, wrong_chain).",
		}, []string{"chain", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tis_chain_rpc_duration_seconds",
			Help:    "Duration of batched JSON-RPC round trips to chain nodes, by chain.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}, []string{"chain"}),
		open: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "tis_chain_rpc_degraded",
			Help: "1 while a chain's circuit breaker is open (its node is skipped and simulations use static defaults).",
		}, []string{"chain"}),
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

func (m *metrics) observe(chain string, took time.Duration, err error) {
	outcome := "ok"
	switch {
	case errors.Is(err, ErrWrongChain):
		outcome = "wrong_chain"
	case err != nil:
		outcome = "error"
	}
	m.calls.WithLabelValues(chain, outcome).Inc()
	m.duration.WithLabelValues(chain).Observe(took.Seconds())
}

func (m *metrics) breaker(chain string, to gobreaker.State) {
	degraded := 0.0
	if to == gobreaker.StateOpen {
		degraded = 1
	}
	m.open.WithLabelValues(chain).Set(degraded)
}
