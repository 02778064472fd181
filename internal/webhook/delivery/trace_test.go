package delivery

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/allocs"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
	"github.com/transferintent/transfer-intent-service/internal/tracing"
	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
	"github.com/transferintent/transfer-intent-service/internal/webhook/policy"
	"github.com/transferintent/transfer-intent-service/internal/webhook/sender"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

const (
	traceNamespace = "tenants"
	traceSecret    = "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA=="
	urlToken       = "tok3n-in-the-url"
	eventBody      = `{"id":"evt_body","data":{"reference":"body-only-value"}}`
)

// traceReceiver answers with the status of the path's last element and keeps the signatures it got.
type traceReceiver struct {
	*httptest.Server
	mu         sync.Mutex
	signatures []string
}

func newTraceReceiver(t *testing.T) *traceReceiver {
	r := &traceReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		r.mu.Lock()
		r.signatures = append(r.signatures, req.Header.Get("Webhook-Signature"))
		r.mu.Unlock()
		if strings.HasSuffix(req.URL.Path, "/fail") {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

// traceEndpoint is a test endpoint at url whose signing secret is ready (secretReady).
func traceEndpoint(name, rawURL string, secretReady bool) *v1alpha1.WebhookEndpoint {
	ep := &v1alpha1.WebhookEndpoint{
		ObjectMeta: metav1.ObjectMeta{Namespace: traceNamespace, Name: name, UID: types.UID("uid-" + name)},
		Spec: v1alpha1.WebhookEndpointSpec{
			AccountRef: v1alpha1.LocalObjectReference{Name: "alice"}, Environment: v1alpha1.EnvironmentTest, URL: rawURL,
		},
	}
	if secretReady {
		ep.Status.SecretRef = &v1alpha1.SecretKeyReference{Name: "hook-secret", Key: "secret"}
	}
	return ep
}

func traceClient(t *testing.T, objs ...client.Object) client.Client {
	t.Helper()
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: traceNamespace, Name: "hook-secret"},
		Data:       map[string][]byte{"secret": []byte(traceSecret)},
	}
	return fake.NewClientBuilder().WithScheme(testenv.Scheme()).WithObjects(append(objs, secret)...).Build()
}

// installTracing turns tracing on for the test, every span sampled and exported to memory. Tests
// that call it must not run in parallel: the provider is global.
func installTracing(t *testing.T) *tracetest.InMemoryExporter {
	t.Helper()
	exporter := tracetest.NewInMemoryExporter()
	t.Cleanup(tracing.Install(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter), sdktrace.WithSampler(sdktrace.AlwaysSample()))))
	return exporter
}

func attrs(s tracetest.SpanStub) map[attribute.Key]string {
	out := map[attribute.Key]string{}
	for _, kv := range s.Attributes {
		out[kv.Key] = kv.Value.String()
	}
	return out
}

// assertNothingSecret fails when anything the span records holds the URL (any part of it: the
// host, the port, the path's token), the secret, a signature or the body.
func assertNothingSecret(t *testing.T, s tracetest.SpanStub, rawURL string, signatures []string) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{rawURL, u.Host, u.Hostname(), u.Port(), urlToken, traceSecret, strings.TrimPrefix(traceSecret, signing.SecretPrefix),
		eventBody, "body-only-value"}
	for _, sig := range signatures {
		if sig != "" {
			forbidden = append(forbidden, sig, strings.TrimPrefix(strings.Fields(sig)[0], "v1,"))
		}
	}
	recorded := []string{s.Name, s.Status.Description}
	for _, kv := range s.Attributes {
		recorded = append(recorded, string(kv.Key), kv.Value.String())
	}
	for _, ev := range s.Events {
		recorded = append(recorded, ev.Name)
		for _, kv := range ev.Attributes {
			recorded = append(recorded, kv.Value.String())
		}
	}
	for _, r := range recorded {
		for _, f := range forbidden {
			if f != "" && strings.Contains(r, f) {
				t.Errorf("span %s records %q, which holds %q", s.Name, r, f)
			}
		}
	}
}

