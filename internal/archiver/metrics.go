package archiver

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the archiver's; a nil *Metrics records nothing.
type Metrics struct {
	backlogGauge prometheus.Gauge
	archivedN    prometheus.Counter
	expiredN     prometheus.Counter
	failures     prometheus.Counter
}

// NewMetrics registers the archiver's metrics with reg (nil: unregistered).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		backlogGauge: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "tis_archive_backlog",
			Help: "Finished intents past --archive-after that are still TransferIntents (measured by the leader each pass).",
		}),
		archivedN: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tis_archive_archived_total", Help: "Intents moved from the API server to the archive.",
		}),
		expiredN: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tis_archive_retention_deleted_total", Help: "Archived intents deleted at the end of their retention.",
		}),
		failures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tis_archive_pass_failures_total", Help: "Archiver passes that failed (PostgreSQL or the API server did not answer); they are retried.",
		}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.backlogGauge, m.archivedN, m.expiredN, m.failures} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *Metrics) backlog(n int) {
	if m != nil {
		m.backlogGauge.Set(float64(n))
	}
}

func (m *Metrics) archived(n int) {
	if m != nil {
		m.archivedN.Add(float64(n))
	}
}

func (m *Metrics) expired(n int) {
	if m != nil {
		m.expiredN.Add(float64(n))
	}
}

func (m *Metrics) failed() {
	if m != nil {
		m.failures.Inc()
	}
}
