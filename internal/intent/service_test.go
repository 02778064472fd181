package intent

import (
	"context"
	"encoding/hex"
	"errors"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/oklog/ulid/v2"
	"golang.org/x/crypto/sha3"

	"github.com/transferintent/transfer-intent-service/internal/chain/settlement"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

var testNonce = [32]byte{31: 7}

func TestInference(t *testing.T) {
	svc := newTestService(t, nil)
	tests := []struct {
		name     string
		req      Request
		wantType Type
		wantPath []Step
	}{
		{"transfer, single asset", Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob),
			Asset: single("eip155:1", usdcMainnet), Amount: "1"}, TypeTransfer, []Step{StepTransfer}},
		{"transfer, pair with in == out in two spellings", Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob),
			Asset: Asset{Pair: &AssetPair{In: acct("eip155:1", usdcMainnet), Out: acct("eip155:1", strings.ToLower(usdcMainnet))}}, Amount: "1"},
			TypeTransfer, []Step{StepTransfer}},
		{"swap", Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob),
			Asset: pair("eip155:1", usdcMainnet, "eip155:1", wethMainnet), Amount: "100"}, TypeSwap, []Step{StepSwap}},
		{"bridge, single asset", Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob),
			Asset: single("eip155:1", usdcMainnet), Amount: "100"}, TypeBridge, []Step{StepBridge}},
		{"bridge, pair with one symbol", Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob),
			Asset: pair("eip155:1", usdcMainnet, "eip155:8453", usdcBase), Amount: "100"}, TypeBridge, []Step{StepBridge}},
		{"swap+bridge", Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob),
			Asset: pair("eip155:1", usdcMainnet, "eip155:8453", registryNative), Amount: "100"}, TypeBridge, []Step{StepSwap, StepBridge}},
		{"bridge native by symbol", Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob),
			Asset: single("eip155:1", registryNative), Amount: "1"}, TypeBridge, []Step{StepBridge}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := svc.Prepare(context.Background(), "acme", mustParse(t, tt.req), testNonce)
			if err != nil {
				t.Fatalf("Prepare: %v", err)
			}
			if plan.Type != tt.wantType || !reflect.DeepEqual(plan.ResolvedPath, tt.wantPath) {
				t.Errorf("type %s path %v, want %s %v", plan.Type, plan.ResolvedPath, tt.wantType, tt.wantPath)
			}
		})
	}
}

const registryNative = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"

