package intentstore

import (
	"maps"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// StripForCache removes from any cached object what no reader of the cache uses: its
// managedFields (server-side apply bookkeeping, often a third of a small object) and the
// last-applied-configuration annotation of `kubectl apply` (a second copy of the object; for a
// Secret, its data in plain text). Writers are unaffected: every controller writes with patches
// computed between two copies of the same cached object (client.MergeFrom), which never mention a
// field absent from both, and a whole-object Update of a TransferIntent is refused by its
// immutable spec anyway.
func StripForCache(obj any) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	if m.GetManagedFields() != nil {
		m.SetManagedFields(nil)
	}
	if a := m.GetAnnotations(); a != nil {
		if _, ok := a[corev1.LastAppliedConfigAnnotation]; ok {
			delete(a, corev1.LastAppliedConfigAnnotation)
			if len(a) == 0 {
				m.SetAnnotations(nil)
			}
		}
	}
}

// CacheTransform is the transform of the manager's TransferIntent informer (cache.ByObject). The
// informer's object is the one copy of each intent: the cache, the in-memory index, the chain
// watcher's index and the reconciler all read it. The transform makes it small:
//
//   - StripForCache;
//   - spec.idempotencyKeyHash and spec.requestHash are dropped: they are written at creation and
//     read only through the API server (idempotency claims hold their own copy);
//   - strings that repeat across intents (namespace, label keys and values, account and key
//     names, environment, type, chains, assets, the transaction's recipient and value, condition
//     types, statuses and reasons, phases) point to one shared copy;
//   - intents with the same labels share one label map.
//
// Every field the API serves is kept as stored. Objects in the cache are read-only (controller-
// runtime hands out deep copies, and the indexes never write), so sharing strings and label maps
// between them is safe. The shared tables are bounded, so that a store of millions of distinct
// accounts costs at most their bound.
func CacheTransform() toolscache.TransformFunc {
	c := newCompactor(maxInterned, maxLabelSets)
	return func(in any) (any, error) {
		if ti, ok := in.(*v1alpha1.TransferIntent); ok {
			c.compact(ti)
		} else {
			StripForCache(in)
		}
		return in, nil
	}
}

// Bounds of the shared tables: beyond them new values are kept as they are, unshared.
const (
	maxInterned    = 1 << 14
	maxInternedLen = 128
	maxLabelSets   = 1 << 14
)

// compactor holds the shared strings and label maps of the cached intents.
type compactor struct {
	mu        sync.Mutex
	strings   map[string]string
	labelSets map[string]map[string]string
	maxStr    int
	maxLabels int
}

func newCompactor(maxStrings, maxLabels int) *compactor {
	return &compactor{strings: map[string]string{}, labelSets: map[string]map[string]string{}, maxStr: maxStrings, maxLabels: maxLabels}
}

// compact shrinks ti in place (see CacheTransform).
func (c *compactor) compact(ti *v1alpha1.TransferIntent) {
	StripForCache(ti)
	ti.Spec.IdempotencyKeyHash, ti.Spec.RequestHash = "", ""
	c.mu.Lock()
	defer c.mu.Unlock()
	c.intern(&ti.APIVersion)
	c.intern(&ti.Kind)
	c.intern(&ti.Namespace)
	ti.Labels = c.labels(ti.Labels)
	sp := &ti.Spec
	c.intern(&sp.AccountRef.Name)
	if sp.APIKeyRef != nil {
		c.intern(&sp.APIKeyRef.Name)
	}
	c.intern((*string)(&sp.Environment))
	c.intern((*string)(&sp.Type))
	for i := range sp.ResolvedPath {
		c.intern((*string)(&sp.ResolvedPath[i]))
	}
	c.intern(&sp.FromChain)
	c.intern(&sp.ToChain)
	c.intern(&sp.Request.Asset.In)
	c.intern(&sp.Request.Asset.Out)
	if sp.Tx != nil {
		c.intern(&sp.Tx.To)
		c.intern(&sp.Tx.Value)
	}
	st := &ti.Status
	c.intern((*string)(&st.Phase))
	for i := range st.Conditions {
		cond := &st.Conditions[i]
		c.intern(&cond.Type)
		c.intern((*string)(&cond.Status))
		c.intern(&cond.Reason)
	}
	if st.Fill != nil {
		c.intern(&st.Fill.ChainID)
	}
}

// intern points *s at the shared copy of its value, adding it while the table has room.
func (c *compactor) intern(s *string) {
	if *s == "" || len(*s) > maxInternedLen {
		return
	}
	if shared, ok := c.strings[*s]; ok {
		*s = shared
		return
	}
	if len(c.strings) < c.maxStr {
		c.strings[*s] = *s
	}
}

// labels returns the shared map with the same labels, or labels itself (its strings interned)
// when it is the first of its kind or the table is full.
func (c *compactor) labels(labels map[string]string) map[string]string {
	if len(labels) == 0 {
		return labels
	}
	keys := slices.Sorted(maps.Keys(labels))
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(labels[k])
		b.WriteByte(0)
	}
	id := b.String()
	if shared, ok := c.labelSets[id]; ok {
		return shared
	}
	own := make(map[string]string, len(labels))
	for k, v := range labels {
		c.intern(&k)
		c.intern(&v)
		own[k] = v
	}
	if len(c.labelSets) < c.maxLabels {
		c.labelSets[id] = own
	}
	return own
}
