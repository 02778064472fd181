package intent

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// feeTo is the integrator's second allowed recipient on Ethereum (the first is bob).
const feeTo = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB" // EIP-55 vector

// policies is a FeePolicies of fixed policies by account.
type policies map[string]*registry.FeePolicy

func (p policies) FeePolicy(account string) *registry.FeePolicy { return p[account] }

// feeService is the test service where account "acme" may charge up to 100 bps (25 by default),
// paid on Ethereum to bob or feeTo, and account "plain" has no policy.
func feeService(t *testing.T) *Service {
	t.Helper()
	cat := testCatalog()
	eth := cat.chains["eip155:1"]
	eth.Permit2Verified, eth.Permit2Address = true, "0x000000000022D473030F116dDEE9F6B43aC78BA3"
	cat.chains[eth.ID] = eth
	return newTestService(t, func(c *Config) {
		c.Catalog = cat
		c.FeePolicies = policies{"acme": {DefaultBps: 25, MaxBps: 100, Recipients: map[string][]string{"eip155:1": {bob, feeTo}}}}
	})
}

// bridgeWithFee is 100 USDC from Ethereum to Base, with the request's fee when fee is not nil.
func bridgeWithFee(fee *RequestFee) Request {
	r := Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob), Asset: single("eip155:1", usdcMainnet), Amount: "100"}
	r.Fee = fee
	return r
}

func bps(n int) *int { return &n }

func TestAFeesSyntaxIsCheckedBeforeAnyPolicy(t *testing.T) {
	for name, fee := range map[string]RequestFee{
		"negative bps":            {Bps: bps(-1)},
		"more than 100%":          {Bps: bps(10_001)},
		"a recipient not an addr": {Recipient: "bob"},
		"no 0x":                   {Recipient: bob[2:] + "00"},
		"a failed checksum":       {Recipient: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"},
	} {
		_, err := ParseRequest(bridgeWithFee(&fee))
		if p := asProblem(t, err); p.Kind != KindBadRequest {
			t.Errorf("%s: %v; want bad-request", name, err)
		}
	}
	p := mustParse(t, bridgeWithFee(&RequestFee{Bps: bps(50), Recipient: "0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb"}))
	if p.FeeRecipient != feeTo || *p.FeeBps != 50 || p.Request().Fee.Recipient != feeTo {
		t.Errorf("a lower-case recipient parsed as %q (%+v); want its EIP-55 form %s", p.FeeRecipient, p.Request().Fee, feeTo)
	}
}

// Every fee the policy does not allow is a 422 of its own type; nothing is prepared.
func TestAFeeOutsideTheAccountsPolicyIsRefused(t *testing.T) {
	svc := feeService(t)
	transfer := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "100",
		Fee: &RequestFee{Bps: bps(10)}}
	fromBase := Request{From: acct("eip155:8453", alice), To: acct("eip155:1", bob), Asset: single("eip155:8453", usdcBase), Amount: "100",
		Fee: &RequestFee{Bps: bps(10)}}
	for name, tt := range map[string]struct {
		account string
		req     Request
		kind    ProblemKind
		field   string
	}{
		"one bps above the most":          {"acme", bridgeWithFee(&RequestFee{Bps: bps(101)}), KindFeeNotAllowed, "fee.bps"},
		"a recipient the policy lacks":    {"acme", bridgeWithFee(&RequestFee{Bps: bps(50), Recipient: alice}), KindFeeRecipientNotAllowed, "fee.recipient"},
		"an account without a policy":     {"plain", bridgeWithFee(&RequestFee{Bps: bps(10)}), KindFeeNotAllowed, "fee"},
		"a chain without recipients":      {"acme", fromBase, KindFeeNotAllowed, "fee"},
		"a transfer":                      {"acme", transfer, KindFeeNotAllowed, "fee"},
		"a recipient alone, no policy":    {"plain", bridgeWithFee(&RequestFee{Recipient: bob}), KindFeeNotAllowed, "fee"},
		"an exact output":                 {"acme", exactOutputWithFee(), KindFeeNotAllowed, "fee"},
		"the most, to a stranger address": {"acme", bridgeWithFee(&RequestFee{Bps: bps(100), Recipient: alice}), KindFeeRecipientNotAllowed, "fee.recipient"},
	} {
		_, err := svc.Prepare(context.Background(), tt.account, mustParse(t, tt.req), testNonce)
		if err == nil {
			t.Errorf("%s: accepted; want 422 %s", name, tt.kind)
			continue
		}
		if p := asProblem(t, err); p.Kind != tt.kind || p.Field != tt.field {
			t.Errorf("%s: %v (%s on %q); want %s on %s", name, err, p.Kind, p.Field, tt.kind, tt.field)
		}
	}
	_, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithFee(&RequestFee{Bps: bps(101)})), testNonce)
	if d := asProblem(t, err).Details; d["maxBps"] != uint32(100) {
		t.Errorf("the details of a fee above the most: %v; want maxBps 100", d)
	}
	plan, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithFee(&RequestFee{Bps: bps(100), Recipient: feeTo})), testNonce)
	if err != nil || !plan.Valid || plan.IntegratorFee == nil || plan.IntegratorFee.Bps != 100 {
		t.Fatalf("a fee at the most to an allowed recipient: %v, %v; want it valid", err, plan.Errors)
	}
}