// Each delivery attempt is a span of its own (a root: the delivery happens long after the request
// that caused it) naming the event, the endpoint, the attempt, the answer and the outcome, and
// nothing of the URL, the secret, the signature or the body.
func TestEachDeliveryAttemptIsASpan(t *testing.T) {
	exporter := installTracing(t)
	rcv := newTraceReceiver(t)
	ok := rcv.URL + "/hooks/" + urlToken
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	d := &Deliverer{
		Client: traceClient(t),
		Sender: sender.New(sender.Options{AllowLoopback: true, Timeout: 2 * time.Second}),
		Clock:  clocktesting.NewFakePassiveClock(time.Now()),
	}
	d.init()
	for _, tc := range []struct {
		name       string
		ep         *v1alpha1.WebhookEndpoint
		attempts   int // made before this one
		outcome    string
		status     string
		errorType  string
		delivered  bool
		giveUp     bool
		notReached bool
	}{
		{name: "delivered", ep: traceEndpoint("hook", ok, true), outcome: "delivered", status: "204", delivered: true},
		{name: "failed, retried", ep: traceEndpoint("hook", ok+"/fail", true), attempts: 2, outcome: "retry", status: "503", errorType: "503"},
		{name: "failed for good", ep: traceEndpoint("hook", ok+"/fail", true), attempts: policy.Default.Attempts - 1, outcome: "failed", status: "503", errorType: "503", giveUp: true},
		{name: "no answer", ep: traceEndpoint("gone", closed.URL+"/"+urlToken, true), outcome: "retry", errorType: "connection", notReached: true},
		{name: "no secret yet", ep: traceEndpoint("new", ok, false), outcome: "retry", errorType: "secret", notReached: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exporter.Reset()
			dl := outbox.Delivery{EventID: "evt_01JTRACE0000000000000000", EndpointUID: string(tc.ep.UID), Namespace: tc.ep.Namespace,
				Endpoint: tc.ep.Name, Attempts: tc.attempts, Type: signing.EventTransferConfirmed, Sequence: 3, Body: []byte(eventBody)}
			res, o := d.deliver(context.Background(), tc.ep, dl, d.Clock.Now())
			if o.Delivered != tc.delivered || o.GiveUp != tc.giveUp || res.OK() != tc.delivered {
				t.Errorf("result %+v, outcome %+v", res, o)
			}
			spans := exporter.GetSpans()
			if len(spans) != 1 {
				t.Fatalf("%d spans, want 1", len(spans))
			}
			s := spans[0]
			got := attrs(s)
			want := map[attribute.Key]string{
				"http.request.method":                "POST",
				"transferintent.webhook.event_type":  signing.EventTransferConfirmed,
				"transferintent.webhook.event_id":    dl.EventID,
				"k8s.namespace.name":                 traceNamespace,
				"transferintent.webhook.endpoint":    tc.ep.Name,
				"transferintent.webhook.environment": "test",
				"transferintent.webhook.attempt":     map[int]string{0: "1", 2: "3", policy.Default.Attempts - 1: "8"}[tc.attempts],
				"transferintent.webhook.outcome":     tc.outcome,
			}
			if tc.status != "" {
				want["http.response.status_code"] = tc.status
			}
			if tc.errorType != "" {
				want["error.type"] = tc.errorType
			}
			if s.Name != "webhook delivery" || s.SpanKind != trace.SpanKindClient || s.Parent.IsValid() || len(got) != len(want) {
				t.Errorf("span %s, kind %v, parent %v, attributes %v; want %v", s.Name, s.SpanKind, s.Parent.SpanID(), got, want)
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			if wantCode := map[bool]codes.Code{true: codes.Unset, false: codes.Error}[tc.delivered]; s.Status.Code != wantCode ||
				s.Status.Description != tc.errorType {
				t.Errorf("status %v, want %v %q", s.Status, wantCode, tc.errorType)
			}
			rcv.mu.Lock()
			signatures := append([]string(nil), rcv.signatures...)
			rcv.mu.Unlock()
			assertNothingSecret(t, s, tc.ep.Spec.URL, signatures)
		})
	}
	if len(rcv.signatures) != 3 {
		t.Errorf("the receiver got %d requests, want 3", len(rcv.signatures))
	}
}

