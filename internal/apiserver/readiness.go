package apiserver

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// ReadinessGate returns a Runnable that opens the API once the informer caches have synced and
// then every wait in more has returned true (for example an index fed by informer event handlers,
// which may still be handed the initial list after the cache reports synced). The manager starts
// HTTP servers before caches, so until then /v2 answers 503.
func (s *Server) ReadinessGate(c cache.Cache, more ...func(context.Context) bool) manager.Runnable {
	return &readinessGate{waits: append([]func(context.Context) bool{c.WaitForCacheSync}, more...), api: s}
}

type readinessGate struct {
	waits []func(context.Context) bool
	api   *Server
}

// NeedLeaderElection is false: every replica serves the API.
func (g *readinessGate) NeedLeaderElection() bool { return false }

// Start runs the waits in order, marks the API ready, and returns; it returns early, leaving the
// API closed, when the manager stops first.
func (g *readinessGate) Start(ctx context.Context) error {
	for _, wait := range g.waits {
		if !wait(ctx) {
			return nil
		}
	}
	g.api.MarkReady()
	return nil
}
