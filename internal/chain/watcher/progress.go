package watcher

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/jsonrpc"
)

// +kubebuilder:rbac:groups=intents.transferintent.io,resources=chains/status,verbs=get;update;patch

// EventReporter names the watcher in the events it emits.
const EventReporter = "transfer-intent-chain-watcher"

// recordProgress writes the watcher's progress on the Chain object name: the last block whose
// transactions were matched. Only the watcher writes status.watch, so a plain merge patch of that
// field cannot undo another writer's change.
func recordProgress(ctx context.Context, kube client.Client, key client.ObjectKey, b jsonrpc.Header, now metav1.Time) error {
	var chain v1alpha1.Chain
	if err := kube.Get(ctx, key, &chain); err != nil {
		return client.IgnoreNotFound(err)
	}
	before := chain.DeepCopy()
	chain.Status.Watch = &v1alpha1.ChainWatchStatus{
		ProcessedBlock:     int64(b.Number), //nolint:gosec // block numbers are far below 2^63
		ProcessedBlockHash: b.Hash.Hex(),
		ProcessedBlockTime: metav1.NewTime(b.Time),
		UpdatedAt:          now,
	}
	if err := kube.Status().Patch(ctx, &chain, client.MergeFrom(before)); err != nil {
		return fmt.Errorf("recording the watch progress of Chain %s: %w", key.Name, err)
	}
	return nil
}
