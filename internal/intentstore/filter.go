package intentstore

import (
	"slices"
	"strings"
	"time"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/archive"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
)

// Filter narrows a List; its zero value lists all of an owner's intents. The conditions combine
// (AND), and each holds for live and archived intents alike.
type Filter struct {
	// Type is transfer, swap or bridge; empty for all.
	Type v1alpha1.IntentType
	// Statuses lists the phases wanted (any of them); empty for all.
	Statuses []v1alpha1.IntentPhase
	// Hash, lower-case bytes32 hex, matches the open (status.hash), the fill (status.fill.hash)
	// or the refund (status.refundHash) transaction.
	Hash string
	// OrderID is lower-case bytes32 hex.
	OrderID string
	// From is the request's from, a CAIP-10 account; compared without regard to case, so an
	// EIP-55 spelling and a lower-case one are the same account.
	From string
	// CreatedAfter and CreatedBefore bound createdAt, both exclusive; zero for no bound.
	CreatedAfter, CreatedBefore time.Time
}

// narrowsBeyondType reports whether the filter has conditions the index's per-type lists do not
// answer, so that a page must look at each intent.
func (f Filter) narrowsBeyondType() bool {
	return len(f.Statuses) > 0 || f.Hash != "" || f.OrderID != "" || f.From != "" ||
		!f.CreatedAfter.IsZero() || !f.CreatedBefore.IsZero()
}

// matches reports whether obj (of the filter's type already) meets the other conditions.
// created is obj's creation time when the filter has a time bound (zero otherwise: not needed).
func (f Filter) matches(obj *v1alpha1.TransferIntent, created time.Time) bool {
	if !f.CreatedAfter.IsZero() || !f.CreatedBefore.IsZero() {
		if created.IsZero() {
			created = intent.IDTime(obj.Spec.ID)
		}
		if (!f.CreatedAfter.IsZero() && !created.After(f.CreatedAfter)) ||
			(!f.CreatedBefore.IsZero() && !created.Before(f.CreatedBefore)) {
			return false
		}
	}
	if len(f.Statuses) > 0 && !slices.Contains(f.Statuses, intentstatus.Phase(obj)) {
		return false
	}
	if f.OrderID != "" && !strings.EqualFold(obj.Spec.OrderID, f.OrderID) {
		return false
	}
	if f.From != "" && !strings.EqualFold(obj.Spec.Request.From, f.From) {
		return false
	}
	if f.Hash != "" {
		fill := ""
		if obj.Status.Fill != nil {
			fill = obj.Status.Fill.Hash
		}
		if !strings.EqualFold(obj.Status.Hash, f.Hash) && !strings.EqualFold(fill, f.Hash) &&
			!strings.EqualFold(obj.Status.RefundHash, f.Hash) {
			return false
		}
	}
	return true
}

// archiveFilter is the filter as the archive takes it, and false when no archived intent can
// match (only live phases asked for), so that the archive need not be asked.
func (f Filter) archiveFilter() (archive.Filter, bool) {
	out := archive.Filter{
		Type: string(f.Type), Hash: strings.ToLower(f.Hash), OrderID: strings.ToLower(f.OrderID),
		From: strings.ToLower(f.From), CreatedAfter: f.CreatedAfter, CreatedBefore: f.CreatedBefore,
	}
	for _, s := range f.Statuses {
		if intent.Finished(s) { // the archive holds finished intents only
			out.Statuses = append(out.Statuses, string(s))
		}
	}
	return out, len(f.Statuses) == 0 || len(out.Statuses) > 0
}
