// Package tracing is the service's OpenTelemetry tracing: the provider that exports spans to an
// OTLP collector over gRPC (New), the switch that installs it (Install), and the Scope each
// instrumented package starts its spans from.
//
// Tracing is off unless a provider is installed (the manager's --otlp-endpoint). Off, the
// instrumented code asks Enabled, one atomic load, and starts no span at all: it does not call
// OpenTelemetry's global no-op provider either, whose spans cost an allocation or two each. On,
// root spans are sampled at the configured ratio and child spans follow their parent's decision.
//
// The spans (docs/decisions.md, "Tracing (issue 28)"): one server span per HTTP request
// (internal/apiserver), named by its route; a child span per Kubernetes write of the intent
// store (internal/intentstore); a child span per JSON-RPC call or batch to a chain's node
// (internal/chain/jsonrpc); one span per fill attestation (internal/chain/settlement); one span
// per webhook delivery attempt and test event (internal/webhook/delivery).
package tracing

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// ServiceName is the service.name of the spans' resource, unless OTEL_SERVICE_NAME says otherwise.
const ServiceName = "transfer-intent-service"

// DefaultSamplingRatio is the default share of requests traced when tracing is on.
const DefaultSamplingRatio = 0.1

// Options are the tracing settings, from the manager's flags.
type Options struct {
	// Endpoint is the OTLP/gRPC collector: a URL, http://host:port (plaintext) or
	// https://host:port (TLS), or host:port (TLS unless OTEL_EXPORTER_OTLP_INSECURE=true). Empty:
	// tracing is off.
	Endpoint string
	// SamplingRatio is the share of root spans (requests) sampled, 0 to 1; a child span is
	// sampled with its parent.
	SamplingRatio float64
}

// Enabled reports whether the options turn tracing on.
func (o Options) Enabled() bool { return o.Endpoint != "" }

// Validate checks the options without connecting anywhere.
func (o Options) Validate() error {
	if math.IsNaN(o.SamplingRatio) || o.SamplingRatio < 0 || o.SamplingRatio > 1 {
		return fmt.Errorf("the sampling ratio %v is not between 0 and 1", o.SamplingRatio)
	}
	if !strings.Contains(o.Endpoint, "://") {
		return nil
	}
	u, err := url.Parse(o.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// The exporter would ignore an unusable URL and send to localhost instead.
		return errors.New("the OTLP endpoint is neither host:port nor an http:// or https:// URL")
	}
	return nil
}

// New builds the provider of opts: spans are batched and exported to the collector in the
// background (the gRPC connection is made lazily: New does not wait for the collector). The
// standard OTEL_EXPORTER_OTLP_* variables (headers, certificate, compression, timeout) and
// OTEL_RESOURCE_ATTRIBUTES / OTEL_SERVICE_NAME are honoured. Shut it down to flush.
func New(ctx context.Context, opts Options) (*sdktrace.TracerProvider, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if !opts.Enabled() {
		return nil, errors.New("no OTLP endpoint")
	}
	endpoint := otlptracegrpc.WithEndpoint(opts.Endpoint)
	if strings.Contains(opts.Endpoint, "://") {
		endpoint = otlptracegrpc.WithEndpointURL(opts.Endpoint)
	}
	exporter, err := otlptracegrpc.New(ctx, endpoint)
	if err != nil {
		return nil, fmt.Errorf("building the OTLP exporter: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", ServiceName)),
		resource.WithTelemetrySDK(),
		resource.WithFromEnv(), // last: the environment's attributes win
	)
	if err != nil {
		return nil, fmt.Errorf("describing the service's resource: %w", err)
	}
	return sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exporter),
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(opts.SamplingRatio))),
	), nil
}

// Shutdown flushes and stops tp within timeout; call it once the manager has stopped, so that
// the last requests' spans are exported.
func Shutdown(tp *sdktrace.TracerProvider, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return tp.Shutdown(ctx)
}

// installed is the provider spans are started from; nil while tracing is off.
var installed atomic.Pointer[provider]

type provider struct{ tp trace.TracerProvider }

// Install makes tp the provider of every Scope and OpenTelemetry's global provider, and turns
// tracing on. The returned function turns it off again (tests); OpenTelemetry's global provider
// stays, as it cannot be unset.
func Install(tp trace.TracerProvider) (uninstall func()) {
	p := &provider{tp: tp}
	otel.SetTracerProvider(tp)
	installed.Store(p)
	return func() { installed.CompareAndSwap(p, nil) }
}

// Enabled reports whether a provider is installed. It is what instrumented code asks before it
// builds a span's attributes.
func Enabled() bool { return installed.Load() != nil }

// Recording reports whether ctx carries a span that is being recorded: a child span started
// under it would be exported. Without tracing it is false and costs a context lookup.
func Recording(ctx context.Context) bool {
	return installed.Load() != nil && trace.SpanFromContext(ctx).IsRecording()
}

// Scope is one instrumented package's tracer (its instrumentation scope), resolved once per
// installed provider.
type Scope struct {
	name   string
	cached atomic.Pointer[scopeTracer]
}

type scopeTracer struct {
	of     *provider
	tracer trace.Tracer
}

// NewScope names a package's tracer; name is the package's import path.
func NewScope(name string) *Scope { return &Scope{name: name} }

// Start starts a span under ctx's. Without tracing it returns ctx and a no-op span, without
// allocating; callers that build attributes ask Enabled or Recording first.
func (s *Scope) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	p := installed.Load()
	if p == nil {
		return ctx, noopSpan
	}
	c := s.cached.Load()
	if c == nil || c.of != p {
		c = &scopeTracer{of: p, tracer: p.tp.Tracer(s.name)}
		s.cached.Store(c)
	}
	return c.tracer.Start(ctx, name, opts...)
}

var noopSpan = trace.SpanFromContext(context.Background())

// End ends span, marking it failed with err's message when err is not nil. The message must
// hold no secret: callers pass errors that are safe to log (jsonrpc redacts node URLs).
func End(span trace.Span, err error) {
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