func TestPrepareProblems(t *testing.T) {
	base := func() Request {
		return Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "1.5"}
	}
	past := fixedNow.Add(-time.Second).Format(time.RFC3339)
	tests := []struct {
		name   string
		mutate func(*Request)
		data   ChainData
		kind   ProblemKind
		field  string
	}{
		{"unsupported namespace", func(r *Request) { r.From = "cosmos:cosmoshub-4:cosmos1abc" }, nil, KindValidationFailed, "from"},
		{"unknown from-chain", func(r *Request) { r.From = acct("eip155:999", alice) }, nil, KindValidationFailed, "from"},
		{"unknown to-chain", func(r *Request) { r.To = acct("eip155:999", bob) }, nil, KindValidationFailed, "to"},
		{"asset not on from-chain", func(r *Request) { r.Asset = single("eip155:8453", usdcBase) }, nil, KindValidationFailed, "asset"},
		{"asset.in not on from-chain", func(r *Request) { r.Asset = pair("eip155:8453", usdcBase, "eip155:1", wethMainnet) }, nil, KindValidationFailed, "asset.in"},
		{"asset.out not on to-chain", func(r *Request) { r.Asset = pair("eip155:1", usdcMainnet, "eip155:8453", usdcBase) }, nil, KindValidationFailed, "asset.out"},
		{"unknown token", func(r *Request) { r.Asset = single("eip155:1", bob) }, nil, KindValidationFailed, "asset"},
		{"unknown asset.out", func(r *Request) { r.Asset = pair("eip155:1", usdcMainnet, "eip155:1", bob) }, nil, KindValidationFailed, "asset.out"},
		{"too many fraction digits", func(r *Request) { r.Amount = "1.1234567" }, nil, KindValidationFailed, "amount"},
		{"zero amount", func(r *Request) { r.Amount = "0.0" }, nil, KindValidationFailed, "amount"},
		{"negative amount", func(r *Request) { r.Amount = "-1" }, nil, KindValidationFailed, "amount"},
		{"exponent amount", func(r *Request) { r.Amount = "1e6" }, nil, KindValidationFailed, "amount"},
		{"deadline passed", func(r *Request) { r.Deadline = past }, nil, KindValidationFailed, "deadline"},
		{"deadline now", func(r *Request) { r.Deadline = fixedNow.Format(time.RFC3339) }, nil, KindValidationFailed, "deadline"},
		{"bridge to chain without settlement", func(r *Request) { r.To = acct("eip155:42161", bob) }, nil, KindCurrencyError, ""},
		{"bridge of a token the destination lacks", func(r *Request) {
			r.To = acct("eip155:8453", bob)
			r.Asset = single("eip155:1", wethMainnet)
		}, nil, KindCurrencyError, "asset"},
		{"insufficient token balance", nil, fakeChainData{gasPrice: gwei(20), balances: map[string]*big.Int{
			acct("eip155:1", usdcMainnet): big.NewInt(1_499_999), acct("eip155:1", registryNative): big.NewInt(1e18)}},
			KindValidationFailed, "amount"},
		{"insufficient gas balance", nil, fakeChainData{gasPrice: gwei(20), balances: map[string]*big.Int{
			acct("eip155:1", usdcMainnet): big.NewInt(1_500_000), acct("eip155:1", registryNative): big.NewInt(1)}},
			KindValidationFailed, "from"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base()
			if tt.mutate != nil {
				tt.mutate(&r)
			}
			svc := newTestService(t, func(c *Config) { c.ChainData = tt.data })
			_, err := svc.Simulate(context.Background(), "acme", mustParse(t, r))
			if p := asProblem(t, err); p.Kind != tt.kind || p.Field != tt.field {
				t.Errorf("problem = %+v, want %s on %q", p, tt.kind, tt.field)
			}
		})
	}
}

func TestSimulateERC20Transfer(t *testing.T) {
	svc := newTestService(t, nil)
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", "0x000000000000000000000000000000000000dEaD"),
		Asset: single("eip155:1", usdcMainnet), Amount: "1"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
	if err != nil {
		t.Fatal(err)
	}
	want := SimulationResult{
		SimulationID:   res.SimulationID,
		Valid:          true,
		ResolvedPath:   []Step{StepTransfer},
		EstimatedFees:  Fees{GasUSD: "4.095325", TotalUSD: "4.095325"},
		EstimatedTimeS: 12,
		Warnings:       []string{WarningBalanceNotVerified},
		Errors:         []string{},
		ExpiresAt:      fixedNow.Add(60 * time.Second),
		Tx: &Tx{
			To: usdcMainnet,
			Data: "0xa9059cbb" +
				"000000000000000000000000000000000000000000000000000000000000dead" +
				"00000000000000000000000000000000000000000000000000000000000f4240",
			Value:   "0",
			ChainID: 1,
		},
		Prices:    []Price{{Asset: "eip155:1:" + nativeAddress.Hex(), Symbol: "ETH", USD: "3150.25", Source: PriceSourceTyped}},
		Execution: ExecutionTransaction,
	}
	// The one transaction as a wallet_sendCalls request.
	want.Calls = &SendCalls{Version: "2.0.0", ChainID: "0x1", From: common.HexToAddress(mustParse(t, req).From.Address).Hex(),
		Calls: []SendCall{{To: common.HexToAddress(usdcMainnet).Hex(), Data: want.Tx.Data, Value: "0x0"}}}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("result\n got %+v\nwant %+v", res, want)
	}
	u, err := ulid.ParseStrict(strings.TrimPrefix(res.SimulationID, "sim_"))
	if err != nil || !strings.HasPrefix(res.SimulationID, "sim_") || !u.Timestamp().Equal(fixedNow) {
		t.Errorf("simulationId %q: %v", res.SimulationID, err)
	}
}

