package intentstore

import (
	"slices"
	"strings"
	"sync"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// AccountIndexField is the cache's field index of TransferIntents by owning account.
const AccountIndexField = "spec.accountRef.name"

// IndexByAccount is the index function of AccountIndexField.
func IndexByAccount(obj client.Object) []string {
	ti, ok := obj.(*v1alpha1.TransferIntent)
	if !ok || ti.Spec.AccountRef.Name == "" {
		return nil
	}
	return []string{ti.Spec.AccountRef.Name}
}

// index holds every served intent by object name and, per account, sorted by id. One writer (the
// informer's handler goroutine, and Create for the intents this replica made) and many readers;
// a write moves at most one account's slice of pointers.
type index struct {
	namespace string

	mu       sync.RWMutex
	byName   map[string]*entry
	accounts map[string]*accountEntries
	// attested maps the orderId of each intent whose fill is attested to its object name: the
	// filler asks by orderId. Only attested orders are kept, so it costs nothing per transfer.
	attested map[string]string
}

type entry struct {
	name    string
	owner   Owner
	summary Summary
	// obj is the informer's object (or the one Create stored): shared, never modified.
	obj *v1alpha1.TransferIntent
}

// accountEntries are one account's intents, ascending by id (oldest first); lists walk them
// backwards for newest first.
type accountEntries struct {
	all    []*entry
	byType map[v1alpha1.IntentType][]*entry
}

func newIndex(namespace string) *index {
	return &index{namespace: namespace, byName: map[string]*entry{}, accounts: map[string]*accountEntries{}, attested: map[string]string{}}
}

func compareEntryID(e *entry, id string) int { return strings.Compare(e.summary.ID, id) }

// newEntry returns nil for an object the API does not serve: outside the namespace, or whose id
// and name disagree (hand-made; the controller reports it as InvalidSpec), or without an account
// or transaction.
func (x *index) newEntry(obj *v1alpha1.TransferIntent) *entry {
	if x.namespace != "" && obj.Namespace != x.namespace {
		return nil
	}
	id, err := intent.IDFromObjectName(obj.Name)
	if err != nil || id != obj.Spec.ID || obj.Spec.AccountRef.Name == "" || obj.Spec.Tx == nil {
		return nil
	}
	return &entry{name: obj.Name, owner: OwnerOf(obj), summary: SummaryOf(obj), obj: obj}
}

// upsert indexes obj. With onlyIfAbsent an object already indexed is kept: Create's copy must not
// replace a newer one the informer delivered first.
func (x *index) upsert(obj *v1alpha1.TransferIntent, onlyIfAbsent bool) {
	e := x.newEntry(obj)
	x.mu.Lock()
	defer x.mu.Unlock()
	old := x.byName[obj.Name]
	if old != nil && onlyIfAbsent {
		return
	}
	if old != nil {
		x.removeLocked(old)
	}
	if e == nil {
		return
	}
	x.byName[e.name] = e
	if f := obj.Status.Fill; f != nil && f.Attestation != "" {
		x.attested[obj.Spec.OrderID] = e.name
	}
	acct := x.accounts[e.owner.key()]
	if acct == nil {
		acct = &accountEntries{byType: map[v1alpha1.IntentType][]*entry{}}
		x.accounts[e.owner.key()] = acct
	}
	acct.all = insertSorted(acct.all, e)
	acct.byType[e.summary.Type] = insertSorted(acct.byType[e.summary.Type], e)
}

func (x *index) remove(name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if old := x.byName[name]; old != nil {
		x.removeLocked(old)
	}
}

func (x *index) removeLocked(e *entry) {
	delete(x.byName, e.name)
	if x.attested[e.summary.OrderID] == e.name {
		delete(x.attested, e.summary.OrderID)
	}
	acct := x.accounts[e.owner.key()]
	if acct == nil {
		return
	}
	acct.all = removeSorted(acct.all, e.summary.ID)
	acct.byType[e.summary.Type] = removeSorted(acct.byType[e.summary.Type], e.summary.ID)
	if len(acct.all) == 0 {
		delete(x.accounts, e.owner.key())
	}
}

// insertSorted appends in the common case: ids are ULIDs, so a new intent is the newest.
func insertSorted(list []*entry, e *entry) []*entry {
	if n := len(list); n == 0 || list[n-1].summary.ID < e.summary.ID {
		return append(list, e)
	}
	i, found := slices.BinarySearchFunc(list, e.summary.ID, compareEntryID)
	if found {
		list[i] = e
		return list
	}
	return slices.Insert(list, i, e)
}

func removeSorted(list []*entry, id string) []*entry {
	if i, found := slices.BinarySearchFunc(list, id, compareEntryID); found {
		return slices.Delete(list, i, i+1)
	}
	return list
}

// attestedOrder is the intent whose order has an attested fill, by orderId.
func (x *index) attestedOrder(orderID string) *entry {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.byName[x.attested[orderID]]
}

func (x *index) get(name string) *entry {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.byName[name]
}

// page returns up to limit summaries of the account, newest first, of one type or all (typ ""),
// starting after the id before (exclusive; "" for the first page), and whether more follow.
func (x *index) page(owner Owner, typ v1alpha1.IntentType, before string, limit int) ([]Summary, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	acct := x.accounts[owner.key()]
	if acct == nil || limit <= 0 {
		return []Summary{}, false
	}
	list := acct.all
	if typ != "" {
		list = acct.byType[typ]
	}
	end := len(list)
	if before != "" {
		end, _ = slices.BinarySearchFunc(list, before, compareEntryID) // first id >= before
	}
	start := max(end-limit, 0)
	out := make([]Summary, 0, end-start)
	for i := end - 1; i >= start; i-- {
		out = append(out, list[i].summary)
	}
	return out, start > 0
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
