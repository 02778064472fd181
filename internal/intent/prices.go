package intent

import (
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Where a simulation's USD price came from (Price.Source).
const (
	// PriceSourceFeed is a fresh, positive answer of the asset's AggregatorV3 price feed, read in
	// the simulation's one round trip to the chain's node.
	PriceSourceFeed = "feed"
	// PriceSourceTyped is the price typed into the Chain (nativeTokenPriceUsd) or the
	// TokenDefinition (priceUsd).
	PriceSourceTyped = "typed"
)

// Warnings of a price feed that could not be used; the typed price is used instead.
const (
	// WarningPriceStale starts the warning of a feed whose updatedAt is older than its maxAgeSeconds.
	WarningPriceStale = "price stale"
	// WarningPriceUnavailable starts the warning of a feed that could not be read, or answered a
	// price that is zero or negative.
	WarningPriceUnavailable = "price unavailable"
)

// Price is one USD price a simulation's USD figures were computed with (SimulationResult.prices).
type Price struct {
	// Asset is the CAIP-10 address of the token priced (0xEeee… for the native token).
	Asset  string `json:"asset"`
	Symbol string `json:"symbol"`
	// USD is the price of one whole token, an exact decimal string.
	USD string `json:"usd"`
	// Source is PriceSourceFeed or PriceSourceTyped.
	Source string `json:"source"`
	// UpdatedAt is the feed's updatedAt, for a price from a feed.
	UpdatedAt *time.Time `json:"updatedAt,omitempty"`
}

// pricedAsset is a token whose USD price a figure needs: the gas token for gasUsd, the asset for
// the percentage fees of totalUsd.
type pricedAsset struct {
	tok token
	// gas and notional say which figure the price values: gasUsd, the percentage fees, or both.
	gas, notional bool
}

// role names the figures the price values, for the valid:false reason of a live chain.
func (a pricedAsset) role() string {
	switch {
	case a.gas && a.notional:
		return "gasUsd and totalUsd"
	case a.gas:
		return "gasUsd"
	}
	return "totalUsd"
}

// pricedAssets are the tokens the fees need a price of: the origin chain's gas token always, the
// asset when the path charges a percentage. Both live on the origin chain, so their feeds are read
// in the same batch as the balances. The asset is not listed twice when it is the gas token priced
// alike.
func pricedAssets(r resolved, bps StepFee) []pricedAsset {
	gas := nativeToken(r.from)
	list := []pricedAsset{{tok: gas, gas: true}}
	if bps.ProtocolBps+bps.SolverBps == 0 {
		return list
	}
	in := r.tokenIn
	if in.native && in.PriceUSD == gas.PriceUSD && feedEqual(in.PriceFeed, gas.PriceFeed) {
		list[0].notional = true
		return list
	}
	return append(list, pricedAsset{tok: in, notional: true})
}

func feedEqual(a, b *registry.PriceFeed) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// feedAddresses are the distinct feeds of assets, for the chain query.
func feedAddresses(assets []pricedAsset) []common.Address {
	var out []common.Address
	seen := map[common.Address]bool{}
	for _, a := range assets {
		if f := a.tok.PriceFeed; f != nil {
			addr := common.HexToAddress(f.Address)
			if !seen[addr] {
				seen[addr] = true
				out = append(out, addr)
			}
		}
	}
	return out
}

// usdPrice decides one asset's price: its feed's answer when fresh and positive, else the typed
// price with a warning saying why. It returns nil when neither is known. readErr is why the chain
// could not be asked at all.
func usdPrice(plan *Plan, a pricedAsset, state ChainState, readErr error, now time.Time) (*big.Rat, *Price) {
	tok := a.tok
	if f := tok.PriceFeed; f != nil {
		addr := common.HexToAddress(f.Address)
		round, ok := state.Feeds[addr]
		kind, reason := WarningPriceUnavailable, ""
		switch {
		case readErr != nil:
			reason = "the chain's node could not be asked"
		case state.FeedErrors[addr] != nil:
			reason = state.FeedErrors[addr].Error()
		case !ok:
			reason = "the feed was not read (has the chain an rpc?)"
		case round.Answer == nil || round.Answer.Sign() <= 0:
			reason = fmt.Sprintf("the feed answered %v", round.Answer)
		case round.UpdatedAt.Unix() <= 0:
			reason = "the feed has no completed round"
		case now.Sub(round.UpdatedAt) > f.MaxAge:
			kind, reason = WarningPriceStale, fmt.Sprintf("updated at %s, older than maxAgeSeconds %d",
				round.UpdatedAt.UTC().Format(time.RFC3339), int64(f.MaxAge/time.Second))
		default:
			updated := round.UpdatedAt.UTC()
			return new(big.Rat).SetFrac(round.Answer, pow10(int(f.Decimals))), &Price{
				Asset: tok.Address, Symbol: tok.Symbol, USD: FormatAmount(round.Answer, f.Decimals), Source: PriceSourceFeed, UpdatedAt: &updated,
			}
		}
		fallback := "no typed price either"
		if tok.PriceUSD != "" {
			fallback = "using the typed price " + tok.PriceUSD
		}
		// "price stale: ETH on eip155:1 (feed 0x…): updated at …; using the typed price 3000"
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("%s: %s on %s (feed %s): %s; %s", kind, tok.Symbol, tok.ChainID, f.Address, reason, fallback))
	}
	typed, err := ParseDecimal(tok.PriceUSD)
	if err != nil {
		return nil, nil
	}
	return typed, &Price{Asset: tok.Address, Symbol: tok.Symbol, USD: tok.PriceUSD, Source: PriceSourceTyped}
}

// requireFeeds makes a live chain's intent invalid unless every price its USD figures use came from
// a fresh feed: on a mainnet a typed price is a guess about real money.
func requireFeeds(plan *Plan, a pricedAsset, p *Price) {
	if plan.FromChain.Environment != registry.EnvironmentLive || (p != nil && p.Source == PriceSourceFeed) {
		return
	}
	remedy := fmt.Sprintf("set priceFeed on the %s", priceOwner(a.tok))
	if a.tok.PriceFeed != nil {
		remedy = "its feed " + a.tok.PriceFeed.Address + " is stale or unreadable: see the warnings"
	}
	plan.Errors = append(plan.Errors, fmt.Sprintf("the USD price of %s on %s (for %s) is not from a fresh price feed: on a live chain every USD figure must come from the chain (%s)",
		a.tok.Symbol, a.tok.ChainID, a.role(), remedy))
}

func priceOwner(tok token) string {
	if tok.native && tok.Name == "" {
		return "Chain"
	}
	return "TokenDefinition"
}
