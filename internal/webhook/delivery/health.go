package delivery

import (
	"context"
	"sync"
	"time"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
)

// healthWriter puts endpoints' delivery health on their status at most once per interval each:
// deliveries change it all the time, and a status write per attempt would turn webhook traffic
// into API server traffic. The newest health of an endpoint waits here until its turn.
type healthWriter struct {
	client   client.Client
	interval time.Duration
	clock    clock.PassiveClock
	log      logr.Logger

	mu      sync.Mutex
	pending map[types.NamespacedName]pendingHealth
	written map[types.NamespacedName]time.Time
}

type pendingHealth struct {
	uid    types.UID
	health outbox.Health
}

// record keeps an endpoint's newest health for the next write.
func (w *healthWriter) record(ep *v1alpha1.WebhookEndpoint, h outbox.Health) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pending == nil {
		w.pending = map[types.NamespacedName]pendingHealth{}
	}
	w.pending[client.ObjectKeyFromObject(ep)] = pendingHealth{uid: ep.UID, health: h}
}

// flush writes the pending health of the endpoints whose interval is over (all of them with all).
func (w *healthWriter) flush(ctx context.Context, all bool) {
	now := w.clock.Now()
	w.mu.Lock()
	due := map[types.NamespacedName]pendingHealth{}
	for key, p := range w.pending {
		if all || now.Sub(w.written[key]) >= w.interval {
			due[key] = p
			delete(w.pending, key)
		}
	}
	w.mu.Unlock()
	for key, p := range due {
		var ep v1alpha1.WebhookEndpoint
		if err := w.client.Get(ctx, key, &ep); err != nil || ep.UID != p.uid {
			continue
		}
		if err := w.writeNow(ctx, &ep, p.health, nil); err != nil {
			w.log.V(1).Info("writing an endpoint's delivery health", "webhookEndpoint", key.String(), "error", err.Error())
		}
	}
}

// writeNow patches the endpoint's delivery fields from h (and whatever also changes), and
// starts its interval.
func (w *healthWriter) writeNow(ctx context.Context, ep *v1alpha1.WebhookEndpoint, h outbox.Health, also func(*v1alpha1.WebhookEndpointStatus)) error {
	base := ep.DeepCopy()
	st := &ep.Status
	st.ConsecutiveFailures = int32(min(h.ConsecutiveFailures, 1<<30)) //nolint:gosec // bounded
	st.LastError = h.LastError
	if h.LastSuccessAt.IsZero() {
		st.LastSuccessAt = nil
	} else {
		st.LastSuccessAt = &metav1.Time{Time: h.LastSuccessAt.Truncate(time.Second)}
	}
	if also != nil {
		also(st)
	}
	w.mu.Lock()
	if w.written == nil {
		w.written = map[types.NamespacedName]time.Time{}
	}
	w.written[client.ObjectKeyFromObject(ep)] = w.clock.Now()
	w.mu.Unlock()
	return w.client.Status().Patch(ctx, ep, client.MergeFrom(base))
}
