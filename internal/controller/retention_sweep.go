package controller

import (
	"context"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
)

// DefaultRetentionHorizon is how long before its deletion a terminal intent waits on the
// controller's work queue. Earlier than that it waits on nothing: the retention sweep hands it
// back once its deletion comes within the horizon. With a month's retention, a timer for every
// intent kept one queue entry per stored intent (about 340 bytes each on the leader) for a month.
const DefaultRetentionHorizon = time.Hour

// intentLister calls each with the cached terminal intents, read-only: the sweep never changes them.
type intentLister func(ctx context.Context, each func(*v1alpha1.TransferIntent)) error

// retentionSweep hands the TransferIntent controller every terminal intent whose deletion is due
// within the horizon, every half horizon, so each is on the queue, with a timer to the instant it
// is due, at least half a horizon before then. It runs on the leader, with the controller.
type retentionSweep struct {
	reconciler *TransferIntentReconciler
	list       intentLister
	log        logr.Logger
}

// NeedLeaderElection implements manager.LeaderElectionRunnable.
func (s *retentionSweep) NeedLeaderElection() bool { return true }

// Start implements manager.Runnable. Nothing is swept at once: the controller's first list
// reconciles every intent, and those due within the horizon get their timer then.
func (s *retentionSweep) Start(ctx context.Context) error {
	_ = wait.PollUntilContextCancel(ctx, s.reconciler.horizon()/2, false, func(ctx context.Context) (bool, error) {
		if n, err := s.sweep(ctx); err != nil {
			s.log.Error(err, "retention sweep")
		} else if n > 0 {
			s.log.V(1).Info("retention sweep", "due", n)
		}
		return false, nil // never done: it ends with ctx
	})
	return nil
}

// sweep queues the terminal intents due for deletion within the horizon and returns how many.
func (s *retentionSweep) sweep(ctx context.Context) (int, error) {
	r := s.reconciler
	dueBy := r.now().Add(r.horizon())
	var due []reconcile.Request
	err := s.list(ctx, func(ti *v1alpha1.TransferIntent) {
		if intent.Finished(ti.Status.Phase) && !intentstatus.PhaseEnteredAt(ti).Add(r.retention()).After(dueBy) {
			due = append(due, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(ti)})
		}
	})
	if err != nil {
		return 0, err
	}
	r.requeue.add(due)
	return len(due), nil
}

// terminalIntents lists the cached terminal intents, a phase at a time by the phase index,
// without deep copies. The cache still copies each object's struct into the list (about 700
// bytes); one phase at a time bounds that garbage to the largest phase's share of the store. The
// informer's own store is not reachable through a namespaced cache.
func terminalIntents(c client.Reader) intentLister {
	return func(ctx context.Context, each func(*v1alpha1.TransferIntent)) error {
		for _, phase := range intent.FinishedStatuses() {
			var list v1alpha1.TransferIntentList
			if err := c.List(ctx, &list, client.UnsafeDisableDeepCopy, client.MatchingFields{v1alpha1.PhaseField: string(phase)}); err != nil {
				return fmt.Errorf("listing %s intents: %w", phase, err)
			}
			for i := range list.Items {
				each(&list.Items[i])
			}
		}
		return nil
	}
}
