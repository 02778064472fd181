package intentstatus

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/intent"
)

// statusValidator is the API server's own CEL evaluation of the TransferIntent CRD's status rules,
// as generated into config/crd/bases.
func statusValidator(t *testing.T) (*cel.Validator, *structuralschema.Structural) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "config", "crd", "bases", "intents.transferintent.io_transferintents.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(raw, &crd); err != nil {
		t.Fatal(err)
	}
	v1Status := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"]
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1Status, &internal, nil); err != nil {
		t.Fatal(err)
	}
	structural, err := structuralschema.NewStructural(&internal)
	if err != nil {
		t.Fatal(err)
	}
	return cel.NewValidator(structural, false, celconfig.PerCallLimit), structural
}

// statusObject is a status in the phase as the API server sees it: with the transaction hash and
// block the CEL rules ask of a phase that has a transaction.
func statusObject(phase intent.Status) map[string]any {
	return map[string]any{"phase": string(phase), "hash": "0x" + common.Hash{1}.Hex()[2:], "blockNumber": int64(1), "blockHash": common.Hash{2}.Hex(),
		"signature": "0x" + strings.Repeat("ab", 65)}
}

// The CRD's CEL rule on status.phase and the domain's transition table allow exactly the same
// moves: a phase may stay, or move by one event of the table. A rule or a table edited alone fails
// here, before the API server and the writers disagree.
func TestCELRuleMatchesTheTransitionTable(t *testing.T) {
	validator, structural := statusValidator(t)
	for _, from := range intent.Statuses {
		for _, to := range intent.Statuses {
			byTable := from == to
			for _, ev := range intent.Events {
				if next, err := intent.Transition(from, ev); err == nil && next == to {
					byTable = true
				}
			}
			errs, _ := validator.Validate(context.Background(), field.NewPath("status"), structural,
				statusObject(to), statusObject(from), celconfig.RuntimeCELCostBudget)
			if byCEL := len(errs) == 0; byCEL != byTable {
				t.Errorf("%s -> %s: the CEL rule allows it: %v (%v); the transition table: %v", from, to, byCEL, errs.ToAggregate(), byTable)
			}
		}
	}
}

// Expire ends what was never opened: pending, unsigned and signed intents expire; a cancelling
// one is cancelled for good; nothing else takes it.
func TestExpireOnlyWhatWasNeverOpened(t *testing.T) {
	now := metav1.NewTime(time.Unix(1_700_000_000, 0))
	wantAfter := map[intent.Status]v1alpha1.IntentPhase{
		intent.StatusPending: v1alpha1.IntentPhaseExpired, intent.StatusUnsigned: v1alpha1.IntentPhaseExpired,
		intent.StatusSigned: v1alpha1.IntentPhaseExpired, intent.StatusCancelling: v1alpha1.IntentPhaseCancelled,
	}
	for _, phase := range intent.Statuses {
		ti := &v1alpha1.TransferIntent{Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhase(phase)}}
		err := Expire(ti, now)
		want, takes := wantAfter[phase]
		if (err == nil) != takes {
			t.Errorf("Expire from %s: err %v", phase, err)
		}
		if err == nil && ti.Status.Phase != want {
			t.Errorf("Expire from %s wrote %s, want %s", phase, ti.Status.Phase, want)
		}
		if err != nil && ti.Status.Phase != v1alpha1.IntentPhase(phase) {
			t.Errorf("a refused Expire from %s changed the phase to %s", phase, ti.Status.Phase)
		}
	}
}

