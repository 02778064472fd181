package main

import (
	"testing"

	clientfeatures "k8s.io/client-go/features"
)

func TestListFirstTurnsOffOnlyTheStreamedList(t *testing.T) {
	original := clientfeatures.FeatureGates()
	t.Cleanup(func() { clientfeatures.ReplaceFeatureGates(original) })

	t.Setenv("KUBE_FEATURE_WatchListClient", "")
	listFirst()
	gates := clientfeatures.FeatureGates()
	if gates.Enabled(clientfeatures.WatchListClient) {
		t.Error("informers still stream their first sync (WatchListClient)")
	}
	if gates.Enabled(clientfeatures.InOrderInformers) != original.Enabled(clientfeatures.InOrderInformers) {
		t.Error("listFirst changed another feature gate")
	}

	clientfeatures.ReplaceFeatureGates(original)
	t.Setenv("KUBE_FEATURE_WatchListClient", "true")
	listFirst()
	if clientfeatures.FeatureGates() != original {
		t.Error("KUBE_FEATURE_WatchListClient was overridden")
	}
}

// Under a memory limit the first sync stays streamed (its peak is half the list's); without one
// it is one list.
func TestFirstSyncFollowsTheMemoryLimit(t *testing.T) {
	original := clientfeatures.FeatureGates()
	t.Cleanup(func() { clientfeatures.ReplaceFeatureGates(original) })
	t.Setenv("KUBE_FEATURE_WatchListClient", "")

	chooseFirstSync(true)
	if clientfeatures.FeatureGates() != original {
		t.Error("the feature gates changed under a memory limit")
	}
	chooseFirstSync(false)
	if clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient) {
		t.Error("without a memory limit the first sync still streams")
	}
}
