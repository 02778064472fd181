package main

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/cache"

	"github.com/transferintent/transfer-intent-service/internal/apiserver"
)

// readinessGate opens the API once the informer caches have synced. The manager starts HTTP
// servers before caches, so until then the API answers 503.
type readinessGate struct {
	cache cache.Cache
	api   *apiserver.Server
}

// NeedLeaderElection is false: every replica serves the API.
func (g *readinessGate) NeedLeaderElection() bool { return false }

// Start waits for the caches, marks the API ready, and returns.
func (g *readinessGate) Start(ctx context.Context) error {
	if g.cache.WaitForCacheSync(ctx) {
		g.api.MarkReady()
	}
	return nil
}
