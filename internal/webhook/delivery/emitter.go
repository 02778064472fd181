// Package delivery turns TransferIntents' transitions into webhook deliveries: the Emitter records
// an event per transition in the outbox (PostgreSQL), and the Deliverer sends what is due, retries
// with backoff, and keeps each endpoint's health. Both run on the leader only; neither writes to
// the API server per event or attempt (the endpoint's status at most once a minute).
package delivery

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
)

// Sequence numbers of the events of one intent: fixed by type, so that whichever replica records
// an event gives it the same number, and a receiver orders what it got (an intent that expired was
// never submitted: its events are 1 and 4). Only their order is promised: signed came after the
// others were first numbered, and they moved up one.
const (
	sequenceCreated   = 1
	sequenceSigned    = 2
	sequenceSubmitted = 3
	sequenceFinal     = 4
)

// Emitter records the events of TransferIntents' transitions. It is level-based: each reconcile
// records every event the intent's current state implies that is not recorded yet, so a restart,
// a missed watch event or a crash between the transition and the record loses nothing (the
// intent stays in the API server for --archive-after past its end, and the leader's first pass
// looks at every live intent).
type Emitter struct {
	Cache  client.Reader
	Outbox *outbox.Store
	// Chains is the chain table the record reads: its links, and its refund's terms.
	Chains transferrecord.Chains
	// Notify wakes the Deliverer after events were recorded; may be nil.
	Notify func()
	// EndpointLimit is the most endpoints of an account that receive deliveries
	// (endpoint.Admitted); below 1, no limit.
	EndpointLimit int
	Clock         clock.PassiveClock

	mu sync.Mutex
	// recorded counts, by intent (namespace/name), the events known to be recorded or not wanted, so that a
	// reconcile of an unchanged intent costs no query.
	recorded map[string]int
}

// event is one event an intent's state implies.
type event struct {
	typ      v1alpha1.WebhookEventType
	sequence int
	at       time.Time
}

// eventsOf lists the events an intent's state implies, in order: created always; submitted once
// it has a transaction; then its end, if it ended.
func eventsOf(obj *v1alpha1.TransferIntent) []event {
	sum := transferrecord.SummaryOf(obj)
	out := []event{{v1alpha1.WebhookEventTransferCreated, sequenceCreated, sum.CreatedAt}}
	phase := intentstatus.Phase(obj)
	if obj.Status.Signature != "" {
		out = append(out, event{v1alpha1.WebhookEventTransferSigned, sequenceSigned, sum.UpdatedAt})
	}
	if sum.Hash != "" || phase == v1alpha1.IntentPhaseSubmitted {
		out = append(out, event{v1alpha1.WebhookEventTransferSubmitted, sequenceSubmitted, sum.UpdatedAt})
	}
	switch phase {
	case v1alpha1.IntentPhaseConfirmed:
		out = append(out, event{v1alpha1.WebhookEventTransferConfirmed, sequenceFinal, sum.UpdatedAt})
	case v1alpha1.IntentPhaseFailed:
		out = append(out, event{v1alpha1.WebhookEventTransferFailed, sequenceFinal, sum.UpdatedAt})
	case v1alpha1.IntentPhaseExpired:
		out = append(out, event{v1alpha1.WebhookEventTransferExpired, sequenceFinal, sum.UpdatedAt})
	case v1alpha1.IntentPhaseCancelled:
		// Not at cancelling: a filler may still open the order then, and its submitted would
		// come after a cancelled that ranks above it.
		out = append(out, event{v1alpha1.WebhookEventTransferCancelled, sequenceFinal, sum.UpdatedAt})
	}
	return out
}

// subscribed lists, of the endpoints served to the intent's account (servedTo), those that hear of
// an event: the intent's environment, the event's type, and created no later than the event
// happened (an endpoint hears of what happens after it exists).
func subscribed(served []v1alpha1.WebhookEndpoint, obj *v1alpha1.TransferIntent, ev event) []outbox.Target {
	var out []outbox.Target
	for i := range served {
		ep := &served[i]
		if ep.Spec.Environment != obj.Spec.Environment || !slices.Contains(ep.Spec.EventTypes, ev.typ) || ep.CreationTimestamp.After(ev.at) {
			continue
		}
		out = append(out, outbox.Target{UID: string(ep.UID), Namespace: ep.Namespace, Name: ep.Name, Account: ep.Spec.AccountRef.Name})
	}
	return out
}

