package intent

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// gasOnArrivalService is the test service with Base (eip155:8453) offering gas on arrival up to
// 0.01 ETH, and Ethereum's Permit2 verified (gasless orders from it).
func gasOnArrivalService(t *testing.T) *Service {
	t.Helper()
	cat := testCatalog()
	base := cat.chains["eip155:8453"]
	base.MaxGasOnArrival = big.NewInt(10_000_000_000_000_000) // 0.01 ETH
	cat.chains[base.ID] = base
	eth := cat.chains["eip155:1"]
	eth.Permit2Verified, eth.Permit2Address = true, "0x000000000022D473030F116dDEE9F6B43aC78BA3"
	cat.chains[eth.ID] = eth
	return newTestService(t, func(c *Config) { c.Catalog = cat })
}

// bridgeWithGas is 100 USDC from Ethereum to Base, with gas on arrival when gas is not empty.
func bridgeWithGas(amount, gas string) Request {
	r := Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob), Asset: single("eip155:1", usdcMainnet), Amount: amount}
	if gas != "" {
		r.GasOnArrival = &GasOnArrival{Amount: gas}
	}
	return r
}

func TestGasOnArrivalIsParsedToItsCanonicalForm(t *testing.T) {
	for in, want := range map[string]string{"0.002": "0.002", "0.0020": "0.002", "1.000": "1", "3": "3"} {
		p := mustParse(t, bridgeWithGas("100", in))
		if p.GasOnArrival != want || p.Request().GasOnArrival.Amount != want {
			t.Errorf("gasOnArrival %q parsed as %q (request %+v); want %q", in, p.GasOnArrival, p.Request().GasOnArrival, want)
		}
	}
	for _, bad := range []string{"", "-1", "0x1", "1e-3", ".5", "1.", "01", " 1"} {
		r := bridgeWithGas("100", "")
		r.GasOnArrival = &GasOnArrival{Amount: bad}
		_, err := ParseRequest(r)
		if p := asProblem(t, err); p.Kind != KindBadRequest || p.Field != "gasOnArrival.amount" {
			t.Errorf("gasOnArrival %q: %v; want bad-request on gasOnArrival.amount", bad, err)
		}
	}
	if p := mustParse(t, bridgeWithGas("100", "")); p.GasOnArrival != "" || p.Request().GasOnArrival != nil {
		t.Errorf("a request without gasOnArrival parsed as %q", p.GasOnArrival)
	}
}

// Every refusal of a gas on arrival is a 422 naming the field: a transfer, a chain that does not
// offer it, zero, more decimals than the native token has, and more than the chain's bound.
func TestGasOnArrivalIsBoundedByTheDestinationChain(t *testing.T) {
	svc := gasOnArrivalService(t)
	transfer := Request{From: acct("eip155:8453", alice), To: acct("eip155:8453", bob), Asset: single("eip155:8453", usdcBase),
		Amount: "100", GasOnArrival: &GasOnArrival{Amount: "0.001"}}
	toEthereum := Request{From: acct("eip155:8453", alice), To: acct("eip155:1", bob), Asset: single("eip155:8453", usdcBase),
		Amount: "100", GasOnArrival: &GasOnArrival{Amount: "0.001"}}
	for name, tt := range map[string]struct {
		req   Request
		field string
	}{
		"a transfer":                {transfer, "gasOnArrival"},
		"a chain without a bound":   {toEthereum, "gasOnArrival"},
		"zero":                      {bridgeWithGas("100", "0"), "gasOnArrival.amount"},
		"19 decimals of ETH":        {bridgeWithGas("100", "0.0000000000000000001"), "gasOnArrival.amount"},
		"one wei above the bound":   {bridgeWithGas("100", "0.010000000000000001"), "gasOnArrival.amount"},
		"twice the chain's maximum": {bridgeWithGas("100", "0.02"), "gasOnArrival.amount"},
	} {
		_, err := svc.Prepare(context.Background(), "acme", mustParse(t, tt.req), testNonce)
		if err == nil {
			t.Errorf("%s: accepted; want 422", name)
			continue
		}
		if p := asProblem(t, err); p.Kind != KindValidationFailed || p.Field != tt.field {
			t.Errorf("%s: %v (%s on %q); want validation-failed on %s", name, err, p.Kind, p.Field, tt.field)
		}
	}
	_, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithGas("100", "0.02")), testNonce)
	if d := asProblem(t, err).Details; d["maxGasOnArrival"] != "0.01" || d["symbol"] != "ETH" {
		t.Errorf("the details of a drop above the bound: %v; want maxGasOnArrival 0.01 ETH", d)
	}
	plan, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithGas("100", "0.01")), testNonce)
	if err != nil || !plan.Valid {
		t.Fatalf("a drop at the bound: %v, %v; want it valid", err, plan.Errors)
	}
}

