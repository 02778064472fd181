package delivery

import (
	"context"
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
)

// MaxReplay is the most events one replay queues (POST /v2/webhooks/{name}/replay): a longer range
// is replayed a call at a time, each going on after the last.
const MaxReplay = 1000

// ErrEndpointUnserved is Replay's answer for an endpoint that receives nothing now; errors.As
// finds an *UnservedError with the reason.
var ErrEndpointUnserved = errors.New("the webhook endpoint receives no delivery")

// UnservedError says why an endpoint receives nothing (an endpoint.Stop reason).
type UnservedError struct{ Reason string }

func (e *UnservedError) Error() string { return ErrEndpointUnserved.Error() + ": " + e.Reason }

// Is makes errors.Is(err, ErrEndpointUnserved) true of every UnservedError.
func (e *UnservedError) Is(target error) bool { return target == ErrEndpointUnserved }

// Log is the outbox seen as accounts' event logs: GET /v2/events lists them and a replay sends
// some again to an endpoint. Every replica has one; it reads PostgreSQL and the cache, never the
// API server.
type Log struct {
	Cache     client.Reader
	Outbox    *outbox.Store
	Namespace string
	// Retention is how far back events are served (DefaultEventRetention when zero).
	Retention time.Duration
	// EndpointLimit is endpoint.Admitted's limit.
	EndpointLimit int
	Clock         clock.PassiveClock
}

func (l *Log) since() time.Time {
	retention := l.Retention
	if retention <= 0 {
		retention = DefaultEventRetention
	}
	now := time.Now()
	if l.Clock != nil {
		now = l.Clock.Now()
	}
	return now.Add(-retention)
}

// Events lists a page of the account's events in env, newest first.
func (l *Log) Events(ctx context.Context, account, env string, f outbox.EventFilter, after *outbox.Cursor, limit int) ([]outbox.ListedEvent, bool, error) {
	f.Since = l.since()
	return l.Outbox.Events(ctx, outbox.Scope{Namespace: l.Namespace, Account: account, Environment: env}, f, after, limit)
}

// ReplayRequest is what to send again: ids, or the range of Filter (After and Before), after
// Cursor.
type ReplayRequest struct {
	IDs    []string
	Filter outbox.EventFilter
	Cursor *outbox.Cursor
}

// Replay queues the account's events of req again to its endpoint name in env, under their own
// ids, at most MaxReplay of them. It answers ErrEndpointNotFound for an endpoint of another account
// or environment as for none, an *UnservedError for one that receives nothing now, and
// outbox.ErrUnknownEvent for an id that is not one of the account's events.
func (l *Log) Replay(ctx context.Context, account, env, name string, req ReplayRequest) (outbox.Replayed, error) {
	ep, err := l.endpoint(ctx, account, env, name)
	if err != nil {
		return outbox.Replayed{}, err
	}
	types := make([]string, len(ep.Spec.EventTypes))
	for i, t := range ep.Spec.EventTypes {
		types[i] = string(t)
	}
	req.Filter.Since = l.since()
	return l.Outbox.Replay(ctx, outbox.Replay{
		Scope:  outbox.Scope{Namespace: l.Namespace, Account: account, Environment: env},
		Target: outbox.Target{UID: string(ep.UID), Namespace: ep.Namespace, Name: ep.Name, Account: account},
		Types:  types, IDs: req.IDs, Filter: req.Filter, Cursor: req.Cursor, Max: MaxReplay,
	})
}

// endpoint reads the account's served endpoint name in env from the cache.
func (l *Log) endpoint(ctx context.Context, account, env, name string) (*v1alpha1.WebhookEndpoint, error) {
	var ep v1alpha1.WebhookEndpoint
	err := l.Cache.Get(ctx, types.NamespacedName{Namespace: l.Namespace, Name: name}, &ep)
	if apierrors.IsNotFound(err) || (err == nil && (ep.Spec.AccountRef.Name != account || string(ep.Spec.Environment) != env)) {
		return nil, ErrEndpointNotFound
	}
	if err != nil {
		return nil, err
	}
	stop, err := unservedBecause(ctx, l.Cache, &ep, l.EndpointLimit)
	if err != nil {
		return nil, err
	}
	if stop != "" {
		return nil, &UnservedError{Reason: stop}
	}
	return &ep, nil
}

// unservedBecause reads what endpoint.Unserved needs of ep from c (its Account, and its siblings
// when there is a limit) and answers it.
func unservedBecause(ctx context.Context, c client.Reader, ep *v1alpha1.WebhookEndpoint, limit int) (string, error) {
	var account *v1alpha1.Account
	var a v1alpha1.Account
	switch err := c.Get(ctx, types.NamespacedName{Namespace: ep.Namespace, Name: ep.Spec.AccountRef.Name}, &a); {
	case err == nil:
		account = &a
	case !apierrors.IsNotFound(err):
		return "", err
	}
	var siblings v1alpha1.WebhookEndpointList
	if limit > 0 {
		if err := c.List(ctx, &siblings, client.InNamespace(ep.Namespace),
			client.MatchingFields{endpoint.AccountField: ep.Spec.AccountRef.Name}); err != nil {
			return "", err
		}
	}
	return endpoint.Unserved(ep, account, siblings.Items, limit), nil
}
