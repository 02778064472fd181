package intentstore

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/transferrecord"
)

var epoch = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// testIntent is an intent of the account, minted at epoch + n ms.
func testIntent(account string, n int, typ v1alpha1.IntentType) *v1alpha1.TransferIntent {
	id := intent.NewIntentID(epoch.Add(time.Duration(n) * time.Millisecond))
	name, _ := intent.ObjectNameFromID(id)
	return &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, AccountRef: v1alpha1.LocalObjectReference{Name: account}, Type: typ,
			FromChain: "eip155:1", OrderID: fmt.Sprintf("0x%064x", n), Tx: &v1alpha1.TransactionPayload{},
		},
	}
}

func ids(items []transferrecord.Summary) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

var _ = Describe("The index", func() {
	It("pages newest first", func() {
		t := GinkgoTB()
		s, _ := New(nil, nil, nil, Options{Namespace: "ns"})
		h := s.EventHandler()
		types := []v1alpha1.IntentType{v1alpha1.IntentTypeTransfer, v1alpha1.IntentTypeSwap, v1alpha1.IntentTypeBridge}
		var all []string
		// Delivered out of order, as a relist may: the index sorts.
		order := []int{3, 0, 7, 1, 9, 4, 2, 8, 6, 5}
		objs := make([]*v1alpha1.TransferIntent, 10)
		for i := range objs {
			objs[i] = testIntent("acme", i, types[i%3])
			all = append(all, objs[i].Spec.ID)
		}
		for _, i := range order {
			h.OnAdd(objs[i], true)
		}
		h.OnAdd(testIntent("other", 100, v1alpha1.IntentTypeTransfer), true)
		slices.Reverse(all) // newest first

		var paged []string
		after := ""
		for {
			items, more, _ := s.List(context.Background(), Owner{Account: "acme"}, Filter{}, after, 3)
			paged = append(paged, ids(items)...)
			if !more {
				break
			}
			after = items[len(items)-1].ID
		}
		if !slices.Equal(paged, all) {
			t.Fatalf("paged %v\nwant %v", paged, all)
		}
		swaps, more, _ := s.List(context.Background(), Owner{Account: "acme"}, Filter{Type: v1alpha1.IntentTypeSwap}, "", 10)
		if want := []string{all[2], all[5], all[8]}; more || !slices.Equal(ids(swaps), want) {
			t.Fatalf("swaps %v more=%v, want %v", ids(swaps), more, want)
		}
		if items, _, _ := s.List(context.Background(), Owner{Account: "nobody"}, Filter{}, "", 10); len(items) != 0 {
			t.Fatalf("unknown account: %v", items)
		}
		// A cursor whose intent was deleted still positions the next page.
		h.OnDelete(toolscache.DeletedFinalStateUnknown{Key: "ns/x", Obj: objs[6]})
		items, _, _ := s.List(context.Background(), Owner{Account: "acme"}, Filter{}, objs[6].Spec.ID, 2)
		if want := []string{objs[5].Spec.ID, objs[4].Spec.ID}; !slices.Equal(ids(items), want) {
			t.Fatalf("after a deleted cursor: %v, want %v", ids(items), want)
		}
		if s.Len() != 10 {
			t.Fatalf("Len %d, want 10", s.Len())
		}
	})
})

var _ = Describe("The index", func() {
	It("updates and skips", func() {
		t := GinkgoTB()
		s, _ := New(nil, nil, nil, Options{Namespace: "ns"})
		h := s.EventHandler()
		obj := testIntent("acme", 1, v1alpha1.IntentTypeTransfer)
		h.OnAdd(obj, false)

		// Create's copy never replaces what the informer delivered.
		stale := obj.DeepCopy()
		updated := obj.DeepCopy()
		updated.Status.Phase = v1alpha1.IntentPhaseExpired
		h.OnUpdate(obj, updated)
		s.index.upsert(stale, true)
		items, _, _ := s.List(context.Background(), Owner{Account: "acme"}, Filter{}, "", 10)
		if len(items) != 1 || items[0].Status != v1alpha1.IntentPhaseExpired {
			t.Fatalf("items %+v", items)
		}

		for name, bad := range map[string]func(*v1alpha1.TransferIntent){
			"other namespace":       func(o *v1alpha1.TransferIntent) { o.Namespace = "elsewhere" },
			"id differs from name":  func(o *v1alpha1.TransferIntent) { o.Spec.ID = intent.NewIntentID(epoch) },
			"name is not an intent": func(o *v1alpha1.TransferIntent) { o.Name = "hand-made" },
			"no tx":                 func(o *v1alpha1.TransferIntent) { o.Spec.Tx = nil },
		} {
			o := testIntent("skipped", 2, v1alpha1.IntentTypeTransfer)
			bad(o)
			h.OnAdd(o, false)
			if items, _, _ := s.List(context.Background(), Owner{Account: "skipped"}, Filter{}, "", 10); len(items) != 0 {
				t.Fatalf("%s: indexed %v", name, items)
			}
		}
	})
})