func TestSimulateNativeTransfer(t *testing.T) {
	svc := newTestService(t, nil)
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", registryNative), Amount: "0.25", CallData: "0xcafe"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
	if err != nil {
		t.Fatal(err)
	}
	want := &Tx{To: bob, Data: "0xcafe", Value: "250000000000000000", ChainID: 1}
	if !res.Valid || !reflect.DeepEqual(res.Tx, want) {
		t.Errorf("valid %v tx %+v, want %+v (errors %v)", res.Valid, res.Tx, want, res.Errors)
	}
	// (21,000 + 2 non-zero calldata bytes x 16) = 21,032 gas x 20 gwei = 0.00042064 ETH
	// x $3150.25 = $1.32512116 -> 1.325121.
	if res.EstimatedFees.GasUSD != "1.325121" {
		t.Errorf("gasUsd = %s, want 1.325121", res.EstimatedFees.GasUSD)
	}
}

func TestSimulateBridgeTx(t *testing.T) {
	svc := newTestService(t, nil)
	deadline := fixedNow.Add(2 * time.Hour)
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob), Asset: single("eip155:1", usdcMainnet),
		Amount: "1500.5", Deadline: deadline.Format(time.RFC3339)}
	p := mustParse(t, req)
	plan, err := svc.Prepare(context.Background(), "acme", p, testNonce)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Valid || plan.Tx == nil {
		t.Fatalf("plan invalid: %v", plan.Errors)
	}
	if plan.Tx.To != settlement1 || plan.Tx.Value != "0" || plan.Tx.ChainID != 1 {
		t.Errorf("tx = %+v", plan.Tx)
	}
	if plan.EstimatedTimeS != 12+768+2+900 {
		t.Errorf("estimatedTimeS = %d", plan.EstimatedTimeS)
	}
	// 350,000 gas (one open) x 20 gwei = 0.007 ETH x $3150.25 = $22.05175; 20 bps of $1500.5 = $3.001.
	if plan.Fees != (Fees{GasUSD: "22.05175", ProtocolFeeBps: 10, SolverFeeBps: 10, TotalUSD: "25.05275"}) {
		t.Errorf("fees = %+v", plan.Fees)
	}
	// The expectations are assembled here word by word from the Solidity ABI specification and
	// hashed with x/crypto's Keccak, sharing no code with OrderID, the settlement bindings or
	// go-ethereum's abi package. deadline = 2030-01-02T05:04:05Z = 1893560645 = 0x70dd7145; amount =
	// 1500.5 USDC = 1,500,500,000 base units = 0x596fd020; Base's chain id 8453 = 0x2105; the
	// minimum out is 1500.5 USDC less 20 bps of bridge fees less 50 bps of slippage =
	// 1,490,011,505 = 0x58cfc571.
	orderPreimage := abiWords(
		hex.EncodeToString(keccak([]byte("acme"))), // bytes32 keccak256(account)
		settlement1[2:], // address originSettler (Ethereum's settlement contract)
		"1",             // uint256 fromChainId
		alice[2:],       // address from
		"2105",          // uint256 toChainId
		bob[2:],         // address to
		usdcMainnet[2:], // address tokenIn
		usdcBase[2:],    // address tokenOut
		"596fd020",      // uint256 amountIn
		"59420578",      // uint256 startAmountOut: no market, an open auction from the feed's 1,497,499,000 (fees only)
		"58cfc571",      // uint256 minAmountOut
		"70dd5525",      // uint64 decayStart: now (the test clock, 2030-01-02T03:04:05Z)
		"70dd5561",      // uint64 decayEnd: a minute later (DefaultDecayWindow)
		"0", "0", "0",   // address exclusiveFiller, uint64 exclusivityDeadline, uint256 exclusivityOverrideBps
		"0", "0", // uint256 feeAmount, address feeRecipient
		"0",             // uint256 nativeDropAmount
		"70dd7145",      // uint64 deadline
		"07",            // bytes32 nonce (testNonce: 31 zero bytes, then 7)
		settlement2[2:], // address destinationSettler
	)
	wantOrderID := "0x" + hex.EncodeToString(keccak(mustHex(t, orderPreimage)))
	if plan.OrderID.Hex() != wantOrderID {
		t.Errorf("orderId = %s, want %s", plan.OrderID.Hex(), wantOrderID)
	}
	selector := hex.EncodeToString(keccak([]byte("open((uint32,bytes32,bytes))"))[:4])
	orderDataType := hex.EncodeToString(keccak([]byte("Order(bytes32 account,address originSettler," +
		"uint256 originChainId,address user,uint256 destinationChainId,address recipient,address tokenIn," +
		"address tokenOut,uint256 amountIn,uint256 startAmountOut,uint256 minAmountOut,uint64 decayStart,uint64 decayEnd," +
		"address exclusiveFiller,uint64 exclusivityDeadline,uint256 exclusivityOverrideBps,uint256 feeAmount," +
		"address feeRecipient,uint256 nativeDropAmount,uint64 deadline,bytes32 nonce,address destinationSettler)")))
	wantData := "0x" + selector + abiWords(
		"20",          // offset of the dynamic tuple OnchainCrossChainOrder
		"70dd7145",    // uint32 fillDeadline
		orderDataType, // bytes32 orderDataType
		"60",          // offset of orderData within the tuple: 3 head words
		"2c0",         // its length: 704 bytes, the twenty-two words of the order
	) + orderPreimage
	if plan.Tx.Data != wantData {
		t.Errorf("tx data\n got %s\nwant %s", plan.Tx.Data, wantData)
	}
	if !contains(plan.Warnings, "allowance of at least 1500.5") {
		t.Errorf("warnings %v lack the ERC-20 allowance note", plan.Warnings)
	}
	// Same inputs and nonce, same orderId: creation can recompute it.
	again, _ := svc.Prepare(context.Background(), "acme", p, testNonce)
	if again.OrderID != plan.OrderID {
		t.Error("Prepare is not deterministic for a fixed nonce and clock")
	}
}

