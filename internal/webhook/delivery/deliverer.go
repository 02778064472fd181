package delivery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
	"github.com/transferintent/transfer-intent-service/internal/webhook/policy"
	"github.com/transferintent/transfer-intent-service/internal/webhook/sender"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// Defaults of Options.
const (
	// DefaultPoll is how often the outbox is asked for due retries (recorded events wake the
	// deliverer at once).
	DefaultPoll = time.Second
	// DefaultStatusInterval is the least time between two status writes of one endpoint.
	DefaultStatusInterval = time.Minute
	// DefaultEventRetention is how long GET /v2/events serves an event, and its ended deliveries
	// stay in the outbox (--event-retention).
	DefaultEventRetention = 30 * 24 * time.Hour
	// maxEndpointWorkers bounds the endpoints sent to at once. A worker makes one attempt and
	// hands its place back, so that a waiting account's delivery takes the next free one: one
	// account's backlog delays another's events by one attempt's timeout at most.
	maxEndpointWorkers = 32
)

// Options tune a Deliverer; the zero value is the production one.
type Options struct {
	// MaxAttempts and FirstRetry make the retry schedule (policy.Default's when zero).
	MaxAttempts    int
	FirstRetry     time.Duration
	Poll           time.Duration
	StatusInterval time.Duration
	// AttemptTimeout bounds an attempt (sender.DefaultTimeout when zero); it must be the
	// Sender's.
	AttemptTimeout time.Duration
	// DisableAfter is how long an endpoint may fail without a success before its deliveries
	// stop; policy.DisableAfter when zero.
	DisableAfter time.Duration
	// EventRetention is how long ended deliveries stay (DefaultEventRetention when zero).
	EventRetention time.Duration
	// EndpointLimit is the most endpoints of an account that receive deliveries
	// (endpoint.Admitted); below 1, no limit.
	EndpointLimit int
}

func (o *Options) defaults() {
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = policy.Default.Attempts
	}
	if o.FirstRetry <= 0 {
		o.FirstRetry = policy.Default.FirstRetry
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	if o.StatusInterval <= 0 {
		o.StatusInterval = DefaultStatusInterval
	}
	if o.AttemptTimeout <= 0 {
		o.AttemptTimeout = sender.DefaultTimeout
	}
	if o.DisableAfter <= 0 {
		o.DisableAfter = policy.DisableAfter
	}
	if o.EventRetention <= 0 {
		o.EventRetention = DefaultEventRetention
	}
}

func (o *Options) schedule() policy.Schedule {
	return policy.Schedule{FirstRetry: o.FirstRetry, Attempts: o.MaxAttempts}
}

// lease is how long a claimed delivery is left alone before another deliverer may take it: well
// over what its attempt can last (a deliverer killed mid-attempt delays the event by this much).
func (d *Deliverer) lease() time.Duration {
	return 2*d.Options.AttemptTimeout + 5*time.Second
}

// Deliverer sends the due deliveries of the outbox. It is a leader-only Runnable.
type Deliverer struct {
	// Client reads WebhookEndpoints and Secrets (the cache) and writes endpoints' status.
	Client  client.Client
	Outbox  *outbox.Store
	Sender  *sender.Sender
	Events  events.EventRecorder
	Metrics *Metrics
	Log     logr.Logger
	Clock   clock.PassiveClock
	Options Options

	wake    chan struct{}
	once    sync.Once
	health  healthWriter
	workers sync.WaitGroup
	mu      sync.Mutex
	busy    map[string]string // the account (outbox.AccountKey) of each endpoint a worker sends to, by UID
}

func (d *Deliverer) init() {
	d.once.Do(func() {
		d.wake = make(chan struct{}, 1)
		d.busy = map[string]string{}
		d.Options.defaults()
		if d.Clock == nil {
			d.Clock = clock.RealClock{}
		}
		d.health = healthWriter{client: d.Client, interval: d.Options.StatusInterval, clock: d.Clock, log: d.Log}
	})
}

