package apiserver

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// balanceChainData answers a holder's balances, by token CAIP-10, and the chain's default gas
// price; nothing else of the chain.
type balanceChainData map[string]*big.Int

func (b balanceChainData) Read(_ context.Context, c registry.Chain, _ intent.ChainQuery) (intent.ChainState, error) {
	return intent.ChainState{Balances: b, GasPrice: c.DefaultGasPriceWei}, nil
}

// exactWETH is exactly 100 WETH to arrive at bob for USDC on Sepolia, at most 101 USDC escrowed.
func exactWETH() transferBody {
	return usdcToWETH().with("tradeType", "exactOutput", "maxAmountIn", "101")
}

// Exact output end to end over HTTP (issue 45 item 2): the simulation quotes the input, the create
// keeps it and encodes an order that escrows it for exactly the amount, without decay or
// override, and the record shows the trade type and the escrow. Each refusal is a problem, and
// stores nothing.
func TestExactOutputOverHTTP(t *testing.T) {
	balances := balanceChainData{
		caip10(sepolia, usdcSepolia):                 big.NewInt(100_852_986), // one base unit short of the escrow
		caip10(sepolia, registry.NativeTokenAddress): new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil),
	}
	h := newTransferHarness(t, func(c *transferConfig) { c.chainData = balances })

	balances[caip10(sepolia, usdcSepolia)] = big.NewInt(200_000_000)
	sim := h.simulateQuote(t, exactWETH())
	// WETH and USDC are both $1 here: 100 / 99.65% (30+5 bps) = 100.35123 USDC needed, rounded up,
	// escrowed raised by 50 bps: 100.852987.
	if q := sim.Quote; q == nil || q.TradeType != intent.TradeExactOutput || q.AmountOut != "100" || q.MinAmountOut != "100" || q.AmountIn != "100.852987" {
		t.Fatalf("the simulation's quote %+v; want exactly 100 WETH for 100.852987 USDC", sim.Quote)
	}
	if a := sim.Auction; a == nil || a.StartAmountOut != "100" || a.ExclusivityOverrideBps != 0 {
		t.Fatalf("the simulation's auction %+v; want no decay from 100", sim.Auction)
	}
	rec := h.createRecord(t, exactWETH().with("simulationId", sim.SimulationID))
	if rec.Request.TradeType != "exactOutput" || rec.Request.MaxAmountIn != "101" || rec.Request.Amount != "100" {
		t.Errorf("the record's request %+v; want tradeType exactOutput, maxAmountIn 101", rec.Request)
	}
	if q := rec.Quote; q == nil || q.TradeType != intent.TradeExactOutput || q.AmountIn != "100.852987" || q.MinAmountOut != "100" {
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
	hundred := new(big.Int).Mul(big.NewInt(100), new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil))
	if order.AmountIn.Int64() != 100_852_987 || order.MinAmountOut.Cmp(hundred) != 0 || order.StartAmountOut.Cmp(hundred) != 0 ||
		order.ExclusivityOverrideBps.Sign() != 0 {
		t.Errorf("the order escrows %s for %s..%s (override %s); want 100852987 for exactly 100e18", order.AmountIn, order.StartAmountOut, order.MinAmountOut, order.ExclusivityOverrideBps)
	}
	if rec.Calls == nil {
		t.Errorf("the record has no calls to send")
	}

	// Refusals: none stores an intent.
	balances[caip10(sepolia, usdcSepolia)] = big.NewInt(100_852_986)
	for name, tt := range map[string]struct {
		body  transferBody
		want  problem.Type
		field string
	}{
		"an unknown trade type":     {exactWETH().with("tradeType", "exactOut", "maxAmountIn", nil), problem.BadRequest, "tradeType"},
		"a trade type not a string": {exactWETH().with("tradeType", 1), problem.BadRequest, "tradeType"},
		"a malformed maxAmountIn":   {exactWETH().with("maxAmountIn", "1e2"), problem.BadRequest, "maxAmountIn"},
		"maxAmountIn of an input":   {usdcToWETH().with("maxAmountIn", "101"), problem.BadRequest, "maxAmountIn"},
		"an escrow above maxAmountIn": {exactWETH().with("maxAmountIn", "100.852986"),
			problem.ValidationFailed, "maxAmountIn"},
		"a maximum input the user cannot cover": {exactWETH(), problem.ValidationFailed, "maxAmountIn"},
		"a quote kept for another maxAmountIn":  {exactWETH().with("maxAmountIn", "102", "simulationId", sim.SimulationID), problem.QuoteMismatch, "simulationId"},
	} {
		for _, path := range []string{simulatePath, transfersPath} {
			if tt.want == problem.QuoteMismatch && path == simulatePath {
				continue // a simulation ignores simulationId
			}
			resp, raw := h.post(t, path, testKeyA, tt.body.String())
			if resp.StatusCode != tt.want.Status {
				t.Errorf("%s, %s: %d %s; want %d", name, path, resp.StatusCode, raw, tt.want.Status)
				continue
			}
			p := assertProblem(t, resp, raw, tt.want, path)
			if p.Details["field"] != tt.field {
				t.Errorf("%s, %s: details %v; want field %s", name, path, p.Details, tt.field)
			}
			if name == "a maximum input the user cannot cover" && (p.Details["required"] != "100.852987" || p.Details["available"] != "100.852986") {
				t.Errorf("%s, %s: details %v; want 100.852987 required, 100.852986 available", name, path, p.Details)
			}
		}
	}
	var stored v1alpha1.TransferIntentList
	if err := h.kube.List(context.Background(), &stored); err != nil {
		t.Fatal(err)
	}
	if len(stored.Items) != 1 {
		t.Errorf("%d intents stored; want only the one created", len(stored.Items))
	}
}
