package intentstore

import (
	"context"
	"fmt"

	"github.com/go-logr/logr"
	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=list

// ClaimJanitor collects the idempotency claims that no intent owns: a claim whose create crashed
// or timed out before the intent was written, or before the claim was adopted. A claim whose
// intent exists gets the intent as owner (the garbage collector then removes it with the intent);
// one whose intent does not exist is deleted once it is twice the claim timeout old, when no
// request can still be creating its intent. It runs on the leader only, every claim timeout.
type ClaimJanitor struct {
	Store *Store
	// APIReader lists the claims from the API server (the manager's API reader).
	APIReader client.Reader
	Log       logr.Logger
}

// NeedLeaderElection makes the manager run it on the leader only.
func (j *ClaimJanitor) NeedLeaderElection() bool { return true }

// Start sweeps every claim timeout until ctx ends.
func (j *ClaimJanitor) Start(ctx context.Context) error {
	_ = wait.PollUntilContextCancel(ctx, j.Store.opts.ClaimTimeout, false, func(ctx context.Context) (bool, error) {
		if adopted, deleted, err := j.Sweep(ctx); err != nil {
			j.Log.Info("sweeping idempotency claims", "error", err.Error())
		} else if adopted+deleted > 0 {
			j.Log.Info("swept idempotency claims", "adopted", adopted, "deleted", deleted)
		}
		return false, nil // never done: it ends with ctx
	})
	return nil
}

// Sweep adopts or deletes every unowned claim old enough, once.
func (j *ClaimJanitor) Sweep(ctx context.Context) (adopted, deleted int, err error) {
	s := j.Store
	ctx, cancel := context.WithTimeout(ctx, 4*s.opts.WriteTimeout)
	defer cancel()
	var claims coordinationv1.LeaseList
	if err := j.APIReader.List(ctx, &claims, client.InNamespace(s.opts.Namespace),
		client.MatchingLabels{LabelClaim: ClaimKindIdempotencyKey}); err != nil {
		return 0, 0, fmt.Errorf("listing claims: %w", err)
	}
	for i := range claims.Items {
		claim := &claims.Items[i]
		if len(claim.OwnerReferences) > 0 || s.opts.Clock.Since(claimTime(claim)) < 2*s.opts.ClaimTimeout {
			continue
		}
		obj, err := j.holderIntent(ctx, claim)
		if err != nil {
			// Unknown: deleting the claim of an intent that exists would let a retry create a
			// second one. Try again at the next sweep.
			return adopted, deleted, err
		}
		if obj != nil {
			s.adopt(ctx, claim, obj)
			adopted++
			continue
		}
		// The resourceVersion precondition spares a claim another replica just took over.
		err = s.writer.Delete(ctx, claim, client.Preconditions{ResourceVersion: &claim.ResourceVersion})
		if client.IgnoreNotFound(err) != nil && !apierrors.IsConflict(err) {
			return adopted, deleted, fmt.Errorf("deleting claim %s: %w", claim.Name, err)
		}
		if err == nil {
			deleted++
		}
	}
	return adopted, deleted, nil
}

// holderIntent is the intent a claim names, or nil when it surely does not exist; an error when
// that cannot be told.
func (j *ClaimJanitor) holderIntent(ctx context.Context, claim *coordinationv1.Lease) (*v1alpha1.TransferIntent, error) {
	if claim.Spec.HolderIdentity == nil {
		return nil, nil
	}
	name, err := intent.ObjectNameFromID(*claim.Spec.HolderIdentity)
	if err != nil {
		return nil, nil //nolint:nilerr // a holder that is no intent id names no intent
	}
	if e := j.Store.index.get(name); e != nil {
		return e.obj, nil
	}
	var obj v1alpha1.TransferIntent
	if err := j.APIReader.Get(ctx, client.ObjectKey{Namespace: j.Store.opts.Namespace, Name: name}, &obj); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading TransferIntent %s: %w", name, err)
	}
	return &obj, nil
}
