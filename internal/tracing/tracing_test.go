package tracing

import (
	"context"
	"errors"
	"math"
	"net"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/transferintent/transfer-intent-service/internal/allocs"
)

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		ok   bool
	}{
		{Options{}, true},
		{Options{Endpoint: "collector:4317", SamplingRatio: 1}, true},
		{Options{Endpoint: "http://collector.monitoring:4317", SamplingRatio: 0}, true},
		{Options{Endpoint: "https://collector.example.com", SamplingRatio: 0.5}, true},
		{Options{Endpoint: "grpc://collector:4317", SamplingRatio: 0.5}, false},
		{Options{Endpoint: "http://", SamplingRatio: 0.5}, false},
		{Options{Endpoint: "collector:4317", SamplingRatio: -0.1}, false},
		{Options{Endpoint: "collector:4317", SamplingRatio: 1.5}, false},
		{Options{Endpoint: "collector:4317", SamplingRatio: math.NaN()}, false},
	} {
		if err := tc.opts.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v: Validate() = %v, want ok=%v", tc.opts, err, tc.ok)
		}
	}
}

// New does not wait for the collector, and Shutdown of a provider whose collector never answers
// gives up within its timeout.
func TestNewWithoutCollector(t *testing.T) {
	tp, err := New(context.Background(), Options{Endpoint: "http://127.0.0.1:1", SamplingRatio: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, span := tp.Tracer("test").Start(context.Background(), "span")
	span.End()
	start := time.Now()
	_ = Shutdown(tp, 500*time.Millisecond)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Shutdown took %v", d)
	}
	if _, err := New(context.Background(), Options{}); err == nil {
		t.Error("New without an endpoint did not fail")
	}
}

func TestScopeFollowsTheInstalledProvider(t *testing.T) {
	scope := NewScope("test")
	ctx := context.Background()
	if Enabled() || Recording(ctx) {
		t.Fatal("tracing is on before Install")
	}
	if got, span := scope.Start(ctx, "off"); got != ctx || span.IsRecording() {
		t.Fatal("a span was started with tracing off")
	}
	if n := allocs.Least(100, func() { _, span := scope.Start(ctx, "off"); span.End() })[0]; n != 0 {
		t.Errorf("Start with tracing off allocates %v times", n)
	}

	for i := range 2 { // a second provider replaces the first in the scope's cache
		exporter := tracetest.NewInMemoryExporter()
		uninstall := Install(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter)))
		ctx, span := scope.Start(context.Background(), "parent")
		if !Recording(ctx) {
			t.Fatal("Recording is false under a sampled span")
		}
		_, child := scope.Start(ctx, "child")
		End(child, errors.New("failed"))
		End(span, nil)
		spans := exporter.GetSpans()
		if len(spans) != 2 || spans[0].Name != "child" || spans[0].Parent.SpanID() != spans[1].SpanContext.SpanID() {
			t.Fatalf("provider %d exported %+v", i, spans)
		}
		if spans[0].Status.Code != codes.Error || spans[0].Status.Description != "failed" || spans[1].Status.Code != codes.Unset {
			t.Errorf("statuses %v, %v", spans[0].Status, spans[1].Status)
		}
		uninstall()
	}
	if Enabled() {
		t.Error("tracing is still on after uninstall")
	}
}

// traceCollector is an OTLP/gRPC trace collector on loopback that records the metadata of each
// export.
type traceCollector struct {
	coltracepb.UnimplementedTraceServiceServer
	got chan metadata.MD
}

func (c *traceCollector) Export(ctx context.Context, _ *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	select {
	case c.got <- md:
	default:
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

// The exporter's standard OTEL_EXPORTER_OTLP_HEADERS reach the collector (a collector's token,
// which the chart sets from tracing.headersSecret).
func TestTheExporterSendsTheHeadersOfItsEnvironment(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	collector := &traceCollector{got: make(chan metadata.MD, 1)}
	coltracepb.RegisterTraceServiceServer(srv, collector)
	go func() { _ = srv.Serve(l) }()
	defer srv.Stop()

	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20collector-token")
	tp, err := New(context.Background(), Options{Endpoint: "http://" + l.Addr().String(), SamplingRatio: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, span := tp.Tracer("test").Start(context.Background(), "span")
	span.End()
	if err := Shutdown(tp, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	select {
	case md := <-collector.got:
		if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer collector-token" {
			t.Errorf("the collector got authorization %q, want the environment's", got)
		}
	default:
		t.Fatal("the span was not exported")
	}
}
