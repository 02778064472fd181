package archiver

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"golang.org/x/time/rate"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/archive"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/intentstore"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
	"github.com/transferintent/transfer-intent-service/internal/testenv"
)

// world is a real API server and a real PostgreSQL, the intent store of a running manager (its
// index fed by the informer, the archive behind it) and an archiver over them.
type world struct {
	t        testing.TB
	kube     client.Client
	ns       string
	pg       *pgtest.Server
	archive  *archive.Store
	store    *intentstore.Store
	archiver *Archiver
	owner    intentstore.Owner
}

func newWorld(t testing.TB) *world {
	t.Helper()
	cluster := testenv.Start(t)
	w := &world{t: t, kube: cluster.Client, ns: cluster.CreateNamespace(t), pg: pgtest.Start(t),
		owner: intentstore.Owner{Account: "alice", Environment: v1alpha1.EnvironmentTest}}
	db, err := postgres.Open(context.Background(), w.pg.URL, postgres.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	w.archive = archive.New(db)
	opts := ctrl.Options{Scheme: cluster.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0"}
	opts.Cache.DefaultNamespaces = map[string]cache.Config{w.ns: {}}
	mgr, err := ctrl.NewManager(cluster.Config, opts)
	if err != nil {
		t.Fatal(err)
	}
	if w.store, err = intentstore.SetupWithManager(mgr, intentstore.Options{Namespace: w.ns, Archive: w.archive}); err != nil {
		t.Fatal(err)
	}
	// The phase index the service's controllers register, which the backlog reads.
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), &v1alpha1.TransferIntent{}, v1alpha1.PhaseField, intentstatus.IndexByPhase); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	syncCtx, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	if !w.store.WaitForSync(syncCtx) {
		t.Fatal("the intent store did not sync")
	}
	metrics, err := NewMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	w.archiver = &Archiver{Cache: mgr.GetClient(), APIReader: cluster.Client, Writer: cluster.Client, Archive: w.archive, Namespace: w.ns,
		Options: Options{After: time.Minute, Batch: 10, Rate: 10_000, Interval: 50 * time.Millisecond}, Metrics: metrics,
		// Two hours on: every intent finished now is due.
		Clock: clocktesting.NewFakePassiveClock(time.Now().Add(2 * time.Hour))}
	return w
}

// intents creates n intents of the owner, finished (confirmed now) when finished is true,
// pending otherwise, and returns their ids.
func (w *world) intents(n int, finished bool) []string {
	w.t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ti := w.newIntent()
		if err := w.kube.Create(context.Background(), ti); err != nil {
			w.t.Fatal(err)
		}
		if finished {
			w.finish(ti)
		}
		ids[i] = ti.Spec.ID
	}
	return ids
}

func (w *world) newIntent() *v1alpha1.TransferIntent {
	id := intent.NewIntentID(time.Now())
	name, _ := intent.ObjectNameFromID(id)
	return &v1alpha1.TransferIntent{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: w.ns, Labels: v1alpha1.IntentLabels(w.owner.Account, v1alpha1.IntentTypeTransfer)},
		Spec: v1alpha1.TransferIntentSpec{
			ID: id, AccountRef: v1alpha1.LocalObjectReference{Name: w.owner.Account}, Environment: w.owner.Environment,
			Type: v1alpha1.IntentTypeTransfer, FromChain: "eip155:11155111", ToChain: "eip155:11155111", OrderID: hex32(),
			Request: v1alpha1.TransferRequest{
				From: "eip155:11155111:0x1111111111111111111111111111111111111111", To: "eip155:11155111:0x2222222222222222222222222222222222222222",
				Asset: v1alpha1.TransferAsset{In: "eip155:11155111:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"}, Amount: "1.5",
			},
			Tx:        &v1alpha1.TransactionPayload{To: "0x2222222222222222222222222222222222222222", Value: "1500000000000000000", ChainID: 11155111},
			ExpiresAt: metav1.NewTime(time.Now().Add(time.Hour).Truncate(time.Second)),
		},
	}
}

