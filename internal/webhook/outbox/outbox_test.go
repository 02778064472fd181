package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/pgtest"
	"github.com/transferintent/transfer-intent-service/internal/postgres"
	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
	"github.com/transferintent/transfer-intent-service/internal/webhook/policy"
)

func openStore(t *testing.T) *outbox.Store {
	t.Helper()
	return outbox.New(openDB(t))
}

func openDB(t *testing.T) *postgres.DB {
	t.Helper()
	srv := pgtest.Start(t)
	db, err := postgres.Open(context.Background(), srv.NewDatabase(t), postgres.Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

func event(id, intentID, typ string, at time.Time) outbox.Event {
	return outbox.Event{ID: id, Namespace: "ns", IntentID: intentID, Type: typ, Sequence: 1, CreatedAt: at, Body: []byte(`{}`)}
}

func TestRecordClaimSettle(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	targets := [][]outbox.Target{{{UID: "u1", Namespace: "ns", Name: "a"}, {UID: "u2", Namespace: "ns", Name: "b"}}}

	written, err := s.Record(ctx, []outbox.Event{event("evt_1", "int_1", "transfer.created", time.Now())}, targets)
	if err != nil || len(written) != 1 {
		t.Fatalf("Record: %v, %d written", err, len(written))
	}
	// Recording the same intent's event again, under another id, records nothing.
	if written, err := s.Record(ctx, []outbox.Event{event("evt_2", "int_1", "transfer.created", time.Now())}, targets); err != nil || len(written) != 0 {
		t.Fatalf("Record again: %v, %d written; want none", err, len(written))
	}

	due, err := s.Claim(ctx, outbox.Claim{Limit: 10, Lease: time.Minute})
	if err != nil || len(due) != 2 {
		t.Fatalf("Claim: %v, %d due; want the event's 2 deliveries", err, len(due))
	}
	// Claimed deliveries are leased: a second deliverer gets none of them.
	if again, err := s.Claim(ctx, outbox.Claim{Limit: 10, Lease: time.Minute}); err != nil || len(again) != 0 {
		t.Fatalf("a second Claim: %v, %d; want none while the lease lasts", err, len(again))
	}

	h, err := s.Settle(ctx, due[0], outbox.Outcome{Error: "HTTP 500", RetryIn: 0})
	if err != nil || h.ConsecutiveFailures != 1 || h.FailingSince.IsZero() || h.LastError != "HTTP 500" {
		t.Fatalf("Settle a failure: %v, %+v", err, h)
	}
	retry, err := s.Claim(ctx, outbox.Claim{Limit: 10, Lease: time.Minute})
	if err != nil || len(retry) != 1 || retry[0].Attempts != 1 || retry[0].EventID != "evt_1" {
		t.Fatalf("the failed delivery is due again with 1 attempt made: %v, %+v", err, retry)
	}
	if h, err := s.Settle(ctx, retry[0], outbox.Outcome{Delivered: true}); err != nil || h.ConsecutiveFailures != 0 || !h.FailingSince.IsZero() || h.LastSuccessAt.IsZero() {
		t.Fatalf("Settle a success: %v, %+v", err, h)
	}
	if _, err := s.Settle(ctx, due[1], outbox.Outcome{Error: "HTTP 410", GiveUp: true}); err != nil {
		t.Fatal(err)
	}
	states, err := s.Deliveries(ctx, "evt_1")
	if err != nil || states[due[0].Endpoint] != outbox.StateDelivered || states[due[1].Endpoint] != outbox.StateFailed {
		t.Fatalf("states: %v, %v", err, states)
	}
}

func TestPruneKeepsWhatIsPendingOrRecent(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	old := time.Now().Add(-30 * 24 * time.Hour)
	to := [][]outbox.Target{{{UID: "u1", Namespace: "ns", Name: "a"}}}
	for _, ev := range []outbox.Event{
		event("evt_old_done", "int_1", "transfer.created", old),
		event("evt_old_pending", "int_2", "transfer.created", old),
		event("evt_new_done", "int_3", "transfer.created", time.Now()),
	} {
		if _, err := s.Record(ctx, []outbox.Event{ev}, to); err != nil {
			t.Fatal(err)
		}
	}
	due, err := s.Claim(ctx, outbox.Claim{Limit: 10, Lease: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range due {
		if d.EventID != "evt_old_pending" {
			if _, err := s.Settle(ctx, d, outbox.Outcome{Delivered: true}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The retention is 7 days, the events' least lifetime 40: the old ended delivery goes, its
	// event stays (it keeps the emitter from recording it again).
	week, forty := time.Now().Add(-7*24*time.Hour), time.Now().Add(-40*24*time.Hour)
	n, err := s.Prune(ctx, week, forty, 100)
	if err != nil || n != 1 {
		t.Fatalf("Prune: %v, %d; want the old delivered delivery only", err, n)
	}
	for id, want := range map[string]int{"evt_old_done": 0, "evt_old_pending": 1, "evt_new_done": 1} {
		if states, err := s.Deliveries(ctx, id); err != nil || len(states) != want {
			t.Errorf("%s after Prune: %v, %v", id, err, states)
		}
	}
	page, _, err := s.Events(ctx, outbox.Scope{Namespace: "ns"}, outbox.EventFilter{}, nil, 10)
	if err != nil || len(page) != 3 {
		t.Fatalf("events after pruning deliveries: %v, %d; want all 3", err, len(page))
	}
	// Past its lifetime the event goes too, unless a delivery is pending.
	if n, err := s.Prune(ctx, week, week, 100); err != nil || n != 1 {
		t.Fatalf("Prune past the lifetime: %v, %d; want the old ended event", err, n)
	}
	page, _, err = s.Events(ctx, outbox.Scope{Namespace: "ns"}, outbox.EventFilter{}, nil, 10)
	if err != nil || len(page) != 2 {
		t.Fatalf("events after pruning: %v, %d; want the pending and the new one", err, len(page))
	}
}

// A claim takes one delivery of each endpoint (its oldest) and leaves out busy endpoints; a
// settle of a delivery no longer held writes nothing.
func TestClaimTakesEachEndpointsOldestAndSettleNeedsTheLease(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	var events []outbox.Event
	var targets [][]outbox.Target
	start := time.Now()
	for i := range 5 {
		events = append(events, event(fmt.Sprintf("evt_a%d", i), fmt.Sprintf("int_a%d", i), "transfer.created", start))
		targets = append(targets, []outbox.Target{{UID: "slow", Namespace: "ns", Name: "slow", Account: "a"}})
	}
	events = append(events, event("evt_b", "int_b", "transfer.created", time.Now()))
	targets = append(targets, []outbox.Target{{UID: "fast", Namespace: "ns", Name: "fast", Account: "a"}})
	if _, err := s.Record(ctx, events, targets); err != nil {
		t.Fatal(err)
	}
	due, err := s.Claim(ctx, outbox.Claim{Limit: 10, Lease: time.Minute})
	if err != nil || len(due) != 2 {
		t.Fatalf("Claim: %v, %d; want one of each endpoint", err, len(due))
	}
	got := map[string]string{}
	for _, d := range due {
		got[d.EndpointUID] = d.EventID
	}
	if got["slow"] != "evt_a0" || got["fast"] != "evt_b" {
		t.Fatalf("claimed %v; want slow's oldest (evt_a0) and fast's", got)
	}
	if _, err := s.Settle(ctx, due[0], outbox.Outcome{Delivered: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Settle(ctx, due[1], outbox.Outcome{Delivered: true}); err != nil {
		t.Fatal(err)
	}
	if more, err := s.Claim(ctx, outbox.Claim{Limit: 10, Lease: time.Minute, Busy: []string{"slow"}}); err != nil || len(more) != 0 {
		t.Fatalf("a claim with slow busy: %v, %d; want none", err, len(more))
	}
	next, err := s.Claim(ctx, outbox.Claim{Limit: 10, Lease: time.Minute})
	if err != nil || len(next) != 1 || next[0].EventID != "evt_a1" {
		t.Fatalf("the next claim: %v, %+v; want slow's next, evt_a1", err, next)
	}

	// Another deliverer settled the attempt: this one's settle is refused, nothing counted.
	if _, err := s.Settle(ctx, next[0], outbox.Outcome{Delivered: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Settle(ctx, next[0], outbox.Outcome{Error: "HTTP 500", GiveUp: true}); !errors.Is(err, outbox.ErrNotHeld) {
		t.Fatalf("a second settle: %v; want ErrNotHeld", err)
	}
	if states, _ := s.Deliveries(ctx, next[0].EventID); states[next[0].Endpoint] != outbox.StateDelivered {
		t.Fatalf("the delivered delivery became %v", states)
	}
}

// The free workers go to accounts before endpoints: an account with one waiting endpoint is
// served before the flood of another, however much older the flood's deliveries are, and an
// account's place counts the workers it holds already.
func TestClaimSharesWorkersBetweenAccountsFirst(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	var events []outbox.Event
	var targets [][]outbox.Target
	for i := range 20 {
		events = append(events, event(fmt.Sprintf("evt_flood%02d", i), fmt.Sprintf("int_flood%02d", i), "transfer.created", time.Now()))
		targets = append(targets, []outbox.Target{{UID: fmt.Sprintf("flood-%02d", i), Namespace: "ns", Name: fmt.Sprintf("flood-%02d", i), Account: "flooder"}})
	}
	if _, err := s.Record(ctx, events, targets); err != nil {
		t.Fatal(err)
	}
	// The flood's deliveries fell due before the quiet account's.
	if _, err := s.Record(ctx, []outbox.Event{event("evt_quiet", "int_quiet", "transfer.created", time.Now())},
		[][]outbox.Target{{{UID: "quiet", Namespace: "ns", Name: "quiet", Account: "quiet"}}}); err != nil {
		t.Fatal(err)
	}
	// The flooder holds 5 workers: the quiet account's first turn (1) beats its next (6).
	held := map[string]int{outbox.AccountKey("ns", "flooder"): 5}
	due, err := s.Claim(ctx, outbox.Claim{Limit: 1, Lease: time.Minute, Held: held})
	if err != nil || len(due) != 1 || due[0].EndpointUID != "quiet" {
		t.Fatalf("one free worker: %v, %+v; want the quiet account's endpoint", err, due)
	}
	// With the quiet account served, the flood fills what is free.
	rest, err := s.Claim(ctx, outbox.Claim{Limit: 8, Lease: time.Minute, Held: held})
	if err != nil || len(rest) != 8 {
		t.Fatalf("eight free workers: %v, %d", err, len(rest))
	}
	for _, d := range rest {
		if d.Account != "flooder" {
			t.Fatalf("claimed %+v; want the flood's", d)
		}
	}
}

// Failures of an endpoint at most policy.FailureGap apart are one run, however long it lasts: a
// retry's scheduled pause does not start a new one. A failure further from the last starts a new
// run: an old failingSince does not stop an endpoint that fails once weeks later.
func TestAFailureAfterTheGapStartsANewRun(t *testing.T) {
	db := openDB(t)
	s := outbox.New(db)
	ctx := context.Background()
	// The test reaches into the table to age a failure, through the pool's owner.
	_, cancel, pool, err := db.Call(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	events := 0
	fail := func() outbox.Health {
		t.Helper()
		events++
		id := fmt.Sprintf("evt_%d", events)
		if _, err := s.Record(ctx, []outbox.Event{event(id, "int_"+id, "transfer.created", time.Now())},
			[][]outbox.Target{{{UID: "u1", Namespace: "ns", Name: "a"}}}); err != nil {
			t.Fatal(err)
		}
		due, err := s.Claim(ctx, outbox.Claim{Limit: 10, Lease: time.Minute})
		if err != nil || len(due) != 1 {
			t.Fatalf("Claim: %v, %d due", err, len(due))
		}
		h, err := s.Settle(ctx, due[0], outbox.Outcome{Error: "HTTP 500", RetryIn: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	// age moves the endpoint's failures back in time, as if the last one was by ago.
	age := func(by time.Duration) {
		t.Helper()
		if _, err := pool.Exec(ctx, `UPDATE webhook_endpoint_health SET last_failure_at = last_failure_at - make_interval(secs => $2),
failing_since = failing_since - make_interval(secs => $2) WHERE endpoint_uid = $1`, "u1", by.Seconds()); err != nil {
			t.Fatal(err)
		}
	}
	first := fail()
	age(policy.FailureGap - time.Minute)
	if h, want := fail(), first.FailingSince.Add(-(policy.FailureGap - time.Minute)); !h.FailingSince.Equal(want) || h.ConsecutiveFailures != 2 {
		t.Fatalf("a failure %s after the last: %+v; want the run since %s, 2 failures", policy.FailureGap-time.Minute, h, want)
	}
	age(policy.FailureGap + time.Minute)
	if h := fail(); time.Since(h.FailingSince) > time.Minute {
		t.Fatalf("a failure %s after the last: failing since %s; want a new run, since now", policy.FailureGap+time.Minute, h.FailingSince)
	}
}
