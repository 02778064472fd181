package apihealth

import (
	"context"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// A failing API server shows in the state at once and fails the readiness check once it has not
// answered for the grace; an answer ends both. A probe never outlives its timeout.
func TestCheckerReportsAndRecovers(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Now())
	down := true
	c := &Checker{Clock: clock, Grace: 10 * time.Second, Timeout: 50 * time.Millisecond, Probe: func(ctx context.Context) error {
		if down {
			<-ctx.Done() // stalled
			return ctx.Err()
		}
		return nil
	}}
	c.ProbeOnce(context.Background()) // a first probe before Start: started is zero, treat the grace from now
	c.started = clock.Now()
	start := time.Now()
	c.ProbeOnce(context.Background())
	if took := time.Since(start); took > time.Second {
		t.Fatalf("a stalled probe took %s", took)
	}
	if c.State() != "unreachable" {
		t.Errorf("state %q", c.State())
	}
	if err := c.Check(nil); err != nil {
		t.Errorf("not ready within the grace: %v", err)
	}
	clock.Step(11 * time.Second)
	if err := c.Check(nil); err == nil {
		t.Error("still ready after the grace")
	}
	down = false
	c.ProbeOnce(context.Background())
	if err := c.Check(nil); err != nil || c.State() != "ok" {
		t.Errorf("after an answer: %v, %q", err, c.State())
	}
}
