package main

import (
	"math"
	"os"
	"runtime/debug"
	"testing"

	"github.com/KimMachineGun/automemlimit/memlimit"
	"github.com/go-logr/logr"
)

// The container's limit becomes 90% as Go's soft limit; GOMEMLIMIT, when set, wins.
func TestMemoryLimitFollowsTheContainer(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	const container = 512 << 20
	provider := func() (uint64, error) { return container, nil }

	t.Run("from the cgroup", func(t *testing.T) {
		unsetEnv(t, "GOMEMLIMIT")
		unsetEnv(t, "AUTOMEMLIMIT")
		setMemoryLimit(provider, logr.Discard())
		size, ratio := uint64(container), memoryLimitRatio
		if got, want := debug.SetMemoryLimit(-1), int64(float64(size)*ratio); got != want {
			t.Fatalf("limit %d, want %d", got, want)
		}
	})
	t.Run("GOMEMLIMIT set", func(t *testing.T) {
		debug.SetMemoryLimit(math.MaxInt64)
		t.Setenv("GOMEMLIMIT", "300MiB")
		setMemoryLimit(provider, logr.Discard())
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Fatalf("the runtime's limit changed to %d although GOMEMLIMIT is set", got)
		}
	})
	t.Run("no limit", func(t *testing.T) {
		unsetEnv(t, "GOMEMLIMIT")
		unsetEnv(t, "AUTOMEMLIMIT")
		none := func() (uint64, error) { return 0, memlimit.ErrNoLimit }
		setMemoryLimit(none, logr.Discard())
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Fatalf("limit %d without a container limit", got)
		}
	})
}

// unsetEnv removes an environment variable for the test and restores it after.
func unsetEnv(t *testing.T, name string) {
	t.Helper()
	t.Setenv(name, "") // registers the restore
	if err := os.Unsetenv(name); err != nil {
		t.Fatal(err)
	}
}