// The fee is its share of the whole amount, rounded down, taken off the output beside the service's
// fees; the quote shows it apart, estimatedFees counts it, and the order (its tx, the one a
// gasless user signs too) carries it as feeAmount and feeRecipient.
func TestAnIntegratorFeeIsQuotedAndCarriedByTheOrder(t *testing.T) {
	svc := feeService(t)
	plain, err := newTestService(t, nil).Prepare(context.Background(), "acme", mustParse(t, bridgeWithFee(nil)), testNonce)
	if err != nil {
		t.Fatal(err)
	}
	for _, gasless := range []bool{false, true} {
		p := mustParse(t, bridgeWithFee(&RequestFee{Bps: bps(50), Recipient: feeTo}))
		p.Gasless = gasless
		plan, err := svc.Prepare(context.Background(), "acme", p, testNonce)
		if err != nil || !plan.Valid {
			t.Fatalf("gasless %v: %v, %v", gasless, err, plan.Errors)
		}
		// 100 USDC less 20 bps of bridge fees is 99.8, less 50 bps (0.5 USDC) to the integrator 99.3.
		q := plan.Quote()
		want := IntegratorFeeQuote{Bps: 50, Amount: "0.5", Symbol: "USDC", Recipient: feeTo}
		if q.IntegratorFee == nil || *q.IntegratorFee != want {
			t.Errorf("gasless %v: the quote's integrator fee is %+v; want %+v", gasless, q.IntegratorFee, want)
		}
		if q.AmountOut != "99.3" || plain.Quote().AmountOut != "99.8" {
			t.Errorf("gasless %v: amountOut %s with the fee, %s without; want 99.3 and 99.8", gasless, q.AmountOut, plain.Quote().AmountOut)
		}
		if plan.Fees.IntegratorFeeBps != 50 || plan.Fees.ProtocolFeeBps != plain.Fees.ProtocolFeeBps || plan.Amount.Cmp(plain.Amount) != 0 {
			t.Errorf("gasless %v: fees %+v, amount %s; want the integrator's 50 bps beside the service's, the amount unchanged", gasless, plan.Fees, plan.Amount)
		}
		order, err := settlement.OrderOfOpenData(common.FromHex(plan.Tx.Data))
		if err != nil {
			t.Fatal(err)
		}
		if order.FeeAmount.Cmp(big.NewInt(500_000)) != 0 || order.FeeRecipient != common.HexToAddress(feeTo) || order.AmountIn.Cmp(big.NewInt(100_000_000)) != 0 {
			t.Errorf("gasless %v: the order carries fee %s to %s of %s; want 500000 to %s of 100000000", gasless, order.FeeAmount, order.FeeRecipient.Hex(), order.AmountIn, feeTo)
		}
		if id, _ := settlement.ID(order); id != plan.OrderID {
			t.Errorf("gasless %v: the orderId is not the id of the order its tx opens", gasless)
		}
	}
	if order, _ := settlement.OrderOfOpenData(common.FromHex(plain.Tx.Data)); order.FeeAmount.Sign() != 0 || order.FeeRecipient != (common.Address{}) {
		t.Errorf("an order without a fee carries %s to %s", order.FeeAmount, order.FeeRecipient.Hex())
	}
}

// Without a fee in the request, the policy's default applies, paid to its first recipient; a
// request may set 0 to charge none.
func TestThePolicysDefaultFeeApplies(t *testing.T) {
	svc := feeService(t)
	plan, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithFee(nil)), testNonce)
	if err != nil || !plan.Valid {
		t.Fatalf("%v, %v", err, plan.Errors)
	}
	if f := plan.Quote().IntegratorFee; f == nil || f.Bps != 25 || f.Amount != "0.25" || f.Recipient != bob {
		t.Errorf("the default fee is %+v; want 25 bps, 0.25 USDC to %s", f, bob)
	}
	none, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithFee(&RequestFee{Bps: bps(0)})), testNonce)
	if err != nil || none.IntegratorFee != nil || none.Quote().IntegratorFee != nil || none.Quote().AmountOut != "99.8" {
		t.Errorf("fee.bps 0: %v, fee %+v, amountOut %s; want no fee and 99.8 out", err, none.IntegratorFee, none.Quote().AmountOut)
	}
	transfer := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "100"}
	if plan, err := svc.Prepare(context.Background(), "acme", mustParse(t, transfer), testNonce); err != nil || plan.IntegratorFee != nil {
		t.Errorf("a transfer of an account with a default fee: %v, fee %+v; want no fee", err, plan.IntegratorFee)
	}
}

