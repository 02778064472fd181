package apiserver

import (
	"context"
	"math/big"
	"net/http"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
)

// bridgeWithGas is 100 USDC from Sepolia to Base Sepolia with 0.002 ETH of gas on arrival.
func bridgeWithGas() transferBody {
	return usdcTransfer().with("to", caip10(baseSepolia, bobAddr), "amount", "100",
		"gasOnArrival", map[string]string{"amount": "0.002"})
}

// Gas on arrival end to end over HTTP (issue 45): simulated as the quote's own line and taken off
// its output, kept by the create that names the simulation, encoded in the order, shown in the
// record with the request, and as delivered once the fill is seen. Each refusal is a problem.
func TestGasOnArrivalOverHTTP(t *testing.T) {
	h := newTransferHarness(t)
	row, _ := h.catalog.Chains.Get(baseSepolia)
	row.MaxGasOnArrival = big.NewInt(10_000_000_000_000_000) // 0.01 ETH
	h.catalog.Chains.Upsert(row.Name, row)

	sim := h.simulateQuote(t, bridgeWithGas())
	// 0.002 ETH x $3000 / $1 = 6 USDC; 100 USDC less 20 bps of bridge fees less 6 = 93.8.
	want := intent.GasOnArrivalQuote{Amount: "0.002", Symbol: "ETH", Cost: "6", CostSymbol: "USDC"}
	if g := sim.Quote.GasOnArrival; g == nil || *g != want || sim.Quote.AmountOut != "93.8" {
		t.Fatalf("the simulation's quote %+v, gas on arrival %+v; want amountOut 93.8 and %+v", sim.Quote, g, want)
	}
	rec := h.createRecord(t, bridgeWithGas().with("simulationId", sim.SimulationID))
	if g := rec.Request.GasOnArrival; g == nil || g.Amount != "0.002" {
		t.Errorf("the record's request has gas on arrival %+v; want 0.002", g)
	}
	if rec.Quote == nil || rec.Quote.GasOnArrival == nil || *rec.Quote.GasOnArrival != want || rec.Quote.AmountOut != "93.8" {
		t.Errorf("the record's quote %+v; want the simulation's", rec.Quote)
	}
	data, err := hexutil.Decode(rec.Tx.Data)
	if err != nil {
		t.Fatal(err)
	}
	order, err := settlement.OrderOfOpenData(data)
	if err != nil {
		t.Fatal(err)
	}
	if order.NativeDropAmount.Cmp(big.NewInt(2_000_000_000_000_000)) != 0 {
		t.Errorf("the order's nativeDropAmount is %s; want 0.002 ETH in wei", order.NativeDropAmount)
	}

	// The fill: the record shows the drop delivered.
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
	if resp.StatusCode != http.StatusOK || got.Fill == nil || got.Fill.GasOnArrival != "0.002" {
		t.Errorf("GET after the fill: %d %s; want fill.gasOnArrival 0.002", resp.StatusCode, raw)
	}

	// Refusals.
	for name, tt := range map[string]struct {
		body  transferBody
		want  problem.Type
		field string
	}{
		"a transfer": {usdcTransfer().with("gasOnArrival", map[string]string{"amount": "0.001"}),
			problem.ValidationFailed, "gasOnArrival"},
		"a chain that does not offer it": {bridgeWithGas().with("from", caip10(baseSepolia, aliceAddr), "to", caip10(sepolia, bobAddr),
			"asset", caip10(baseSepolia, usdcBaseSepolia)), problem.ValidationFailed, "gasOnArrival"},
		"above the bound": {bridgeWithGas().with("gasOnArrival", map[string]string{"amount": "0.0100001"}),
			problem.ValidationFailed, "gasOnArrival.amount"},
		"zero":                 {bridgeWithGas().with("gasOnArrival", map[string]string{"amount": "0"}), problem.ValidationFailed, "gasOnArrival.amount"},
		"a string":             {bridgeWithGas().with("gasOnArrival", "0.002"), problem.BadRequest, "gasOnArrival"},
		"an unknown member":    {bridgeWithGas().with("gasOnArrival", map[string]any{"amount": "0.002", "wei": "1"}), problem.BadRequest, "gasOnArrival"},
		"a number for amount":  {bridgeWithGas().with("gasOnArrival", map[string]any{"amount": 0.002}), problem.BadRequest, "gasOnArrival.amount"},
		"an amount that is no": {bridgeWithGas().with("gasOnArrival", map[string]any{"amount": "1e-3"}), problem.BadRequest, "gasOnArrival.amount"},
	} {
		for _, path := range []string{simulatePath, transfersPath} {
			resp, raw := h.post(t, path, testKeyA, tt.body.String())
			if resp.StatusCode != tt.want.Status {
				t.Errorf("%s, %s: %d %s; want %d", name, path, resp.StatusCode, raw, tt.want.Status)
				continue
			}
			if p := assertProblem(t, resp, raw, tt.want, path); p.Details["field"] != tt.field {
				t.Errorf("%s, %s: details %v; want field %s", name, path, p.Details, tt.field)
			}
		}
	}
}

func make64(c byte) []byte {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c
	}
	return b
}
