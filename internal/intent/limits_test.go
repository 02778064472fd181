package intent

import (
	"context"
	"math/big"
	"testing"
	"time"
)

// feesTakeAtMost reports whether the fees of in, as ComputeFees prices them (gasUSD and
// percentageFeeUSD, exact), take at most shareBps of the amount's USD value.
func feesTakeAtMost(in FeeInputs, shareBps uint32) bool {
	total := new(big.Rat).Add(gasUSD(in), percentageFeeUSD(in))
	allowed := inUnits(in.Amount, in.TokenDecimals, in.TokenPriceUSD)
	allowed.Mul(allowed, big.NewRat(int64(shareBps), BpsDenominator))
	return total.Cmp(allowed) <= 0
}

func ratOf(s string) *big.Rat { r, _ := new(big.Rat).SetString(s); return r }

// The minimum is the first amount whose fees, priced by the simulation's own fee code, take no
// more than the share: one base unit less and they take more.
func TestMinAmountIsWhereTheFeesEatTheAmount(t *testing.T) {
	usdc := FeeInputs{GasUnits: 350_000, GasPriceWei: gwei(20), NativePriceUSD: ratOf("3150.25"), NativeDecimals: 18,
		TokenDecimals: 6, TokenPriceUSD: ratOf("1"), Bps: StepFee{ProtocolBps: 30, SolverBps: 5}}
	for _, share := range []uint32{BpsDenominator, 5_000, 100} {
		minimum := MinAmount(usdc, false, share)
		at, below := usdc, usdc
		at.Amount, below.Amount = minimum, new(big.Int).Sub(minimum, big.NewInt(1))
		if !feesTakeAtMost(at, share) {
			t.Errorf("share %d: at the minimum %s the fees take more than the share", share, minimum)
		}
		if feesTakeAtMost(below, share) {
			t.Errorf("share %d: one unit below the minimum %s the fees take no more than the share", share, minimum)
		}
		if got := FeeShareBps(at, false); got.Cmp(big.NewRat(int64(share), 1)) > 0 {
			t.Errorf("share %d: FeeShareBps at the minimum is %s", share, got.FloatString(4))
		}
	}
	// 0.007 ETH of gas is 22.05175 USD; the remaining 99.65% of the amount must cover it.
	if got := FormatAmount(MinAmount(usdc, false, BpsDenominator), 6); got != "22.129203" {
		t.Errorf("minimum of a mainnet USDC swap = %s, want 22.129203", got)
	}
}

// A native asset pays its gas in itself: the minimum needs no USD price at all.
func TestMinAmountOfTheGasTokenIsInWei(t *testing.T) {
	eth := FeeInputs{GasUnits: 350_000, GasPriceWei: gwei(20), NativeDecimals: 18, TokenDecimals: 18,
		Bps: StepFee{ProtocolBps: 10, SolverBps: 10}}
	minimum := MinAmount(eth, true, BpsDenominator)
	gas := new(big.Int).Mul(big.NewInt(350_000), gwei(20))
	// amount x (10000 - 20) >= gas x 10000, at the least such amount.
	lhs := func(a *big.Int) *big.Int { return new(big.Int).Mul(a, big.NewInt(BpsDenominator-20)) }
	rhs := new(big.Int).Mul(gas, big.NewInt(BpsDenominator))
	if lhs(minimum).Cmp(rhs) < 0 || lhs(new(big.Int).Sub(minimum, big.NewInt(1))).Cmp(rhs) >= 0 {
		t.Errorf("minimum %s is not the least amount that pays its gas %s", minimum, gas)
	}
}

func TestMinAmountWithoutPricesIsOneUnit(t *testing.T) {
	noPrice := FeeInputs{GasUnits: 350_000, GasPriceWei: gwei(20), NativeDecimals: 18, TokenDecimals: 6,
		Bps: StepFee{ProtocolBps: 30, SolverBps: 5}}
	if got := MinAmount(noPrice, false, BpsDenominator); got.Cmp(big.NewInt(1)) != 0 {
		t.Errorf("minimum without prices = %s, want 1 base unit", got)
	}
}

func TestFeeShareMustExceedEveryPath(t *testing.T) {
	for _, share := range []uint32{55, 10_001} { // swap+bridge is 30+5+10+10, over 100%
		if _, err := NewService(Config{Catalog: testCatalog(), FeeShareBps: share}); err == nil {
			t.Errorf("fee share %d bps accepted", share)
		}
	}
	if _, err := NewService(Config{Catalog: testCatalog(), FeeShareBps: 56}); err != nil {
		t.Errorf("fee share 56 bps (above swap+bridge's 55): %v", err)
	}
}

func mainnetSwap(amount string) Request {
	return Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice),
		Asset: pair("eip155:1", usdcMainnet, "eip155:1", wethMainnet), Amount: amount}
}

