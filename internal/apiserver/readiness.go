package apiserver

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// ReadinessGate returns a Runnable that opens the API once the informer caches have synced. The
// manager starts HTTP servers before caches, so until then /v2 answers 503.
func (s *Server) ReadinessGate(c cache.Cache) manager.Runnable {
	return &readinessGate{cache: c, api: s}
}

type readinessGate struct {
	cache cache.Cache
	api   *Server
}

// NeedLeaderElection is false: every replica serves the API.
func (g *readinessGate) NeedLeaderElection() bool { return false }

// Start waits for the caches, marks the API ready, and returns.
func (g *readinessGate) Start(ctx context.Context) error {
	if !g.cache.WaitForCacheSync(ctx) {
		return nil
	}
	// The intent store's index is fed by an informer event handler, which may still be handed
	// the initial list after the cache reports synced: wait for it too, or a list would be short.
	if s, ok := g.api.deps.Intents.(interface{ WaitForSync(context.Context) bool }); ok && !s.WaitForSync(ctx) {
		return nil
	}
	g.api.MarkReady()
	return nil
}
