package service

import (
	"context"
	"errors"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/transferintent/transfer-intent-service/internal/apiserver"
	"github.com/transferintent/transfer-intent-service/internal/controller"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
	"github.com/transferintent/transfer-intent-service/internal/webhook/delivery"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
	"github.com/transferintent/transfer-intent-service/internal/webhook/sender"
)

// WebhookOptions tune webhook delivery; the zero value is the production one.
type WebhookOptions struct {
	// FirstRetry is the wait after a first failed attempt (policy.Default.FirstRetry when
	// zero); later waits grow from it. Tests shorten it.
	FirstRetry time.Duration
	// AttemptTimeout bounds each delivery attempt (sender.DefaultTimeout, 10 s, when zero).
	AttemptTimeout time.Duration
	// Poll is how often due retries are looked for (delivery.DefaultPoll when zero).
	Poll time.Duration
	// AllowLoopback lets test endpoints reach loopback addresses (make run, tests); see
	// sender.Options.AllowLoopback.
	AllowLoopback bool
	// DisableAfter is how long an endpoint may fail before its deliveries stop
	// (policy.DisableAfter, 72 h, when zero). Tests shorten it.
	DisableAfter time.Duration
	// StatusInterval is the least time between two status writes of an endpoint
	// (delivery.DefaultStatusInterval when zero).
	StatusInterval time.Duration
	// EventRetention is how long GET /v2/events serves an event, and its ended deliveries stay
	// (delivery.DefaultEventRetention when zero).
	EventRetention time.Duration
	// EndpointsPerAccount is the most WebhookEndpoints of one account that receive deliveries
	// (endpoint.DefaultLimit when zero; below zero, no limit).
	EndpointsPerAccount int
}

// endpointLimit is the limit the emitter, the deliverer, the controller and the page share.
func (o WebhookOptions) endpointLimit() int {
	switch {
	case o.EndpointsPerAccount == 0:
		return endpoint.DefaultLimit
	case o.EndpointsPerAccount < 0:
		return 0
	}
	return o.EndpointsPerAccount
}

// setupWebhooks adds the webhook emitter and deliverer (leader only) when there is a database:
// the outbox is in it. Every replica gets a tester for POST /v2/webhooks/{name}/test, and, with
// the database, the event log of GET /v2/events and replays.
func (s *Service) setupWebhooks(mgr ctrl.Manager, opts Options, catalog intent.RegistryCatalog, db *postgres.DB, log logr.Logger) (apiserver.WebhookTester, apiserver.EventLog, error) {
	w := opts.Webhooks
	send := sender.New(sender.Options{Timeout: w.AttemptTimeout, AllowLoopback: w.AllowLoopback})
	tester := webhookTester{&delivery.Tester{Cache: mgr.GetClient(), Sender: send, Namespace: opts.Namespace, Clock: clock.RealClock{},
		EndpointLimit: w.endpointLimit()}}
	if db == nil {
		log.Info("no --archive-url: no webhook is delivered and no event listed (the delivery log lives in the archive's PostgreSQL)")
		return tester, nil, nil
	}
	box := outbox.New(db)
	deliverer := &delivery.Deliverer{
		Client: mgr.GetClient(), Outbox: box, Sender: send, Metrics: delivery.NewMetrics(opts.Metrics),
		Events: mgr.GetEventRecorder(controller.EventReporter), Log: log.WithName("webhooks"),
		Options: delivery.Options{AttemptTimeout: w.AttemptTimeout, FirstRetry: w.FirstRetry, Poll: w.Poll, StatusInterval: w.StatusInterval,
			DisableAfter: w.DisableAfter, EventRetention: w.EventRetention, EndpointLimit: w.endpointLimit()},
	}
	if err := mgr.Add(deliverer); err != nil {
		return nil, nil, err
	}
	emitter := &delivery.Emitter{
		Cache: mgr.GetClient(), Outbox: box, Notify: deliverer.Notify,
		Chains: catalog.Chain, EndpointLimit: w.endpointLimit(),
	}
	if s.Archiver != nil {
		// No intent leaves the API server before its events are recorded.
		s.Archiver.BeforeArchive = emitter.Ensure
	}
	events := eventLog{&delivery.Log{Cache: mgr.GetClient(), Outbox: box, Namespace: opts.Namespace,
		Retention: w.EventRetention, EndpointLimit: w.endpointLimit(), Clock: clock.RealClock{}}}
	return tester, events, emitter.SetupWithManager(mgr)
}

// eventLog adapts delivery.Log to the API's EventLog.
type eventLog struct{ l *delivery.Log }

func (e eventLog) Events(ctx context.Context, account, env string, f outbox.EventFilter, after *outbox.Cursor, limit int) ([]outbox.ListedEvent, bool, error) {
	return e.l.Events(ctx, account, env, f, after, limit)
}

func (e eventLog) Replay(ctx context.Context, account, env, name string, r apiserver.EventReplay) (outbox.Replayed, error) {
	res, err := e.l.Replay(ctx, account, env, name, delivery.ReplayRequest{
		IDs: r.IDs, Filter: outbox.EventFilter{After: r.After, Before: r.Before}, Cursor: r.Cursor,
	})
	var unserved *delivery.UnservedError
	switch {
	case errors.Is(err, delivery.ErrEndpointNotFound):
		return res, apiserver.ErrWebhookNotFound
	case errors.As(err, &unserved):
		return res, &apiserver.WebhookUnservedError{Reason: unserved.Reason}
	}
	return res, err
}

// webhookTester adapts delivery.Tester to the API's WebhookTester.
type webhookTester struct{ t *delivery.Tester }

func (w webhookTester) TestWebhook(ctx context.Context, account, environment, name string) (apiserver.WebhookTestResult, error) {
	res, err := w.t.Test(ctx, account, environment, name)
	var unserved *delivery.UnservedError
	switch {
	case errors.Is(err, delivery.ErrEndpointNotFound):
		return apiserver.WebhookTestResult{}, apiserver.ErrWebhookNotFound
	case errors.As(err, &unserved):
		return apiserver.WebhookTestResult{}, &apiserver.WebhookUnservedError{Reason: unserved.Reason}
	}
	if err != nil {
		return apiserver.WebhookTestResult{}, err
	}
	return apiserver.WebhookTestResult{
		EventID: res.EventID, Delivered: res.Delivered, Status: res.Status, DurationMs: res.Duration.Milliseconds(), Error: res.Error,
	}, nil
}
