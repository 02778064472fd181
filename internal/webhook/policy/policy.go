// Package policy is the webhook retry policy in one place: when a failed delivery is tried again,
// when its attempts run out, how long an endpoint may fail before its deliveries stop, and how far
// apart two failures may be and still count as one run. Each figure derives from the schedule, so
// changing the schedule moves them all.
package policy

import (
	"math/rand/v2"
	"time"
)

// Schedule is when a failed delivery is tried again: after its n-th failed attempt the next waits
// FirstRetry × Factor^(n-1), ±Jitter, until Attempts attempts were made.
type Schedule struct {
	FirstRetry time.Duration
	Attempts   int
}

const (
	// Factor is how much longer each wait is than the one before.
	Factor = 6
	// Jitter is the share by which a wait may be shorter or longer than the schedule's, so that
	// the retries of many events failing together spread out.
	Jitter = 0.2
)

// Default is the production schedule: 8 attempts, waiting 5 s, 30 s, 3 min, 18 min, 1.8 h, 10.8 h
// and 2.7 days between them (about 3.2 days from the first to the last).
var Default = Schedule{FirstRetry: 5 * time.Second, Attempts: 8}

// GivesUp reports whether a delivery whose attempt-th attempt failed has no attempt left.
func (s Schedule) GivesUp(attempt int) bool { return attempt >= s.Attempts }

// Wait is the schedule's wait after the attempt-th failed attempt, before jitter.
func (s Schedule) Wait(attempt int) time.Duration {
	wait := s.FirstRetry
	for range attempt - 1 {
		wait *= Factor
	}
	return wait
}

// Backoff is the wait after the attempt-th failed attempt, jittered.
func (s Schedule) Backoff(attempt int) time.Duration {
	spread := 1 - Jitter + 2*Jitter*rand.Float64() //nolint:gosec // jitter needs no secrecy
	return time.Duration(float64(s.Wait(attempt)) * spread)
}

// LongestWait is the longest two attempts of one delivery can be apart: the wait before the last
// attempt, jittered to its longest.
func (s Schedule) LongestWait() time.Duration {
	return time.Duration(float64(s.Wait(s.Attempts-1)) * (1 + Jitter))
}

// GiveUpWindow is how long a delivery lasts from its first attempt to its last, before jitter: the
// sum of the schedule's waits.
func (s Schedule) GiveUpWindow() time.Duration {
	var total time.Duration
	for attempt := 1; attempt < s.Attempts; attempt++ {
		total += s.Wait(attempt)
	}
	return total
}

const day = 24 * time.Hour

// Derived from Default, in whole days (the unit the docs, the CRD and the status messages speak
// in). They hold for the default schedule: a deliverer whose first retry is changed keeps them.
var (
	// DisableAfter is how long deliveries to an endpoint may fail without a success before the
	// deliverer stops them: about as long as the attempts of one event last (the give-up window,
	// 3.2 days, down to 3), so that an endpoint failing every attempt of an event is, at the
	// schedule's waits, stopped by the last one.
	DisableAfter = Default.GiveUpWindow().Truncate(day)
	// FailureGap is how far apart two failures of an endpoint may be and still belong to one run
	// (failures further apart start a new run, so an old failingSince does not stop an endpoint
	// that fails once weeks later): the longest wait (2.7 days, +20 %) up to 4 days, so that no
	// scheduled pause breaks a run.
	FailureGap = roundUp(Default.LongestWait(), day)
)

func roundUp(d, unit time.Duration) time.Duration {
	if r := d.Truncate(unit); r < d {
		return r + unit
	}
	return d
}
