package intentstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/archive"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// Archive is where finished intents live once they left the API server (internal/archive): the
// store reads it for what its index no longer holds, so that /v2 serves live intents and archived
// ones as one collection.
type Archive interface {
	Get(ctx context.Context, scope archive.Scope, id string) (archive.Record, bool, error)
	List(ctx context.Context, scope archive.Scope, filter archive.Filter, after *archive.Cursor, limit int) ([]archive.Record, error)
	ByIdempotencyKey(ctx context.Context, namespace, keyHash string) (archive.Record, bool, error)
	ByOrderID(ctx context.Context, namespace, orderID string) ([]archive.Record, error)
}

// NoArchive is the archive of an install without PostgreSQL: nothing was ever archived, so every
// read finds nothing and every intent is a resource until its retention ends.
var NoArchive Archive = noArchive{}

type noArchive struct{}

func (noArchive) Get(context.Context, archive.Scope, string) (archive.Record, bool, error) {
	return archive.Record{}, false, nil
}

func (noArchive) List(context.Context, archive.Scope, archive.Filter, *archive.Cursor, int) ([]archive.Record, error) {
	return nil, nil
}

func (noArchive) ByIdempotencyKey(context.Context, string, string) (archive.Record, bool, error) {
	return archive.Record{}, false, nil
}

func (noArchive) ByOrderID(context.Context, string, string) ([]archive.Record, error) {
	return nil, nil
}

// ErrArchiveUnavailable wraps a failure of the archive: the read or the create (whose key might
// name an archived intent) may be retried once it answers again. Nothing was written.
var ErrArchiveUnavailable = errors.New("the archive of finished intents did not answer in time")

// RecordOf is the archive's record of a finished intent. The object is kept whole, less what only
// the API server needs (managedFields, the resource version), so that reading it back serves the
// same answer as the live resource did.
func RecordOf(obj *v1alpha1.TransferIntent) (archive.Record, error) {
	kept := obj.DeepCopy()
	kept.ManagedFields, kept.ResourceVersion = nil, ""
	kept.APIVersion, kept.Kind = v1alpha1.GroupVersion.String(), "TransferIntent"
	raw, err := json.Marshal(kept)
	if err != nil {
		return archive.Record{}, fmt.Errorf("encoding intent %s: %w", obj.Spec.ID, err)
	}
	s := transferrecord.SummaryOf(obj)
	// The columns the list filters by are lower case: hashes may be written in either case, and
	// from is compared without regard to its EIP-55 checksum.
	return archive.Record{
		ID: obj.Spec.ID, Namespace: obj.Namespace, Account: obj.Spec.AccountRef.Name,
		Environment: string(obj.Spec.Environment), Type: string(s.Type), Status: string(s.Status),
		OrderID: obj.Spec.OrderID, Hash: strings.ToLower(obj.Status.Hash), IdempotencyKeyHash: obj.Spec.IdempotencyKeyHash,
		FillHash: strings.ToLower(s.FillHash), RefundHash: strings.ToLower(s.RefundHash),
		From: strings.ToLower(obj.Spec.Request.From),
		// The list is ordered by id (a ULID: its time first), in the index and in the archive.
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, Object: raw,
	}, nil
}

// objectOf decodes a record's intent.
func objectOf(r archive.Record) (*v1alpha1.TransferIntent, error) {
	var obj v1alpha1.TransferIntent
	if err := json.Unmarshal(r.Object, &obj); err != nil {
		return nil, fmt.Errorf("decoding archived intent %s: %w", r.ID, err)
	}
	return &obj, nil
}

func (s *Store) scope(owner Owner) archive.Scope {
	return archive.Scope{Namespace: s.opts.Namespace, Account: owner.Account, Environment: string(owner.Environment)}
}

// archived reads the owner's intent id from the archive.
func (s *Store) archived(ctx context.Context, owner Owner, id string) (*v1alpha1.TransferIntent, bool, error) {
	r, found, err := s.opts.Archive.Get(ctx, s.scope(owner), id)
	if err != nil {
		return nil, false, fmt.Errorf("%w: %w", ErrArchiveUnavailable, err)
	}
	if !found {
		return nil, false, nil
	}
	obj, err := objectOf(r)
	return obj, err == nil, err
}

// archivedByKey finds the intent an Idempotency-Key created once the intent and its claim left
// the API server.
func (s *Store) archivedByKey(ctx context.Context, req CreateRequest, keyHash string) (*v1alpha1.TransferIntent, bool, error) {
	r, found, err := s.opts.Archive.ByIdempotencyKey(ctx, s.opts.Namespace, keyHash)
	if err != nil {
		return nil, false, fmt.Errorf("%w: %w", ErrArchiveUnavailable, err)
	}
	if !found {
		return nil, false, nil
	}
	obj, err := objectOf(r)
	if err != nil {
		return nil, false, err
	}
	if OwnerOf(obj) != req.Owner || obj.Spec.RequestHash != req.RequestHash {
		return nil, false, ErrIdempotencyKeyReused
	}
	return obj, true, nil
}

// mergePages merges a page of live intents and a page of archived ones, both newest first (by id,
// whose ULID starts with its time), into one page of up to limit. An intent in both (moved
// between the two reads) counts once, as its live self.
func mergePages(live, archived []transferrecord.Summary, limit int) []transferrecord.Summary {
	out := make([]transferrecord.Summary, 0, min(limit, len(live)+len(archived)))
	i, j := 0, 0
	for len(out) < limit && (i < len(live) || j < len(archived)) {
		switch {
		case j == len(archived) || (i < len(live) && live[i].ID > archived[j].ID):
			out = append(out, live[i])
			i++
		case i == len(live) || archived[j].ID > live[i].ID:
			out = append(out, archived[j])
			j++
		default: // the same intent in both
			out = append(out, live[i])
			i, j = i+1, j+1
		}
	}
	return out
}

// listArchived reads up to limit of the owner's archived intents that match the filter after the
// id, as summaries.
func (s *Store) listArchived(ctx context.Context, owner Owner, filter archive.Filter, after string, limit int) ([]transferrecord.Summary, error) {
	var cursor *archive.Cursor
	if after != "" {
		cursor = &archive.Cursor{CreatedAt: intent.IDTime(after), ID: after}
	}
	records, err := s.opts.Archive.List(ctx, s.scope(owner), filter, cursor, limit)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrArchiveUnavailable, err)
	}
	out := make([]transferrecord.Summary, 0, len(records))
	for _, r := range records {
		obj, err := objectOf(r)
		if err != nil {
			return nil, err
		}
		out = append(out, transferrecord.SummaryOf(obj))
	}
	return out, nil
}

// archivedAttestedOrder finds the archived intent of the order whose fill was attested: a filler
// may come for its attestation long after the intent left the API server.
func (s *Store) archivedAttestedOrder(ctx context.Context, orderID string) (*v1alpha1.TransferIntent, bool, error) {
	records, err := s.opts.Archive.ByOrderID(ctx, s.opts.Namespace, orderID)
	if err != nil {
		return nil, false, fmt.Errorf("%w: %w", ErrArchiveUnavailable, err)
	}
	for _, r := range records {
		obj, err := objectOf(r)
		if err != nil {
			return nil, false, err
		}
		if obj.Status.Fill != nil && obj.Status.Fill.Attestation != "" {
			return obj, true, nil
		}
	}
	return nil, false, nil
}
