package intent

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

const ethUSDFeed = "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419" // Chainlink's ETH/USD on mainnet

// withETHFeed is the test catalog with mainnet's gas token priced by a feed.
func withETHFeed() fakeCatalog {
	cat := testCatalog()
	c := cat.chains["eip155:1"]
	c.NativePriceFeed = &registry.PriceFeed{Address: ethUSDFeed, Decimals: 8, MaxAge: time.Hour}
	cat.chains["eip155:1"] = c
	return cat
}

// On a live chain without feeds, every typed price is a valid:false reason saying what to set.
func TestLiveChainNeedsFeeds(t *testing.T) {
	svc := newTestService(t, func(c *Config) { c.TypedPricesOnLive = false })
	req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", bob), Asset: single("eip155:1", usdcMainnet), Amount: "1"}
	res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
	if err != nil {
		t.Fatal(err)
	}
	if res.Valid || len(res.Errors) != 1 || !strings.Contains(res.Errors[0], "the USD price of ETH on eip155:1 (for gasUsd) is not from a fresh price feed") ||
		!strings.Contains(res.Errors[0], "set priceFeed on the Chain") {
		t.Fatalf("valid %v errors %q; want one reason naming ETH's missing feed", res.Valid, res.Errors)
	}
	// A test chain keeps its typed prices.
	req = Request{From: acct("eip155:11155111", alice), To: acct("eip155:11155111", bob), Asset: single("eip155:11155111", registryNative), Amount: "1"}
	if res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req)); err != nil || !res.Valid {
		t.Fatalf("a test chain: valid %v errors %v err %v", res.Valid, res.Errors, err)
	}
}

// A native swap needs the gas token's price for gasUsd and for its basis points alike: one feed,
// one listed price, whether the native token has a TokenDefinition (without a feed of its own: it
// takes its Chain's) or not. An updatedAt a little ahead of the service's clock counts as fresh.
func TestNativeAssetPricedOnceByItsChainsFeed(t *testing.T) {
	round := FeedRound{Answer: big.NewInt(2000_00000000), UpdatedAt: fixedNow.Add(5 * time.Second)}
	defined := withETHFeed()
	native := "eip155:1:" + registry.NativeTokenAddress
	defined.tokens[native] = registry.Token{Symbol: "ETH", ChainID: "eip155:1", Address: native, Decimals: 18}
	for name, cat := range map[string]fakeCatalog{"no TokenDefinition": withETHFeed(), "a TokenDefinition": defined} {
		t.Run(name, func(t *testing.T) {
			svc := newTestService(t, func(c *Config) {
				c.Catalog = cat
				c.TypedPricesOnLive = false
				c.ChainData = fakeChainData{gasPrice: gwei(20), feeds: map[common.Address]FeedRound{common.HexToAddress(ethUSDFeed): round}}
			})
			req := Request{From: acct("eip155:1", alice), To: acct("eip155:1", alice), Asset: pair("eip155:1", registryNative, "eip155:1", usdcMainnet), Amount: "2"}
			res, err := svc.Simulate(context.Background(), "acme", mustParse(t, req))
			if err != nil {
				t.Fatal(err)
			}
			if !res.Valid || len(res.Prices) != 1 || res.Prices[0].Source != PriceSourceFeed || res.Prices[0].USD != "2000" {
				t.Fatalf("valid %v errors %v prices %+v; want one price, 2000 from the feed", res.Valid, res.Errors, res.Prices)
			}
			// 2 ETH x $2000 x 35 bps = $14, plus 350,000 x 20 gwei x $2000 = $14.
			if res.EstimatedFees.TotalUSD != "28.00" || res.EstimatedFees.GasUSD != "14.00" {
				t.Errorf("fees %+v; want gasUsd 14 and totalUsd 28 at the feed's 2000", res.EstimatedFees)
			}
		})
	}
}
