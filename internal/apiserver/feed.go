package apiserver

import (
	"context"
	"sync"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// IntentFeed hands the TransferIntent informer's changes to the open event streams of
// GET /v2/transfers/{id}/events on this replica. Every replica has its own informer, so any
// replica serves any stream, whichever replica (the leader) wrote the change.
//
// The informer must never wait for a client: each stream has a bounded buffer, a change that
// finds it full ends that stream (its client reconnects with Last-Event-ID and loses nothing, the
// reconnect reads the current state), and nothing else is done under the feed's lock.
type IntentFeed struct {
	// cache is the informer's cache the feed's handler is registered on, in namespace.
	cache     client.Reader
	namespace string

	mu sync.RWMutex
	// streams holds the open streams by the intent's object name.
	streams map[string]map[*subscription]struct{}
}

// NewIntentFeed returns a feed with no streams over the informer's cache of namespace; register
// its EventHandler on the same informer.
func NewIntentFeed(cache client.Reader, namespace string) *IntentFeed {
	return &IntentFeed{cache: cache, namespace: namespace, streams: map[string]map[*subscription]struct{}{}}
}

// latest is the intent as the informer's cache holds it, nil when it holds none. The informer
// updates its cache before any handler hears of the change, so what latest returns after
// subscribe is never older than a change the subscription missed; the intent store's index, fed
// by a handler of its own, may be.
func (f *IntentFeed) latest(ctx context.Context, name string) *v1alpha1.TransferIntent {
	var ti v1alpha1.TransferIntent
	if err := f.cache.Get(ctx, client.ObjectKey{Namespace: f.namespace, Name: name}, &ti); err != nil {
		return nil // not cached (archived, or created a moment ago elsewhere): the store's read stands
	}
	return &ti
}

// Why a subscription ended before its stream did.
type endReason int

const (
	// endOverflow: the client read too slowly and its buffer filled up.
	endOverflow endReason = iota + 1
	// endGone: the intent left the API server (archived or deleted).
	endGone
)

// subscription is one stream's view of the feed: the intent's new states, in the informer's order.
type subscription struct {
	changes chan *v1alpha1.TransferIntent
	// ended is closed, once, when the feed stops serving the subscription; reason says why.
	ended  chan struct{}
	once   sync.Once
	reason endReason
}

func (sub *subscription) end(reason endReason) {
	sub.once.Do(func() {
		sub.reason = reason
		close(sub.ended)
	})
}

// subscribe opens a subscription to the intent named name with room for buffer changes.
// Subscribe before reading the intent's current state, so that no change falls between the two.
func (f *IntentFeed) subscribe(name string, buffer int) *subscription {
	sub := &subscription{changes: make(chan *v1alpha1.TransferIntent, buffer), ended: make(chan struct{})}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.streams[name] == nil {
		f.streams[name] = map[*subscription]struct{}{}
	}
	f.streams[name][sub] = struct{}{}
	return sub
}

func (f *IntentFeed) unsubscribe(name string, sub *subscription) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.streams[name], sub)
	if len(f.streams[name]) == 0 {
		delete(f.streams, name)
	}
}

// publish offers the intent's new state to its streams without waiting.
func (f *IntentFeed) publish(ti *v1alpha1.TransferIntent) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for sub := range f.streams[ti.Name] {
		select {
		case sub.changes <- ti:
		default:
			sub.end(endOverflow)
		}
	}
}

func (f *IntentFeed) gone(name string) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for sub := range f.streams[name] {
		sub.end(endGone)
	}
}

// EventHandler is the informer event handler that feeds the streams.
func (f *IntentFeed) EventHandler() toolscache.ResourceEventHandler { return feedHandler{f} }

type feedHandler struct{ f *IntentFeed }

var _ toolscache.ResourceEventHandler = feedHandler{}

func (h feedHandler) OnAdd(obj any, _ bool) { h.OnUpdate(nil, obj) }

func (h feedHandler) OnUpdate(_, obj any) {
	if ti, ok := obj.(*v1alpha1.TransferIntent); ok {
		h.f.publish(ti)
	}
}

func (h feedHandler) OnDelete(obj any) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if ti, ok := obj.(*v1alpha1.TransferIntent); ok {
		h.f.gone(ti.Name)
	}
}
