package apiserver

import (
	"context"
	"net/http"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

// tracer starts the API's server spans (internal/tracing); it starts none while tracing is off.
var tracer = tracing.NewScope("github.com/transferintent/transfer-intent-service/internal/apiserver")

// startServerSpan starts the request's server span. It is a root span: a caller's traceparent
// header is not followed, so that a client of the public API can neither choose what is sampled
// nor join its traces to ours (docs/decisions.md). Its name is the method until the route is
// known (endServerSpan).
func startServerSpan(ctx context.Context, r *http.Request, st *requestState, start time.Time) (context.Context, trace.Span) {
	method := metricMethod(r.Method)
	return tracer.Start(ctx, method,
		trace.WithNewRoot(),
		trace.WithSpanKind(trace.SpanKindServer),
		trace.WithTimestamp(start),
		trace.WithAttributes(
			attribute.String("http.request.method", method),
			attribute.String("correlation.id", st.correlationID),
		))
}

// endServerSpan names the span by its route pattern (never the raw path, which holds ids), records
// the status and the key's account, and ends it.
func endServerSpan(span trace.Span, r *http.Request, status int, st *requestState) {
	span.SetName(spanName(metricMethod(r.Method), st.route))
	if st.route != routeUnmatched {
		span.SetAttributes(attribute.String("http.route", routePath(st.route)))
	}
	span.SetAttributes(attribute.Int("http.response.status_code", status))
	if st.authenticated {
		span.SetAttributes(attribute.String("transferintent.account", st.key.Account), attribute.String("transferintent.key_id", st.key.ID))
	}
	if status >= http.StatusInternalServerError {
		span.SetStatus(codes.Error, http.StatusText(status))
	}
	span.End()
}

// spanName is "METHOD /path/{pattern}": a ServeMux pattern that names its method already is used
// as it is; an unmatched request is named by its method alone (OpenTelemetry's HTTP conventions).
func spanName(method, route string) string {
	switch {
	case route == routeUnmatched:
		return method
	case strings.HasPrefix(route, "/"):
		return method + " " + route
	default:
		return route
	}
}

// routePath is the path part of a ServeMux pattern ("POST /v2/transfers" -> "/v2/transfers").
func routePath(route string) string {
	if _, path, ok := strings.Cut(route, " "); ok {
		return path
	}
	return route
}