func TestPrepareDefaultDeadline(t *testing.T) {
	svc := newTestService(t, nil)
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "1"}
	plan, err := svc.Prepare(context.Background(), "acme", mustParse(t, req), testNonce)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Deadline.Equal(fixedNow.Add(DefaultIntentTTL)) {
		t.Errorf("deadline = %v, want now + %v", plan.Deadline, DefaultIntentTTL)
	}
}

func TestSimulateNativeSwapPaysValue(t *testing.T) {
	svc := newTestService(t, nil)
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice), Asset: pair("eip155:1", registryNative, "eip155:1", usdcMainnet), Amount: "2"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Valid || res.Tx == nil || res.Tx.To != settlement1 || res.Tx.Value != "2000000000000000000" {
		t.Errorf("result %+v tx %+v", res, res.Tx)
	}
	if !strings.HasPrefix(res.Tx.Data, hexutil.Encode(keccak([]byte("open((uint32,bytes32,bytes))"))[:4])) {
		t.Errorf("tx data %s does not call open", res.Tx.Data)
	}
	if _, err := settlement.OrderOfOpenData(hexutil.MustDecode(res.Tx.Data)); err != nil {
		t.Errorf("tx data does not carry an order: %v", err)
	}
	// 2 ETH x $3150.25 x 35 bps = $22.05175, plus 350,000 x 20 gwei x 3150.25 = $22.05175.
	if res.EstimatedFees.TotalUSD != "44.1035" {
		t.Errorf("totalUsd = %s, want 44.1035", res.EstimatedFees.TotalUSD)
	}
}

