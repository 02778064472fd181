package controller

import (
	"bytes"
	"os"

	. "github.com/onsi/ginkgo/v2"
	"sigs.k8s.io/yaml"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// The sample Chains are what `make run`, the e2e suite and anyone trying the service apply. A
// settlementAddress on a Chain without rpc can never be verified, so it would only look like a
// route: the samples carry none, and every sample passes the controller's own validation.
var _ = Describe("The sample Chains", func() {
	It("carry no settlement address that cannot be verified", func() {
		t := GinkgoTB()
		const path = "../../config/samples/intents_v1alpha1_chain.yaml"
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		chains, offering := 0, 0
		for doc := range bytes.SplitSeq(data, []byte("\n---")) {
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			var chain v1alpha1.Chain
			if err := yaml.UnmarshalStrict(doc, &chain); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			chains++
			if errs := ValidateChainSpec(&chain.Spec); len(errs) > 0 {
				t.Errorf("sample Chain %s: %v", chain.Name, errs.ToAggregate())
			}
			switch {
			case chain.Spec.SettlementAddress != "" && chain.Spec.RPC == nil:
				t.Errorf("sample Chain %s names the settlement contract %s but has no rpc to verify it on", chain.Name, chain.Spec.SettlementAddress)
			case chain.Spec.SettlementAddress != "":
				offering++
			}
		}
		if chains == 0 || offering == 0 {
			t.Errorf("%s holds %d Chains, %d of them with a settlement contract: the samples offer no swap or bridge", path, chains, offering)
		}
	})
})

// The sample Fillers pass the controller's own validation, and name the sample filler account.
var _ = Describe("The sample Fillers", func() {
	It("pass the controller's validation", func() {
		t := GinkgoTB()
		const path = "../../config/samples/intents_v1alpha1_filler.yaml"
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fillers := 0
		for doc := range bytes.SplitSeq(data, []byte("\n---")) {
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			var f v1alpha1.Filler
			if err := yaml.UnmarshalStrict(doc, &f); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			fillers++
			if errs := ValidateFillerSpec(&f.Spec); len(errs) > 0 {
				t.Errorf("sample Filler %s: %v", f.Name, errs.ToAggregate())
			}
			if f.Spec.AccountRef.Name != "demo-filler" {
				t.Errorf("sample Filler %s belongs to %s, not to the sample filler account demo-filler", f.Name, f.Spec.AccountRef.Name)
			}
		}
		if fillers != 2 {
			t.Errorf("%s holds %d Fillers, want 2", path, fillers)
		}
	})
})
