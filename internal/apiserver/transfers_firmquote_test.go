package apiserver

import (
	"context"
	"math/big"
	"net/http"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// usdcToWETH is a swap of 100 USDC for WETH on Sepolia, priced by the catalog's USD prices.
func usdcToWETH() transferBody {
	return transferBody{
		"from": caip10(sepolia, aliceAddr), "to": caip10(sepolia, bobAddr),
		"asset":  map[string]string{"in": caip10(sepolia, usdcSepolia), "out": caip10(sepolia, wethSepolia)},
		"amount": "100",
	}
}

// setWETHPrice changes the USD price the service quotes WETH at, as a TokenDefinition update would.
func setWETHPrice(catalog intent.RegistryCatalog, price string) {
	catalog.Tokens.Upsert(registry.Token{Name: "weth-sepolia", Symbol: "WETH", ChainID: sepolia,
		Address: caip10(sepolia, wethSepolia), Decimals: 18, PriceUSD: price})
}

func (h *transferHarness) simulateQuote(t *testing.T, body transferBody) intent.SimulationResult {
	t.Helper()
	resp, raw := h.post(t, simulatePath, testKeyA, body.String())
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("simulate: %d %s", resp.StatusCode, raw)
	}
	sim := decodeJSON[intent.SimulationResult](t, raw)
	if !sim.Valid || sim.Quote == nil {
		t.Fatalf("simulation not valid or without a quote: %s", raw)
	}
	return sim
}

func (h *transferHarness) createRecord(t *testing.T, body transferBody) transferIntentJSON {
	t.Helper()
	resp, raw := h.post(t, transfersPath, testKeyA, body.String())
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, raw)
	}
	return decodeJSON[transferIntentJSON](t, raw)
}

// encodedMinimum is the minAmountOut the record's open() transaction carries.
func encodedMinimum(t *testing.T, rec transferIntentJSON) *big.Int {
	t.Helper()
	data, err := hexutil.Decode(rec.Tx.Data)
	if err != nil {
		t.Fatal(err)
	}
	o, err := settlement.OrderOfOpenData(data)
	if err != nil {
		t.Fatal(err)
	}
	return o.MinAmountOut
}

