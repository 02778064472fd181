package intent

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Real mainnet contracts, in their published EIP-55 form.
const (
	usdcMainnet = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
	wethMainnet = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2"
	daiMainnet  = "0x6B175474E89094C44Da98b954EedeAC495271d0F"
	usdcBase    = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
	alice       = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" // EIP-55 vector
	bob         = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359" // EIP-55 vector
	settlement1 = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB" // EIP-55 vector
	settlement2 = "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb" // EIP-55 vector
)

var fixedNow = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// fakeCatalog is a map-backed Catalog.
type fakeCatalog struct {
	chains map[string]registry.Chain
	tokens map[string]registry.Token
}

func (c fakeCatalog) Chain(id string) (registry.Chain, bool) { ch, ok := c.chains[id]; return ch, ok }
func (c fakeCatalog) ExplorerURL(id string) string           { return c.chains[id].ExplorerURL }
func (c fakeCatalog) Token(id string) (registry.Token, bool) { t, ok := c.tokens[id]; return t, ok }
func (c fakeCatalog) TokenBySymbol(chain, symbol string) (registry.Token, bool) {
	for _, t := range c.tokens {
		if t.ChainID == chain && t.Symbol == symbol {
			return t, true
		}
	}
	return registry.Token{}, false
}

func gwei(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1_000_000_000)) }

func testCatalog() fakeCatalog {
	chains := []registry.Chain{
		{ID: "eip155:1", NumericID: big.NewInt(1), Environment: registry.EnvironmentLive,
			NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 12, FinalitySeconds: 768,
			DefaultGasPriceWei: gwei(20), NativeTokenPriceUSD: "3150.25", SettlementAddress: settlement1, SettlementVerified: true,
			RPCURL: "https://node.example", WitnessURLs: []string{"https://witness.example"}},
		{ID: "eip155:8453", NumericID: big.NewInt(8453), Environment: registry.EnvironmentLive,
			NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 2, FinalitySeconds: 900,
			DefaultGasPriceWei: big.NewInt(10_000_000), NativeTokenPriceUSD: "3150.25", SettlementAddress: settlement2, SettlementVerified: true,
			RPCURL: "https://node.example", WitnessURLs: []string{"https://witness.example"}},
		{ID: "eip155:42161", NumericID: big.NewInt(42161), Environment: registry.EnvironmentLive,
			NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 1, FinalitySeconds: 900,
			DefaultGasPriceWei: big.NewInt(10_000_000), NativeTokenPriceUSD: "3150.25"},
		{ID: "eip155:11155111", NumericID: big.NewInt(11155111), Environment: registry.EnvironmentTest,
			NativeSymbol: "ETH", NativeDecimals: 18, BlockTimeSeconds: 12, FinalitySeconds: 768,
			DefaultGasPriceWei: gwei(1), NativeTokenPriceUSD: "0"},
	}
	tokens := []registry.Token{
		{Symbol: "USDC", ChainID: "eip155:1", Address: "eip155:1:" + usdcMainnet, Decimals: 6, PriceUSD: "1.00"},
		{Symbol: "WETH", ChainID: "eip155:1", Address: "eip155:1:" + wethMainnet, Decimals: 18, PriceUSD: "3150.25"},
		{Symbol: "DAI", ChainID: "eip155:1", Address: "eip155:1:" + daiMainnet, Decimals: 18},
		{Symbol: "USDC", ChainID: "eip155:8453", Address: "eip155:8453:" + usdcBase, Decimals: 6, PriceUSD: "1"},
	}
	c := fakeCatalog{chains: map[string]registry.Chain{}, tokens: map[string]registry.Token{}}
	for _, ch := range chains {
		c.chains[ch.ID] = ch
	}
	for _, t := range tokens {
		c.tokens[t.Address] = t
	}
	return c
}

// fakeChainData returns fixed answers; nil fields mean "unknown".
type fakeChainData struct {
	balances    map[string]*big.Int // by token CAIP-10
	gasPrice    *big.Int
	gasPriceErr error
	estimate    uint64
	// noCode lists the contracts the node says hold no code.
	noCode []common.Address
	// feeds are the price feeds' rounds, by feed address.
	feeds map[common.Address]FeedRound
}

func (f fakeChainData) Read(ctx context.Context, _ registry.Chain, q ChainQuery) (ChainState, error) {
	if err := ctx.Err(); err != nil {
		return ChainState{}, err
	}
	if f.gasPriceErr != nil {
		return ChainState{}, f.gasPriceErr
	}
	st := ChainState{GasPrice: f.gasPrice, GasUnits: f.estimate, Balances: map[string]*big.Int{}}
	st.ContractMissing = q.Contract != nil && slices.Contains(f.noCode, *q.Contract)
	for _, feed := range q.Feeds {
		if round, ok := f.feeds[feed]; ok {
			if st.Feeds == nil {
				st.Feeds = map[common.Address]FeedRound{}
			}
			st.Feeds[feed] = round
		}
	}
	for _, tok := range q.Tokens {
		if b, ok := f.balances[tok.Address]; ok {
			st.Balances[tok.Address] = b
		}
	}
	return st, nil
}

func newTestService(t testing.TB, mutate func(*Config)) *Service {
	t.Helper()
	cfg := Config{Catalog: testCatalog(), Clock: clocktesting.NewFakePassiveClock(fixedNow), TypedPricesOnLive: true}
	if mutate != nil {
		mutate(&cfg)
	}
	s, err := NewService(cfg)
	if err != nil {
		t.Fatalf("NewService: %v", err)
	}
	return s
}

func mustParse(t testing.TB, r Request) Parsed {
	t.Helper()
	p, err := ParseRequest(r)
	if err != nil {
		t.Fatalf("ParseRequest(%+v): %v", r, err)
	}
	return p
}

func acct(chain, addr string) string { return chain + ":" + addr }

func single(chain, addr string) Asset { return Asset{ID: acct(chain, addr)} }

func pair(inChain, in, outChain, out string) Asset {
	return Asset{Pair: &AssetPair{In: acct(inChain, in), Out: acct(outChain, out)}}
}

func contains(list []string, substr string) bool {
	for _, s := range list {
		if strings.Contains(s, substr) {
			return true
		}
	}
	return false
}

func asProblem(t *testing.T, err error) *Problem {
	t.Helper()
	var p *Problem
	if !errors.As(err, &p) {
		t.Fatalf("error %v (%T) is not a *Problem", err, err)
	}
	return p
}
