package controller

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// IntentMetrics are the TransferIntent controller's; a nil *IntentMetrics records nothing. They
// count what used to be recorded as a Kubernetes Event per intent (docs/decisions.md, "An intent
// costs the API server three writes").
type IntentMetrics struct {
	expiredN *prometheus.CounterVec
}

// NewIntentMetrics registers the controller's metrics with reg (nil: unregistered).
func NewIntentMetrics(reg prometheus.Registerer) (*IntentMetrics, error) {
	m := &IntentMetrics{
		expiredN: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_intents_expired_total",
			Help: "Intents whose deadline passed before a transaction was seen, by the phase they ended in (expired; cancelled for a gasless intent being cancelled).",
		}, []string{"phase"}),
	}
	// A series for each phase an expiry leads to, from the lifecycle's table, so each reads 0 from the start.
	for _, from := range intent.Statuses {
		if to, err := intent.Transition(from, intent.EventExpire); err == nil {
			m.expiredN.WithLabelValues(string(to))
		}
	}
	if reg == nil {
		return m, nil
	}
	if err := reg.Register(m.expiredN); err != nil {
		return nil, err
	}
	return m, nil
}

// expired counts an expiry written, ending in phase.
func (m *IntentMetrics) expired(phase v1alpha1.IntentPhase) {
	if m != nil {
		m.expiredN.WithLabelValues(string(phase)).Inc()
	}
}
