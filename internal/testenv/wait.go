package testenv

import (
	"errors"
	"testing"
	"time"
)

// Condition is what WaitFor polls: done when it returns true, or nil. An error says what is still
// missing, and the failure message repeats the last one.
type Condition interface {
	func() bool | func() error
}

// WaitFor polls cond every 20ms until it is done, failing the test when timeout has passed. Each
// caller names its own deadline: how long the awaited thing may take differs from test to test.
func WaitFor[C Condition](t testing.TB, timeout time.Duration, what string, cond C) {
	t.Helper()
	check := asCheck(cond)
	deadline := time.Now().Add(timeout)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s: %v", timeout, what, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var errNotYet = errors.New("not yet")

func asCheck[C Condition](cond C) func() error {
	switch c := any(cond).(type) {
	case func() error:
		return c
	case func() bool:
		return func() error {
			if c() {
				return nil
			}
			return errNotYet
		}
	}
	panic("unreachable: Condition has two types")
}
