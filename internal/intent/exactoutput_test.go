package intent

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
)

// exactOut is an exact-output swap on Ethereum: amount of tokenOut arrives at alice.
func exactOut(in, out, amount, maxIn string) Request {
	return Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice), Asset: pair("eip155:1", in, "eip155:1", out),
		Amount: amount, TradeType: string(TradeExactOutput), MaxAmountIn: maxIn}
}

func TestTradeTypeIsParsed(t *testing.T) {
	p := mustParse(t, exactOut(registryNative, usdcMainnet, "100", "0.0500"))
	if !p.ExactOutput || p.MaxAmountIn != "0.05" || p.TradeType() != TradeExactOutput {
		t.Fatalf("parsed %+v", p)
	}
	if r := p.Request(); r.TradeType != "exactOutput" || r.MaxAmountIn != "0.05" {
		t.Fatalf("normalised request %+v", r)
	}
	in := exactOut(registryNative, usdcMainnet, "100", "")
	in.TradeType = "exactInput"
	if p := mustParse(t, in); p.ExactOutput || p.Request().TradeType != "" {
		t.Fatalf("exactInput parsed as %+v: it stays implicit, as an absent tradeType", p)
	}
	for name, tt := range map[string]struct {
		tradeType, maxIn, field string
	}{
		"an unknown trade type":          {"exactOut", "", "tradeType"},
		"the trade type in another case": {"ExactOutput", "", "tradeType"},
		"a malformed maxAmountIn":        {"exactOutput", "1e3", "maxAmountIn"},
		"a negative maxAmountIn":         {"exactOutput", "-1", "maxAmountIn"},
		"maxAmountIn of an exact input":  {"exactInput", "1", "maxAmountIn"},
	} {
		r := exactOut(registryNative, usdcMainnet, "100", tt.maxIn)
		r.TradeType = tt.tradeType
		_, err := ParseRequest(r)
		if p := asProblem(t, err); p.Kind != KindBadRequest || p.Field != tt.field {
			t.Errorf("%s: %v; want bad-request on %s", name, err, tt.field)
		}
	}
}

// 6278.44825 USDC is what 2 ETH buy forward (TestQuoteSetsTheOrdersMinimum): asked for exactly
// that, the service quotes exactly 2 ETH, and escrows 2 ETH raised by the 50 bps of slippage.
func TestExactOutputQuotesTheInverse(t *testing.T) {
	svc := newTestService(t, nil)
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, exactOut(registryNative, usdcMainnet, "6278.44825", "")))
	if err != nil {
		t.Fatal(err)
	}
	q := res.Quote
	if !res.Valid || q == nil || q.TradeType != TradeExactOutput || q.AmountOut != "6278.44825" || q.MinAmountOut != "6278.44825" || q.AmountIn != "2.01" {
		t.Fatalf("valid %v errors %v quote %+v; want 2.01 ETH escrowed for exactly 6278.44825 USDC", res.Valid, res.Errors, q)
	}
	if a := res.Auction; a == nil || a.StartAmountOut != "6278.44825" || a.MinAmountOut != "6278.44825" || a.ExclusivityOverrideBps != 0 {
		t.Fatalf("auction %+v: the output must not decay", a)
	}
	if res.Tx == nil || res.Tx.Value != "2010000000000000000" {
		t.Fatalf("tx %+v: the order escrows the quoted input as its value", res.Tx)
	}
}