// withUSDCMax declares a maximum on mainnet USDC, as its TokenDefinition's spec.limits would.
func withUSDCMax(t *testing.T, base string) fakeCatalog {
	t.Helper()
	c := testCatalog()
	tok := c.tokens["eip155:1:"+usdcMainnet]
	tok.MaxAmount, _ = new(big.Int).SetString(base, 10)
	c.tokens["eip155:1:"+usdcMainnet] = tok
	return c
}

func TestSimulatePublishesTheRouteLimits(t *testing.T) {
	svc := newTestService(t, func(c *Config) { c.Catalog = withUSDCMax(t, "250000000000") })
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, mainnetSwap("100")))
	if err != nil {
		t.Fatal(err)
	}
	want := Limits{MinAmount: "22.129203", MaxAmount: "250000", Symbol: "USDC"}
	if res.Limits == nil || *res.Limits != want {
		t.Errorf("limits %+v, want %+v", res.Limits, want)
	}

	undeclared := newTestService(t, nil)
	if res, err = undeclared.Simulate(context.Background(), "acme", mustParse(t, mainnetSwap("100"))); err != nil {
		t.Fatal(err)
	}
	if res.Limits == nil || res.Limits.MaxAmount != "" || res.Limits.MinAmount != "22.129203" {
		t.Errorf("without a declared maximum: limits %+v, want only the minimum", res.Limits)
	}

	transfer := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "0.01"}
	if res, err = svc.Simulate(context.Background(), "acme", mustParse(t, transfer)); err != nil {
		t.Fatalf("a transfer below the swap minimum: %v", err)
	}
	if res.Limits != nil {
		t.Errorf("a transfer has limits %+v", res.Limits)
	}
}

func TestAmountsOutsideTheLimitsAreRefusedWithThem(t *testing.T) {
	svc := newTestService(t, func(c *Config) { c.Catalog = withUSDCMax(t, "250000000000") })
	tests := []struct {
		amount, want string // want: the detail's beginning, empty when accepted
	}{
		{"22.129202", "amount 22.129202 USDC is below this route's minimum of 22.129203 USDC"},
		{"22.129203", ""},
		{"250000", ""},
		{"250000.000001", "amount 250000.000001 USDC is above this route's maximum of 250000 USDC"},
	}
	for _, tt := range tests {
		_, err := svc.Simulate(context.Background(), "acme", mustParse(t, mainnetSwap(tt.amount)))
		if tt.want == "" {
			if err != nil {
				t.Errorf("amount %s: %v", tt.amount, err)
			}
			continue
		}
		p := asProblem(t, err)
		if p.Kind != KindValidationFailed || p.Field != "amount" || len(p.Detail) < len(tt.want) || p.Detail[:len(tt.want)] != tt.want {
			t.Errorf("amount %s: %s %s %q, want validation-failed on amount: %q", tt.amount, p.Kind, p.Field, p.Detail, tt.want)
		}
		want := map[string]any{"minAmount": "22.129203", "maxAmount": "250000", "symbol": "USDC", "requested": tt.amount}
		if len(p.Details) != len(want) {
			t.Errorf("amount %s: details %v, want %v", tt.amount, p.Details, want)
		}
		for k, v := range want {
			if p.Details[k] != v {
				t.Errorf("amount %s: details[%s] = %v, want %v", tt.amount, k, p.Details[k], v)
			}
		}
		// A create is refused the same way.
		if _, err := svc.Prepare(context.Background(), "acme", mustParse(t, mainnetSwap(tt.amount)), testNonce); !isKind(err, KindValidationFailed) {
			t.Errorf("create of amount %s: %v, want validation-failed", tt.amount, err)
		}
	}
}

// A create naming a simulation keeps the simulated minimum with its fees: the gas price rose in
// between, and the simulated amount is still accepted while the quote holds.
func TestFirmQuoteKeepsTheSimulatedMinimum(t *testing.T) {
	f := newFirmFixture(t, nil)
	f.req.Amount = "22.129203" // the minimum at the chain's default 20 gwei
	sim := f.simulate(t, f.req)
	if sim.Limits == nil || sim.Limits.MinAmount != f.req.Amount {
		t.Fatalf("limits %+v, want the minimum %s", sim.Limits, f.req.Amount)
	}
	f.svc.chainData = fakeChainData{gasPrice: gwei(40)}
	f.clock.SetTime(fixedNow.Add(DefaultQuoteTTL - time.Millisecond))

	if _, err := f.create(t, "alice", f.req); !isKind(err, KindValidationFailed) {
		t.Fatalf("a fresh create at twice the gas price: %v, want validation-failed below the minimum", err)
	}
	firm := f.req
	firm.SimulationID = sim.SimulationID
	plan, err := f.create(t, "alice", firm)
	if err != nil {
		t.Fatalf("a create keeping the simulation: %v", err)
	}
	if got := plan.Limits().MinAmount; got != f.req.Amount {
		t.Errorf("the kept minimum is %s, want %s", got, f.req.Amount)
	}
}