// The fee rounds down to the input token's base unit: the integrator never takes more than its
// share, and a fee that rounds to nothing is none.
func TestTheIntegratorFeeRoundsDown(t *testing.T) {
	for _, tt := range []struct {
		amount int64
		bps    uint32
		want   int64
	}{{100_000_000, 50, 500_000}, {199, 50, 0}, {201, 50, 1}, {1_999, 1000, 199}} {
		if got := IntegratorFeeAmount(big.NewInt(tt.amount), tt.bps); got.Int64() != tt.want {
			t.Errorf("%d bps of %d: %s; want %d", tt.bps, tt.amount, got, tt.want)
		}
	}
	plan := Plan{Amount: big.NewInt(199)}
	if plan.setIntegratorFee(&IntegratorFee{Bps: 50, Recipient: common.HexToAddress(bob)}); plan.IntegratorFee != nil {
		t.Errorf("50 bps of 199 base units: fee %+v; want none (it rounds to 0)", plan.IntegratorFee)
	}
}

// A firm quote keeps its fee; a create whose fee differs is another request (quote-mismatch),
// and a policy changed since the simulation expires the quote.
func TestAFirmQuoteKeepsItsIntegratorFee(t *testing.T) {
	pol := policies{"acme": {DefaultBps: 25, MaxBps: 100, Recipients: map[string][]string{"eip155:1": {bob, feeTo}}}}
	svc := newTestService(t, func(c *Config) { c.FeePolicies = pol })
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, bridgeWithFee(nil)))
	if err != nil || !res.Valid || res.Quote.IntegratorFee == nil {
		t.Fatalf("simulate: %v, %+v", err, res)
	}
	create := mustParse(t, bridgeWithFee(nil))
	create.SimulationID = res.SimulationID
	plan, err := svc.Prepare(context.Background(), "acme", create, testNonce)
	if err != nil || *plan.Quote().IntegratorFee != *res.Quote.IntegratorFee {
		t.Fatalf("the create: %v, fee %+v; want the simulation's %+v", err, plan.Quote().IntegratorFee, res.Quote.IntegratorFee)
	}
	other := mustParse(t, bridgeWithFee(&RequestFee{Bps: bps(25), Recipient: feeTo}))
	other.SimulationID = res.SimulationID
	if _, err := svc.Prepare(context.Background(), "acme", other, testNonce); asProblem(t, err).Kind != KindQuoteMismatch {
		t.Errorf("a create with another fee: %v; want quote-mismatch", err)
	}
	pol["acme"] = &registry.FeePolicy{DefaultBps: 40, MaxBps: 100, Recipients: map[string][]string{"eip155:1": {bob}}}
	if _, err := svc.Prepare(context.Background(), "acme", create, testNonce); asProblem(t, err).Kind != KindQuoteExpired {
		t.Errorf("a create after the default changed: %v; want quote-expired", err)
	}
}

// The request for quotes tells the fillers the fee they are not paid.
func TestTheMarketIsToldOfTheIntegratorFee(t *testing.T) {
	market := &fakeMarket{}
	svc := newTestService(t, func(c *Config) {
		c.Auction.Market = market
		c.FeePolicies = policies{"acme": {MaxBps: 100, Recipients: map[string][]string{"eip155:1": {bob}}}}
	})
	if _, err := svc.Prepare(context.Background(), "acme", mustParse(t, bridgeWithFee(&RequestFee{Bps: bps(30)})), testNonce); err != nil {
		t.Fatal(err)
	}
	if market.asked() != 1 || market.queries[0].FeeAmount == nil || market.queries[0].FeeAmount.Int64() != 300_000 {
		t.Errorf("the market was asked %+v; want one query with the fee, 300000", market.queries)
	}
}

// exactOutputWithFee is a bridge that must deliver exactly 99 USDC, with a fee.
func exactOutputWithFee() Request {
	r := bridgeWithFee(&RequestFee{Bps: bps(10)})
	r.Amount, r.TradeType = "99", string(TradeExactOutput)
	return r
}

// The policy's default does not apply to an exact output (its escrow is quoted from the output).
func TestAnExactOutputCarriesNoDefaultFee(t *testing.T) {
	r := exactOutputWithFee()
	r.Fee = nil
	plan, err := feeService(t).Prepare(context.Background(), "acme", mustParse(t, r), testNonce)
	if err != nil || plan.IntegratorFee != nil {
		t.Errorf("an exact output of an account with a default fee: %v, fee %+v; want no fee", err, plan.IntegratorFee)
	}
}
