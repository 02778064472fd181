package archive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
)

var (
	alice = Scope{Namespace: "tenant-a", Account: "alice", Environment: "test"}
	// t0 has nanoseconds on purpose: the archive keeps microseconds.
	t0 = time.Date(2026, 5, 1, 12, 0, 0, 123456789, time.UTC)
)

// TestStore runs the store's behaviour on one server, each case in a database of its own.
func TestStore(t *testing.T) {
	srv := pgtest.Start(t)
	open := func(t *testing.T) (*Store, string) {
		t.Helper()
		url := srv.NewDatabase(t)
		db, err := postgres.Open(context.Background(), url, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.Close)
		return New(db), url
	}
	t.Run("MigratesFromTheFirstVersion", func(t *testing.T) { testMigrateFromV1(t, srv.NewDatabase(t)) })
	t.Run("FindsByIdempotencyKey", func(t *testing.T) {
		s, _ := open(t)
		withKey := record("int_transfer_key", alice, "swap", t0)
		withKey.IdempotencyKeyHash = "sha256:abc"
		if err := s.Upsert(context.Background(), []Record{withKey, record("int_transfer_nokey", alice, "swap", t0)}); err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.ByIdempotencyKey(context.Background(), alice.Namespace, "sha256:abc")
		if err != nil || !ok || got.ID != withKey.ID || got.IdempotencyKeyHash != "sha256:abc" {
			t.Fatalf("by key: %+v, %v, %v", got, ok, err)
		}
		for ns, key := range map[string]string{alice.Namespace: "sha256:other", "tenant-b": "sha256:abc", "": ""} {
			if _, ok, err := s.ByIdempotencyKey(context.Background(), ns, key); err != nil || ok {
				t.Errorf("namespace %q, key %q: found %v, %v", ns, key, ok, err)
			}
		}
	})
	t.Run("UpsertTwiceEqualsOnce", func(t *testing.T) { testUpsert(t, open) })
	t.Run("ListPagesNewestFirst", func(t *testing.T) { testPaging(t, open) })
	t.Run("TypeFilter", func(t *testing.T) { testTypeFilter(t, open) })
	t.Run("LookupFilters", func(t *testing.T) { testLookupFilters(t, open) })
	t.Run("MigrationBackfillsLookupColumns", func(t *testing.T) { testMigrateBackfillsLookupColumns(t, srv.NewDatabase(t)) })
	t.Run("ScopeIsolation", func(t *testing.T) { testScope(t, open) })
	t.Run("DeleteUpdatedBeforeInBatches", func(t *testing.T) { testRetention(t, open) })
	t.Run("SchemaTakesExactlyTheFinishedStatuses", func(t *testing.T) {
		_, url := open(t)
		testSchemaStatuses(t, url)
	})
	t.Run("RefusesInvalidRecords", func(t *testing.T) {
		s, _ := open(t)
		good := record("int_transfer_ok", alice, "transfer", t0)
		for name, mutate := range map[string]func(*Record){
			"no id":          func(r *Record) { r.ID = "" },
			"environment":    func(r *Record) { r.Environment = "prod" },
			"type":           func(r *Record) { r.Type = "mint" },
			"live status":    func(r *Record) { r.Status = "pending" },
			"no object":      func(r *Record) { r.Object = nil },
			"no update time": func(r *Record) { r.UpdatedAt = time.Time{} },
		} {
			bad := good
			mutate(&bad)
			if err := s.Upsert(context.Background(), []Record{good, bad}); err == nil {
				t.Errorf("%s: accepted", name)
			}
		}
		// All or none: the good record of each refused batch was not written either.
		if _, ok, err := s.Get(context.Background(), alice, good.ID); err != nil || ok {
			t.Fatalf("a refused batch wrote its good record: %v, %v", ok, err)
		}
	})
}

// faultTimeout is the deadline of the stores of the fault tests.
const faultTimeout = 500 * time.Millisecond