func TestSimulateInvalidButWellFormed(t *testing.T) {
	catalog := testCatalog()
	noSettlement := catalog.chains["eip155:1"]
	noSettlement.SettlementAddress = ""
	catalog.chains["eip155:1"] = noSettlement
	tests := []struct {
		name    string
		catalog Catalog
		req     Request
		reason  string
	}{
		{"swap without settlement contract", catalog, Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob),
			Asset: pair("eip155:1", usdcMainnet, "eip155:1", wethMainnet), Amount: "100"}, "no swap route"},
		{"callData on an ERC-20 transfer", testCatalog(), Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob),
			Asset: single("eip155:1", usdcMainnet), Amount: "1", CallData: "0x01"}, "callData cannot be attached"},
		{"deadline before settlement", testCatalog(), Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob),
			Asset: single("eip155:1", usdcMainnet), Amount: "100", Deadline: fixedNow.Add(10 * time.Minute).Format(time.RFC3339)},
			"earlier than the estimated settlement time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := newTestService(t, func(c *Config) { c.Catalog = tt.catalog })
			res, err := svc.Simulate(context.Background(), "acme", mustParse(t, tt.req))
			if err != nil {
				t.Fatalf("Simulate: %v", err)
			}
			if res.Valid || !contains(res.Errors, tt.reason) || res.Tx != nil {
				t.Errorf("valid %v errors %v tx %+v; want invalid with %q and no tx", res.Valid, res.Errors, res.Tx, tt.reason)
			}
			if res.EstimatedFees.GasUSD == "" || res.EstimatedFees.TotalUSD == "" {
				t.Errorf("an invalid simulation still prices the intent: %+v", res.EstimatedFees)
			}
		})
	}
}

func TestSimulateWithChainData(t *testing.T) {
	data := fakeChainData{
		gasPrice: gwei(10),
		estimate: 50_000,
		balances: map[string]*big.Int{
			acct("eip155:1", usdcMainnet):    big.NewInt(1_500_000),
			acct("eip155:1", registryNative): big.NewInt(1e18),
		},
	}
	svc := newTestService(t, func(c *Config) { c.ChainData = data })
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "1.5"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
	if err != nil {
		t.Fatal(err)
	}
	// 50,000 x 10 gwei = 0.0005 ETH x 3150.25 = 1.575125.
	if !res.Valid || len(res.Warnings) != 0 || res.EstimatedFees.GasUSD != "1.575125" {
		t.Errorf("valid %v warnings %v fees %+v", res.Valid, res.Warnings, res.EstimatedFees)
	}
}

func TestSimulateDegradesOnGasPriceError(t *testing.T) {
	svc := newTestService(t, func(c *Config) { c.ChainData = fakeChainData{gasPriceErr: errors.New("rpc down")} })
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "1"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
	if err != nil {
		t.Fatal(err)
	}
	if res.EstimatedFees.GasUSD != "4.095325" || !contains(res.Warnings, "rpc down") {
		t.Errorf("fees %+v warnings %v; want the default gas price and a warning", res.EstimatedFees, res.Warnings)
	}
}

func TestSimulateCancelledContext(t *testing.T) {
	svc := newTestService(t, func(c *Config) { c.ChainData = fakeChainData{gasPrice: gwei(1)} })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "1"}
	_, err := svc.Simulate(ctx, "acme", mustParse(t, req))
	var p *Problem
	if !errors.Is(err, context.Canceled) || errors.As(err, &p) {
		t.Errorf("err = %v, want context.Canceled and no Problem (HTTP 500, not 4xx)", err)
	}
}

func TestSimulateUnpricedToken(t *testing.T) {
	svc := newTestService(t, nil)
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: pair("eip155:1", daiMainnet, "eip155:1", usdcMainnet), Amount: "100"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
	if err != nil {
		t.Fatal(err)
	}
	if res.EstimatedFees.TotalUSD != res.EstimatedFees.GasUSD || !contains(res.Warnings, "DAI has no USD price") {
		t.Errorf("fees %+v warnings %v", res.EstimatedFees, res.Warnings)
	}
}

