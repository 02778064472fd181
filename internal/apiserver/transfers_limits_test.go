package apiserver

import (
	"math/big"
	"net/http"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// declareUSDCMax gives Sepolia USDC a declared maximum, as its TokenDefinition's spec.limits would.
func declareUSDCMax(catalog intent.RegistryCatalog, base int64) {
	catalog.Tokens.Upsert(registry.Token{Name: "usdc-sepolia", Symbol: "USDC", ChainID: sepolia,
		Address: caip10(sepolia, usdcSepolia), Decimals: 6, PriceUSD: "1", MaxAmount: big.NewInt(base)})
}

// sepoliaSwapMinimum is the route minimum of a USDC swap on the fixture's Sepolia: 350,000 gas at
// 1 gwei is 0.00035 ETH, 1.05 USD at 3000, which 99.65% of the amount (30+5 bps of fees) covers
// from 1.053688 USDC on.
const sepoliaSwapMinimum = "1.053688"

func TestSimulateAnswersTheRouteLimits(t *testing.T) {
	h := newTransferHarness(t)
	sim := h.simulateQuote(t, usdcToWETH())
	if sim.Limits == nil || *sim.Limits != (intent.Limits{MinAmount: sepoliaSwapMinimum, Symbol: "USDC"}) {
		t.Fatalf("limits %+v, want the minimum %s and no maximum", sim.Limits, sepoliaSwapMinimum)
	}
	declareUSDCMax(h.catalog, 500_000_000)
	sim = h.simulateQuote(t, usdcToWETH())
	if sim.Limits == nil || sim.Limits.MaxAmount != "500" {
		t.Fatalf("limits %+v, want the declared maximum 500", sim.Limits)
	}
	// A transfer has no limits: the member is absent.
	resp, raw := h.post(t, simulatePath, testKeyA, usdcTransfer().String())
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("simulate a transfer: %d %s", resp.StatusCode, raw)
	}
	if got := decodeJSON[map[string]any](t, raw); got["limits"] != nil {
		t.Fatalf("a transfer's simulation has limits: %s", raw)
	}
}

func TestAmountsOutsideTheRouteLimitsAre422WithTheLimits(t *testing.T) {
	h := newTransferHarness(t)
	declareUSDCMax(h.catalog, 500_000_000)
	for _, amount := range []string{"1.053687", "500.000001"} {
		for _, path := range []string{simulatePath, transfersPath} {
			resp, raw := h.post(t, path, testKeyA, usdcToWETH().with("amount", amount).String())
			p := assertProblem(t, resp, raw, problem.ValidationFailed, path)
			want := map[string]any{"field": "amount", "minAmount": sepoliaSwapMinimum, "maxAmount": "500", "symbol": "USDC", "requested": amount}
			if len(p.Details) != len(want) {
				t.Errorf("%s %s: details %v, want %v", path, amount, p.Details, want)
			}
			for k, v := range want {
				if p.Details[k] != v {
					t.Errorf("%s %s: details.%s = %v, want %v", path, amount, k, p.Details[k], v)
				}
			}
		}
	}
	// The bounds themselves are inside.
	for _, amount := range []string{sepoliaSwapMinimum, "500"} {
		h.simulateQuote(t, usdcToWETH().with("amount", amount))
		h.createRecord(t, usdcToWETH().with("amount", amount))
	}
}
