package delivery

import (
	"errors"
	"testing"
	"time"

	"github.com/transferintent/transfer-intent-service/internal/webhook/outbox"
	"github.com/transferintent/transfer-intent-service/internal/webhook/policy"
	"github.com/transferintent/transfer-intent-service/internal/webhook/sender"
)

// The retry decision follows the policy's schedule: each failed attempt but the last is retried
// after the schedule's wait (within its jitter), the last gives up, and the waits add up to the
// give-up window (within its jitter). A delivered attempt ends the delivery.
func TestTheRetryDecisionFollowsTheSchedule(t *testing.T) {
	d := &Deliverer{}
	d.init()
	failed := sender.Result{Status: 503, Err: errors.New("HTTP 503")}
	var total time.Duration
	for attempts := range policy.Default.Attempts {
		o := d.outcome(outbox.Delivery{Attempts: attempts}, failed)
		last := attempts+1 == policy.Default.Attempts
		wait := float64(policy.Default.Wait(attempts + 1))
		retried := o.RetryIn >= time.Duration(wait*(1-policy.Jitter)) && o.RetryIn <= time.Duration(wait*(1+policy.Jitter))
		if o.Delivered || o.Error != "HTTP 503" || o.GiveUp != last || retried == last {
			t.Fatalf("attempt %d of %d failed: %+v; want a retry after about %s, or giving up after the last", attempts+1, policy.Default.Attempts, o, time.Duration(wait))
		}
		total += o.RetryIn
	}
	if window := float64(policy.Default.GiveUpWindow()); total < time.Duration(window*(1-policy.Jitter)) || total > time.Duration(window*(1+policy.Jitter)) {
		t.Errorf("the retries waited %s in all; the give-up window is %s", total, time.Duration(window))
	}
	if o := d.outcome(outbox.Delivery{Attempts: 3}, sender.Result{Status: 204}); o != (outbox.Outcome{Delivered: true}) {
		t.Errorf("a delivered attempt: %+v", o)
	}
}

// A deliverer's own first retry and attempts make its schedule.
func TestOptionsMakeTheSchedule(t *testing.T) {
	d := &Deliverer{Options: Options{FirstRetry: time.Second, MaxAttempts: 2}}
	d.init()
	failed := sender.Result{Err: errors.New("connection refused")}
	if o := d.outcome(outbox.Delivery{}, failed); o.GiveUp || o.RetryIn < 800*time.Millisecond || o.RetryIn > 1200*time.Millisecond {
		t.Errorf("the first failure: %+v; want a retry after 1 s ± 20 %%", o)
	}
	if o := d.outcome(outbox.Delivery{Attempts: 1}, failed); !o.GiveUp {
		t.Errorf("the second failure of 2 attempts: %+v; want giving up", o)
	}
}
