package main

import (
	"log/slog"

	"github.com/KimMachineGun/automemlimit/memlimit"
	"github.com/go-logr/logr"
)

// memoryLimitRatio is the share of the container's memory limit given to the Go runtime as its
// soft limit (GOMEMLIMIT); the rest is for memory the runtime does not count (stacks of threads
// in cgo, the binary, page tables).
const memoryLimitRatio = 0.9

// setMemoryLimit sets the Go runtime's soft memory limit from the container's cgroup limit,
// unless GOMEMLIMIT is set (or AUTOMEMLIMIT=off). Without it the collector lets the heap grow to
// twice what is live (GOGC=100) whatever the limit: a replica holding 300 MiB of intents would
// reach 600 MiB and be killed under a 512 MiB limit, though it fits. With it the collector works
// harder as the limit nears instead (docs/capacity.md). The library logs what it did through log.
func setMemoryLimit(provider memlimit.Provider, log logr.Logger) {
	// Its errors (no cgroup to read) are logged by the library and leave the runtime as it was.
	_, _ = memlimit.Set(memlimit.WithProvider(provider), memlimit.WithRatio(memoryLimitRatio),
		memlimit.WithLogger(slog.New(logr.ToSlogHandler(log))))
}