func weiOf(t *testing.T, display string) *big.Int {
	t.Helper()
	v, err := intent.ParseAmount(display, 18)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCreateWithSimulationIDKeepsTheSimulatedQuoteAfterPricesChanged(t *testing.T) {
	h := newTransferHarness(t)
	sim := h.simulateQuote(t, usdcToWETH())
	setWETHPrice(h.catalog, "0.5") // WETH at half the price: a fresh quote promises twice the WETH
	h.clock.Step(intent.DefaultQuoteTTL - time.Second)

	fresh := h.createRecord(t, usdcToWETH())
	if fresh.Quote == nil || *fresh.Quote == *sim.Quote {
		t.Fatalf("a create without simulationId quotes %+v, want a fresh quote unlike the simulated %+v", fresh.Quote, *sim.Quote)
	}

	rec := h.createRecord(t, usdcToWETH().with("simulationId", sim.SimulationID))
	if rec.Quote == nil || *rec.Quote != *sim.Quote {
		t.Fatalf("create with simulationId answers quote %+v, want the simulated %+v", rec.Quote, *sim.Quote)
	}
	if got, want := encodedMinimum(t, rec), weiOf(t, sim.Quote.MinAmountOut); got.Cmp(want) != 0 {
		t.Fatalf("the order encodes minAmountOut %s, want the simulated %s", got, want)
	}
	if got := encodedMinimum(t, fresh); got.Cmp(weiOf(t, fresh.Quote.MinAmountOut)) != 0 {
		t.Fatalf("a fresh order encodes %s, its quote says %s", got, fresh.Quote.MinAmountOut)
	}
	resp, raw := h.do(t, http.MethodGet, transfersPath+"/"+rec.ID, withKey(testKeyA), "")
	if got := decodeJSON[transferIntentJSON](t, raw); resp.StatusCode != http.StatusOK || got.Quote == nil || *got.Quote != *sim.Quote {
		t.Fatalf("GET: %d quote %+v, want the simulated %+v", resp.StatusCode, got.Quote, *sim.Quote)
	}
	// The client's own minimum, at the simulated one, is met.
	h.createRecord(t, usdcToWETH().with("simulationId", sim.SimulationID, "minAmountOut", sim.Quote.MinAmountOut))
}

func TestCreateWithAnExpiredSimulationIsQuoteExpired(t *testing.T) {
	h := newTransferHarness(t)
	sim := h.simulateQuote(t, usdcToWETH())
	h.clock.Step(intent.DefaultQuoteTTL)
	resp, raw := h.post(t, transfersPath, testKeyA, usdcToWETH().with("simulationId", sim.SimulationID).String())
	p := assertProblem(t, resp, raw, problem.QuoteExpired, transfersPath)
	if p.Details["field"] != "simulationId" {
		t.Fatalf("details %v, want field simulationId", p.Details)
	}
	resp, raw = h.post(t, transfersPath, testKeyA, usdcToWETH().with("simulationId", intent.NewSimulationID(h.clock.Now())).String())
	assertProblem(t, resp, raw, problem.QuoteExpired, transfersPath)
	// Another account's simulation is not found either.
	sim = h.simulateQuote(t, usdcToWETH())
	body := usdcToWETH().with("simulationId", sim.SimulationID, "from", caip10(sepolia, bobAddr), "to", caip10(sepolia, aliceAddr))
	resp, raw = h.post(t, transfersPath, testKeyB, body.String())
	assertProblem(t, resp, raw, problem.QuoteExpired, transfersPath)
}

func TestCreateWithADifferentBodyIsQuoteMismatch(t *testing.T) {
	h := newTransferHarness(t)
	sim := h.simulateQuote(t, usdcToWETH())
	for name, body := range map[string]transferBody{
		"amount":   usdcToWETH().with("amount", "100.01"),
		"to":       usdcToWETH().with("to", caip10(sepolia, aliceAddr)),
		"slippage": usdcToWETH().with("slippageBps", 100),
		"deadline": usdcToWETH().with("deadline", h.clock.Now().Add(2*time.Hour).Format(time.RFC3339)),
	} {
		t.Run(name, func(t *testing.T) {
			resp, raw := h.post(t, transfersPath, testKeyA, body.with("simulationId", sim.SimulationID).String())
			assertProblem(t, resp, raw, problem.QuoteMismatch, transfersPath)
		})
	}
	// The same request spelled otherwise is the same request.
	h.createRecord(t, usdcToWETH().with("amount", "100.000", "simulationId", sim.SimulationID))
}

func TestCreateWithAMinAmountOutAboveTheServicesIsRefused(t *testing.T) {
	h := newTransferHarness(t)
	sim := h.simulateQuote(t, usdcToWETH())
	above := intent.FormatAmount(new(big.Int).Add(weiOf(t, sim.Quote.MinAmountOut), big.NewInt(1)), 18)
	for _, body := range []transferBody{
		usdcToWETH().with("minAmountOut", above),
		usdcToWETH().with("minAmountOut", above, "simulationId", sim.SimulationID),
	} {
		resp, raw := h.post(t, transfersPath, testKeyA, body.String())
		p := assertProblem(t, resp, raw, problem.MinAmountOut, transfersPath)
		if p.Details["minAmountOut"] != sim.Quote.MinAmountOut || p.Details["requested"] != above {
			t.Fatalf("details %v, want the service's %s and the requested %s", p.Details, sim.Quote.MinAmountOut, above)
		}
	}
	// A transfer's minimum is its amount.
	resp, raw := h.post(t, transfersPath, testKeyA, usdcTransfer().with("minAmountOut", "12.500001").String())
	assertProblem(t, resp, raw, problem.MinAmountOut, transfersPath)
	h.createRecord(t, usdcTransfer().with("minAmountOut", "12.5"))
}

func TestSimulateRefusesTheCreatesTerms(t *testing.T) {
	h := newTransferHarness(t)
	for _, member := range []string{"simulationId", "minAmountOut"} {
		value := "1"
		if member == "simulationId" {
			value = intent.NewSimulationID(h.clock.Now())
		}
		resp, raw := h.post(t, simulatePath, testKeyA, usdcTransfer().with(member, value).String())
		if p := assertProblem(t, resp, raw, problem.BadRequest, simulatePath); p.Details["field"] != member {
			t.Fatalf("details %v, want field %s", p.Details, member)
		}
	}
	resp, raw := h.post(t, transfersPath, testKeyA, usdcTransfer().with("simulationId", "sim_nope").String())
	assertProblem(t, resp, raw, problem.BadRequest, transfersPath)
	resp, raw = h.post(t, transfersPath, testKeyA, usdcTransfer().with("slippageBps", "100").String())
	assertProblem(t, resp, raw, problem.BadRequest, transfersPath)
}

// A store that cannot tell whether it holds the simulation is a 503 with Retry-After, never a
// false quote-expired.
func TestCreateWhenTheQuoteStoreDoesNotAnswerIs503(t *testing.T) {
	h := newTransferHarness(t, func(c *transferConfig) {
		c.quotes = func(intent.QuoteStore) intent.QuoteStore { return unansweringQuotes{} }
	})
	sim := h.simulateQuote(t, usdcToWETH())
	resp, raw := h.post(t, transfersPath, testKeyA, usdcToWETH().with("simulationId", sim.SimulationID).String())
	assertProblem(t, resp, raw, problem.ServiceUnavailable, transfersPath)
	if resp.Header.Get("Retry-After") == "" {
		t.Fatal("503 without Retry-After")
	}
}

type unansweringQuotes struct{}

func (unansweringQuotes) Put(context.Context, intent.SimulatedQuote) error {
	return context.DeadlineExceeded
}

func (unansweringQuotes) Get(context.Context, string) (intent.SimulatedQuote, bool, error) {
	return intent.SimulatedQuote{}, false, context.DeadlineExceeded
}
