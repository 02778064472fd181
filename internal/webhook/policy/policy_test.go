package policy

import (
	"testing"
	"time"
)

// The figures the README, decisions.md and the CRD state: a change of the schedule fails here
// until they are updated.
func TestTheDocumentedFigures(t *testing.T) {
	want := []time.Duration{5 * time.Second, 30 * time.Second, 3 * time.Minute, 18 * time.Minute,
		108 * time.Minute, 648 * time.Minute, 3888 * time.Minute} // 1.8 h, 10.8 h, 2.7 days
	if Default.Attempts != len(want)+1 {
		t.Fatalf("%d attempts, the docs say %d", Default.Attempts, len(want)+1)
	}
	for i, w := range want {
		if got := Default.Wait(i + 1); got != w {
			t.Errorf("wait after attempt %d: %s, the docs say %s", i+1, got, w)
		}
	}
	if days := Default.GiveUpWindow().Hours() / 24; days < 3.2 || days >= 3.3 {
		t.Errorf("give-up window %.2f days, the docs say about 3.2", days)
	}
	if DisableAfter != 3*day || FailureGap != 4*day {
		t.Errorf("DisableAfter %s, FailureGap %s; the docs say 3 and 4 days", DisableAfter, FailureGap)
	}
}

// The relations the derived figures exist for.
func TestTheFiguresHoldTogether(t *testing.T) {
	var sum time.Duration
	for attempt := 1; !Default.GivesUp(attempt); attempt++ {
		sum += Default.Wait(attempt)
	}
	if Default.GiveUpWindow() != sum {
		t.Errorf("give-up window %s, the schedule's waits add up to %s", Default.GiveUpWindow(), sum)
	}
	// Two failed attempts of one delivery are one run: a scheduled pause, however jittered, never
	// starts a new one.
	if FailureGap <= Default.LongestWait() {
		t.Errorf("FailureGap %s is not longer than the longest wait %s", FailureGap, Default.LongestWait())
	}
	// About as long as one event's attempts: an endpoint that fails them all is stopped by the
	// last, not after a day of silence.
	if window := Default.GiveUpWindow(); DisableAfter > window || DisableAfter <= window-day {
		t.Errorf("DisableAfter %s is not within the day before the give-up window %s", DisableAfter, window)
	}
}

// Every backoff lies within the jitter of the schedule's wait, and none is longer than
// LongestWait.
func TestBackoffStaysWithinItsJitter(t *testing.T) {
	for attempt := 1; !Default.GivesUp(attempt); attempt++ {
		wait := float64(Default.Wait(attempt))
		lo, hi := time.Duration(wait*(1-Jitter)), time.Duration(wait*(1+Jitter))
		for range 1000 {
			got := Default.Backoff(attempt)
			if got < lo || got > hi || got > Default.LongestWait() {
				t.Fatalf("backoff after attempt %d: %s, want within [%s, %s] and at most %s", attempt, got, lo, hi, Default.LongestWait())
			}
		}
	}
}

func TestGivesUpAfterTheLastAttempt(t *testing.T) {
	for attempt := 1; attempt <= Default.Attempts; attempt++ {
		if got, want := Default.GivesUp(attempt), attempt == Default.Attempts; got != want {
			t.Errorf("GivesUp(%d) = %v, want %v", attempt, got, want)
		}
	}
}