// finish records ti as submitted, then confirmed, now.
func (w *world) finish(ti *v1alpha1.TransferIntent) {
	w.t.Helper()
	at := metav1.NewTime(time.Now().Truncate(time.Second))
	ti.Status.UpdatedAt = &at
	ti.Status.Hash, ti.Status.BlockNumber, ti.Status.BlockHash = hex32(), 7, hex32()
	for _, phase := range []v1alpha1.IntentPhase{v1alpha1.IntentPhaseSubmitted, v1alpha1.IntentPhaseConfirmed} {
		ti.Status.Phase = phase
		if err := w.kube.Status().Update(context.Background(), ti); err != nil {
			w.t.Fatal(err)
		}
	}
}

func hex32() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return fmt.Sprintf("0x%x", b)
}

// waitIndexed waits until the store's index holds n intents.
func (w *world) waitIndexed(n int) {
	w.t.Helper()
	testenv.WaitFor(w.t, 30*time.Second, fmt.Sprintf("the index to hold %d intents", n), func() error {
		if got := w.store.Len(); got != n {
			return fmt.Errorf("it holds %d", got)
		}
		return nil
	})
}

// places says, for each id, whether it is a resource and whether it is archived.
func (w *world) places(ids []string) (live, archived map[string]bool) {
	w.t.Helper()
	var list v1alpha1.TransferIntentList
	if err := w.kube.List(context.Background(), &list, client.InNamespace(w.ns)); err != nil {
		w.t.Fatal(err)
	}
	live, archived = map[string]bool{}, map[string]bool{}
	for _, ti := range list.Items {
		live[ti.Spec.ID] = true
	}
	scope := archive.Scope{Namespace: w.ns, Account: w.owner.Account, Environment: string(w.owner.Environment)}
	for _, id := range ids {
		_, found, err := w.archive.Get(context.Background(), scope, id)
		if err != nil {
			w.t.Fatal(err)
		}
		archived[id] = found
	}
	return live, archived
}

// An intent that moves to the archive while a client pages is neither skipped nor listed twice:
// pages are read while the archiver moves a batch between every two of them.
func TestPagingWhileArchivingNeitherSkipsNorRepeats(t *testing.T) {
	w := newWorld(t)
	finished := w.intents(45, true)
	pending := w.intents(5, false)
	all := append(slices.Clone(finished), pending...)
	w.waitIndexed(len(all))
	limiter := rate.NewLimiter(rate.Inf, 1)
	var seen []string
	after := ""
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("paging does not end")
		}
		items, more, err := w.store.List(context.Background(), w.owner, intentstore.Filter{}, after, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			seen = append(seen, it.ID)
		}
		if _, err := w.archiver.Pass(context.Background(), limiter); err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		after = items[len(items)-1].ID
	}
	want := slices.Clone(all)
	slices.Sort(want)
	slices.Reverse(want)
	if !slices.Equal(seen, want) {
		t.Fatalf("paged %d intents:\n%v\nwant each of the %d once, newest first:\n%v", len(seen), seen, len(want), want)
	}
	// Drained, the finished intents are archived only and the pending ones live only.
	for {
		moved, err := w.archiver.Pass(context.Background(), limiter)
		if err != nil {
			t.Fatal(err)
		}
		if moved == 0 {
			break
		}
	}
	live, archived := w.places(all)
	for _, id := range finished {
		if live[id] || !archived[id] {
			t.Errorf("finished %s: live %v, archived %v; want archived only", id, live[id], archived[id])
		}
	}
	for _, id := range pending {
		if !live[id] || archived[id] {
			t.Errorf("pending %s: live %v, archived %v; want live only", id, live[id], archived[id])
		}
	}
	// Served from the archive as they were: one list of all, and each by id.
	items, _, err := w.store.List(context.Background(), w.owner, intentstore.Filter{}, "", 100)
	if err != nil || len(items) != len(all) {
		t.Fatalf("one list after archiving: %d items, %v; want %d", len(items), err, len(all))
	}
	got, found, err := w.store.Get(context.Background(), w.owner, finished[0])
	if err != nil || !found || got.Status.Phase != v1alpha1.IntentPhaseConfirmed || got.Spec.OrderID == "" {
		t.Fatalf("an archived intent by id: %+v, %v, %v", got, found, err)
	}
	if testutil.ToFloat64(w.archiver.Metrics.archivedN) != float64(len(finished)) {
		t.Errorf("tis_archive_archived_total = %v, want %d", testutil.ToFloat64(w.archiver.Metrics.archivedN), len(finished))
	}
}

