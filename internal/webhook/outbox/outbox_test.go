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

	due, err := s.Claim(ctx, 10, 10, time.Minute, nil)
	if err != nil || len(due) != 2 {
		t.Fatalf("Claim: %v, %d due; want the event's 2 deliveries", err, len(due))
	}
	// Claimed deliveries are leased: a second deliverer gets none of them.
	if again, err := s.Claim(ctx, 10, 10, time.Minute, nil); err != nil || len(again) != 0 {
		t.Fatalf("a second Claim: %v, %d; want none while the lease lasts", err, len(again))
	}

	h, err := s.Settle(ctx, due[0], outbox.Outcome{Error: "HTTP 500", RetryIn: 0})
	if err != nil || h.ConsecutiveFailures != 1 || h.FailingSince.IsZero() || h.LastError != "HTTP 500" {
		t.Fatalf("Settle a failure: %v, %+v", err, h)
	}
	retry, err := s.Claim(ctx, 10, 10, time.Minute, nil)
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
	due, err := s.Claim(ctx, 10, 10, time.Hour, nil)
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
	n, err := s.Prune(ctx, time.Now().Add(-7*24*time.Hour), 100)
	if err != nil || n != 1 {
		t.Fatalf("Prune: %v, %d; want the old delivered event only", err, n)
	}
	for id, want := range map[string]int{"evt_old_done": 0, "evt_old_pending": 1, "evt_new_done": 1} {
		if states, err := s.Deliveries(ctx, id); err != nil || len(states) != want {
			t.Errorf("%s after Prune: %v, %v", id, err, states)
		}
	}
}

// A claim leaves out busy endpoints and takes at most perEndpoint of each, so that one endpoint's
// backlog never fills a batch; a settle of a delivery no longer held writes nothing.
func TestClaimSharesOutEndpointsAndSettleNeedsTheLease(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	var events []outbox.Event
	var targets [][]outbox.Target
	for i := range 5 {
		events = append(events, event("evt_a"+string(rune('0'+i)), "int_a"+string(rune('0'+i)), "transfer.created", time.Now()))
		targets = append(targets, []outbox.Target{{UID: "slow", Namespace: "ns", Name: "slow"}})
	}
	events = append(events, event("evt_b", "int_b", "transfer.created", time.Now()))
	targets = append(targets, []outbox.Target{{UID: "fast", Namespace: "ns", Name: "fast"}})
	if _, err := s.Record(ctx, events, targets); err != nil {
		t.Fatal(err)
	}
	due, err := s.Claim(ctx, 3, 2, time.Minute, nil)
	if err != nil || len(due) != 3 {
		t.Fatalf("Claim: %v, %d", err, len(due))
	}
	per := map[string]int{}
	for _, d := range due {
		per[d.EndpointUID]++
	}
	if per["slow"] != 2 || per["fast"] != 1 {
		t.Fatalf("claimed by endpoint: %v; want 2 of slow (the cap) and fast's 1", per)
	}
	if more, err := s.Claim(ctx, 10, 10, time.Minute, []string{"slow"}); err != nil || len(more) != 0 {
		t.Fatalf("a claim with slow busy: %v, %d; want none", err, len(more))
	}

	// Another deliverer settled the first attempt: this one's settle is refused, nothing counted.
	if _, err := s.Settle(ctx, due[0], outbox.Outcome{Delivered: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Settle(ctx, due[0], outbox.Outcome{Error: "HTTP 500", GiveUp: true}); !errors.Is(err, outbox.ErrNotHeld) {
		t.Fatalf("a second settle: %v; want ErrNotHeld", err)
	}
	if states, _ := s.Deliveries(ctx, due[0].EventID); states[due[0].Endpoint] != outbox.StateDelivered {
		t.Fatalf("the delivered delivery became %v", states)
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
		due, err := s.Claim(ctx, 10, 10, time.Minute, nil)
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
