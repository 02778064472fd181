// Package observability holds the inventory of the metrics the manager serves: its test builds
// the service with service.Setup on controller-runtime's metrics.Registry, as cmd/ does, and
// writes the name and type of every registered metric, registered at init by controller-runtime
// or client_golang or by the service's own packages. The dashboard (config/grafana) and the alert
// rules (config/prometheus) are checked against that list by hack/promql (make test-dashboard,
// make test-alerts), so a panel or rule cannot name a metric the service does not serve.
package observability
