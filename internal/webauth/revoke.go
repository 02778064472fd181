package webauth

import (
	"context"
	"fmt"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=accounts/status,verbs=get;patch

// maxSignedOutSessions bounds the Account's signedOutSessions (the CRD's MaxItems). When it is
// full, sessionsNotBefore moves to now instead: every session of the account ends, which is safe,
// and the list starts over.
const maxSignedOutSessions = 100

// endSession records on the Account's status that s was signed out, so that every replica, and
// this one after a restart, refuses it. The write is a merge patch with optimistic locking, retried
// on conflict: two sign-outs of one account at the same time both land. This replica also refuses
// the session at once, before its own cache has seen the write.
func (h *Handler) endSession(ctx context.Context, account string, s Session) error {
	ctx, cancel := context.WithTimeout(ctx, h.opts.WriteTimeout)
	defer cancel()
	id, expires := sessionID(s), time.Unix(s.ExpiresAt, 0)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var obj v1alpha1.Account
		if err := h.deps.APIReader.Get(ctx, types.NamespacedName{Namespace: h.deps.Namespace, Name: account}, &obj); err != nil {
			return client.IgnoreNotFound(err) // no account, no session to end
		}
		before := obj.DeepCopy()
		if !recordSignOut(&obj.Status, id, expires, h.deps.Clock.Now()) {
			return nil
		}
		return h.deps.Status.Patch(ctx, &obj, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
	})
	if err != nil {
		return fmt.Errorf("recording the sign-out on Account %s: %w", account, err)
	}
	h.revoked.add(id, h.deps.Clock.Now())
	return nil
}

// recordSignOut adds session id (which would expire at expires) to status, dropping the entries
// whose sessions have expired by now. It returns false when there is nothing to write.
func recordSignOut(status *v1alpha1.AccountStatus, id string, expires, now time.Time) bool {
	kept := status.SignedOutSessions[:0:0]
	for _, e := range status.SignedOutSessions {
		if e.Session == id {
			return false // signed out already
		}
		if e.Expires.After(now) {
			kept = append(kept, e)
		}
	}
	if len(kept) >= maxSignedOutSessions {
		if nb := status.SessionsNotBefore; nb == nil || nb.Before(&metav1.Time{Time: now}) {
			status.SessionsNotBefore = &metav1.Time{Time: now} // never moved back
		}
		status.SignedOutSessions = nil
		return true
	}
	status.SignedOutSessions = append(kept, v1alpha1.SignedOutSession{Session: id, Expires: metav1.Time{Time: expires}})
	return true
}

// revokedSet holds the sessions this replica signed out until its cache surely shows the
// Account's status (revokedFor): a copy of the cookie used at once on the same replica is refused
// too. It holds at most maxRevoked entries, so a loop of sign-ins and sign-outs cannot grow it.
type revokedSet struct {
	mu      sync.Mutex
	entries map[string]time.Time // session id -> when it was signed out
}

const (
	// revokedFor is far longer than a watch takes to deliver the status to the cache.
	revokedFor = time.Minute
	maxRevoked = 10_000
)

func (r *revokedSet) add(id string, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.entries == nil {
		r.entries = map[string]time.Time{}
	}
	if len(r.entries) >= maxRevoked/2 {
		for k, at := range r.entries {
			if now.Sub(at) > revokedFor || len(r.entries) >= maxRevoked {
				delete(r.entries, k)
			}
		}
	}
	r.entries[id] = now
}

func (r *revokedSet) has(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.entries[id]
	return ok
}