// servedTo lists the account's endpoints that receive deliveries now (endpoint.Unserved), decided
// once for all of an intent's events.
func (e *Emitter) servedTo(ctx context.Context, namespace, account string) ([]v1alpha1.WebhookEndpoint, error) {
	var endpoints v1alpha1.WebhookEndpointList
	if err := e.Cache.List(ctx, &endpoints, client.InNamespace(namespace), client.MatchingFields{endpoint.AccountField: account}); err != nil {
		return nil, err
	}
	if len(endpoints.Items) == 0 {
		return nil, nil
	}
	var owner *v1alpha1.Account
	var a v1alpha1.Account
	switch err := e.Cache.Get(ctx, client.ObjectKey{Namespace: namespace, Name: account}, &a); {
	case err == nil:
		owner = &a
	case !apierrors.IsNotFound(err):
		return nil, err
	}
	return slices.DeleteFunc(slices.Clone(endpoints.Items), func(ep v1alpha1.WebhookEndpoint) bool {
		return endpoint.Unserved(&ep, owner, endpoints.Items, e.EndpointLimit) != ""
	}), nil
}

// Reconcile records the intent's events that are due.
func (e *Emitter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var obj v1alpha1.TransferIntent
	if err := e.Cache.Get(ctx, req.NamespacedName, &obj); err != nil {
		if apierrors.IsNotFound(err) {
			e.forget(req.String())
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	due := eventsOf(&obj)
	if e.known(req.String()) >= len(due) {
		return ctrl.Result{}, nil
	}
	served, err := e.servedTo(ctx, obj.Namespace, obj.Spec.AccountRef.Name)
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := e.record(ctx, &obj, due, served); err != nil {
		return ctrl.Result{}, err
	}
	e.remember(req.String(), len(due))
	return ctrl.Result{}, nil
}

// record writes the events of due with their deliveries, and wakes the deliverer when any was new.
func (e *Emitter) record(ctx context.Context, obj *v1alpha1.TransferIntent, due []event, served []v1alpha1.WebhookEndpoint) error {
	events, targets, err := e.build(obj, due, served)
	if err != nil || len(events) == 0 {
		return err
	}
	written, err := e.Outbox.Record(ctx, events, targets)
	if err != nil {
		return err
	}
	if len(written) > 0 && e.Notify != nil && hasTargets(targets) {
		e.Notify()
	}
	return nil
}

// Ensure records every event the intents' states imply that is not recorded yet, whatever the
// emitter remembers: the archiver calls it before intents leave the API server, so that an event
// the emitter has not recorded yet (a leader that was down, a reconcile that failed) is not lost
// with the intent.
func (e *Emitter) Ensure(ctx context.Context, intents []*v1alpha1.TransferIntent) error {
	served := map[string][]v1alpha1.WebhookEndpoint{} // by account, for this call
	for _, obj := range intents {
		account := obj.Spec.AccountRef.Name
		to, ok := served[account]
		if !ok {
			var err error
			if to, err = e.servedTo(ctx, obj.Namespace, account); err != nil {
				return err
			}
			served[account] = to
		}
		if err := e.record(ctx, obj, eventsOf(obj), to); err != nil {
			return err
		}
	}
	return nil
}

// build makes the outbox events of due, each with its subscribers (an event without any is
// recorded too: GET /v2/events lists it); the body's data is the intent's record as it is now,
// which every event of this reconcile shares.
func (e *Emitter) build(obj *v1alpha1.TransferIntent, due []event, served []v1alpha1.WebhookEndpoint) ([]outbox.Event, [][]outbox.Target, error) {
	data, err := json.Marshal(transferrecord.Of(obj, e.Chains, e.Clock.Now()))
	if err != nil {
		return nil, nil, err
	}
	events := make([]outbox.Event, 0, len(due))
	targets := make([][]outbox.Target, 0, len(due))
	for _, ev := range due {
		id := signing.NewEventID(e.Clock.Now())
		body, err := json.Marshal(signing.Event{
			ID: id, Type: string(ev.typ), CreatedAt: ev.at, Environment: string(obj.Spec.Environment),
			Sequence: uint64(ev.sequence), Data: data,
		})
		if err != nil {
			return nil, nil, err
		}
		events = append(events, outbox.Event{
			ID: id, Namespace: obj.Namespace, Account: obj.Spec.AccountRef.Name, Environment: string(obj.Spec.Environment),
			IntentID: obj.Spec.ID, Type: string(ev.typ), Sequence: ev.sequence, CreatedAt: ev.at, Body: body,
		})
		targets = append(targets, subscribed(served, obj, ev))
	}
	return events, targets, nil
}

func hasTargets(targets [][]outbox.Target) bool {
	for _, t := range targets {
		if len(t) > 0 {
			return true
		}
	}
	return false
}

func (e *Emitter) known(key string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.recorded[key]
}

func (e *Emitter) remember(key string, n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.recorded == nil {
		e.recorded = map[string]int{}
	}
	e.recorded[key] = n
}

func (e *Emitter) forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.recorded, key)
}

// SetupWithManager registers the Emitter as a controller of TransferIntents (leader only, like
// every controller).
func (e *Emitter) SetupWithManager(mgr ctrl.Manager) error {
	if e.Clock == nil {
		e.Clock = clock.RealClock{}
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("webhook-events").
		For(&v1alpha1.TransferIntent{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).
		Complete(e)
}
