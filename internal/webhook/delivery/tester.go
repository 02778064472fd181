package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/tracing"
	"github.com/transferintent/transfer-intent-service/internal/webhook/sender"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
	"github.com/transferintent/transfer-intent-service/internal/webhook/ssrf"
)

// EventTest is the type of the event POST /v2/webhooks/{name}/test sends. It is never recorded
// nor retried: the answer says how the one attempt went.
const EventTest = "webhook.test"

// ErrEndpointNotFound is the error for no endpoint of that name for the caller's account and environment.
var ErrEndpointNotFound = errors.New("no such webhook endpoint")

// TestResult is how a test delivery went.
type TestResult struct {
	EventID   string
	Delivered bool
	// Status is the receiver's status code, 0 when it did not answer.
	Status   int
	Duration time.Duration
	// Error says why the attempt failed; empty when it was delivered.
	Error string
}

// Tester sends test events; every replica has one (it reads the cache and writes nothing).
type Tester struct {
	Cache     client.Reader
	Sender    *sender.Sender
	Namespace string
	Clock     clock.PassiveClock
	// EndpointLimit is endpoint.Admitted's limit.
	EndpointLimit int
}

// Test sends a signed test event to the account's endpoint name in env, once. A URL the SSRF
// rules refuse is an error matching ssrf.ErrRefused; a receiver that fails is a TestResult.
func (t *Tester) Test(ctx context.Context, account, env, name string) (TestResult, error) {
	var ep v1alpha1.WebhookEndpoint
	err := t.Cache.Get(ctx, types.NamespacedName{Namespace: t.Namespace, Name: name}, &ep)
	if apierrors.IsNotFound(err) || (err == nil && (ep.Spec.AccountRef.Name != account || string(ep.Spec.Environment) != env)) {
		return TestResult{}, ErrEndpointNotFound
	}
	if err != nil {
		return TestResult{}, err
	}
	// The one rule of who receives: an endpoint beyond its account's limit gets no test sends
	// either (they would be a fan-out of their own).
	if stop, err := unservedBecause(ctx, t.Cache, &ep, t.EndpointLimit); err != nil {
		return TestResult{}, err
	} else if stop != "" {
		return TestResult{}, &UnservedError{Reason: stop}
	}
	if !tracing.Recording(ctx) {
		out, _, err := t.send(ctx, &ep, account, env)
		return out, err
	}
	// A child of the request's span; none when the request is not traced.
	ctx, span := startAttemptSpan(ctx, spanTest, &ep, EventTest, "", 1)
	out, errorType, err := t.send(ctx, &ep, account, env)
	if out.EventID != "" {
		span.SetAttributes(attribute.String("transferintent.webhook.event_id", out.EventID))
	}
	outcome := outcomeFailed
	if out.Delivered {
		outcome = outcomeDelivered
	}
	endAttemptSpan(span, out.Status, errorType, outcome)
	return out, err
}

// send makes the test attempt; errorType classifies its failure for the span.
func (t *Tester) send(ctx context.Context, ep *v1alpha1.WebhookEndpoint, account, env string) (out TestResult, errorType string, err error) {
	name := ep.Name
	if err := ssrf.CheckURL(ep.Spec.URL, t.Sender.AllowsLoopback(ep.Spec.Environment == v1alpha1.EnvironmentLive)); err != nil {
		return TestResult{}, "refused", err
	}
	now := t.Clock.Now()
	secrets, err := SecretsOf(ctx, t.Cache, ep, now)
	if err != nil {
		return TestResult{}, "secret", err
	}
	id := signing.NewEventID(now)
	data, _ := json.Marshal(map[string]string{"endpoint": name, "account": account})
	body, err := json.Marshal(signing.Event{ID: id, Type: EventTest, CreatedAt: now, Environment: env, Data: data})
	if err != nil {
		return TestResult{}, "encoding", err
	}
	res := t.Sender.Send(ctx, sender.Attempt{
		URL: ep.Spec.URL, Live: ep.Spec.Environment == v1alpha1.EnvironmentLive, EventID: id, Body: body, Secrets: secrets,
	}, now)
	// A host that resolves to a refused address is answered like one that does not resolve, or
	// does not accept connections (sender.Describe): the answer tells nothing of the network.
	out = TestResult{EventID: id, Delivered: res.OK(), Status: res.Status, Duration: res.Duration, Error: t.Sender.Describe(res)}
	return out, res.ErrorType(), nil
}