// A final hard cancel ends only a cancelling gasless intent, as cancelled, with its own reason: a
// signed one (still offered) expires only at its deadline, and one opened meanwhile (submitted) is
// the chain's to end.
func TestAHardCancelEndsOnlyACancellingIntent(t *testing.T) {
	now := metav1.NewTime(time.Unix(1_700_000_000, 0))
	for _, phase := range intent.Statuses {
		ti := &v1alpha1.TransferIntent{
			Spec:   v1alpha1.TransferIntentSpec{Gasless: &v1alpha1.GaslessTerms{}},
			Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhase(phase)},
		}
		ended := EndHardCancelled("final")(ti, now)
		if want := phase == intent.StatusCancelling; ended != want {
			t.Errorf("a hard cancel of a %s intent: ended %v, want %v", phase, ended, want)
		}
		c := meta.FindStatusCondition(ti.Status.Conditions, v1alpha1.ConditionTransaction)
		switch {
		case ended && (ti.Status.Phase != v1alpha1.IntentPhaseCancelled || c == nil || c.Reason != v1alpha1.ReasonHardCancelled):
			t.Errorf("a hard cancel of a cancelling intent left it %s with condition %+v", ti.Status.Phase, c)
		case !ended && (ti.Status.Phase != v1alpha1.IntentPhase(phase) || c != nil):
			t.Errorf("a refused hard cancel of a %s intent wrote %s, condition %+v", phase, ti.Status.Phase, c)
		}
	}
	transfer := &v1alpha1.TransferIntent{Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseCancelling}}
	if EndHardCancelled("final")(transfer, now) {
		t.Error("a hard cancel ended an intent without gasless terms")
	}
}

// Observe follows only the transaction an intent holds, moves through the table, and sets the
// Transaction condition (False for bad news).
func TestObserve(t *testing.T) {
	now := metav1.NewTime(time.Unix(1_700_000_000, 0))
	hash, other := common.HexToHash("0x01"), common.HexToHash("0x02")
	submitted := func() *v1alpha1.TransferIntent {
		return &v1alpha1.TransferIntent{Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseSubmitted, Hash: hash.Hex()}}
	}
	cases := []struct {
		name      string
		ti        *v1alpha1.TransferIntent
		obs       Observation
		applies   bool
		phase     v1alpha1.IntentPhase
		condition metav1.ConditionStatus
	}{
		{"a pending intent's transaction in a block", &v1alpha1.TransferIntent{},
			Observation{Event: intent.EventSubmit, Hash: hash, Block: 7, Reason: v1alpha1.ReasonIncluded}, true, v1alpha1.IntentPhaseSubmitted, metav1.ConditionTrue},
		{"its receipt, final", submitted(), Observation{Event: intent.EventConfirm, Hash: hash, Block: 7, Reason: v1alpha1.ReasonConfirmed}, true, v1alpha1.IntentPhaseConfirmed, metav1.ConditionTrue},
		{"a revert", submitted(), Observation{Event: intent.EventFail, Hash: hash, Block: 7, Reason: v1alpha1.ReasonReverted}, true, v1alpha1.IntentPhaseFailed, metav1.ConditionFalse},
		{"another transaction's receipt", submitted(), Observation{Event: intent.EventConfirm, Hash: other, Block: 7}, false, v1alpha1.IntentPhaseSubmitted, ""},
		{"a confirm of a pending intent", &v1alpha1.TransferIntent{}, Observation{Event: intent.EventConfirm, Hash: hash}, false, v1alpha1.IntentPhasePending, ""},
		{"order news of a terminal intent", &v1alpha1.TransferIntent{Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseConfirmed}},
			Observation{Order: &OrderNews{ClearFill: true}, Reason: v1alpha1.ReasonDropped}, false, v1alpha1.IntentPhaseConfirmed, ""},
	}
	for _, c := range cases {
		if got := Observe(c.ti, c.obs, now); got != c.applies {
			t.Errorf("%s: applies %v, want %v", c.name, got, c.applies)
		}
		if Phase(c.ti) != c.phase {
			t.Errorf("%s: phase %s, want %s", c.name, Phase(c.ti), c.phase)
		}
		cond := meta.FindStatusCondition(c.ti.Status.Conditions, v1alpha1.ConditionTransaction)
		switch {
		case c.condition == "" && cond != nil:
			t.Errorf("%s: a Transaction condition was set: %+v", c.name, cond)
		case c.condition != "" && (cond == nil || cond.Status != c.condition):
			t.Errorf("%s: Transaction condition %+v, want status %s", c.name, cond, c.condition)
		}
	}
}

