package delivery

import (
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
	"github.com/transferintent/transfer-intent-service/internal/webhook/sender"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// Metrics are the deliverer's Prometheus metrics; a nil *Metrics records nothing.
type Metrics struct {
	// Attempts counts attempts by result: delivered, failed (to be retried), gave_up, and
	// dropped (endpoint deleted or disabled, no attempt made).
	Attempts *prometheus.CounterVec
	// Latency is from an event's transition to its delivery's success, by event type.
	Latency *prometheus.HistogramVec
	// AttemptDuration is one attempt's round trip.
	AttemptDuration prometheus.Histogram
	// Dropped counts deliveries ended unsent, by reason (endpoint.Stop...): the endpoint was
	// deleted, disabled or beyond its account's limit, or its account was disabled.
	Dropped *prometheus.CounterVec
}

// NewMetrics registers the deliverer's metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Attempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_webhook_attempts_total",
			Help: "Webhook delivery attempts by result: delivered, failed (retried later), gave_up (the last attempt failed), dropped (endpoint deleted or disabled).",
		}, []string{"result"}),
		Latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tis_webhook_delivery_latency_seconds",
			Help:    "From the recording of an event (at its intent's transition) to its successful delivery, by event type.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400},
		}, []string{"type"}),
		AttemptDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "tis_webhook_attempt_duration_seconds",
			Help:    "Round trip of one webhook delivery attempt.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}),
		Dropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_webhook_deliveries_dropped_total",
			Help: "Webhook deliveries ended unsent, by reason: endpoint_deleted, endpoint_disabled, endpoint_limit (beyond its account's --webhook-endpoints-per-account), account_disabled.",
		}, []string{"reason"}),
	}
	for _, r := range []string{endpoint.StopDeleted, endpoint.StopDisabled, endpoint.StopLimit, endpoint.StopAccountDisabled} {
		m.Dropped.WithLabelValues(r)
	}
	for _, r := range []string{"delivered", "failed", "gave_up", "dropped"} {
		m.Attempts.WithLabelValues(r)
	}
	for _, typ := range []string{signing.EventTransferCreated, signing.EventTransferSubmitted, signing.EventTransferConfirmed,
		signing.EventTransferFailed, signing.EventTransferExpired} {
		m.Latency.WithLabelValues(typ)
	}
	if reg != nil {
		reg.MustRegister(m.Attempts, m.Latency, m.AttemptDuration, m.Dropped)
	}
	return m
}

func (m *Metrics) observe(dl outbox.Delivery, res sender.Result, o outbox.Outcome, now time.Time) {
	if m == nil {
		return
	}
	m.AttemptDuration.Observe(res.Duration.Seconds())
	switch {
	case o.Delivered:
		m.Attempts.WithLabelValues("delivered").Inc()
		if recorded, ok := recordedAt(dl.EventID); ok {
			m.Latency.WithLabelValues(dl.Type).Observe(now.Add(res.Duration).Sub(recorded).Seconds())
		}
	case o.GiveUp:
		m.Attempts.WithLabelValues("gave_up").Inc()
	default:
		m.Attempts.WithLabelValues("failed").Inc()
	}
}

// recordedAt is when an event was recorded: the time of its id's ULID, to the millisecond (the
// transition's own time, status.updatedAt, is to the second).
func recordedAt(eventID string) (time.Time, bool) {
	id, err := ulid.ParseStrict(strings.TrimPrefix(eventID, signing.EventIDPrefix))
	if err != nil {
		return time.Time{}, false
	}
	return ulid.Time(id.Time()), true
}

func (m *Metrics) dropped(reason string) {
	if m == nil {
		return
	}
	m.Attempts.WithLabelValues("dropped").Inc()
	m.Dropped.WithLabelValues(reason).Inc()
}