// What no one means is refused with 422 naming the field: a transfer to its own sender (in any
// spelling of the address), the zero address on either side, a deadline beyond the horizon.
func TestObviousMistakesAreRefused(t *testing.T) {
	svc := newTestService(t, nil)
	zero := "0x0000000000000000000000000000000000000000"
	for name, tc := range map[string]struct {
		req   Request
		field string
	}{
		"transfer to itself": {Request{From: acct("eip155:1", alice), To: acct("eip155:1", strings.ToLower(alice)),
			Asset: single("eip155:1", usdcMainnet), Amount: "1"}, "to"},
		"to the zero address": {Request{From: acct("eip155:1", alice), To: acct("eip155:1", zero),
			Asset: single("eip155:1", usdcMainnet), Amount: "1"}, "to"},
		"from the zero address": {Request{From: acct("eip155:1", zero), To: acct("eip155:1", bob),
			Asset: single("eip155:1", usdcMainnet), Amount: "1"}, "from"},
		"deadline in the year 9999": {Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob),
			Asset: single("eip155:1", usdcMainnet), Amount: "1", Deadline: "9999-12-31T23:59:59Z"}, "deadline"},
		"deadline just past the 30-day horizon": {Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob),
			Asset: single("eip155:1", usdcMainnet), Amount: "1", Deadline: fixedNow.Add(DefaultMaxDeadline + time.Minute).Format(time.RFC3339)}, "deadline"},
	} {
		_, err := svc.Simulate(context.Background(), "acme", mustParse(t, tc.req))
		var p *Problem
		if !errors.As(err, &p) || p.Kind != KindValidationFailed || p.Field != tc.field {
			t.Errorf("%s: err %v; want validation-failed on %s", name, err, tc.field)
		}
	}
	swapToSelf := Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice), Asset: pair("eip155:1", registryNative, "eip155:1", usdcMainnet), Amount: "1"}
	if _, err := svc.Simulate(context.Background(), "acme", mustParse(t, swapToSelf)); err != nil {
		t.Errorf("a swap to one's own address is the usual swap: %v", err)
	}
}

func TestNewServiceRequiresCatalog(t *testing.T) {
	if _, err := NewService(Config{}); err == nil {
		t.Error("NewService accepted a nil catalog")
	}
}

// abiWords left-pads each run of hex digits to one 32-byte ABI word and concatenates them.
func abiWords(hexDigits ...string) string {
	var b strings.Builder
	for _, d := range hexDigits {
		b.WriteString(strings.Repeat("0", 64-len(d)) + strings.ToLower(d))
	}
	return b.String()
}

// keccak is Ethereum's Keccak-256 (the pre-standard padding), from golang.org/x/crypto.
func keccak(b []byte) []byte {
	h := sha3.NewLegacyKeccak256()
	h.Write(b)
	return h.Sum(nil)
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// An order's settlement address with no code would swallow the funds (open() on an account
// without code succeeds and does nothing): when the node says so, the order is not valid, and a
// transfer, which never calls the settlement contract, is not affected.
func TestOrderToASettlementWithoutCodeIsNotValid(t *testing.T) {
	svc := newTestService(t, func(c *Config) {
		c.ChainData = fakeChainData{gasPrice: gwei(10), noCode: []common.Address{common.HexToAddress(settlement1)}}
	})
	swap := Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice), Asset: pair("eip155:1", registryNative, "eip155:1", usdcMainnet), Amount: "2"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, swap))
	if err != nil {
		t.Fatal(err)
	}
	if res.Valid || res.Tx != nil || len(res.Errors) != 1 || !strings.Contains(res.Errors[0], "holds no code") {
		t.Errorf("valid %v, tx %v, errors %q; want not valid, no tx, one error about the missing code", res.Valid, res.Tx, res.Errors)
	}
	transfer := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", registryNative), Amount: "1"}
	if res, err := svc.Simulate(context.Background(), "acme", mustParse(t, transfer)); err != nil || !res.Valid {
		t.Errorf("a transfer on the same chain: valid %v, errors %q, err %v", res.Valid, res.Errors, err)
	}
}

