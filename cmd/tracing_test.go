package main

import (
	"flag"
	"testing"

	"github.com/go-logr/logr"

	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

func TestTracingFlags(t *testing.T) {
	parse := func(env map[string]string, args ...string) tracing.Options {
		t.Helper()
		fs := flag.NewFlagSet("manager", flag.ContinueOnError)
		o := tracing.Options{SamplingRatio: tracing.DefaultSamplingRatio}
		bindTracingFlags(fs, &o)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		tracingFromEnv(&o, func(k string) string { return env[k] })
		return o
	}
	if o := parse(nil); o.Enabled() || o.SamplingRatio != 0.1 {
		t.Errorf("defaults %+v: want tracing off, ratio 0.1", o)
	}
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://any:4317", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://traces:4317"}
	if o := parse(env); o.Endpoint != "http://traces:4317" {
		t.Errorf("endpoint %q, want the traces' own variable first", o.Endpoint)
	}
	if o := parse(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://any:4317"}); o.Endpoint != "http://any:4317" {
		t.Errorf("endpoint %q, want $OTEL_EXPORTER_OTLP_ENDPOINT", o.Endpoint)
	}
	if o := parse(env, "--otlp-endpoint=collector:4317", "--trace-sampling-ratio=1"); o.Endpoint != "collector:4317" || o.SamplingRatio != 1 {
		t.Errorf("flags %+v: the flag wins over the environment", o)
	}
}

func TestStartTracing(t *testing.T) {
	stop, err := startTracing(tracing.Options{SamplingRatio: 0.1}, logr.Discard())
	if err != nil || tracing.Enabled() {
		t.Fatalf("without an endpoint: %v, enabled %v", err, tracing.Enabled())
	}
	stop()
	if _, err := startTracing(tracing.Options{Endpoint: "collector:4317", SamplingRatio: 2}, logr.Discard()); err == nil {
		t.Error("a sampling ratio of 2 was accepted")
	}
	if _, err := startTracing(tracing.Options{Endpoint: "grpc://collector:4317", SamplingRatio: 1}, logr.Discard()); err == nil {
		t.Error("a grpc:// endpoint was accepted (the exporter would send to localhost)")
	}
	stop, err = startTracing(tracing.Options{Endpoint: "http://127.0.0.1:1", SamplingRatio: 1}, logr.Discard())
	if err != nil || !tracing.Enabled() {
		t.Fatalf("with an endpoint: %v, enabled %v", err, tracing.Enabled())
	}
	stop()
	if tracing.Enabled() {
		t.Error("tracing still on after stop")
	}
	if got := collectorHost("https://user:pw@collector.example.com:4317/x"); got != "collector.example.com:4317" {
		t.Errorf("collectorHost = %q", got)
	}
}
