package intent

import (
	"errors"
	"testing"
)

// TestTransitionTable covers every (status, event) pair: the lifecycle has no implicit edges.
func TestTransitionTable(t *testing.T) {
	legal := map[Status]map[Event]Status{
		StatusPending:   {EventSubmit: StatusSubmitted, EventExpire: StatusExpired},
		StatusSubmitted: {EventConfirm: StatusConfirmed, EventFail: StatusFailed},
	}
	for _, from := range Statuses {
		for _, ev := range Events {
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
	if _, err := Transition("cancelled", EventSubmit); err == nil {
		t.Error("unknown status accepted")
	}
	if _, err := Transition(StatusPending, "retry"); !errors.Is(err, ErrIllegalTransition) {
		t.Errorf("unknown event: %v", err)
	}
}

func TestIsTerminal(t *testing.T) {
	want := map[Status]bool{StatusPending: false, StatusSubmitted: false, StatusConfirmed: true, StatusFailed: true, StatusExpired: true}
	for _, s := range Statuses {
		if s.IsTerminal() != want[s] {
			t.Errorf("%s.IsTerminal() = %v", s, s.IsTerminal())
		}
		// A terminal status accepts no event at all.
		for _, ev := range Events {
			if _, err := Transition(s, ev); s.IsTerminal() && err == nil {
				t.Errorf("terminal %s accepted %s", s, ev)
			}
		}
	}
}

func TestParseStatus(t *testing.T) {
	for _, s := range Statuses {
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
