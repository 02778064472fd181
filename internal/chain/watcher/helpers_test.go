package watcher

import (
	"fmt"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intentstatus"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// followerOf is a follower of eip155:chainID writing through a fake client that holds one
// TransferIntent, name in namespace "default", with status.
func followerOf(t *testing.T, chainID uint64, name string, status v1alpha1.TransferIntentStatus) (*follower, client.Client) {
	t.Helper()
	m, err := newMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	kube := fake.NewClientBuilder().WithScheme(v1alpha1.Scheme()).WithStatusSubresource(&v1alpha1.TransferIntent{}).
		WithObjects(&v1alpha1.TransferIntent{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Status: status}).Build()
	return &follower{
		chain: registry.Chain{ID: fmt.Sprintf("eip155:%d", chainID), BlockTimeSeconds: 1}, chainID: chainID, namespace: "default",
		writer: &intentstatus.Writer{Client: kube, APIReader: kube}, log: logr.Discard(), metrics: m, misses: map[string]int{},
		refundBlocks: map[common.Hash]blockRef{},
	}, kube
}

// intentNamed reads the TransferIntent name of namespace "default".
func intentNamed(t *testing.T, kube client.Client, name string) *v1alpha1.TransferIntent {
	t.Helper()
	var ti v1alpha1.TransferIntent
	if err := kube.Get(t.Context(), client.ObjectKey{Namespace: "default", Name: name}, &ti); err != nil {
		t.Fatal(err)
	}
	return &ti
}
