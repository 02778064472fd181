package intentstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// The idempotency-claim protocol of Create (see the package documentation): a Lease per key
// arbitrates, across replicas, which request creates the key's intent. ClaimJanitor collects the
// claims a crash left behind.

// Names of the idempotency claims (Leases).
const (
	// ClaimNamePrefix starts the name of every idempotency claim; the rest is the hex sha256 of
	// the account and the key.
	ClaimNamePrefix = "idem-"
	// LabelClaim marks the Leases that are idempotency claims, for `kubectl get leases -l`.
	LabelClaim = "intents.transferintent.io/claim"
	// ClaimKindIdempotencyKey is the value of LabelClaim on idempotency claims.
	ClaimKindIdempotencyKey = "idempotency-key"
	// AnnotationRequestHash holds the sha256 of the normalised request the key was first used with.
	AnnotationRequestHash = "intents.transferintent.io/request-hash"
	// AnnotationAccount names the account the key belongs to.
	AnnotationAccount = "intents.transferintent.io/account"
)

// Errors of Create the HTTP layer maps to problems. Build's own errors are returned unchanged.
var (
	// ErrIdempotencyKeyReused: the key was used with another request body (HTTP 422).
	ErrIdempotencyKeyReused = errors.New("the Idempotency-Key was already used with a different request")
	// ErrIdempotencyInProgress: the request that claimed the key has not created its intent yet (HTTP 409).
	ErrIdempotencyInProgress = errors.New("a request with this Idempotency-Key is still being processed")
)

// inProgress is ErrIdempotencyInProgress with the time until the claim may be taken over.
type inProgress struct{ retryAfter time.Duration }

func (inProgress) Error() string { return ErrIdempotencyInProgress.Error() }
func (inProgress) Unwrap() error { return ErrIdempotencyInProgress }

// RetryAfter is how long a client should wait after ErrIdempotencyInProgress: until the claim may
// be taken over, or one second when that is not known.
func RetryAfter(err error) time.Duration {
	var p inProgress
	if errors.As(err, &p) && p.retryAfter > 0 {
		return p.retryAfter
	}
	return time.Second
}

// maxClaimAttempts bounds the loop of createClaimed: each retry follows another writer's
// successful write, so two suffice in practice.
const maxClaimAttempts = 4

func (s *Store) createClaimed(ctx context.Context, req CreateRequest, keyHash string) (Created, error) {
	name := ClaimName(keyHash)
	var draft *v1alpha1.TransferIntent // built once, on first need
	for range maxClaimAttempts {
		var claim coordinationv1.Lease
		err := s.apiReader.Get(ctx, client.ObjectKey{Namespace: s.opts.Namespace, Name: name}, &claim)
		if err != nil && !apierrors.IsNotFound(err) {
			return Created{}, fmt.Errorf("reading idempotency claim %s: %w", name, err)
		}
		exists := err == nil
		if !exists && draft == nil {
			// The intent and its claim may have left the API server for the archive.
			if obj, found, err := s.archivedByKey(ctx, req, keyHash); err != nil || found {
				return Created{Intent: obj}, err
			}
		}
		if exists {
			if claim.Annotations[AnnotationRequestHash] != req.RequestHash || claim.Annotations[AnnotationAccount] != req.Owner.Account {
				return Created{}, ErrIdempotencyKeyReused
			}
			if obj, found, err := s.holder(ctx, &claim, req.Owner); err != nil || found {
				return Created{Intent: obj}, err
			}
			if age := s.opts.Clock.Since(claimTime(&claim)); age < s.opts.ClaimTimeout {
				return Created{}, inProgress{retryAfter: s.opts.ClaimTimeout - age}
			}
		}
		if draft == nil {
			if draft, err = s.build(ctx, req, keyHash); err != nil {
				return Created{}, err
			}
		}
		if exists {
			err = s.takeOver(ctx, &claim, draft.Spec.ID)
		} else {
			claim = *s.newClaim(name, req, draft.Spec.ID)
			err = s.writer.Create(ctx, &claim)
		}
		switch {
		case apierrors.IsAlreadyExists(err) || apierrors.IsConflict(err):
			continue // another request won the claim: read it again
		case err != nil:
			return Created{}, fmt.Errorf("claiming idempotency key (%s): %w", name, err)
		}
		if err := s.create(ctx, draft); err != nil {
			if createSurelyFailed(err) {
				// Free the key, so that the client's retry can succeed at once.
				_ = s.writer.Delete(context.WithoutCancel(ctx), &claim, client.Preconditions{UID: &claim.UID})
			}
			// Otherwise (a timeout, a lost connection) the intent may exist although the call
			// failed: keep the claim. A retry then finds the intent through holder(), or, after
			// ClaimTimeout and once holder() has found no intent, takes the claim over.
			return Created{}, err
		}
		s.adopt(ctx, &claim, draft)
		return Created{Intent: draft, New: true}, nil
	}
	return Created{}, ErrIdempotencyInProgress
}