// The failure code is kept with the failed phase it explains, from the transaction's revert and
// from the order's refund alike, and with no other phase; the guardian's allowance is order news
// that moves no phase.
func TestAFailureCodeGoesWithTheFailedPhase(t *testing.T) {
	now := metav1.NewTime(time.Unix(1_700_000_000, 0))
	hash := common.HexToHash("0x01")
	submitted := func() *v1alpha1.TransferIntent {
		return &v1alpha1.TransferIntent{Status: v1alpha1.TransferIntentStatus{Phase: v1alpha1.IntentPhaseSubmitted, Hash: hash.Hex()}}
	}
	ti := submitted()
	Observe(ti, Observation{Event: intent.EventFail, Hash: hash, Block: 7, Reason: v1alpha1.ReasonReverted, Failure: v1alpha1.FailureOutOfGas}, now)
	if ti.Status.Phase != v1alpha1.IntentPhaseFailed || ti.Status.FailureCode != v1alpha1.FailureOutOfGas {
		t.Errorf("a revert: %s with code %q; want failed, out_of_gas", ti.Status.Phase, ti.Status.FailureCode)
	}
	ti = submitted()
	Observe(ti, Observation{Order: &OrderNews{RefundAllowed: true}, Reason: v1alpha1.ReasonRefundAllowed}, now)
	if ti.Status.Phase != v1alpha1.IntentPhaseSubmitted || !ti.Status.RefundAllowed || ti.Status.FailureCode != "" {
		t.Errorf("the guardian's allowance: %s, allowed %v, code %q; want submitted, allowed, no code", ti.Status.Phase, ti.Status.RefundAllowed, ti.Status.FailureCode)
	}
	Observe(ti, Observation{Event: intent.EventFail, Order: &OrderNews{RefundHash: common.HexToHash("0x0e")}, Reason: v1alpha1.ReasonRefunded, Failure: v1alpha1.FailureRefunded}, now)
	if ti.Status.Phase != v1alpha1.IntentPhaseFailed || ti.Status.FailureCode != v1alpha1.FailureRefunded {
		t.Errorf("a final refund: %s with code %q; want failed, refunded", ti.Status.Phase, ti.Status.FailureCode)
	}
	ti = submitted()
	Observe(ti, Observation{Event: intent.EventConfirm, Hash: hash, Block: 7, Reason: v1alpha1.ReasonConfirmed, Failure: v1alpha1.FailureReverted}, now)
	if ti.Status.FailureCode != "" {
		t.Errorf("a confirmed intent kept the code %q", ti.Status.FailureCode)
	}
}

// The CRD refuses a failure code on any phase but failed, and takes each code of the Go set (its
// enum) on a failed intent, and nothing else.
func TestTheCRDTakesAFailureCodeOnlyWhenFailed(t *testing.T) {
	validator, structural := statusValidator(t)
	for _, phase := range intent.Statuses {
		obj := statusObject(phase)
		obj["failureCode"] = string(v1alpha1.FailureRefunded)
		errs, _ := validator.Validate(context.Background(), field.NewPath("status"), structural, obj, nil, celconfig.RuntimeCELCostBudget)
		if ok := len(errs) == 0; ok != (phase == intent.StatusFailed) {
			t.Errorf("a failure code on %s: accepted %v (%v)", phase, ok, errs.ToAggregate())
		}
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "config", "crd", "bases", "intents.transferintent.io_transferintents.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(raw, &crd); err != nil {
		t.Fatal(err)
	}
	var enum []string
	for _, v := range crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"].Properties["failureCode"].Enum {
		enum = append(enum, strings.Trim(string(v.Raw), `"`))
	}
	var want []string
	for _, c := range v1alpha1.FailureCodes {
		want = append(want, string(c))
	}
	if !slices.Equal(enum, want) {
		t.Errorf("the CRD's failureCode enum %v; want the Go set %v", enum, want)
	}
}
