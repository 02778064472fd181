package intentstore

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	coordinationv1 "k8s.io/api/coordination/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

var tracer = tracing.NewScope("github.com/transferintent/transfer-intent-service/internal/intentstore")

// tracedWriter gives each write to the API server a span, a child of the request's: "kubernetes
// create TransferIntent", "kubernetes update Lease"... A write outside a traced request (the
// claim janitor's deletes) starts none, nor does any write while tracing is off.
type tracedWriter struct{ client.Writer }

func (w tracedWriter) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	return traced(ctx, "create", obj, func(ctx context.Context) error { return w.Writer.Create(ctx, obj, opts...) })
}

func (w tracedWriter) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return traced(ctx, "update", obj, func(ctx context.Context) error { return w.Writer.Update(ctx, obj, opts...) })
}

func (w tracedWriter) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return traced(ctx, "patch", obj, func(ctx context.Context) error { return w.Writer.Patch(ctx, obj, patch, opts...) })
}

func (w tracedWriter) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	return traced(ctx, "delete", obj, func(ctx context.Context) error { return w.Writer.Delete(ctx, obj, opts...) })
}

// traced runs write, inside a span of its own when the request is traced.
func traced(ctx context.Context, verb string, obj client.Object, write func(context.Context) error) error {
	if !tracing.Recording(ctx) {
		return write(ctx)
	}
	ctx, span := startWrite(ctx, verb, obj)
	err := write(ctx)
	tracing.End(span, err)
	return err
}

func startWrite(ctx context.Context, verb string, obj client.Object) (context.Context, trace.Span) {
	kind := "object"
	switch obj.(type) {
	case *v1alpha1.TransferIntent:
		kind = "TransferIntent"
	case *coordinationv1.Lease:
		kind = "Lease" // an idempotency claim
	}
	return tracer.Start(ctx, "kubernetes "+verb+" "+kind,
		trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(
			attribute.String("k8s.verb", verb),
			attribute.String("k8s.kind", kind),
			attribute.String("k8s.namespace.name", obj.GetNamespace()),
			attribute.String("k8s.object.name", obj.GetName()),
		))
}