// With tracing off an attempt costs what it cost before the spans: the guard is one atomic load,
// and nothing of the span's attributes is built. Measured against a transport that answers at
// once, so that the attempt's own allocations are the same every time.
func TestDeliveryAllocatesNothingMoreWithTracingOff(t *testing.T) {
	if tracing.Enabled() {
		t.Fatal("tracing is on")
	}
	answer := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Header: http.Header{}}, nil
	})
	ep := traceEndpoint("hook", "http://127.0.0.1:9/"+urlToken, true)
	d := &Deliverer{Client: traceClient(t), Sender: sender.New(sender.Options{AllowLoopback: true, Transport: answer}),
		Clock: clocktesting.NewFakePassiveClock(time.Now())}
	d.init()
	dl := outbox.Delivery{EventID: "evt_x", Namespace: traceNamespace, Endpoint: "hook", Type: signing.EventTransferCreated, Body: []byte(eventBody)}
	ctx, now := context.Background(), d.Clock.Now()
	// The least figure of several interleaved rounds: see internal/allocs for why one figure each
	// drifts under load.
	least := allocs.Least(1000, func() {
		if res := d.send(ctx, ep, dl, now); !res.OK() {
			t.Fatalf("%+v", res)
		} else {
			_ = d.outcome(dl, res)
		}
	}, func() { _, _ = d.deliver(ctx, ep, dl, now) })
	if untraced, deliver := least[0], least[1]; deliver > untraced {
		t.Errorf("an attempt allocates %v times with tracing off, %v without the span's code", deliver, untraced)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The test event is a span under the request's, like a delivery's but never retried; a URL the
// SSRF rules refuse is a failed span too. Outside a traced request it starts none.
func TestTheTestEventIsAChildSpan(t *testing.T) {
	exporter := installTracing(t)
	rcv := newTraceReceiver(t)
	ok := rcv.URL + "/" + urlToken
	live := traceEndpoint("live", ok, true)
	live.Spec.Environment = v1alpha1.EnvironmentLive
	alice := &v1alpha1.Account{ObjectMeta: metav1.ObjectMeta{Namespace: traceNamespace, Name: "alice"}}
	kube := traceClient(t, traceEndpoint("hook", ok, true), traceEndpoint("failing", ok+"/fail", true), live, alice)
	tester := &Tester{Cache: kube, Sender: sender.New(sender.Options{AllowLoopback: true}), Namespace: traceNamespace,
		Clock: clocktesting.NewFakePassiveClock(time.Now())}

	parentCtx, parent := tracer.Start(context.Background(), "POST /v2/webhooks/{name}/test")
	for _, tc := range []struct {
		endpoint, env, outcome, status, errorType string
		refused                                   bool
	}{
		{endpoint: "hook", env: "test", outcome: "delivered", status: "204"},
		{endpoint: "failing", env: "test", outcome: "failed", status: "503", errorType: "503"},
		{endpoint: "live", env: "live", outcome: "failed", errorType: "refused", refused: true},
	} {
		exporter.Reset()
		res, err := tester.Test(parentCtx, "alice", tc.env, tc.endpoint)
		if (err != nil) != tc.refused {
			t.Fatalf("%s: %+v, %v", tc.endpoint, res, err)
		}
		spans := exporter.GetSpans()
		if len(spans) != 1 {
			t.Fatalf("%s: %d spans, want 1", tc.endpoint, len(spans))
		}
		s, got := spans[0], attrs(spans[0])
		if s.Name != "webhook test" || s.Parent.SpanID() != parent.SpanContext().SpanID() || got["transferintent.webhook.event_type"] != EventTest ||
			got["transferintent.webhook.endpoint"] != tc.endpoint || got["transferintent.webhook.attempt"] != "1" ||
			got["transferintent.webhook.outcome"] != tc.outcome || got["http.response.status_code"] != tc.status || got["error.type"] != tc.errorType ||
			got["transferintent.webhook.event_id"] != res.EventID {
			t.Errorf("%s: span %s (parent %v) %v", tc.endpoint, s.Name, s.Parent.SpanID(), got)
		}
		rcv.mu.Lock()
		signatures := append([]string(nil), rcv.signatures...)
		rcv.mu.Unlock()
		assertNothingSecret(t, s, ok, signatures)
	}
	parent.End()

	exporter.Reset()
	if _, err := tester.Test(context.Background(), "alice", "test", "hook"); err != nil {
		t.Fatal(err)
	}
	if n := len(exporter.GetSpans()); n != 0 {
		t.Errorf("a test event outside a traced request made %d spans", n)
	}
}