// holder returns the intent a claim names, from the index or (created a moment ago on another
// replica) from the API server.
func (s *Store) holder(ctx context.Context, claim *coordinationv1.Lease, owner Owner) (*v1alpha1.TransferIntent, bool, error) {
	if claim.Spec.HolderIdentity == nil {
		return nil, false, nil
	}
	id := *claim.Spec.HolderIdentity
	objName, err := intent.ObjectNameFromID(id)
	if err != nil {
		return nil, false, nil //nolint:nilerr // a claim we did not write: treat it as abandoned
	}
	if e := s.index.get(objName); e != nil {
		if e.owner != owner {
			return nil, false, nil
		}
		return e.obj, true, nil
	}
	var obj v1alpha1.TransferIntent
	if err := s.apiReader.Get(ctx, client.ObjectKey{Namespace: s.opts.Namespace, Name: objName}, &obj); err != nil {
		if apierrors.IsNotFound(err) {
			// Archived, its claim not yet collected with it.
			return s.archived(ctx, owner, id)
		}
		return nil, false, fmt.Errorf("reading TransferIntent %s: %w", objName, err)
	}
	if OwnerOf(&obj) != owner {
		return nil, false, nil
	}
	return &obj, true, nil
}

func (s *Store) newClaim(name string, req CreateRequest, holder string) *coordinationv1.Lease {
	seconds := int32(s.opts.ClaimTimeout / time.Second)
	now := metav1.NewMicroTime(s.opts.Clock.Now())
	return &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: s.opts.Namespace,
			Labels:      map[string]string{LabelClaim: ClaimKindIdempotencyKey},
			Annotations: map[string]string{AnnotationRequestHash: req.RequestHash, AnnotationAccount: req.Owner.Account},
		},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder, AcquireTime: &now, RenewTime: &now, LeaseDurationSeconds: &seconds},
	}
}

// takeOver moves an abandoned claim to a new holder. Update carries the resourceVersion read, so
// of two replicas taking over at once only one succeeds; the other gets a Conflict.
func (s *Store) takeOver(ctx context.Context, claim *coordinationv1.Lease, holder string) error {
	now := metav1.NewMicroTime(s.opts.Clock.Now())
	claim.Spec.HolderIdentity = &holder
	claim.Spec.AcquireTime, claim.Spec.RenewTime = &now, &now
	claim.OwnerReferences = nil
	return s.writer.Update(ctx, claim)
}

// adopt makes the intent the claim's owner, so that garbage collection deletes the claim with the
// intent. A failure is not the client's: the intent exists and is returned; the claim then
// outlives the intent and is taken over as abandoned when the key is next used.
func (s *Store) adopt(ctx context.Context, claim *coordinationv1.Lease, obj *v1alpha1.TransferIntent) {
	before := claim.DeepCopy()
	claim.OwnerReferences = nil // a claim taken over names its new holder only
	err := controllerutil.SetOwnerReference(obj, claim, v1alpha1.Scheme())
	if err == nil {
		err = s.writer.Patch(ctx, claim, client.MergeFrom(before))
	}
	if err != nil {
		logf.FromContext(ctx).WithName("intentstore").Error(err, "owner-referencing the idempotency claim to its intent",
			"claim", claim.Name, "intent", obj.Spec.ID)
	}
}

func claimTime(l *coordinationv1.Lease) time.Time {
	switch {
	case l.Spec.AcquireTime != nil:
		return l.Spec.AcquireTime.Time
	default:
		return l.CreationTimestamp.Time
	}
}

// createSurelyFailed reports whether a failed Create certainly stored nothing: the API server
// refused the object. Any other error (timeout, lost connection, server busy) leaves the outcome
// unknown.
func createSurelyFailed(err error) bool {
	return apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || apierrors.IsForbidden(err) ||
		apierrors.IsUnauthorized(err) || apierrors.IsNotFound(err) || apierrors.IsMethodNotSupported(err)
}
