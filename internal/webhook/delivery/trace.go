package delivery

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/tracing"
	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
	"github.com/transferintent/transfer-intent-service/internal/webhook/sender"
)

// tracer starts a span per delivery attempt and per test event (internal/tracing); none while
// tracing is off.
var tracer = tracing.NewScope("github.com/transferintent/transfer-intent-service/internal/webhook/delivery")

// The names of the spans and the outcomes they record: an attempt was delivered, failed and will
// be retried, or failed for good (the last attempt, or a test event, which is never retried).
const (
	spanDelivery     = "webhook delivery"
	spanTest         = "webhook test"
	outcomeDelivered = "delivered"
	outcomeRetry     = "retry"
	outcomeFailed    = "failed"
)

// startAttemptSpan starts the span of one attempt at eventType to ep. It records what names the
// attempt (event type and id, endpoint, attempt number), never the endpoint's URL (it may carry a
// token, and its host is the customer's, like a node's URL), the body, the signature or a secret.
func startAttemptSpan(ctx context.Context, name string, ep *v1alpha1.WebhookEndpoint, eventType, eventID string, attempt int) (context.Context, trace.Span) {
	attrs := []attribute.KeyValue{
		attribute.String("http.request.method", "POST"),
		attribute.String("transferintent.webhook.event_type", eventType),
		attribute.String("k8s.namespace.name", ep.Namespace),
		attribute.String("transferintent.webhook.endpoint", ep.Name),
		attribute.String("transferintent.webhook.environment", string(ep.Spec.Environment)),
		attribute.Int("transferintent.webhook.attempt", attempt),
	}
	if eventID != "" { // a test event's id is made once the endpoint is checked
		attrs = append(attrs, attribute.String("transferintent.webhook.event_id", eventID))
	}
	return tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

// endAttemptSpan records how the attempt went and ends its span. The span's status names the
// error's class (sender.Result.ErrorType), not its message: a message may name the URL's host or
// the address it resolved to.
func endAttemptSpan(span trace.Span, status int, errorType, outcome string) {
	if status != 0 {
		span.SetAttributes(attribute.Int("http.response.status_code", status))
	}
	span.SetAttributes(attribute.String("transferintent.webhook.outcome", outcome))
	if errorType != "" {
		span.SetAttributes(attribute.String("error.type", errorType))
		span.SetStatus(codes.Error, errorType)
	}
	span.End()
}

// startDeliverySpan starts the span of an attempt at dl: the root of a trace (a delivery happens
// long after the request that caused it). While tracing is off it starts none and returns a nil
// span, at the cost of one atomic load.
func startDeliverySpan(ctx context.Context, ep *v1alpha1.WebhookEndpoint, dl outbox.Delivery) (context.Context, trace.Span) {
	if !tracing.Enabled() {
		return ctx, nil
	}
	return startAttemptSpan(ctx, spanDelivery, ep, dl.Type, dl.EventID, dl.Attempts+1)
}

// endDeliverySpan records the attempt's result and what the deliverer made of it, and ends span
// (nil: none was started).
func endDeliverySpan(span trace.Span, res sender.Result, o outbox.Outcome) {
	if span == nil {
		return
	}
	outcome := outcomeDelivered
	switch {
	case o.GiveUp:
		outcome = outcomeFailed
	case !o.Delivered:
		outcome = outcomeRetry
	}
	errorType := res.ErrorType()
	if errors.As(res.Err, new(secretError)) {
		errorType = "secret"
	}
	endAttemptSpan(span, res.Status, errorType, outcome)
}

// secretError is a failure to read an endpoint's signing secrets: no request was made.
type secretError struct{ err error }

func (e secretError) Error() string { return e.err.Error() }
func (e secretError) Unwrap() error { return e.err }
