package intent

import (
	"context"
	"errors"
	"testing"
)

// 2 ETH at $3150.25 into USDC at $1.00: 6300.50 USDC, less the swap's 35 bps (6278.44825), less the
// slippage tolerance, rounded down to USDC's 6 decimals.
func TestQuoteSetsTheOrdersMinimum(t *testing.T) {
	svc := newTestService(t, nil)
	for _, tt := range []struct {
		slippage *int
		min      string
	}{
		{nil, "6247.056008"}, // 50 bps by default
		{intPtr(0), "6278.44825"},
		{intPtr(1000), "5650.603425"},
	} {
		req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice),
			Asset: pair("eip155:1", registryNative, "eip155:1", usdcMainnet), Amount: "2", SlippageBps: tt.slippage}
		res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
		if err != nil {
			t.Fatal(err)
		}
		if res.Quote == nil || res.Quote.AmountOut != "6278.44825" || res.Quote.MinAmountOut != tt.min {
			t.Errorf("slippage %v: quote %+v, want min %s", tt.slippage, res.Quote, tt.min)
		}
	}
}

func TestQuoteRefusals(t *testing.T) {
	if _, err := ParseRequest(Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob),
		Asset: single("eip155:1", usdcMainnet), Amount: "1", SlippageBps: intPtr(1001)}); !isKind(err, KindBadRequest) {
		t.Errorf("slippageBps 1001: %v, want a bad request", err)
	}
	catalog := testCatalog()
	weth := catalog.tokens["eip155:1:"+wethMainnet]
	weth.PriceUSD = ""
	catalog.tokens["eip155:1:"+wethMainnet] = weth
	svc := newTestService(t, func(c *Config) { c.Catalog = catalog })
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice),
		Asset: pair("eip155:1", usdcMainnet, "eip155:1", wethMainnet), Amount: "100"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
	if err != nil {
		t.Fatal(err)
	}
	if res.Valid || res.Tx != nil || res.Quote != nil || !contains(res.Errors, "no quote from USDC to WETH") {
		t.Errorf("a swap with no price: valid %v tx %v quote %v errors %v", res.Valid, res.Tx, res.Quote, res.Errors)
	}
	dust := Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice),
		Asset: pair("eip155:1", registryNative, "eip155:1", usdcMainnet), Amount: "0.000000000001"}
	// Its gas alone is worth far more than its amount: the route's minimum refuses it first.
	if _, err := svc.Simulate(context.Background(), "acme", mustParse(t, dust)); !isKind(err, KindValidationFailed) {
		t.Errorf("a swap of dust: %v, want validation-failed below the route's minimum", err)
	}
}

func intPtr(v int) *int { return &v }

func isKind(err error, k ProblemKind) bool {
	var p *Problem
	return errors.As(err, &p) && p.Kind == k
}