// PostgreSQL killed (SIGKILL, its backends with it) in the middle of archiving: archiving pauses,
// and once the server is back every intent ends in exactly one place: 0 lost, 0 duplicated.
func TestKilledPostgresLosesNothing(t *testing.T) {
	w := newWorld(t)
	ids := w.intents(80, true)
	w.waitIndexed(len(ids))
	w.archiver.Rate = 40 // two seconds of work: the kill lands in the middle
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = w.archiver.Start(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	testenv.WaitFor(t, 60*time.Second, "the first rows archived", func() bool { return testutil.ToFloat64(w.archiver.Metrics.archivedN) > 0 })
	w.pg.Kill()
	testenv.WaitFor(t, 60*time.Second, "a failed pass", func() bool { return testutil.ToFloat64(w.archiver.Metrics.failures) > 0 })
	moved := testutil.ToFloat64(w.archiver.Metrics.archivedN)
	if moved >= float64(len(ids)) {
		t.Fatalf("all %d were archived before the kill: the test proves nothing", len(ids))
	}
	// While it is down, nothing more leaves the API server.
	var list v1alpha1.TransferIntentList
	if err := w.kube.List(context.Background(), &list, client.InNamespace(w.ns)); err != nil {
		t.Fatal(err)
	}
	if float64(len(list.Items)) < float64(len(ids))-moved {
		t.Fatalf("%d intents left the API server, but only %v were archived", len(ids)-len(list.Items), moved)
	}
	w.pg.Restart()
	testenv.WaitFor(t, 60*time.Second, "every intent archived", func() bool {
		return testutil.ToFloat64(w.archiver.Metrics.archivedN) >= float64(len(ids))
	})
	live, archived := w.places(ids)
	lost, duplicated := 0, 0
	for _, id := range ids {
		switch {
		case !live[id] && !archived[id]:
			lost++
		case live[id] && archived[id]:
			duplicated++
		}
	}
	if lost != 0 || duplicated != 0 || len(live) != 0 {
		t.Fatalf("after the kill: %d lost, %d in both places, %d still live; want 0, 0, 0", lost, duplicated, len(live))
	}
	t.Logf("killed after %v of %d archived: 0 lost, 0 duplicated", moved, len(ids))
}

// An Idempotency-Key replay returns the same intent after it was archived: while its claim is
// still there (garbage collection has not caught up), and after the claim is gone with it.
func TestIdempotencyKeyReplayAfterArchiving(t *testing.T) {
	w := newWorld(t)
	ti := w.newIntent()
	req := intentstore.CreateRequest{Owner: w.owner, IdempotencyKey: "order-42", RequestHash: "sha256:" + strings.Repeat("a", 64),
		Build: func(context.Context) (*v1alpha1.TransferIntent, error) { return ti.DeepCopy(), nil }}
	created, err := w.store.Create(context.Background(), req)
	if err != nil || !created.New {
		t.Fatalf("create: %+v, %v", created, err)
	}
	w.waitIndexed(1)
	var stored v1alpha1.TransferIntent
	if err := w.kube.Get(context.Background(), client.ObjectKeyFromObject(ti), &stored); err != nil {
		t.Fatal(err)
	}
	stored.Labels = v1alpha1.IntentLabels(w.owner.Account, stored.Spec.Type)
	if err := w.kube.Update(context.Background(), &stored); err != nil {
		t.Fatal(err)
	}
	w.finish(&stored)
	testenv.WaitFor(t, 60*time.Second, "the intent archived", func() bool {
		moved, err := w.archiver.Pass(context.Background(), rate.NewLimiter(rate.Inf, 1))
		return err == nil && moved == 1
	})
	w.waitIndexed(0)
	replay := func(what string) {
		t.Helper()
		again, err := w.store.Create(context.Background(), req)
		if err != nil || again.New || again.Intent == nil || again.Intent.Spec.ID != ti.Spec.ID {
			t.Fatalf("%s: %+v, %v; want the archived intent %s", what, again, err, ti.Spec.ID)
		}
	}
	replay("replay with the claim still there")
	var claims coordinationv1.LeaseList
	if err := w.kube.List(context.Background(), &claims, client.InNamespace(w.ns)); err != nil || len(claims.Items) != 1 {
		t.Fatalf("claims: %d, %v", len(claims.Items), err)
	}
	if err := w.kube.Delete(context.Background(), &claims.Items[0]); err != nil { // what garbage collection does
		t.Fatal(err)
	}
	replay("replay after the claim was collected")
	other := req
	other.RequestHash = "sha256:" + strings.Repeat("b", 64)
	if _, err := w.store.Create(context.Background(), other); err == nil || !strings.Contains(err.Error(), "different request") {
		t.Fatalf("the key with another request: %v; want ErrIdempotencyKeyReused", err)
	}
}

// A filler may come for its attestation long after the bridge left the API server: the archived
// intent's attested fill is found by its order id.
func TestAttestedOrderIsFoundAfterArchiving(t *testing.T) {
	w := newWorld(t)
	ti := w.newIntent()
	if err := w.kube.Create(context.Background(), ti); err != nil {
		t.Fatal(err)
	}
	ti.Status.Fill = &v1alpha1.FillStatus{ChainID: "eip155:8453", Hash: hex32(), BlockNumber: 9, BlockHash: hex32(),
		Filler: "0x3333333333333333333333333333333333333333", AmountOut: "1", Attestation: "0x" + strings.Repeat("ab", 65)}
	w.finish(ti)
	w.waitIndexed(1)
	testenv.WaitFor(t, 60*time.Second, "the intent archived", func() bool {
		moved, err := w.archiver.Pass(context.Background(), rate.NewLimiter(rate.Inf, 1))
		return err == nil && moved == 1
	})
	w.waitIndexed(0)
	got, found, err := w.store.AttestedOrder(context.Background(), ti.Spec.OrderID)
	if err != nil || !found || got.Spec.ID != ti.Spec.ID || got.Status.Fill == nil || got.Status.Fill.Attestation == "" {
		t.Fatalf("the archived attested order: %+v, %v, %v", got, found, err)
	}
	if _, found, err := w.store.AttestedOrder(context.Background(), hex32()); err != nil || found {
		t.Fatalf("an unknown order: found %v, %v", found, err)
	}
}

// notOpenYet is the archive while its connection opens in the background: the first calls fail
// with postgres.ErrNotOpen.
type notOpenYet struct {
	Archive
	refusals atomic.Int32
}

func (a *notOpenYet) Upsert(ctx context.Context, records []archive.Record) error {
	if a.refusals.Add(-1) >= 0 {
		return postgres.ErrNotOpen
	}
	return a.Archive.Upsert(ctx, records)
}

// An archive that is not open yet at start (the manager opens it in the background) holds the
// archiver back for a moment, not for a whole interval, and counts as no failure.
func TestArchiveNotOpenYetIsWaitedForBriefly(t *testing.T) {
	w := newWorld(t)
	ids := w.intents(5, true)
	w.waitIndexed(len(ids))
	slow := &notOpenYet{Archive: w.archive}
	slow.refusals.Store(2)
	w.archiver.Archive, w.archiver.Interval = slow, time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = w.archiver.Start(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	testenv.WaitFor(t, 60*time.Second, "every intent archived", func() bool {
		return testutil.ToFloat64(w.archiver.Metrics.archivedN) >= float64(len(ids))
	})
	if f := testutil.ToFloat64(w.archiver.Metrics.failures); f != 0 {
		t.Fatalf("%v failed passes counted while the archive was opening; want 0", f)
	}
}

// TestLookupFiltersFindArchivedIntents archives a bridge that was filled and keeps a pending
// intent live, then looks them up through the intent store by hash (open and fill), status,
// order id and from: each filter finds the archived intent as it finds the live one, and a status
// list pages across both.
func TestLookupFiltersFindArchivedIntents(t *testing.T) {
	w := newWorld(t)
	archived := w.newIntent()
	if err := w.kube.Create(context.Background(), archived); err != nil {
		t.Fatal(err)
	}
	archived.Status.Fill = &v1alpha1.FillStatus{ChainID: "eip155:84532", Hash: hex32(), BlockNumber: 9, BlockHash: hex32(),
		Filler: "0x3333333333333333333333333333333333333333", AmountOut: "1"}
	w.finish(archived)
	// A second archived intent, which each look-up of the first must leave out.
	other := w.intents(1, true)[0]
	w.waitIndexed(2)
	testenv.WaitFor(t, 60*time.Second, "the intents archived", func() bool {
		moved, err := w.archiver.Pass(context.Background(), rate.NewLimiter(rate.Inf, 1))
		return err == nil && moved == 2
	})
	w.waitIndexed(0)
	live := w.newIntent()
	live.Spec.Request.From = "eip155:11155111:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	if err := w.kube.Create(context.Background(), live); err != nil {
		t.Fatal(err)
	}
	w.waitIndexed(1)

	for name, c := range map[string]struct {
		filter intentstore.Filter
		want   []string
	}{
		"open hash":               {intentstore.Filter{Hash: archived.Status.Hash}, []string{archived.Spec.ID}},
		"fill hash":               {intentstore.Filter{Hash: archived.Status.Fill.Hash}, []string{archived.Spec.ID}},
		"unseen hash":             {intentstore.Filter{Hash: hex32()}, nil},
		"confirmed":               {intentstore.Filter{Statuses: []v1alpha1.IntentPhase{v1alpha1.IntentPhaseConfirmed}}, []string{other, archived.Spec.ID}},
		"pending":                 {intentstore.Filter{Statuses: []v1alpha1.IntentPhase{v1alpha1.IntentPhasePending}}, []string{live.Spec.ID}},
		"either, in pages":        {intentstore.Filter{Statuses: []v1alpha1.IntentPhase{v1alpha1.IntentPhasePending, v1alpha1.IntentPhaseConfirmed}}, []string{live.Spec.ID, other, archived.Spec.ID}},
		"order id":                {intentstore.Filter{OrderID: archived.Spec.OrderID}, []string{archived.Spec.ID}},
		"archived's from":         {intentstore.Filter{From: archived.Spec.Request.From}, []string{other, archived.Spec.ID}},
		"live's from, lower case": {intentstore.Filter{From: strings.ToLower(live.Spec.Request.From)}, []string{live.Spec.ID}},
		"order id and another status": {intentstore.Filter{OrderID: archived.Spec.OrderID,
			Statuses: []v1alpha1.IntentPhase{v1alpha1.IntentPhaseFailed}}, nil},
	} {
		var got []string
		after := ""
		for range 4 {
			items, more, err := w.store.List(context.Background(), w.owner, c.filter, after, 1)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, it := range items {
				got = append(got, it.ID)
				after = it.ID
			}
			if !more {
				break
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
}

// An intent leaves the API server only after BeforeArchive (the webhook emitter's Ensure) has
// seen it: while it fails, nothing is archived or deleted; once it succeeds, every intent it saw
// is archived.
func TestBeforeArchiveGatesTheMove(t *testing.T) {
	w := newWorld(t)
	ids := w.intents(5, true)
	w.waitIndexed(len(ids))
	var mu sync.Mutex
	seen, failing := map[string]bool{}, true
	w.archiver.BeforeArchive = func(_ context.Context, intents []*v1alpha1.TransferIntent) error {
		mu.Lock()
		defer mu.Unlock()
		if failing {
			return errors.New("outbox down")
		}
		for _, ti := range intents {
			seen[ti.Spec.ID] = true
		}
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = w.archiver.Start(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	testenv.WaitFor(t, 60*time.Second, "a failed pass", func() bool { return testutil.ToFloat64(w.archiver.Metrics.failures) > 0 })
	live, archived := w.places(ids)
	for _, id := range ids {
		if !live[id] || archived[id] {
			t.Fatalf("with BeforeArchive failing, intent %s: live %v, archived %v; want live only", id, live[id], archived[id])
		}
	}
	mu.Lock()
	failing = false
	mu.Unlock()
	testenv.WaitFor(t, 60*time.Second, "every intent archived", func() bool {
		return testutil.ToFloat64(w.archiver.Metrics.archivedN) >= float64(len(ids))
	})
	mu.Lock()
	defer mu.Unlock()
	for _, id := range ids {
		if !seen[id] {
			t.Errorf("intent %s was archived without BeforeArchive seeing it", id)
		}
	}
}