// The input needed is the least whose forward quote delivers the exact output: rounded up, one
// base unit less falls short. Checked over outputs that do not divide evenly, with the gas on
// arrival's cost and the percentage fees in the way.
func TestExactOutputRoundsTheInputUp(t *testing.T) {
	svc := gasOnArrivalService(t)
	for _, amount := range []string{"100", "123.456789", "1000.000001", "99999.999999"} {
		for _, gas := range []string{"", "0.001"} {
			r := bridgeWithGas(amount, gas)
			r.TradeType = string(TradeExactOutput)
			r.Asset = pair("eip155:1", registryNative, "eip155:8453", usdcBase)
			p := mustParse(t, r)
			plan, err := svc.Prepare(context.Background(), "acme", p, testNonce)
			if err != nil {
				t.Fatalf("%s (gas %q): %v", amount, gas, err)
			}
			exact := plan.MinAmountOut
			if plan.AmountOut.Cmp(exact) != 0 || plan.AmountInQuoted == nil {
				t.Fatalf("%s: amountOut %s, minAmountOut %s, needed %v", amount, plan.AmountOut, exact, plan.AmountInQuoted)
			}
			if want := EscrowOf(plan.AmountInQuoted, DefaultSlippageBps); plan.Amount.Cmp(want) != 0 {
				t.Errorf("%s: escrow %s, want needed %s raised by 50 bps: %s", amount, plan.Amount, plan.AmountInQuoted, want)
			}
			forward := func(in *big.Int) *big.Int {
				fp := p
				fp.ExactOutput = false
				q := Plan{Type: plan.Type, Amount: in, NativeDrop: plan.NativeDrop}
				r, _ := svc.resolve(fp)
				quoteOrder(&q, r, svc.fees.For(plan.ResolvedPath), 0)
				if q.AmountOut == nil {
					return new(big.Int)
				}
				return q.AmountOut
			}
			if got := forward(plan.AmountInQuoted); got.Cmp(exact) < 0 {
				t.Errorf("%s (gas %q): %s in buys %s forward, less than the exact %s", amount, gas, plan.AmountInQuoted, got, exact)
			}
			less := new(big.Int).Sub(plan.AmountInQuoted, big.NewInt(1))
			if got := forward(less); got.Cmp(exact) >= 0 {
				t.Errorf("%s (gas %q): %s in already buys %s: the input needed is not the least", amount, gas, less, got)
			}
		}
	}
}

// The escrow is what the user's balance, allowance and maxAmountIn are checked against, and
// each refusal is a 422 naming the field that sets the input.
func TestExactOutputRefusals(t *testing.T) {
	svc := newTestService(t, func(c *Config) {
		c.ChainData = fakeChainData{gasPrice: gwei(20), balances: map[string]*big.Int{
			"eip155:1:" + usdcMainnet:    big.NewInt(3_000_000_000), // 3,000 USDC
			"eip155:1:" + registryNative: new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil),
		}}
	})
	// 1 WETH at $3150.25 needs 3161.31... USDC with the swap's 35 bps: more than alice holds.
	_, err := svc.Simulate(context.Background(), "acme", mustParse(t, exactOut(usdcMainnet, wethMainnet, "1", "4000")))
	p := asProblem(t, err)
	if p.Kind != KindValidationFailed || p.Field != "maxAmountIn" || p.Details["available"] != "3000" || p.Details["required"] != "3177.121176" {
		t.Fatalf("above the balance: %v %+v; want validation-failed on maxAmountIn, 3177.121176 required of 3000 available", err, p)
	}
	_, err = svc.Simulate(context.Background(), "acme", mustParse(t, exactOut(usdcMainnet, wethMainnet, "1", "")))
	if p := asProblem(t, err); p.Kind != KindValidationFailed || p.Field != "amount" {
		t.Fatalf("above the balance, no maxAmountIn: %v; want validation-failed on amount", err)
	}
	_, err = svc.Simulate(context.Background(), "acme", mustParse(t, exactOut(usdcMainnet, wethMainnet, "0.5", "1500")))
	if p := asProblem(t, err); p.Kind != KindValidationFailed || p.Field != "maxAmountIn" || p.Details["required"] != "1588.560588" || p.Details["maxAmountIn"] != "1500" {
		t.Fatalf("escrow above maxAmountIn: %v; want validation-failed on maxAmountIn", err)
	}
	if _, err := svc.Simulate(context.Background(), "acme", mustParse(t, exactOut(usdcMainnet, wethMainnet, "0.5", "1588.560588"))); err != nil {
		t.Fatalf("escrow exactly maxAmountIn: %v", err)
	}
	_, err = svc.Simulate(context.Background(), "acme", mustParse(t, exactOut(usdcMainnet, wethMainnet, "0.5", "1588.5605881")))
	if p := asProblem(t, err); p.Kind != KindValidationFailed || p.Field != "maxAmountIn" {
		t.Fatalf("maxAmountIn with 7 decimals of USDC: %v", err)
	}
	_, err = svc.Simulate(context.Background(), "acme", mustParse(t, exactOut(usdcMainnet, wethMainnet, "0.0000000000000000001", "")))
	if p := asProblem(t, err); p.Kind != KindValidationFailed || p.Field != "amount" {
		t.Fatalf("19 decimals of WETH: %v; want the amount read in the output token's decimals", err)
	}
}