// Notify wakes the deliverer: events were recorded.
func (d *Deliverer) Notify() {
	d.init()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// NeedLeaderElection is true: one deliverer sends (two, for a moment at a handover, split the
// due deliveries between them; the outbox's claim gives each to one).
func (d *Deliverer) NeedLeaderElection() bool { return true }

// Start delivers until ctx ends, then waits for the attempts in flight.
func (d *Deliverer) Start(ctx context.Context) error {
	d.init()
	ticker := time.NewTicker(d.Options.Poll)
	defer ticker.Stop()
	var pruned time.Time
	pruning := make(chan struct{}, 1) // one prune at a time, beside the deliveries
	for {
		if now := d.Clock.Now(); now.Sub(pruned) >= time.Hour {
			select {
			case pruning <- struct{}{}:
				pruned = now
				d.workers.Go(func() {
					defer func() { <-pruning }()
					d.prune(ctx, now)
				})
			default:
			}
		}
		more, err := d.pass(ctx)
		if err != nil && ctx.Err() == nil {
			d.Log.V(1).Info("webhook outbox not readable; retrying", "error", err.Error())
		}
		d.health.flush(ctx, false)
		if more {
			continue
		}
		select {
		case <-ctx.Done():
			d.workers.Wait()
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			d.health.flush(final, true)
			cancel()
			return nil
		case <-d.wake:
		case <-ticker.C:
		}
	}
}

// MinEventLifetime is the least time an event's row stays in the outbox, whatever the retention:
// longer than an intent can stay a TransferIntent (its deadline, 30 days at most, plus
// --archive-after). The row is what makes recording the event again a no-op, so pruning it while
// the emitter can still see the intent would send the event again under a new id. Its
// deliveries go at the retention.
const MinEventLifetime = 40 * 24 * time.Hour

// pruneBatches bounds one prune's work: what is left goes at the next, an hour later.
const pruneBatches = 100

// prune deletes the ended deliveries of events older than the retention, and the events older
// than that and MinEventLifetime, a batch at a time. It runs beside the deliveries, never in
// their way, and logs what fails (a prune that keeps failing lets the outbox grow).
func (d *Deliverer) prune(ctx context.Context, now time.Time) {
	deliveries := now.Add(-d.Options.EventRetention)
	events := now.Add(-max(d.Options.EventRetention, MinEventLifetime))
	for range pruneBatches {
		n, err := d.Outbox.Prune(ctx, deliveries, events, 1000)
		if err != nil {
			if ctx.Err() == nil {
				d.Log.Error(err, "pruning the webhook outbox; retrying in an hour")
			}
			return
		}
		if n == 0 {
			return
		}
	}
}

// pass claims a due delivery of as many endpoints as there are free workers, shared between
// accounts first (outbox.Claim), and starts a worker per delivery. It does not wait for them: an
// endpoint that takes the whole timeout on every attempt delays only its own deliveries. It
// reports whether it filled every free worker (more may be due).
func (d *Deliverer) pass(ctx context.Context) (bool, error) {
	busy, held := d.busyEndpoints()
	free := maxEndpointWorkers - len(busy)
	if free <= 0 {
		return false, nil
	}
	due, err := d.Outbox.Claim(ctx, outbox.Claim{Limit: free, Lease: d.lease(), Busy: busy, Held: held})
	if err != nil {
		return false, err
	}
	for _, dl := range due {
		d.setBusy(dl, true)
		d.workers.Go(func() {
			defer func() {
				d.setBusy(dl, false)
				d.Notify() // its next delivery may be due, and another account's may wait
			}()
			d.attempt(ctx, dl)
		})
	}
	return len(due) == free, nil
}

// busyEndpoints lists the endpoints a worker sends to, and counts the workers of each account.
func (d *Deliverer) busyEndpoints() ([]string, map[string]int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	uids, held := make([]string, 0, len(d.busy)), make(map[string]int, len(d.busy))
	for uid, account := range d.busy {
		uids = append(uids, uid)
		held[account]++
	}
	return uids, held
}

func (d *Deliverer) setBusy(dl outbox.Delivery, busy bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if busy {
		d.busy[dl.EndpointUID] = outbox.AccountKey(dl.Namespace, dl.Account)
	} else {
		delete(d.busy, dl.EndpointUID)
	}
}

// attempt makes one attempt at a delivery and writes its outcome, or drops it when its endpoint
// is no longer served (endpoint.Unserved).
func (d *Deliverer) attempt(ctx context.Context, dl outbox.Delivery) {
	log := d.Log.WithValues("webhookEndpoint", dl.Namespace+"/"+dl.Endpoint, "event", dl.EventID, "attempt", dl.Attempts+1)
	ep, stop, err := d.served(ctx, dl)
	switch {
	case err != nil:
		return // the lease runs out and the delivery is taken again
	case stop != "":
		d.drop(ctx, dl, stop)
		return
	}
	now := d.Clock.Now()
	res, outcome := d.deliver(ctx, ep, dl, now)
	h, err := d.Outbox.Settle(ctx, dl, outcome)
	if errors.Is(err, outbox.ErrNotHeld) {
		log.Info("the delivery ended or was taken again while this attempt ran; its outcome is not counted")
		return
	}
	if err != nil {
		// Not written: the lease runs out and the event is sent again (same webhook-id).
		log.Error(err, "recording a delivery attempt")
		return
	}
	if h.DisabledGeneration != 0 && h.DisabledGeneration != ep.Generation {
		// Disabled at an older spec: the change resumed deliveries, and failures count afresh.
		if err := d.Outbox.Enable(ctx, string(ep.UID)); err == nil {
			h.DisabledGeneration, h.FailingSince = 0, time.Time{}
			if !res.OK() {
				h.FailingSince = now
			}
		}
	}
	d.Metrics.observe(dl, res, outcome, now)
	if res.OK() {
		log.V(1).Info("delivered", "status", res.Status, "duration", res.Duration)
	} else {
		log.Info("delivery failed", "error", outcome.Error, "retryIn", outcome.RetryIn, "gaveUp", outcome.GiveUp)
	}
	d.health.record(ep, h)
	if !res.OK() && !h.FailingSince.IsZero() && now.Sub(h.FailingSince) >= d.Options.DisableAfter {
		d.disable(ctx, ep, h) // its other pending deliveries are dropped with it
	}
}

// served reads a delivery's endpoint from the cache and says why it is no longer served
// (endpoint.Unserved), or "" when the attempt goes ahead. An endpoint deleted, or replaced by
// another of the same name, is not served.
func (d *Deliverer) served(ctx context.Context, dl outbox.Delivery) (*v1alpha1.WebhookEndpoint, string, error) {
	var ep v1alpha1.WebhookEndpoint
	err := d.Client.Get(ctx, types.NamespacedName{Namespace: dl.Namespace, Name: dl.Endpoint}, &ep)
	if apierrors.IsNotFound(err) || (err == nil && string(ep.UID) != dl.EndpointUID) {
		return nil, endpoint.StopDeleted, nil
	}
	if err != nil {
		return nil, "", err
	}
	stop, err := unservedBecause(ctx, d.Client, &ep, d.Options.EndpointLimit)
	return &ep, stop, err
}

// deliver makes one attempt at dl and decides its outcome; with tracing on, the attempt is a span.
func (d *Deliverer) deliver(ctx context.Context, ep *v1alpha1.WebhookEndpoint, dl outbox.Delivery, now time.Time) (sender.Result, outbox.Outcome) {
	ctx, span := startDeliverySpan(ctx, ep, dl)
	res := d.send(ctx, ep, dl, now)
	outcome := d.outcome(dl, res)
	endDeliverySpan(span, res, outcome)
	return res, outcome
}

// outcome is the retry decision: what an attempt's result makes of the delivery. Delivered, retried
// after the schedule's backoff, or given up after the last attempt.
func (d *Deliverer) outcome(dl outbox.Delivery, res sender.Result) outbox.Outcome {
	if res.OK() {
		return outbox.Outcome{Delivered: true}
	}
	outcome := outbox.Outcome{Error: truncate(d.describe(res), 1024)}
	schedule, attempt := d.Options.schedule(), dl.Attempts+1
	if schedule.GivesUp(attempt) {
		outcome.GiveUp = true
	} else {
		outcome.RetryIn = schedule.Backoff(attempt)
	}
	return outcome
}

func (d *Deliverer) send(ctx context.Context, ep *v1alpha1.WebhookEndpoint, dl outbox.Delivery, now time.Time) sender.Result {
	secrets, err := SecretsOf(ctx, d.Client, ep, now)
	if err != nil {
		return sender.Result{Err: secretError{err}}
	}
	return d.Sender.Send(ctx, sender.Attempt{
		URL: ep.Spec.URL, Live: ep.Spec.Environment == v1alpha1.EnvironmentLive,
		EventID: dl.EventID, Body: dl.Body, Secrets: secrets,
	}, now)
}

// SecretsOf reads the secrets that sign an endpoint's deliveries at now from its Secret.
func SecretsOf(ctx context.Context, c client.Reader, ep *v1alpha1.WebhookEndpoint, now time.Time) ([]string, error) {
	ref := ep.Status.SecretRef
	if ref == nil {
		return nil, errors.New("the endpoint's signing secret is not ready yet")
	}
	var secret corev1.Secret
	if err := c.Get(ctx, types.NamespacedName{Namespace: ep.Namespace, Name: ref.Name}, &secret); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, fmt.Errorf("the Secret %s does not exist", ref.Name)
		}
		return nil, fmt.Errorf("reading Secret %s: %w", ref.Name, err)
	}
	if len(secret.Data[ref.Key]) == 0 {
		return nil, fmt.Errorf("the Secret %s has no key %s", ref.Name, ref.Key)
	}
	return signing.ActiveSecrets(secret.Data, ref.Key, now), nil
}

