package intentstore

import (
	"slices"
	"strings"
	"sync"
	"time"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

// AccountIndexField names a field index of TransferIntents by owning account, for clients that
// want one (a fake client in tests). The manager's cache registers none: the in-memory index
// serves every list by account.
const AccountIndexField = "spec.accountRef.name"

// IndexByAccount is the index function of AccountIndexField.
func IndexByAccount(obj client.Object) []string {
	ti, ok := obj.(*v1alpha1.TransferIntent)
	if !ok || ti.Spec.AccountRef.Name == "" {
		return nil
	}
	return []string{ti.Spec.AccountRef.Name}
}

// index holds every served intent by object name and, per owner, sorted by id. One writer (the
// informer's handler goroutine, and Create for the intents this replica made) and many readers;
// a write moves at most one owner's slice of pointers.
//
// It holds the informer's objects themselves (shared, never modified) and nothing else per
// intent: a map entry and a pointer in one or two sorted slices. Everything else (owner, type,
// the list summary) is read from the object when asked, so each intent is held once, in the
// form CacheTransform gives it.
type index struct {
	namespace string

	mu       sync.RWMutex
	byName   map[string]*v1alpha1.TransferIntent
	accounts map[string]*accountEntries
	// attested maps the orderId of each intent whose fill is attested to its object name: the
	// filler asks by orderId. Only attested orders are kept, so it costs nothing per transfer.
	attested map[string]string
}

// entry is a served intent with its owner, as the index hands it out.
type entry struct {
	owner Owner
	// obj is the informer's object (or the one Create stored): shared, never modified.
	obj *v1alpha1.TransferIntent
}

// accountEntries are one owner's intents, ascending by id (oldest first); lists walk them
// backwards for newest first.
type accountEntries struct {
	all    []*v1alpha1.TransferIntent
	byType map[v1alpha1.IntentType][]*v1alpha1.TransferIntent
}

func newIndex(namespace string) *index {
	return &index{namespace: namespace, byName: map[string]*v1alpha1.TransferIntent{}, accounts: map[string]*accountEntries{}, attested: map[string]string{}}
}

func compareID(obj *v1alpha1.TransferIntent, id string) int { return strings.Compare(obj.Spec.ID, id) }

// serves reports whether the API serves obj: it is in the namespace, its id and name agree (a
// hand-made object otherwise; the controller reports it as InvalidSpec), and it has an account
// and a transaction.
func (x *index) serves(obj *v1alpha1.TransferIntent) bool {
	if x.namespace != "" && obj.Namespace != x.namespace {
		return false
	}
	id, err := intent.IDFromObjectName(obj.Name)
	return err == nil && id == obj.Spec.ID && obj.Spec.AccountRef.Name != "" && obj.Spec.Tx != nil
}

// newEntry returns nil for an object the API does not serve.
func (x *index) newEntry(obj *v1alpha1.TransferIntent) *entry {
	if !x.serves(obj) {
		return nil
	}
	return &entry{owner: OwnerOf(obj), obj: obj}
}

// upsert indexes obj. With onlyIfAbsent an object already indexed is kept: Create's copy must not
// replace a newer one the informer delivered first.
func (x *index) upsert(obj *v1alpha1.TransferIntent, onlyIfAbsent bool) {
	served := x.serves(obj)
	x.mu.Lock()
	defer x.mu.Unlock()
	old := x.byName[obj.Name]
	if old != nil && onlyIfAbsent {
		return
	}
	if old != nil {
		x.removeLocked(old)
	}
	if !served {
		return
	}
	x.byName[obj.Name] = obj
	if f := obj.Status.Fill; f != nil && f.Attestation != "" {
		x.attested[obj.Spec.OrderID] = obj.Name
	}
	key := OwnerOf(obj).key()
	acct := x.accounts[key]
	if acct == nil {
		acct = &accountEntries{byType: map[v1alpha1.IntentType][]*v1alpha1.TransferIntent{}}
		x.accounts[key] = acct
	}
	acct.all = insertSorted(acct.all, obj)
	acct.byType[obj.Spec.Type] = insertSorted(acct.byType[obj.Spec.Type], obj)
}

func (x *index) remove(name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if old := x.byName[name]; old != nil {
		x.removeLocked(old)
	}
}

// removeLocked takes out old, the object indexed under its name.
func (x *index) removeLocked(old *v1alpha1.TransferIntent) {
	delete(x.byName, old.Name)
	if x.attested[old.Spec.OrderID] == old.Name {
		delete(x.attested, old.Spec.OrderID)
	}
	key := OwnerOf(old).key()
	acct := x.accounts[key]
	if acct == nil {
		return
	}
	acct.all = removeSorted(acct.all, old.Spec.ID)
	acct.byType[old.Spec.Type] = removeSorted(acct.byType[old.Spec.Type], old.Spec.ID)
	if len(acct.byType[old.Spec.Type]) == 0 {
		delete(acct.byType, old.Spec.Type)
	}
	if len(acct.all) == 0 {
		delete(x.accounts, key)
	}
}

// insertSorted appends in the common case: ids are ULIDs, so a new intent is the newest.
func insertSorted(list []*v1alpha1.TransferIntent, obj *v1alpha1.TransferIntent) []*v1alpha1.TransferIntent {
	if n := len(list); n == 0 || list[n-1].Spec.ID < obj.Spec.ID {
		return append(list, obj)
	}
	i, found := slices.BinarySearchFunc(list, obj.Spec.ID, compareID)
	if found {
		list[i] = obj
		return list
	}
	return slices.Insert(list, i, obj)
}

func removeSorted(list []*v1alpha1.TransferIntent, id string) []*v1alpha1.TransferIntent {
	if i, found := slices.BinarySearchFunc(list, id, compareID); found {
		return slices.Delete(list, i, i+1)
	}
	return list
}

// attestedOrder is the intent whose order has an attested fill, by orderId.
func (x *index) attestedOrder(orderID string) *entry {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.entryLocked(x.attested[orderID])
}

func (x *index) get(name string) *entry {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.entryLocked(name)
}

func (x *index) entryLocked(name string) *entry {
	obj := x.byName[name]
	if obj == nil {
		return nil
	}
	return &entry{owner: OwnerOf(obj), obj: obj}
}

// page returns up to limit summaries of the owner's intents that match f, newest first, starting
// after the id before (exclusive; "" for the first page), and whether more follow. The type is
// answered by the per-type list; any other condition looks at each intent of the list from the
// cursor back (createdBefore first skips, by binary search, what is too new), until the page is
// full and one more match is found, or createdAfter is passed.
func (x *index) page(owner Owner, f Filter, before string, limit int) ([]transferrecord.Summary, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	acct := x.accounts[owner.key()]
	if acct == nil || limit <= 0 {
		return []transferrecord.Summary{}, false
	}
	list := acct.all
	if f.Type != "" {
		list = acct.byType[f.Type]
	}
	end := len(list)
	if before != "" {
		end, _ = slices.BinarySearchFunc(list, before, compareID) // first id >= before
	}
	if !f.narrowsBeyondType() {
		start := max(end-limit, 0)
		out := make([]transferrecord.Summary, 0, end-start)
		for i := end - 1; i >= start; i-- {
			out = append(out, transferrecord.SummaryOf(list[i]))
		}
		return out, start > 0
	}
	if !f.CreatedBefore.IsZero() {
		tooNew, _ := slices.BinarySearchFunc(list[:end], f.CreatedBefore, func(obj *v1alpha1.TransferIntent, t time.Time) int {
			return intent.IDTime(obj.Spec.ID).Compare(t)
		})
		end = tooNew
	}
	out := make([]transferrecord.Summary, 0, min(limit, end))
	for i := end - 1; i >= 0; i-- {
		obj := list[i]
		var created time.Time // parsed only when bounded: it is most of a scan's cost
		if !f.CreatedAfter.IsZero() {
			if created = intent.IDTime(obj.Spec.ID); !created.After(f.CreatedAfter) {
				break
			}
		}
		if !f.matches(obj, created) {
			continue
		}
		if len(out) == limit {
			return out, true
		}
		out = append(out, transferrecord.SummaryOf(obj))
	}
	return out, false
}

// count returns the number of indexed intents.
func (x *index) count() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.byName)
}

// eventHandler feeds the index from the informer.
type eventHandler struct{ x *index }

var _ toolscache.ResourceEventHandler = eventHandler{}

func (h eventHandler) OnAdd(obj any, _ bool) {
	if ti, ok := obj.(*v1alpha1.TransferIntent); ok {
		h.x.upsert(ti, false)
	}
}

func (h eventHandler) OnUpdate(_, obj any) {
	if ti, ok := obj.(*v1alpha1.TransferIntent); ok {
		h.x.upsert(ti, false)
	}
}

func (h eventHandler) OnDelete(obj any) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if ti, ok := obj.(*v1alpha1.TransferIntent); ok {
		h.x.remove(ti.Name)
	}
}