// Without an attester no filler could be repaid for a bridge: bridges are not valid, swaps are.
func TestBridgesUnavailableWithoutAnAttester(t *testing.T) {
	const why = "bridges are unavailable: no attester key"
	svc := newTestService(t, func(c *Config) { c.BridgesUnavailable = why })
	bridge := Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob), Asset: single("eip155:1", usdcMainnet), Amount: "100"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, bridge))
	if err != nil {
		t.Fatal(err)
	}
	if res.Valid || res.Tx != nil || !slices.Contains(res.Errors, why) {
		t.Errorf("bridge: valid %v, tx %v, errors %q; want not valid, with the reason", res.Valid, res.Tx, res.Errors)
	}
	swap := Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice), Asset: pair("eip155:1", registryNative, "eip155:1", usdcMainnet), Amount: "2"}
	if res, err := svc.Simulate(context.Background(), "acme", mustParse(t, swap)); err != nil || !res.Valid {
		t.Errorf("swap: valid %v, errors %q, err %v; want valid", res.Valid, res.Errors, err)
	}
}

// A settlement address is used only once the Chain controller verified it on chain: a swap or a
// bridge through an unverified one is not valid, says which contract and why, and carries no tx
// (a wallet would otherwise send funds to an address that may hold no code). Verified, the same
// requests are valid and open the order on the origin's contract.
func TestUnverifiedSettlementIsNeverUsed(t *testing.T) {
	swap := Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice), Asset: pair("eip155:1", registryNative, "eip155:1", usdcMainnet), Amount: "2"}
	bridge := Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob), Asset: single("eip155:1", usdcMainnet), Amount: "100"}
	tests := []struct {
		name       string
		req        Request
		unverified string // the chain whose contract is not verified; "" for none
		reasons    []string
	}{
		{"swap, verified", swap, "", nil},
		{"swap, unverified", swap, "eip155:1", []string{settlement1 + " on eip155:1 is not verified on chain"}},
		{"bridge, verified", bridge, "", nil},
		{"bridge, origin unverified", bridge, "eip155:1", []string{settlement1 + " on eip155:1 is not verified on chain"}},
		{"bridge, destination unverified", bridge, "eip155:8453", []string{settlement2 + " on eip155:8453 is not verified on chain"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			catalog := testCatalog()
			if c, ok := catalog.chains[tt.unverified]; ok {
				c.SettlementVerified = false
				catalog.chains[tt.unverified] = c
			}
			svc := newTestService(t, func(c *Config) { c.Catalog = catalog })
			p := mustParse(t, tt.req)
			res, err := svc.Simulate(context.Background(), "acme", p)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := svc.Prepare(context.Background(), "acme", p, testNonce)
			if err != nil {
				t.Fatal(err)
			}
			if tt.reasons == nil {
				if !res.Valid || res.Tx == nil || res.Tx.To != settlement1 || !plan.Valid {
					t.Errorf("valid %v (plan %v), tx %+v, errors %q; want valid, opening on %s", res.Valid, plan.Valid, res.Tx, res.Errors, settlement1)
				}
				return
			}
			if res.Valid || res.Tx != nil || plan.Valid || plan.Tx != nil {
				t.Errorf("valid %v (plan %v), tx %+v (plan %+v); want not valid and no tx, for creation too", res.Valid, plan.Valid, res.Tx, plan.Tx)
			}
			for _, reason := range tt.reasons {
				if !contains(res.Errors, reason) || !contains(res.Errors, "swaps and bridges through it are refused") {
					t.Errorf("errors %q; want one saying %q, and what that means", res.Errors, reason)
				}
			}
		})
	}
}

