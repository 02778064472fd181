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