// openWithRecord starts a server, opens a store on it with faultTimeout and writes one record.
func openWithRecord(t *testing.T) (*pgtest.Server, *Store, Record) {
	t.Helper()
	srv := pgtest.Start(t)
	db, err := postgres.Open(context.Background(), srv.URL, postgres.Options{Timeout: faultTimeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	s := New(db)
	r := record("int_transfer_1", alice, "transfer", t0)
	if err := s.Upsert(context.Background(), []Record{r}); err != nil {
		t.Fatal(err)
	}
	return srv, s, r
}

// expectEveryCallFails makes each kind of call and checks that it fails, and how long it took.
func expectEveryCallFails(t *testing.T, s *Store, r Record, what string, tookOK func(time.Duration) bool) {
	t.Helper()
	for name, call := range calls(s, r) {
		start := time.Now()
		err := call()
		took := time.Since(start)
		if err == nil {
			t.Errorf("%s succeeded against a %s server", name, what)
		}
		if !tookOK(took) {
			t.Errorf("%s took %s against a %s server; its deadline is %s", name, took, what, faultTimeout)
		}
		t.Logf("%s: %s: %v", name, took.Round(time.Millisecond), err)
	}
}

// TestCallsFailWithinTheDeadlineWhenTheServerIsGone kills the server under an open store: each
// call errors within its deadline, and the store works again once the server is back.
func TestCallsFailWithinTheDeadlineWhenTheServerIsGone(t *testing.T) {
	srv, s, r := openWithRecord(t)
	srv.Kill()
	// Slack for a loaded machine; a hang would take far longer.
	expectEveryCallFails(t, s, r, "killed", func(took time.Duration) bool { return took <= faultTimeout+time.Second })

	// The same open store recovers: the pool drops dead connections and dials again.
	srv.Restart()
	got, ok, err := s.Get(context.Background(), alice, r.ID)
	if err != nil || !ok || got.ID != r.ID {
		t.Fatalf("after restart: %+v, %v, %v", got, ok, err)
	}
}

// TestCallsFailWithinTheDeadlineWhenTheServerStalls pauses the server under an open store: it
// accepts and never answers, and each call still returns an error at its deadline.
func TestCallsFailWithinTheDeadlineWhenTheServerStalls(t *testing.T) {
	srv, s, r := openWithRecord(t)
	srv.Pause()
	expectEveryCallFails(t, s, r, "paused", func(took time.Duration) bool {
		return took >= faultTimeout/2 && took <= faultTimeout+time.Second
	})
	srv.Resume()
	if _, ok, err := s.Get(context.Background(), alice, r.ID); err != nil || !ok {
		t.Fatalf("after resume: %v, %v", ok, err)
	}
}

// calls is one call of each kind the store serves, for the fault tests.
func calls(s *Store, r Record) map[string]func() error {
	ctx := context.Background()
	return map[string]func() error{
		"Ping":             func() error { return s.db.Ping(ctx) },
		"Upsert":           func() error { return s.Upsert(ctx, []Record{r}) },
		"Get":              func() error { _, _, err := s.Get(ctx, alice, r.ID); return err },
		"List":             func() error { _, err := s.List(ctx, alice, Filter{}, nil, 10); return err },
		"ByIdempotencyKey": func() error { _, _, err := s.ByIdempotencyKey(ctx, alice.Namespace, "sha256:x"); return err },
		"ByOrderID":        func() error { _, err := s.ByOrderID(ctx, alice.Namespace, r.OrderID); return err },
		"Delete":           func() error { _, err := s.DeleteUpdatedBefore(ctx, t0, 10); return err },
	}
}

func testUpsert(t *testing.T, open func(*testing.T) (*Store, string)) {
	s, url := open(t)
	ctx := context.Background()
	var batch []Record
	for i := range 300 {
		r := record(fmt.Sprintf("int_transfer_%03d", i), alice, "transfer", t0.Add(time.Duration(i)*time.Second))
		if i%3 == 0 {
			r.Hash = ""
		}
		batch = append(batch, r)
	}
	for range 2 {
		if err := s.Upsert(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(t, url); n != len(batch) {
		t.Fatalf("%d rows after writing %d records twice", n, len(batch))
	}
	got, err := s.List(ctx, alice, Filter{}, nil, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(batch)
	slices.Reverse(want)
	assertRecords(t, got, want)

	// A newer copy replaces the row; an older one, from a replica behind, does not roll it back.
	newer := batch[0]
	newer.Status, newer.UpdatedAt = "failed", newer.UpdatedAt.Add(time.Minute)
	if err := s.Upsert(ctx, []Record{newer}); err != nil {
		t.Fatal(err)
	}
	if err := s.Upsert(ctx, []Record{batch[0]}); err != nil {
		t.Fatal(err)
	}
	got1, ok, err := s.Get(ctx, alice, newer.ID)
	if err != nil || !ok {
		t.Fatalf("get: %v, %v", ok, err)
	}
	assertRecords(t, []Record{got1}, []Record{newer})
}

// testPaging walks every page size over records whose created_at ties in groups: the pages
// concatenate to the whole list, in order, with nothing skipped or repeated.
func testPaging(t *testing.T, open func(*testing.T) (*Store, string)) {
	s, _ := open(t)
	ctx := context.Background()
	var all []Record
	for i := range 23 {
		// Five records share each instant; ids out of insertion order.
		at := t0.Add(time.Duration(i/5) * time.Millisecond)
		all = append(all, record(fmt.Sprintf("int_transfer_%c%02d", 'z'-i%7, i), alice, "transfer", at))
	}
	if err := s.Upsert(ctx, all); err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(all)
	slices.SortFunc(want, func(a, b Record) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	for limit := 1; limit <= 24; limit++ {
		var walked []Record
		var after *Cursor
		for pages := 0; ; pages++ {
			if pages > len(all) {
				t.Fatalf("limit %d: paging does not end", limit)
			}
			page, err := s.List(ctx, alice, Filter{}, after, limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) > limit {
				t.Fatalf("limit %d: a page of %d", limit, len(page))
			}
			walked = append(walked, page...)
			if len(page) < limit {
				break
			}
			c := CursorOf(page[len(page)-1])
			after = &c
		}
		if !slices.EqualFunc(ids(walked), ids(want), func(a, b string) bool { return a == b }) {
			t.Fatalf("limit %d: walked %v\nwant %v", limit, ids(walked), ids(want))
		}
	}
}

func testTypeFilter(t *testing.T, open func(*testing.T) (*Store, string)) {
	s, _ := open(t)
	ctx := context.Background()
	types := []string{"transfer", "swap", "bridge"}
	var all []Record
	for i := range 12 {
		all = append(all, record(fmt.Sprintf("int_transfer_%02d", i), alice, types[i%3], t0.Add(time.Duration(i)*time.Second)))
	}
	if err := s.Upsert(ctx, all); err != nil {
		t.Fatal(err)
	}
	for _, typ := range types {
		// Paged in twos, to cover the filter and the cursor together.
		var got []Record
		var after *Cursor
		for {
			page, err := s.List(ctx, alice, Filter{Type: typ}, after, 2)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, page...)
			if len(page) < 2 {
				break
			}
			c := CursorOf(page[1])
			after = &c
		}
		var want []Record
		for _, r := range slices.Backward(all) {
			if r.Type == typ {
				want = append(want, r)
			}
		}
		assertRecords(t, got, want)
	}
}

func testScope(t *testing.T, open func(*testing.T) (*Store, string)) {
	s, _ := open(t)
	ctx := context.Background()
	r := record("int_transfer_mine", alice, "transfer", t0)
	if err := s.Upsert(ctx, []Record{r}); err != nil {
		t.Fatal(err)
	}
	for _, other := range []Scope{
		{Namespace: alice.Namespace, Account: "bob", Environment: alice.Environment},
		{Namespace: alice.Namespace, Account: alice.Account, Environment: "live"},
		{Namespace: "tenant-b", Account: alice.Account, Environment: alice.Environment},
	} {
		if _, ok, err := s.Get(ctx, other, r.ID); err != nil || ok {
			t.Errorf("%+v reads another scope's record: %v, %v", other, ok, err)
		}
		if got, err := s.List(ctx, other, Filter{}, nil, 10); err != nil || len(got) != 0 {
			t.Errorf("%+v lists %d records of another scope: %v", other, len(got), err)
		}
	}
	if got, ok, err := s.Get(ctx, alice, r.ID); err != nil || !ok {
		t.Fatalf("its own scope: %v, %v", ok, err)
	} else {
		assertRecords(t, []Record{got}, []Record{r})
	}
}

func testRetention(t *testing.T, open func(*testing.T) (*Store, string)) {
	s, url := open(t)
	ctx := context.Background()
	cutoff := t0.Add(time.Hour)
	var all []Record
	for i := range 15 {
		r := record(fmt.Sprintf("int_transfer_%02d", i), alice, "transfer", t0)
		r.UpdatedAt = cutoff.Add(-time.Duration(i+1) * time.Minute) // ten before the cutoff
		if i >= 10 {
			r.UpdatedAt = cutoff.Add(time.Duration(i) * time.Second) // five after
		}
		all = append(all, r)
	}
	if err := s.Upsert(ctx, all); err != nil {
		t.Fatal(err)
	}
	var deleted []int
	for {
		n, err := s.DeleteUpdatedBefore(ctx, cutoff, 3)
		if err != nil {
			t.Fatal(err)
		}
		deleted = append(deleted, n)
		if n < 3 {
			break
		}
	}
	if !slices.Equal(deleted, []int{3, 3, 3, 1}) {
		t.Fatalf("deleted per batch %v, want [3 3 3 1]", deleted)
	}
	if n := count(t, url); n != 5 {
		t.Fatalf("%d rows remain, want the 5 updated after the cutoff", n)
	}
	got, err := s.List(ctx, alice, Filter{}, nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got {
		if r.UpdatedAt.Before(cutoff) {
			t.Errorf("%s updated %s survived", r.ID, r.UpdatedAt)
		}
	}
}

// testSchemaStatuses inserts a row of each status past validate: the schema's CHECK on status
// (migration 00001) is SQL's spelling of intent.Finished, so a status added to or taken from the
// finished ones fails here until a migration changes the CHECK.
func testSchemaStatuses(t *testing.T, url string) {
	conn := connect(t, url)
	for i, st := range append(slices.Clone(intent.Statuses), "cancelled") {
		_, err := conn.Exec(context.Background(), `INSERT INTO intents (id, namespace, account, environment, type, status, order_id, created_at, updated_at, object)
			VALUES ($1, $2, $3, $4, 'transfer', $5, '0x01', $6, $6, '{"kind":"TransferIntent"}')`,
			fmt.Sprintf("int_transfer_status%d", i), alice.Namespace, alice.Account, alice.Environment, string(st), t0)
		var pgErr *pgconn.PgError
		refused := errors.As(err, &pgErr) && pgErr.Code == "23514" // check_violation
		switch {
		case intent.Finished(st) && err != nil:
			t.Errorf("the schema refuses the finished status %s: %v", st, err)
		case !intent.Finished(st) && !refused:
			t.Errorf("the schema takes the status %s, which is not finished: %v", st, err)
		}
	}
}

func record(id string, scope Scope, typ string, created time.Time) Record {
	object, _ := json.Marshal(map[string]any{
		"apiVersion": "transferintent.io/v1alpha1", "kind": "TransferIntent",
		"metadata": map[string]any{"name": id, "namespace": scope.Namespace},
		"status":   map[string]any{"phase": "Confirmed", "id": id},
	})
	return Record{
		ID: id, Namespace: scope.Namespace, Account: scope.Account, Environment: scope.Environment,
		Type: typ, Status: "confirmed", OrderID: "0xorder" + id, Hash: "0xhash" + id,
		CreatedAt: created, UpdatedAt: created.Add(time.Minute), Object: object,
	}
}

// assertRecords compares what was read with what was written: times to the microsecond, objects
// as JSON values (jsonb keeps neither key order nor spacing).
func assertRecords(t *testing.T, got, want []Record) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d: %v, want %v", len(got), len(want), ids(got), ids(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		var gv, wv any
		if err := json.Unmarshal(g.Object, &gv); err != nil {
			t.Fatalf("%s: object %s: %v", g.ID, g.Object, err)
		}
		if err := json.Unmarshal(w.Object, &wv); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gv, wv) {
			t.Errorf("record %d: object %s, want %s", i, g.Object, w.Object)
		}
		w.CreatedAt = w.CreatedAt.Truncate(time.Microsecond).UTC()
		w.UpdatedAt = w.UpdatedAt.Truncate(time.Microsecond).UTC()
		g.Object, w.Object = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

func ids(records []Record) []string {
	out := make([]string, len(records))
	for i, r := range records {
		out[i] = r.ID
	}
	return out
}

func count(t *testing.T, url string) int {
	t.Helper()
	var n int
	if err := connect(t, url).QueryRow(context.Background(), `SELECT count(*) FROM intents`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// openMigrated migrates the database at url to the newest schema and opens the archive on it.
func openMigrated(t *testing.T, url string) *Store {
	t.Helper()
	db, err := postgres.Open(context.Background(), url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return New(db)
}

// testMigrateFromV1 migrates a database of the first schema, holding a row, to the newest: the row
// is kept, readable, with the columns a later version added at their defaults.
func testMigrateFromV1(t *testing.T, url string) {
	conn := connect(t, url)
	if err := postgres.MigrateUpTo(context.Background(), url, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(context.Background(), `INSERT INTO intents (id, namespace, account, environment, type, status, order_id, created_at, updated_at, object)
		VALUES ('int_transfer_old', $1, $2, $3, 'transfer', 'confirmed', '0x01', $4, $4, '{"kind":"TransferIntent"}')`,
		alice.Namespace, alice.Account, alice.Environment, t0); err != nil {
		t.Fatal(err)
	}
	s := openMigrated(t, url)
	r, ok, err := s.Get(context.Background(), alice, "int_transfer_old")
	if err != nil || !ok || r.Status != "confirmed" || r.IdempotencyKeyHash != "" {
		t.Fatalf("the first version's row after the migration: %+v, %v, %v", r, ok, err)
	}
}

// lookupRecords are six of alice's records, oldest first, with the columns the lookup filters
// read: statuses, open, fill and refund hashes, from accounts and order ids of their own.
func lookupRecords() []Record {
	var out []Record
	for i := range 6 {
		r := record(fmt.Sprintf("int_transfer_lk%02d", i), alice, "bridge", t0.Add(time.Duration(i)*time.Second))
		r.Status = []string{"confirmed", "failed", "expired"}[i%3]
		r.OrderID = fmt.Sprintf("0x%064x", 0x100+i)
		r.Hash = fmt.Sprintf("0x%064x", 0xa00+i)
		r.From = "eip155:1:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
		if i%2 == 1 {
			r.From = "eip155:1:0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359"
		}
		if r.Status == "confirmed" {
			r.FillHash = fmt.Sprintf("0x%064x", 0xf00+i)
		}
		if r.Status == "failed" {
			r.RefundHash = fmt.Sprintf("0x%064x", 0xe00+i)
		}
		out = append(out, r)
	}
	return out
}

// testLookupFilters lists by each filter of issue 26 alone, and by several together, in pages of
// one, against the records that meet them written out by hand.
func testLookupFilters(t *testing.T, open func(*testing.T) (*Store, string)) {
	s, _ := open(t)
	ctx := context.Background()
	all := lookupRecords()
	if err := s.Upsert(ctx, all); err != nil {
		t.Fatal(err)
	}
	byIndex := func(is ...int) []string { // newest first
		var out []string
		for _, i := range slices.Backward(is) {
			out = append(out, all[i].ID)
		}
		return out
	}
	for name, c := range map[string]struct {
		filter Filter
		want   []string
	}{
		"open hash":                  {Filter{Hash: all[2].Hash}, byIndex(2)},
		"fill hash":                  {Filter{Hash: all[3].FillHash}, byIndex(3)},
		"refund hash":                {Filter{Hash: all[4].RefundHash}, byIndex(4)},
		"unseen hash":                {Filter{Hash: fmt.Sprintf("0x%064x", 0xbad)}, nil},
		"one status":                 {Filter{Statuses: []string{"failed"}}, byIndex(1, 4)},
		"two statuses":               {Filter{Statuses: []string{"failed", "expired"}}, byIndex(1, 2, 4, 5)},
		"order id":                   {Filter{OrderID: all[5].OrderID}, byIndex(5)},
		"from":                       {Filter{From: all[1].From}, byIndex(1, 3, 5)},
		"created after":              {Filter{CreatedAfter: all[3].CreatedAt}, byIndex(4, 5)},
		"created before":             {Filter{CreatedBefore: all[2].CreatedAt}, byIndex(0, 1)},
		"from, status and time":      {Filter{From: all[0].From, Statuses: []string{"confirmed", "expired"}, CreatedBefore: all[5].CreatedAt}, byIndex(0, 2)},
		"hash of another's order id": {Filter{Hash: all[2].Hash, OrderID: all[3].OrderID}, nil},
		"type and hash":              {Filter{Type: "swap", Hash: all[2].Hash}, nil},
	} {
		var got []string
		var after *Cursor
		for range len(all) + 1 {
			page, err := s.List(ctx, alice, c.filter, after, 1)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(page) == 0 {
				break
			}
			got = append(got, page[0].ID)
			cur := CursorOf(page[0])
			after = &cur
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
	// Scoped as every read: another account finds none of alice's by hash.
	bob := Scope{Namespace: alice.Namespace, Account: "bob", Environment: alice.Environment}
	if got, err := s.List(ctx, bob, Filter{Hash: all[2].Hash}, nil, 10); err != nil || len(got) != 0 {
		t.Fatalf("bob by alice's hash: %v, %v", ids(got), err)
	}
}

// testMigrateBackfillsLookupColumns writes a row as the second schema did (no lookup columns, an
// upper-case open hash), migrates, and finds it by its fill hash, its refund hash, its open hash
// in lower case and its from account: migration 00003 filled the columns from the object.
func testMigrateBackfillsLookupColumns(t *testing.T, url string) {
	conn := connect(t, url)
	if err := postgres.MigrateUpTo(context.Background(), url, 2); err != nil {
		t.Fatal(err)
	}
	openHash, fillHash, refundHash := "0x"+strings.Repeat("AB", 32), "0x"+strings.Repeat("cd", 32), "0x"+strings.Repeat("Ef", 32)
	object := fmt.Sprintf(`{"kind":"TransferIntent","spec":{"request":{"from":"eip155:1:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}},
		"status":{"phase":"failed","hash":%q,"fill":{"hash":%q},"refundHash":%q}}`, openHash, fillHash, refundHash)
	if _, err := conn.Exec(context.Background(), `INSERT INTO intents (id, namespace, account, environment, type, status, order_id, hash, created_at, updated_at, object)
		VALUES ('int_transfer_v2', $1, $2, $3, 'bridge', 'failed', '0x01', $4, $5, $5, $6)`,
		alice.Namespace, alice.Account, alice.Environment, openHash, t0, object); err != nil {
		t.Fatal(err)
	}
	// A row of the first schema's kind, without a fill or a from, keeps empty columns.
	if _, err := conn.Exec(context.Background(), `INSERT INTO intents (id, namespace, account, environment, type, status, order_id, created_at, updated_at, object)
		VALUES ('int_transfer_bare', $1, $2, $3, 'transfer', 'expired', '0x02', $4, $4, '{"kind":"TransferIntent"}')`,
		alice.Namespace, alice.Account, alice.Environment, t0); err != nil {
		t.Fatal(err)
	}
	s := openMigrated(t, url)
	for name, f := range map[string]Filter{
		"open hash": {Hash: strings.ToLower(openHash)}, "fill hash": {Hash: fillHash},
		"refund hash": {Hash: strings.ToLower(refundHash)}, "from": {From: "eip155:1:0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"},
	} {
		got, err := s.List(context.Background(), alice, f, nil, 10)
		if err != nil || !slices.Equal(ids(got), []string{"int_transfer_v2"}) {
			t.Errorf("%s after the migration: %v, %v", name, ids(got), err)
		}
	}
	bare, ok, err := s.Get(context.Background(), alice, "int_transfer_bare")
	if err != nil || !ok || bare.FillHash != "" || bare.RefundHash != "" || bare.From != "" {
		t.Fatalf("the bare row after the migration: %+v, %v, %v", bare, ok, err)
	}
}
