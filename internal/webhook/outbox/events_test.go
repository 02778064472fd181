package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
)

var scopeA = outbox.Scope{Namespace: "ns", Account: "a", Environment: "test"}

// recordFor records an event of scopeA (or of another account or environment) at at.
func recordFor(t *testing.T, s *outbox.Store, sc outbox.Scope, id, intentID, typ string, at time.Time, to ...outbox.Target) {
	t.Helper()
	ev := event(id, intentID, typ, at)
	ev.Namespace, ev.Account, ev.Environment = sc.Namespace, sc.Account, sc.Environment
	if _, err := s.Record(context.Background(), []outbox.Event{ev}, [][]outbox.Target{to}); err != nil {
		t.Fatal(err)
	}
}

func ids(events []outbox.ListedEvent) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = ev.ID
	}
	return out
}

// The list is one account's events of one environment, newest first, paged by cursor, filtered
// by type (a wildcard too), intent and time, within the retention; each event has its deliveries.
func TestEventsListsTheScopeNewestFirst(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	ep := outbox.Target{UID: "u1", Namespace: "ns", Name: "hook", Account: "a"}
	recordFor(t, s, scopeA, "evt_1", "int_1", "transfer.created", base, ep)
	recordFor(t, s, scopeA, "evt_2", "int_1", "transfer.submitted", base.Add(time.Minute))
	recordFor(t, s, scopeA, "evt_3", "int_2", "transfer.created", base.Add(2*time.Minute))
	recordFor(t, s, outbox.Scope{Namespace: "ns", Account: "b", Environment: "test"}, "evt_b", "int_b", "transfer.created", base)
	recordFor(t, s, outbox.Scope{Namespace: "ns", Account: "a", Environment: "live"}, "evt_live", "int_live", "transfer.created", base)
	recordFor(t, s, scopeA, "evt_ancient", "int_0", "transfer.created", base.Add(-40*24*time.Hour))
	since := base.Add(-30 * 24 * time.Hour)

	page, more, err := s.Events(ctx, scopeA, outbox.EventFilter{Since: since}, nil, 2)
	if err != nil || !more || fmt.Sprint(ids(page)) != "[evt_3 evt_2]" {
		t.Fatalf("first page: %v, more %v, %v", err, more, ids(page))
	}
	last := page[len(page)-1]
	page, more, err = s.Events(ctx, scopeA, outbox.EventFilter{Since: since}, &outbox.Cursor{CreatedAt: last.CreatedAt, ID: last.ID}, 2)
	if err != nil || more || fmt.Sprint(ids(page)) != "[evt_1]" {
		t.Fatalf("second page: %v, more %v, %v; want evt_1 alone (evt_ancient is past the retention)", err, more, ids(page))
	}
	if d := page[0].Deliveries; len(d) != 1 || d[0].Endpoint != "hook" || d[0].State != outbox.StatePending || d[0].NextAttemptAt.IsZero() {
		t.Fatalf("evt_1's deliveries: %+v", d)
	}
	for _, c := range []struct {
		f    outbox.EventFilter
		want string
	}{
		{outbox.EventFilter{Type: "transfer.created"}, "[evt_3 evt_1]"},
		{outbox.EventFilter{Type: "transfer."}, "[evt_3 evt_2 evt_1]"},
		{outbox.EventFilter{Type: "webhook."}, "[]"},
		{outbox.EventFilter{IntentID: "int_1"}, "[evt_2 evt_1]"},
		{outbox.EventFilter{After: base}, "[evt_3 evt_2]"},
		{outbox.EventFilter{Before: base.Add(2 * time.Minute)}, "[evt_2 evt_1]"},
	} {
		c.f.Since = since
		page, _, err := s.Events(ctx, scopeA, c.f, nil, 10)
		if err != nil || fmt.Sprint(ids(page)) != c.want {
			t.Errorf("filter %+v: %v, %v; want %s", c.f, err, ids(page), c.want)
		}
	}
}