// A firm quote keeps the simulated escrow; a create that changes the trade type or maxAmountIn is
// another request.
func TestExactOutputFirmQuote(t *testing.T) {
	svc := newTestService(t, nil)
	req := exactOut(registryNative, usdcMainnet, "100", "1")
	sim, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
	if err != nil {
		t.Fatal(err)
	}
	create := req
	create.SimulationID = sim.SimulationID
	plan, err := svc.Prepare(context.Background(), "acme", mustParse(t, create), testNonce)
	if err != nil {
		t.Fatal(err)
	}
	if q := plan.Quote(); q.AmountIn != sim.Quote.AmountIn || q.MinAmountOut != "100" || plan.TradeType != TradeExactOutput {
		t.Fatalf("create quote %+v; simulated %+v", q, sim.Quote)
	}
	for name, change := range map[string]func(*Request){
		"exactInput":           func(r *Request) { r.TradeType, r.MaxAmountIn = "", "" },
		"another maxAmountIn":  func(r *Request) { r.MaxAmountIn = "2" },
		"no maxAmountIn":       func(r *Request) { r.MaxAmountIn = "" },
		"another exact output": func(r *Request) { r.Amount = "100.000001" },
	} {
		r := create
		change(&r)
		if _, err := svc.Prepare(context.Background(), "acme", mustParse(t, r), testNonce); !isKind(err, KindQuoteMismatch) {
			t.Errorf("%s: %v; want quote-mismatch", name, err)
		}
	}
}

// A winner's ask at most the feed-priced escrow is escrowed exactly, under an exclusivity no one
// may override; an ask above it, or a lie far below the feeds, leaves the feed's escrow and an
// open order.
func TestExactOutputMarket(t *testing.T) {
	market := &fakeMarket{}
	svc := newTestService(t, func(c *Config) {
		c.Auction = AuctionConfig{Market: market, OverrideBps: 25, Exclusivity: 30 * time.Second}
	})
	req := mustParse(t, exactOut(registryNative, usdcMainnet, "6278.44825", ""))
	feedEscrow := big.NewInt(2_010_000_000_000_000_000)
	for name, tt := range map[string]struct {
		ask    int64
		escrow *big.Int
		winner bool
	}{
		"an ask below the feeds":         {1_990_000_000_000_000_000, big.NewInt(1_990_000_000_000_000_000), true},
		"an ask at the feed escrow":      {2_010_000_000_000_000_000, feedEscrow, true},
		"an ask one wei above":           {2_010_000_000_000_000_001, feedEscrow, false},
		"a lie 10% below the feeds' 2.0": {1_818_181_818_181_818_181, feedEscrow, false},
	} {
		market.answer = MarketAnswer{Asked: 2, Quotes: 1, Winner: "f", WinnerAddress: winnerPayout, AmountIn: big.NewInt(tt.ask)}
		plan, err := svc.Prepare(context.Background(), "acme", req, testNonce)
		if err != nil {
			t.Fatal(err)
		}
		q := market.queries[len(market.queries)-1]
		if q.TradeType != TradeExactOutput || q.Floor.String() != "6278448250" || q.AmountIn.Cmp(feedEscrow) != 0 || q.MinAmountIn.String() != "1818181818181818182" {
			t.Fatalf("%s: asked %+v", name, q)
		}
		m := plan.Market
		if plan.Amount.Cmp(tt.escrow) != 0 || m.StartAmountOut.Cmp(plan.MinAmountOut) != 0 || m.OverrideBps != 0 {
			t.Errorf("%s: escrow %s (want %s), terms %+v", name, plan.Amount, tt.escrow, m)
		}
		if won := m.ExclusiveFiller == winnerPayout; won != tt.winner || (won && m.ExclusivityDeadline != uint64(fixedNow.Unix()+30)) {
			t.Errorf("%s: exclusive filler %s until %d; want a winner: %v", name, m.ExclusiveFiller, m.ExclusivityDeadline, tt.winner)
		}
		if !tt.winner && m.ExclusiveFiller != (common.Address{}) {
			t.Errorf("%s: exclusive %s", name, m.ExclusiveFiller)
		}
	}
}

