package apiserver

import (
	"context"
	"math/big"
	"net/http"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// feeRecipient is account alice's integrator fee recipient on Sepolia.
const feeRecipient = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"

// feeHarness is the transfer API where account alice (key A) may charge up to 100 bps, paid on
// Sepolia to feeRecipient, from the account directory the Account controller publishes to;
// account bob (key B) has no fee policy.
func feeHarness(t *testing.T) *transferHarness {
	t.Helper()
	accounts := registry.NewAccounts()
	accounts.Upsert(registry.Account{Name: "alice", Email: "alice@example.com",
		Fees: &registry.FeePolicy{MaxBps: 100, Recipients: map[string][]string{sepolia: {feeRecipient}}}})
	accounts.Upsert(registry.Account{Name: "bob", Email: "bob@example.com"})
	return newTransferHarness(t, func(c *transferConfig) { c.feePolicies = accounts })
}

// bridgeWithFee is 100 USDC from Sepolia to Base Sepolia with an integrator fee.
func bridgeWithFee(fee any) transferBody {
	return usdcTransfer().with("to", caip10(baseSepolia, bobAddr), "amount", "100", "fee", fee)
}

// An integrator fee over HTTP (issue 45): simulated as the quote's own line and taken off its
// output, kept by the create that names the simulation, encoded in the order, shown in the record
// with the request, and as paid out once the fill is seen. Each refusal is a problem of its own
// type, and nothing refused is stored.
func TestIntegratorFeeOverHTTP(t *testing.T) {
	h := feeHarness(t)
	sim := h.simulateQuote(t, bridgeWithFee(map[string]any{"bps": 50}))
	// 100 USDC less 20 bps of bridge fees (99.8) less 50 bps to the integrator (0.5) = 99.3.
	want := intent.IntegratorFeeQuote{Bps: 50, Amount: "0.5", Symbol: "USDC", Recipient: feeRecipient}
	if f := sim.Quote.IntegratorFee; f == nil || *f != want || sim.Quote.AmountOut != "99.3" || sim.EstimatedFees.IntegratorFeeBps != 50 {
		t.Fatalf("the simulation's quote %+v, fee %+v, estimatedFees %+v; want amountOut 99.3, %+v and 50 bps", sim.Quote, f, sim.EstimatedFees, want)
	}
	rec := h.createRecord(t, bridgeWithFee(map[string]any{"bps": 50}).with("simulationId", sim.SimulationID))
	if f := rec.Request.Fee; f == nil || f.Bps == nil || *f.Bps != 50 || f.Recipient != "" {
		t.Errorf("the record's request has fee %+v; want bps 50 and no recipient, as sent", f)
	}
	if rec.Quote == nil || rec.Quote.IntegratorFee == nil || *rec.Quote.IntegratorFee != want {
		t.Errorf("the record's quote %+v; want the simulation's fee", rec.Quote)
	}
	data, err := hexutil.Decode(rec.Tx.Data)
	if err != nil {
		t.Fatal(err)
	}
	order, err := settlement.OrderOfOpenData(data)
	if err != nil {
		t.Fatal(err)
	}
	if order.FeeAmount.Cmp(big.NewInt(500_000)) != 0 || order.FeeRecipient != common.HexToAddress(feeRecipient) {
		t.Errorf("the order carries fee %s to %s; want 500000 to %s", order.FeeAmount, order.FeeRecipient.Hex(), feeRecipient)
	}

	// The fill: a bridge's fee is credited with the filler's settle on the origin chain.
	name, _ := intent.ObjectNameFromID(rec.ID)
	var obj v1alpha1.TransferIntent
	if err := h.kube.Get(context.Background(), client.ObjectKey{Namespace: testNamespace, Name: name}, &obj); err != nil {
		t.Fatal(err)
	}
	filled := obj.DeepCopy()
	filled.Status.Phase, filled.Status.Hash = v1alpha1.IntentPhaseSubmitted, "0x"+string(make64('1'))
	filled.Status.Fill = &v1alpha1.FillStatus{ChainID: baseSepolia, Hash: "0x" + string(make64('2')), BlockNumber: 5,
		BlockHash: "0x" + string(make64('3')), Filler: settleB, AmountOut: order.MinAmountOut.String()}
	if err := h.kube.Update(context.Background(), filled); err != nil {
		t.Fatal(err)
	}
	h.store.EventHandler().OnUpdate(&obj, filled)
	resp, raw := h.do(t, http.MethodGet, transfersPath+"/"+rec.ID, withKey(testKeyA), "")
	got := decodeJSON[transferIntentJSON](t, raw)
	if resp.StatusCode != http.StatusOK || got.Fill == nil || got.Fill.IntegratorFee == nil {
		t.Fatalf("GET after the fill: %d %s; want fill.integratorFee", resp.StatusCode, raw)
	}
	if f := got.Fill.IntegratorFee; f.Amount != "0.5" || f.Recipient != feeRecipient || f.ChainID != sepolia || f.CreditedWith != "settle" || f.Hash != "" {
		t.Errorf("the fill's integrator fee %+v; want 0.5 USDC to %s on %s, credited with the settle", f, feeRecipient, sepolia)
	}

	before := storedIntents(t, h)
	for name, tt := range map[string]struct {
		key   string
		body  transferBody
		want  problem.Type
		field string
	}{
		"above the policy's most":    {testKeyA, bridgeWithFee(map[string]any{"bps": 101}), problem.FeeNotAllowed, "fee.bps"},
		"a recipient not allowed":    {testKeyA, bridgeWithFee(map[string]any{"bps": 10, "recipient": aliceAddr}), problem.FeeRecipientNotAllowed, "fee.recipient"},
		"an account with no policy":  {testKeyB, bridgeWithFee(map[string]any{"bps": 10}), problem.FeeNotAllowed, "fee"},
		"a transfer":                 {testKeyA, usdcTransfer().with("fee", map[string]any{"bps": 10}), problem.FeeNotAllowed, "fee"},
		"a string for the fee":       {testKeyA, bridgeWithFee("50"), problem.BadRequest, "fee"},
		"a fraction of a basis pt":   {testKeyA, bridgeWithFee(map[string]any{"bps": 1.5}), problem.BadRequest, "fee.bps"},
		"more than 100%":             {testKeyA, bridgeWithFee(map[string]any{"bps": 10001}), problem.BadRequest, "fee.bps"},
		"an unknown member":          {testKeyA, bridgeWithFee(map[string]any{"bps": 10, "percent": 1}), problem.BadRequest, "fee"},
		"a recipient that is no hex": {testKeyA, bridgeWithFee(map[string]any{"recipient": "alice"}), problem.BadRequest, "fee.recipient"},
	} {
		for _, path := range []string{simulatePath, transfersPath} {
			resp, raw := h.post(t, path, tt.key, tt.body.String())
			if resp.StatusCode != tt.want.Status {
				t.Errorf("%s, %s: %d %s; want %d", name, path, resp.StatusCode, raw, tt.want.Status)
				continue
			}
			if p := assertProblem(t, resp, raw, tt.want, path); p.Details["field"] != tt.field {
				t.Errorf("%s, %s: details %v; want field %s", name, path, p.Details, tt.field)
			}
		}
	}
	if after := storedIntents(t, h); after != before {
		t.Errorf("the refused creates stored %d intents", after-before)
	}
}

// storedIntents counts the TransferIntents in the harness's Kubernetes API.
func storedIntents(t *testing.T, h *transferHarness) int {
	t.Helper()
	var list v1alpha1.TransferIntentList
	if err := h.kube.List(context.Background(), &list); err != nil {
		t.Fatal(err)
	}
	return len(list.Items)
}
