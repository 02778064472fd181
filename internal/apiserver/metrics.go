package apiserver

import (
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the API's Prometheus collectors, served on the manager's metrics endpoint.
type Metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// series caches the children of each (route, method, code): looking them up by label values
	// hashes the strings on every request.
	series sync.Map
}

type seriesKey struct {
	route, method string
	code          int
}

type series struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

// NewMetrics creates the collectors and registers them with reg (controller-runtime's
// metrics.Registry in the operator); a nil reg leaves them unregistered, for tests.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tis_http_requests_total",
			Help: "HTTP requests answered by the API, by route pattern, method and status code.",
		}, []string{"route", "method", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tis_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern and method.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route", "method"}),
	}
	if reg != nil {
		reg.MustRegister(m.requests, m.latency)
	}
	return m
}

func (m *Metrics) observe(route, method string, status int, d time.Duration) {
	// Methods come from clients: only the standard ones get their own series and cache entry,
	// so no client can grow either without bound.
	k := seriesKey{route, metricMethod(method), status}
	v, ok := m.series.Load(k)
	if !ok {
		v, _ = m.series.LoadOrStore(k, &series{
			requests: m.requests.WithLabelValues(k.route, k.method, strconv.Itoa(status)),
			latency:  m.latency.WithLabelValues(k.route, k.method),
		})
	}
	sr := v.(*series)
	sr.requests.Inc()
	sr.latency.Observe(d.Seconds())
}

// metricMethod is the method as metrics and logs name it: a standard method, or OTHER.
func metricMethod(m string) string {
	switch m {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS":
		return m
	}
	return "OTHER"
}