// A transfer delivers its amount exactly: exactOutput changes nothing.
func TestExactOutputTransferIsATransfer(t *testing.T) {
	svc := newTestService(t, nil)
	r := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "12.5", TradeType: "exactOutput"}
	plan, err := svc.Prepare(context.Background(), "acme", mustParse(t, r), testNonce)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Type != TypeTransfer || plan.Amount.String() != "12500000" || plan.TradeType != "" {
		t.Fatalf("plan %+v", plan)
	}
}

// A gasless exact output: the user's Permit2 signature permits exactly the escrow, which is the
// order's input.
func TestExactOutputGasless(t *testing.T) {
	svc := gasOnArrivalService(t)
	r := bridgeWithGas("100", "0.001")
	r.TradeType, r.Execution = string(TradeExactOutput), string(ExecutionGasless)
	plan, err := svc.Prepare(context.Background(), "acme", mustParse(t, r), testNonce)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Valid || plan.Gasless == nil || plan.MinAmountOut.String() != "100000000" {
		t.Fatalf("valid %v errors %v gasless %+v min %s", plan.Valid, plan.Errors, plan.Gasless, plan.MinAmountOut)
	}
	order, err := settlement.OrderOfOpenData(common.FromHex(plan.Tx.Data))
	if err != nil {
		t.Fatal(err)
	}
	g, err := settlement.Gasless(order, unixSeconds(plan.Gasless.OpenDeadline))
	if err != nil {
		t.Fatal(err)
	}
	typed, err := settlement.PermitTypedData(g, plan.Gasless.Permit2)
	if err != nil {
		t.Fatal(err)
	}
	permitted, _ := typed.Message["permitted"].(map[string]any)
	if order.AmountIn.Cmp(plan.Amount) != 0 || permitted == nil || permitted["amount"] != plan.Amount.String() {
		t.Fatalf("order amountIn %s, permitted %v; want the escrow %s", order.AmountIn, typed.Message["permitted"], plan.Amount)
	}
	if plan.Amount.Cmp(EscrowOf(plan.AmountInQuoted, DefaultSlippageBps)) != 0 || plan.GasOnArrivalCost == nil {
		t.Fatalf("escrow %s for needed %s, gas on arrival cost %v", plan.Amount, plan.AmountInQuoted, plan.GasOnArrivalCost)
	}
}

// The route's limits apply to the escrow of an exact output: 422 on amount, the escrow named.
func TestExactOutputLimitsApplyToTheEscrow(t *testing.T) {
	svc := newTestService(t, nil)
	_, err := svc.Simulate(context.Background(), "acme", mustParse(t, exactOut(usdcMainnet, wethMainnet, "0.000001", "")))
	p := asProblem(t, err)
	if p.Kind != KindValidationFailed || p.Field != "amount" || p.Details["symbol"] != "USDC" || !contains([]string{p.Detail}, "the exact output's escrow") {
		t.Fatalf("an exact output of dust: %v %+v; want validation-failed on amount naming the escrow in USDC", err, p.Details)
	}
}
