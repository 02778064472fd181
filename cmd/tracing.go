package main

import (
	"context"
	"flag"
	"net/url"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"go.opentelemetry.io/otel"

	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

// bindTracingFlags binds the tracing flags; o holds the defaults.
func bindTracingFlags(fs *flag.FlagSet, o *tracing.Options) {
	fs.StringVar(&o.Endpoint, "otlp-endpoint", o.Endpoint,
		"OTLP/gRPC collector receiving traces: http://host:4317 (plaintext), https://host:4317 or host:4317 (TLS) "+
			"(default $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else $OTEL_EXPORTER_OTLP_ENDPOINT; empty: tracing off).")
	fs.Float64Var(&o.SamplingRatio, "trace-sampling-ratio", o.SamplingRatio,
		"Share of API requests (and webhook delivery attempts) traced when tracing is on, 0 to 1; the spans a request causes follow its decision.")
}

// tracingFromEnv fills an unset endpoint from OpenTelemetry's standard variables, the traces'
// own first.
func tracingFromEnv(o *tracing.Options, getenv func(string) string) {
	for _, name := range []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"} {
		if o.Endpoint == "" {
			o.Endpoint = getenv(name)
		}
	}
}

// tracingShutdownTimeout bounds the flush of the last spans once the manager has stopped.
const tracingShutdownTimeout = 5 * time.Second

// startTracing installs the OTLP provider when an endpoint is set and returns the function that
// flushes it; without an endpoint tracing stays off and stop does nothing.
func startTracing(o tracing.Options, log logr.Logger) (stop func(), err error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if !o.Enabled() {
		return func() {}, nil
	}
	otel.SetLogger(log) // the exporter's errors (collector unreachable) go to the manager's log
	tp, err := tracing.New(context.Background(), o)
	if err != nil {
		return nil, err
	}
	uninstall := tracing.Install(tp)
	log.Info("tracing on", "collector", collectorHost(o.Endpoint), "samplingRatio", o.SamplingRatio)
	return func() {
		uninstall()
		if err := tracing.Shutdown(tp, tracingShutdownTimeout); err != nil {
			log.Error(err, "flushing the last spans")
		}
	}, nil
}

// collectorHost is the endpoint's host:port, without anything a URL could carry besides.
func collectorHost(endpoint string) string {
	if !strings.Contains(endpoint, "://") {
		return endpoint
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	return u.Host
}