// The drop's cost is converted to the input token at the prices the quote converts with, rounded
// up, and taken off the output; the quote shows it as its own line, and the order (its tx, the
// one a gasless user signs too) carries the drop as its nativeDropAmount.
func TestGasOnArrivalIsPricedIntoTheQuoteAndCarriedByTheOrder(t *testing.T) {
	svc := gasOnArrivalService(t)
	plain, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithGas("100", "")), testNonce)
	if err != nil {
		t.Fatal(err)
	}
	for _, gasless := range []bool{false, true} {
		p := mustParse(t, bridgeWithGas("100", "0.002"))
		p.Gasless = gasless
		plan, err := svc.Prepare(context.Background(), "acme", p, testNonce)
		if err != nil || !plan.Valid {
			t.Fatalf("gasless %v: %v, %v", gasless, err, plan.Errors)
		}
		// 0.002 ETH x $3150.25 / $1.00 = 6.3005 USDC, exactly. 100 USDC less 20 bps of bridge
		// fees is 99.8; less 6.3005 is 93.4995 USDC out, against 99.8 without the drop.
		q := plan.Quote()
		want := GasOnArrivalQuote{Amount: "0.002", Symbol: "ETH", Cost: "6.3005", CostSymbol: "USDC"}
		if q.GasOnArrival == nil || *q.GasOnArrival != want {
			t.Errorf("gasless %v: the quote's gas on arrival is %+v; want %+v", gasless, q.GasOnArrival, want)
		}
		if q.AmountOut != "93.4995" || plain.Quote().AmountOut != "99.8" {
			t.Errorf("gasless %v: amountOut %s with the drop, %s without; want 93.4995 and 99.8", gasless, q.AmountOut, plain.Quote().AmountOut)
		}
		if plan.Amount.Cmp(plain.Amount) != 0 || plan.Fees != plain.Fees {
			t.Errorf("gasless %v: the drop changed the amount given up (%s) or the fees (%+v)", gasless, plan.Amount, plan.Fees)
		}
		order, err := settlement.OrderOfOpenData(common.FromHex(plan.Tx.Data))
		if err != nil {
			t.Fatal(err)
		}
		if order.NativeDropAmount.Cmp(big.NewInt(2_000_000_000_000_000)) != 0 {
			t.Errorf("gasless %v: the order's nativeDropAmount is %s; want 0.002 ETH in wei", gasless, order.NativeDropAmount)
		}
		if id, _ := settlement.ID(order); id != plan.OrderID {
			t.Errorf("gasless %v: the orderId %s is not the id of the order its tx opens, %s", gasless, plan.OrderID.Hex(), id.Hex())
		}
	}
	if order, _ := settlement.OrderOfOpenData(common.FromHex(plain.Tx.Data)); order.NativeDropAmount.Sign() != 0 {
		t.Errorf("an order without gas on arrival has nativeDropAmount %s", order.NativeDropAmount)
	}
	// An amount that cannot pay for the drop has no quote.
	small, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithGas("25", "0.01")), testNonce)
	if err != nil || small.Valid || !contains(small.Errors, "too small to pay the gas on arrival") {
		t.Errorf("25 USDC with 31.5025 USDC of gas on arrival: %v, valid %v, %v; want valid:false, too small", err, small.Valid, small.Errors)
	}
}

// The request for quotes tells the fillers about the drop they would pay.
func TestTheMarketIsToldOfTheGasOnArrival(t *testing.T) {
	market := &fakeMarket{}
	cat := gasOnArrivalService(t).catalog
	svc := newTestService(t, func(c *Config) { c.Catalog = cat; c.Auction.Market = market })
	if _, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithGas("100", "0.002")), testNonce); err != nil {
		t.Fatal(err)
	}
	if market.asked() != 1 || market.queries[0].NativeDrop == nil || market.queries[0].NativeDrop.Int64() != 2_000_000_000_000_000 {
		t.Errorf("the market was asked %+v; want one query with the drop, 2e15 wei", market.queries)
	}
}