// drop ends a delivery whose endpoint is not served, for reason (an endpoint.Stop reason).
func (d *Deliverer) drop(ctx context.Context, dl outbox.Delivery, reason string) {
	if err := d.Outbox.Drop(ctx, dl, strings.ReplaceAll(reason, "_", " ")); err != nil {
		d.Log.Error(err, "dropping a delivery", "event", dl.EventID)
		return
	}
	d.Metrics.dropped(reason)
}

// disable stops deliveries to an endpoint that failed for too long: the outbox drops its pending
// deliveries, its status says so at once (not at the next minute), and an Event tells kubectl.
func (d *Deliverer) disable(ctx context.Context, ep *v1alpha1.WebhookEndpoint, h outbox.Health) {
	if err := d.Outbox.Disable(ctx, string(ep.UID), ep.Generation); err != nil {
		d.Log.Error(err, "disabling a failing endpoint", "webhookEndpoint", ep.Name)
		return
	}
	now := metav1.NewTime(d.Clock.Now())
	if err := d.health.writeNow(ctx, ep, h, func(st *v1alpha1.WebhookEndpointStatus) {
		st.DisabledAt, st.DisabledGeneration = &now, ep.Generation
	}); err != nil {
		d.Log.Error(err, "writing a disabled endpoint's status", "webhookEndpoint", ep.Name)
	}
	if d.Events != nil {
		d.Events.Eventf(ep, nil, corev1.EventTypeWarning, "DeliveriesStopped", "Disable",
			"deliveries failed for %s since %s (last error: %s): stopped until the spec changes",
			d.Options.DisableAfter, h.FailingSince.Format(time.RFC3339), h.LastError)
	}
}

// describe is an attempt's failure as its endpoint's owner may read it (status.lastError, the
// /webhooks page, GET /v2/events): sender.Describe, or what is wrong with the endpoint's Secret.
func (d *Deliverer) describe(res sender.Result) string {
	var secret secretError
	if errors.As(res.Err, &secret) {
		return secret.Error()
	}
	return sender.Describe(res, d.Options.AttemptTimeout)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