var _ = Describe("The index", func() {
	It("applies its part of the filters to pages", func() {
		t := GinkgoTB()
		s, _ := New(nil, nil, nil, Options{Namespace: "ns"})
		h := s.EventHandler()
		objs := make([]*v1alpha1.TransferIntent, 10)
		for i := range objs {
			objs[i] = testIntent("acme", i, v1alpha1.IntentTypeTransfer)
			if i%2 == 1 {
				objs[i].Status.Phase = v1alpha1.IntentPhaseExpired
			}
			h.OnAdd(objs[i], true)
		}
		pick := func(is ...int) []string {
			out := []string{}
			for _, i := range slices.Backward(is) {
				out = append(out, objs[i].Spec.ID)
			}
			return out
		}
		at := func(n int) time.Time { return epoch.Add(time.Duration(n) * time.Millisecond) }
		expired := []v1alpha1.IntentPhase{v1alpha1.IntentPhaseExpired}
		for name, c := range map[string]struct {
			filter Filter
			after  string
			limit  int
			want   []string
			more   bool
		}{
			"between, exclusive":             {Filter{CreatedAfter: at(2), CreatedBefore: at(6)}, "", 10, pick(3, 4, 5), false},
			"between, a page short":          {Filter{CreatedAfter: at(2), CreatedBefore: at(6)}, "", 2, pick(4, 5), true},
			"between, the page that ends":    {Filter{CreatedAfter: at(2), CreatedBefore: at(6)}, objs[4].Spec.ID, 2, pick(3), false},
			"before, all":                    {Filter{CreatedBefore: at(3)}, "", 3, pick(0, 1, 2), false},
			"pending, exactly a page":        {Filter{Statuses: []v1alpha1.IntentPhase{v1alpha1.IntentPhasePending}}, "", 5, pick(0, 2, 4, 6, 8), false},
			"expired after the cursor":       {Filter{Statuses: expired}, objs[7].Spec.ID, 10, pick(1, 3, 5), false},
			"expired, after a time":          {Filter{Statuses: expired, CreatedAfter: at(4)}, "", 1, pick(9), true},
			"order id":                       {Filter{OrderID: objs[6].Spec.OrderID}, "", 1, pick(6), false},
			"bounds that exclude each other": {Filter{CreatedAfter: at(6), CreatedBefore: at(6)}, "", 10, pick(), false},
		} {
			items, more := s.index.page(Owner{Account: "acme"}, c.filter, c.after, c.limit)
			if got := ids(items); !slices.Equal(got, c.want) || more != c.more {
				t.Errorf("%s: %v (more %v), want %v (more %v)", name, got, more, c.want, c.more)
			}
		}
	})
})

// BenchmarkIndexHashLookup is the cost of a hash look-up in the live index, which scans the
// owner's intents (no per-hash map: memory per intent is the tighter budget).
func BenchmarkIndexHashLookup(b *testing.B) {
	s, _ := New(nil, nil, nil, Options{Namespace: "ns"})
	h := s.EventHandler()
	const n = 10_000
	for i := range n {
		obj := testIntent("acme", i, v1alpha1.IntentTypeTransfer)
		obj.Status.Hash = fmt.Sprintf("0x%064x", i+1)
		h.OnAdd(obj, true)
	}
	f := Filter{Hash: fmt.Sprintf("0x%064x", 1)} // the oldest: the whole list is scanned
	b.ReportAllocs()
	for b.Loop() {
		if items, _ := s.index.page(Owner{Account: "acme"}, f, "", 50); len(items) != 1 {
			b.Fatal(len(items))
		}
	}
}