// The cost rounds up to the input token's base unit: the filler is never short, and the user pays
// exactly the cost the quote shows (the output is computed from the rounded cost).
func TestGasOnArrivalCostRoundsUp(t *testing.T) {
	eth := token{Token: tokenOf("ETH", 18, "3150.25"), native: true}
	usdc := token{Token: tokenOf("USDC", 6, "1")}
	weth := token{Token: tokenOf("ETH", 18, "")}
	for _, tt := range []struct {
		in   token
		drop int64
		want int64
	}{
		{usdc, 100_000_000_000, 316},             // 1e-7 ETH = 315.025 base units of USDC, up to 316
		{usdc, 2_000_000_000_000_000, 6_300_500}, // 0.002 ETH = 6.3005 USDC, exact
		{weth, 1_234_567, 1_234_567},             // ETH for ETH: one for one, no price needed
	} {
		got, err := GasOnArrivalCost(eth, tt.in, big.NewInt(tt.drop))
		if err != nil || got.Int64() != tt.want {
			t.Errorf("%d wei in %s: %v, %v; want %d", tt.drop, tt.in.Symbol, got, err, tt.want)
		}
	}
	if _, err := GasOnArrivalCost(eth, token{Token: tokenOf("DAI", 18, "")}, big.NewInt(1)); err == nil {
		t.Error("a drop valued in a token without a price: no error")
	}
}

// A create that names a simulation keeps its gas on arrival's cost with its amounts, and one that
// changes the drop is a different request (quote-mismatch).
func TestAFirmQuoteKeepsItsGasOnArrival(t *testing.T) {
	svc := gasOnArrivalService(t)
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, bridgeWithGas("100", "0.002")))
	if err != nil || !res.Valid || res.Quote.GasOnArrival == nil {
		t.Fatalf("simulate: %v, %+v", err, res)
	}
	create := mustParse(t, bridgeWithGas("100", "0.0020"))
	create.SimulationID = res.SimulationID
	plan, err := svc.Prepare(context.Background(), "acme", create, testNonce)
	if err != nil {
		t.Fatal(err)
	}
	if q := plan.Quote(); q.AmountOut != res.Quote.AmountOut || *q.GasOnArrival != *res.Quote.GasOnArrival {
		t.Errorf("the create's quote %+v (%+v); want the simulation's %+v (%+v)", q, q.GasOnArrival, res.Quote, res.Quote.GasOnArrival)
	}
	other := mustParse(t, bridgeWithGas("100", "0.003"))
	other.SimulationID = res.SimulationID
	if _, err := svc.Prepare(context.Background(), "acme", other, testNonce); asProblem(t, err).Kind != KindQuoteMismatch {
		t.Errorf("a create with another drop: %v; want quote-mismatch", err)
	}
}

func tokenOf(symbol string, decimals int32, priceUSD string) registry.Token {
	return registry.Token{Symbol: symbol, Decimals: decimals, PriceUSD: priceUSD}
}

// The drop is valued at the destination native token's price as the catalog gives it, the price
// an ETH output would convert at: its TokenDefinition's first, the Chain's when it has none.
func TestGasOnArrivalIsValuedAtTheNativeTokensDefinedPrice(t *testing.T) {
	cat := testCatalog()
	base := cat.chains["eip155:8453"]
	base.MaxGasOnArrival = big.NewInt(10_000_000_000_000_000)
	cat.chains[base.ID] = base
	native := "eip155:8453:" + registry.NativeTokenAddress
	cat.tokens[native] = registry.Token{Symbol: "ETH", ChainID: base.ID, Address: native, Decimals: 18, PriceUSD: "3000"}
	svc := newTestService(t, func(c *Config) { c.Catalog = cat })
	plan, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithGas("100", "0.002")), testNonce)
	if err != nil || !plan.Valid {
		t.Fatalf("%v, %v", err, plan.Errors)
	}
	// 0.002 ETH x $3000 (the TokenDefinition's, not the Chain's $3150.25) = 6 USDC.
	if q := plan.Quote(); q.GasOnArrival == nil || q.GasOnArrival.Cost != "6" || q.AmountOut != "93.8" {
		t.Errorf("quote %+v (gas on arrival %+v); want a cost of 6 USDC and 93.8 out", q, q.GasOnArrival)
	}
}
