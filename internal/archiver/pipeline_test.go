package archiver

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"golang.org/x/time/rate"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/archive"
)

// hookedArchive calls after once an Upsert of the n-th batch (from 1) is done; fail makes that
// Upsert fail instead, writing nothing.
type hookedArchive struct {
	Archive
	n     int
	fail  bool
	after func(records []archive.Record)

	mu    sync.Mutex
	calls int
}

func (h *hookedArchive) Upsert(ctx context.Context, records []archive.Record) error {
	h.mu.Lock()
	h.calls++
	hit := h.calls == h.n
	h.mu.Unlock()
	if hit && h.fail {
		return errors.New("archive write failed")
	}
	if err := h.Archive.Upsert(ctx, records); err != nil {
		return err
	}
	if hit && h.after != nil {
		h.after(records)
	}
	return nil
}

// An intent that changes after it was read and archived, while its batch's deletes are in
// flight, is not deleted (the delete's UID and resourceVersion preconditions): it stays a
// resource, and the next pass archives its newer state before deleting it.
func TestChangedIntentIsNotDeleted(t *testing.T) {
	w := newWorld(t)
	ids := w.intents(25, true)
	w.waitIndexed(len(ids))
	changed := ""
	w.archiver.Archive = &hookedArchive{Archive: w.archive, n: 2, after: func(records []archive.Record) {
		// The second batch is archived; its deletes have not started. The watcher writes one of
		// its intents again (a later block for the same phase).
		changed = records[0].ID
		w.setBlock(changed, 8)
	}}
	moved, err := w.archiver.Pass(context.Background(), rate.NewLimiter(rate.Inf, 1))
	if err != nil {
		t.Fatal(err)
	}
	live, archived := w.places(ids)
	if moved != len(ids)-1 || !live[changed] || len(live) != 1 {
		t.Fatalf("first pass: %d moved, %d live (the changed intent live: %v); want %d moved and only the changed one live",
			moved, len(live), live[changed], len(ids)-1)
	}
	for _, id := range ids {
		if !archived[id] {
			t.Fatalf("intent %s is not archived", id)
		}
	}
	if moved, err = w.archiver.Pass(context.Background(), rate.NewLimiter(rate.Inf, 1)); err != nil || moved != 1 {
		t.Fatalf("second pass: %d moved (%v); want the changed intent", moved, err)
	}
	if block := w.archivedBlock(changed); block != 8 {
		t.Fatalf("the archive holds block %d of the changed intent; want its newer state, block 8", block)
	}
}

// A failed archive write in the middle of a pass deletes nothing of its batch: the batches
// before it, committed, leave the API server; that one and those after stay, and no intent is
// in neither place.
func TestFailedArchiveWriteDeletesNothingOfItsBatch(t *testing.T) {
	w := newWorld(t)
	ids := w.intents(25, true)
	w.waitIndexed(len(ids))
	w.archiver.Archive = &hookedArchive{Archive: w.archive, n: 2, fail: true}
	moved, err := w.archiver.Pass(context.Background(), rate.NewLimiter(rate.Inf, 1))
	if err == nil {
		t.Fatal("the pass succeeded through a failed archive write")
	}
	live, archived := w.places(ids)
	lost := 0
	for _, id := range ids {
		if !live[id] && !archived[id] {
			lost++
		}
	}
	batch := w.archiver.Batch
	if lost != 0 || moved != batch || len(live) != len(ids)-batch {
		t.Fatalf("after a failed write of the second batch: %d lost, %d moved, %d live; want 0 lost, the first batch (%d) moved, the rest live",
			lost, moved, len(live), batch)
	}
}

// setBlock writes the intent's status again with another block number, the phase unchanged.
func (w *world) setBlock(id string, block int64) {
	w.t.Helper()
	var list v1alpha1.TransferIntentList
	if err := w.kube.List(context.Background(), &list, client.InNamespace(w.ns)); err != nil {
		w.t.Fatal(err)
	}
	for i := range list.Items {
		if ti := &list.Items[i]; ti.Spec.ID == id {
			ti.Status.BlockNumber = block
			if err := w.kube.Status().Update(context.Background(), ti); err != nil {
				w.t.Fatal(err)
			}
			return
		}
	}
	w.t.Fatalf("intent %s is not live", id)
}

// archivedBlock reads the block number of the intent's archived object.
func (w *world) archivedBlock(id string) int64 {
	w.t.Helper()
	scope := archive.Scope{Namespace: w.ns, Account: w.owner.Account, Environment: string(w.owner.Environment)}
	rec, found, err := w.archive.Get(context.Background(), scope, id)
	if err != nil || !found {
		w.t.Fatalf("intent %s in the archive: found %v, %v", id, found, err)
	}
	var ti v1alpha1.TransferIntent
	if err := json.Unmarshal(rec.Object, &ti); err != nil {
		w.t.Fatal(err)
	}
	return ti.Status.BlockNumber
}