// A bridge's fill is attested only on the word of two endpoints of its destination chain: a
// bridge to a Chain with fewer is valid:false, saying so, unless the operator accepted one
// source (--unsafe-single-rpc-attestation, for local chains). The origin needs no witness.
func TestBridgeNeedsTwoSourcesOnItsDestination(t *testing.T) {
	bridge := Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob), Asset: single("eip155:1", usdcMainnet), Amount: "100"}
	for _, tt := range []struct {
		name           string
		chain          string
		node           string
		witnesses      []string
		oneSourceOK    bool
		wantValid      bool
		wantReasonPart string
	}{
		{"a node and a witness", "eip155:8453", "https://node.example", []string{"https://witness.example"}, false, true, ""},
		{"a node only", "eip155:8453", "https://node.example", nil, false, false, "the Chain has 1 (add spec.witnessRpcs)"},
		{"no node", "eip155:8453", "", nil, false, false, "the Chain has 0"},
		{"a node only, one source accepted", "eip155:8453", "https://node.example", nil, true, true, ""},
		{"an origin with a node only", "eip155:1", "https://node.example", nil, false, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			catalog := testCatalog()
			c := catalog.chains[tt.chain]
			c.RPCURL, c.WitnessURLs = tt.node, tt.witnesses
			catalog.chains[tt.chain] = c
			svc := newTestService(t, func(cfg *Config) { cfg.Catalog, cfg.SingleSourceAttestation = catalog, tt.oneSourceOK })
			res, err := svc.Simulate(context.Background(), "acme", mustParse(t, bridge))
			if err != nil {
				t.Fatal(err)
			}
			if res.Valid != tt.wantValid || (tt.wantReasonPart != "" && !strings.Contains(strings.Join(res.Errors, "; "), tt.wantReasonPart)) {
				t.Errorf("valid %v, errors %q; want valid %v with %q", res.Valid, res.Errors, tt.wantValid, tt.wantReasonPart)
			}
		})
	}
}

// With the operator's trusted hosts for the destination chain, a bridge is offered only when two of
// the Chain's endpoints are on them: no fill there could be attested otherwise, and its filler
// would never be repaid.
func TestBridgeNeedsTwoTrustedSourcesWhereTheOperatorListsThem(t *testing.T) {
	bridge := Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob), Asset: single("eip155:1", usdcMainnet), Amount: "100"}
	var trusted registry.TrustedSources
	if err := trusted.Add("eip155:8453=node.example,witness-a.example:443"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name      string
		witnesses []string
		wantValid bool
	}{
		{"the node and a witness on the list", []string{"https://witness-a.example/v1/KEY"}, true},
		{"a witness off the list", []string{"https://witness-b.example"}, false},
		{"a listed host on another port", []string{"https://witness-a.example:8443"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			catalog := testCatalog()
			c := catalog.chains["eip155:8453"]
			c.RPCURL, c.WitnessURLs = "https://NODE.example.", tt.witnesses
			catalog.chains["eip155:8453"] = c
			svc := newTestService(t, func(cfg *Config) { cfg.Catalog, cfg.TrustedSources = catalog, trusted })
			res, err := svc.Simulate(context.Background(), "acme", mustParse(t, bridge))
			if err != nil {
				t.Fatal(err)
			}
			if res.Valid != tt.wantValid || (!tt.wantValid && !strings.Contains(strings.Join(res.Errors, "; "), "trusted hosts")) {
				t.Errorf("valid %v, errors %q; want valid %v", res.Valid, res.Errors, tt.wantValid)
			}
		})
	}
}

// A create plans with a throw-away nonce and applies the order's nonce once the plan is valid
// (WithNonce): the result is the plan Prepare makes with that nonce.
func TestWithNonceIsPrepareWithTheNonce(t *testing.T) {
	svc := newTestService(t, nil)
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:8453", bob), Asset: single("eip155:1", usdcMainnet),
		Amount: "1500.5", Deadline: fixedNow.Add(2 * time.Hour).Format(time.RFC3339)}
	p := mustParse(t, req)
	other := testNonce
	other[31] ^= 0xff
	want, err := svc.Prepare(context.Background(), "acme", p, other)
	if err != nil {
		t.Fatal(err)
	}
	first, err := svc.Prepare(context.Background(), "acme", p, testNonce)
	if err != nil {
		t.Fatal(err)
	}
	got, err := svc.WithNonce("acme", p, first, other)
	if err != nil {
		t.Fatal(err)
	}
	if got.OrderID != want.OrderID || got.Nonce != want.Nonce || *got.Tx != *want.Tx || first.OrderID == want.OrderID {
		t.Fatalf("WithNonce: orderId %s tx %+v; Prepare with the nonce: orderId %s tx %+v", got.OrderID, got.Tx, want.OrderID, want.Tx)
	}
}
