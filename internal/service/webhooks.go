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
}

// setupWebhooks adds the webhook emitter and deliverer (leader only) when there is a database:
// the outbox is in it. Every replica gets a tester for POST /v2/webhooks/{name}/test.
func (s *Service) setupWebhooks(mgr ctrl.Manager, opts Options, catalog intent.RegistryCatalog, db *postgres.DB, log logr.Logger) (apiserver.WebhookTester, error) {
	send := sender.New(sender.Options{Timeout: opts.Webhooks.AttemptTimeout, AllowLoopback: opts.Webhooks.AllowLoopback})
	tester := webhookTester{&delivery.Tester{Cache: mgr.GetClient(), Sender: send, Namespace: opts.Namespace, Clock: clock.RealClock{}}}
	if db == nil {
		log.Info("no --archive-url: no webhook is delivered (the delivery log lives in the archive's PostgreSQL)")
		return tester, nil
	}
	box := outbox.New(db)
	deliverer := &delivery.Deliverer{
		Client: mgr.GetClient(), Outbox: box, Sender: send, Metrics: delivery.NewMetrics(opts.Metrics),
		Events: mgr.GetEventRecorder(controller.EventReporter), Log: log.WithName("webhooks"),
		Options: delivery.Options{AttemptTimeout: opts.Webhooks.AttemptTimeout, FirstRetry: opts.Webhooks.FirstRetry, Poll: opts.Webhooks.Poll, StatusInterval: opts.Webhooks.StatusInterval,
			DisableAfter: opts.Webhooks.DisableAfter},
	}
	if err := mgr.Add(deliverer); err != nil {
		return nil, err
	}
	emitter := &delivery.Emitter{
		Cache: mgr.GetClient(), Outbox: box, Notify: deliverer.Notify,
		Chains: catalog.Chain,
	}
	if s.Archiver != nil {
		// No intent leaves the API server before its events are recorded.
		s.Archiver.BeforeArchive = emitter.Ensure
	}
	return tester, emitter.SetupWithManager(mgr)
}

// webhookTester adapts delivery.Tester to the API's WebhookTester.
type webhookTester struct{ t *delivery.Tester }

func (w webhookTester) TestWebhook(ctx context.Context, account, environment, name string) (apiserver.WebhookTestResult, error) {
	res, err := w.t.Test(ctx, account, environment, name)
	if errors.Is(err, delivery.ErrEndpointNotFound) {
		return apiserver.WebhookTestResult{}, apiserver.ErrWebhookNotFound
	}
	if err != nil {
		return apiserver.WebhookTestResult{}, err
	}
	return apiserver.WebhookTestResult{
		EventID: res.EventID, Delivered: res.Delivered, Status: res.Status, DurationMs: res.Duration.Milliseconds(), Error: res.Error,
	}, nil
}
