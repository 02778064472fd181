package intent

import (
	"errors"
	"slices"
	"testing"
)

// The lifecycle as documented in docs/decisions.md, written out here rather than read from the
// package's own lists, so that a status or event added to or dropped from the code fails a test.
var (
	documentedStatuses = []Status{"pending", "unsigned", "signed", "submitted", "confirmed", "failed", "expired", "cancelling", "cancelled"}
	documentedEvents   = []Event{"submit", "confirm", "fail", "expire", "drop", "sign", "cancel", "unopen", "unopen-cancelled"}
)

func TestStatusesAndEventsAreTheDocumentedOnes(t *testing.T) {
	if !slices.Equal(Statuses, documentedStatuses) {
		t.Errorf("Statuses = %v, want %v", Statuses, documentedStatuses)
	}
	if !slices.Equal(Events, documentedEvents) {
		t.Errorf("Events = %v, want %v", Events, documentedEvents)
	}
}

// TestTransitionTable covers every (status, event) pair: the lifecycle has no implicit edges.
func TestTransitionTable(t *testing.T) {
	legal := map[Status]map[Event]Status{
		"pending":    {"submit": "submitted", "expire": "expired"},
		"unsigned":   {"sign": "signed", "submit": "submitted", "expire": "expired", "cancel": "cancelled"},
		"signed":     {"submit": "submitted", "expire": "expired", "cancel": "cancelling"},
		"cancelling": {"submit": "submitted", "expire": "cancelled"},
		// A reorg of a cancelled order's late Open: back to cancelling, never to signed (the book).
		"submitted": {"confirm": "confirmed", "fail": "failed", "drop": "pending", "unopen": "signed", "unopen-cancelled": "cancelling"},
	}
	for _, from := range documentedStatuses {
		for _, ev := range documentedEvents {
			got, err := Transition(from, ev)
			want, ok := legal[from][ev]
			switch {
			case ok && (err != nil || got != want):
				t.Errorf("Transition(%s, %s) = %q, %v; want %s", from, ev, got, err, want)
			case !ok && !errors.Is(err, ErrIllegalTransition):
				t.Errorf("Transition(%s, %s) = %q, %v; want ErrIllegalTransition", from, ev, got, err)
			}
		}
	}
}

func TestTransitionRefusesUnknownValues(t *testing.T) {
	if _, err := Transition("refunded", EventSubmit); err == nil {
		t.Error("unknown status accepted")
	}
	if _, err := Transition(StatusPending, "retry"); !errors.Is(err, ErrIllegalTransition) {
		t.Errorf("unknown event: %v", err)
	}
}

func TestFinished(t *testing.T) {
	for _, tc := range []struct {
		status string
		want   bool
	}{
		{"pending", false},
		{"submitted", false},
		{"confirmed", true},
		{"failed", true},
		{"expired", true},
		{"unsigned", false},
		{"signed", false},
		{"cancelling", false},
		{"cancelled", true},
		// Not statuses at all: an unwritten phase, another case, an unknown word.
		{"", false},
		{"Confirmed", false},
		{"refunded", false},
	} {
		if got := Finished(tc.status); got != tc.want {
			t.Errorf("Finished(%q) = %v, want %v", tc.status, got, tc.want)
		}
		if got := Finished(Status(tc.status)); got != tc.want {
			t.Errorf("Finished(Status(%q)) = %v, want %v", tc.status, got, tc.want)
		}
		// A finished status accepts no event at all, and an unfinished known one some event.
		accepts := false
		for _, ev := range documentedEvents {
			_, err := Transition(Status(tc.status), ev)
			accepts = accepts || err == nil
		}
		if _, err := ParseStatus(tc.status); err == nil && accepts == tc.want {
			t.Errorf("%s: finished %v, yet accepts an event: %v", tc.status, tc.want, accepts)
		}
	}
}

func TestFinishedStatuses(t *testing.T) {
	want := []Status{"confirmed", "failed", "expired", "cancelled"}
	got := FinishedStatuses()
	if !slices.Equal(got, want) {
		t.Fatalf("FinishedStatuses() = %v, want %v (lifecycle order)", got, want)
	}
	// The list is the caller's: changing it changes no later answer.
	got[0] = StatusPending
	if !slices.Equal(FinishedStatuses(), want) || Finished(StatusPending) {
		t.Error("a caller's change to FinishedStatuses' list leaked into the lifecycle")
	}
}

func TestParseStatus(t *testing.T) {
	for _, s := range documentedStatuses {
		if got, err := ParseStatus(string(s)); err != nil || got != s {
			t.Errorf("ParseStatus(%q) = %q, %v", s, got, err)
		}
	}
	for _, bad := range []string{"", "Pending", "done"} {
		if _, err := ParseStatus(bad); err == nil {
			t.Errorf("ParseStatus(%q) accepted", bad)
		}
	}
}

func TestParseType(t *testing.T) {
	for _, s := range []string{"transfer", "swap", "bridge"} {
		if got, err := ParseType(s); err != nil || string(got) != s {
			t.Errorf("ParseType(%q) = %q, %v", s, got, err)
		}
	}
	if _, err := ParseType("Swap"); err == nil {
		t.Error("ParseType accepted Swap")
	}
}