// A replay queues the range's events of the endpoint's types again, oldest first and at most Max,
// under their own ids: an ended delivery starts afresh, an event the endpoint never had gets one.
func TestReplayRequeuesUnderTheOriginalIDs(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	ep := outbox.Target{UID: "u1", Namespace: "ns", Name: "hook", Account: "a"}
	for i := range 5 {
		recordFor(t, s, scopeA, fmt.Sprintf("evt_%d", i), fmt.Sprintf("int_%d", i), "transfer.created", base.Add(time.Duration(i)*time.Minute), ep)
	}
	recordFor(t, s, scopeA, "evt_sub", "int_0", "transfer.submitted", base.Add(30*time.Second))
	// Every delivery fails for good: the receiver was down.
	for {
		due, err := s.Claim(ctx, outbox.Claim{Limit: 10, Lease: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			break
		}
		if _, err := s.Settle(ctx, due[0], outbox.Outcome{Error: "HTTP 503", GiveUp: true}); err != nil {
			t.Fatal(err)
		}
	}
	r := outbox.Replay{Scope: scopeA, Target: ep, Types: []string{"transfer.created"}, Max: 3,
		Filter: outbox.EventFilter{After: base.Add(-time.Second), Before: base.Add(time.Hour), Since: base.Add(-time.Hour)}}
	got, err := s.Replay(ctx, r)
	if err != nil || got.Queued != 3 || !got.More || got.Last.ID != "evt_2" {
		t.Fatalf("Replay: %v, %+v; want 3 queued (evt_0..evt_2), more after evt_2", err, got)
	}
	var sent []string
	for {
		due, err := s.Claim(ctx, outbox.Claim{Limit: 10, Lease: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			break
		}
		if due[0].Attempts != 0 {
			t.Fatalf("a replayed delivery starts afresh: %+v", due[0])
		}
		sent = append(sent, due[0].EventID)
		if _, err := s.Settle(ctx, due[0], outbox.Outcome{Delivered: true}); err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(sent) != "[evt_0 evt_1 evt_2]" {
		t.Fatalf("sent again: %v; want the three oldest created events, in order (not transfer.submitted, not subscribed)", sent)
	}
	// The next call goes on after the last one queued; ids replay an event the endpoint never had.
	r.Cursor = &got.Last
	if got, err := s.Replay(ctx, r); err != nil || got.Queued != 2 || got.More {
		t.Fatalf("the rest: %v, %+v", err, got)
	}
	other := outbox.Target{UID: "u2", Namespace: "ns", Name: "new", Account: "a"}
	if got, err := s.Replay(ctx, outbox.Replay{Scope: scopeA, Target: other, Types: []string{"transfer.created", "transfer.submitted"},
		IDs: []string{"evt_sub", "evt_sub"}, Max: 3, Filter: outbox.EventFilter{Since: base.Add(-time.Hour)}}); err != nil || got.Queued != 1 {
		t.Fatalf("by id: %v, %+v", err, got)
	}
	if states, _ := s.Deliveries(ctx, "evt_sub"); states["new"] != outbox.StatePending {
		t.Fatalf("evt_sub's deliveries: %v; want one pending to the new endpoint", states)
	}
	// An id of another account is not found, and nothing is queued.
	recordFor(t, s, outbox.Scope{Namespace: "ns", Account: "b", Environment: "test"}, "evt_b", "int_b", "transfer.created", base)
	if _, err := s.Replay(ctx, outbox.Replay{Scope: scopeA, Target: other, Types: []string{"transfer.created"},
		IDs: []string{"evt_0", "evt_b"}, Max: 3, Filter: outbox.EventFilter{Since: base.Add(-time.Hour)}}); !errors.Is(err, outbox.ErrUnknownEvent) {
		t.Fatalf("another account's id: %v; want ErrUnknownEvent", err)
	}
	if states, _ := s.Deliveries(ctx, "evt_b"); len(states) != 0 {
		t.Fatalf("evt_b got deliveries: %v", states)
	}
}

// A replay of a delivery whose attempt is in flight is not undone by that attempt: its failure,
// even its last, leaves the delivery pending and due at once, and the next attempt goes.
func TestAReplayOutlivesTheAttemptInFlight(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	ep := outbox.Target{UID: "u1", Namespace: "ns", Name: "hook", Account: "a"}
	at := time.Now().Add(-time.Minute).Truncate(time.Second)
	recordFor(t, s, scopeA, "evt_01HZZZZZZZZZZZZZZZZZZZZZZ1", "int_1", "transfer.created", at, ep)
	inFlight, err := s.Claim(ctx, outbox.Claim{Limit: 1, Lease: time.Minute})
	if err != nil || len(inFlight) != 1 {
		t.Fatalf("Claim: %v, %d", err, len(inFlight))
	}
	if got, err := s.Replay(ctx, outbox.Replay{Scope: scopeA, Target: ep, Types: []string{"transfer.created"}, Max: 10,
		IDs: []string{inFlight[0].EventID}, Filter: outbox.EventFilter{Since: at.Add(-time.Hour)}}); err != nil || got.Queued != 1 {
		t.Fatalf("Replay: %v, %+v", err, got)
	}
	// The attempt that began before the replay fails for good.
	if _, err := s.Settle(ctx, inFlight[0], outbox.Outcome{Error: "HTTP 503", GiveUp: true}); err != nil {
		t.Fatal(err)
	}
	again, err := s.Claim(ctx, outbox.Claim{Limit: 1, Lease: time.Minute})
	if err != nil || len(again) != 1 || again[0].EventID != inFlight[0].EventID {
		t.Fatalf("after the replay, the delivery is due again: %v, %+v", err, again)
	}
	// That attempt is the replay's own: its failure follows the schedule as usual.
	if _, err := s.Settle(ctx, again[0], outbox.Outcome{Error: "HTTP 503", GiveUp: true}); err != nil {
		t.Fatal(err)
	}
	if states, _ := s.Deliveries(ctx, inFlight[0].EventID); states["hook"] != outbox.StateFailed {
		t.Fatalf("the replay's own last attempt failed: %v; want failed", states)
	}
}
