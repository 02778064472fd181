package intent

import (
	"strings"

	"github.com/transferintent/transfer-intent-service/internal/caip"

	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Catalog is the read model the domain validates against: the chain table and the token registry.
// Implementations answer from memory; the domain calls them several times per request.
type Catalog interface {
	// Chain looks a chain up by its CAIP-2 id ("eip155:1").
	Chain(caip2 string) (registry.Chain, bool)
	// Token looks a token up by its CAIP-10 address with the address in EIP-55 form.
	Token(caip10 string) (registry.Token, bool)
	// TokenBySymbol finds the token with a canonical symbol on a chain; a bridge of a single
	// asset uses it to find the same token on the destination chain.
	TokenBySymbol(caip2, symbol string) (registry.Token, bool)
	// ExplorerURL is the base URL of a chain's block explorer, "" for a chain without one or an
	// unknown chain: the records link their transactions to it (transferrecord.Explorers).
	ExplorerURL(caip2 string) string
}

// RegistryCatalog serves the Catalog from the registry's read models, so the operator wires the
// domain to the live chain table and token registry without glue code.
type RegistryCatalog struct {
	Chains *registry.ChainTable
	Tokens *registry.TokenRegistry
}

var _ Catalog = RegistryCatalog{}

// Chain looks up the chain table.
func (c RegistryCatalog) Chain(caip2 string) (registry.Chain, bool) { return c.Chains.Get(caip2) }

// Token looks up the token registry by address.
func (c RegistryCatalog) Token(caip10 string) (registry.Token, bool) {
	return c.Tokens.ByAddress(caip10)
}

// TokenBySymbol looks up the token registry by symbol.
func (c RegistryCatalog) TokenBySymbol(caip2, symbol string) (registry.Token, bool) {
	return c.Tokens.BySymbol(caip2, symbol)
}

// ExplorerURL looks up the chain table.
func (c RegistryCatalog) ExplorerURL(caip2 string) string {
	ch, _ := c.Chains.Get(caip2)
	return ch.ExplorerURL
}

// nativeAddress is registry.NativeTokenAddress parsed once.
var nativeAddress = common.HexToAddress(registry.NativeTokenAddress)

// token is a resolved token with its contract address parsed.
type token struct {
	registry.Token
	addr common.Address
	// addrHex is addr in EIP-55 form when known without hashing (the parsed request's); hex()
	// computes it otherwise.
	addrHex string
	native  bool
}

// hex is the token's address in EIP-55 form.
func (t token) hex() string {
	if t.addrHex != "" {
		return t.addrHex
	}
	return t.addr.Hex()
}

// resolveToken finds the token at a CAIP-10 address on a known chain. The native pseudo-address
// resolves to the chain's native token even without a TokenDefinition, so ETH works on every
// chain the operator declares; a definition, when present, wins (it may carry metadata).
func resolveToken(cat Catalog, chain registry.Chain, id caip.AccountID) (token, bool) {
	addr, _ := id.EVMAddress()
	isNative := addr == nativeAddress
	if t, ok := cat.Token(id.String()); ok {
		if isNative && t.PriceUSD == "" {
			t.PriceUSD = chain.NativeTokenPriceUSD
		}
		if isNative && t.PriceFeed == nil {
			t.PriceFeed = chain.NativePriceFeed
		}
		return token{Token: t, addr: addr, addrHex: id.Address, native: isNative}, true
	}
	if isNative {
		return nativeToken(chain), true
	}
	return token{}, false
}

// resolveTokenBySymbol finds a token by symbol, the chain's native token included.
func resolveTokenBySymbol(cat Catalog, chain registry.Chain, symbol string) (token, bool) {
	if t, ok := cat.TokenBySymbol(chain.ID, symbol); ok {
		id, err := caip.ParseAccountID(t.Address)
		if err != nil {
			return token{}, false // a registry entry the controller should have refused
		}
		return resolveToken(cat, chain, id)
	}
	if strings.EqualFold(symbol, chain.NativeSymbol) {
		return nativeToken(chain), true
	}
	return token{}, false
}

// nativeToken synthesises the native token from the chain's own fields.
func nativeToken(chain registry.Chain) token {
	return token{
		Token: registry.Token{
			Symbol:    chain.NativeSymbol,
			ChainID:   chain.ID,
			Address:   chain.ID + ":" + registry.NativeTokenAddress,
			Decimals:  chain.NativeDecimals,
			PriceUSD:  chain.NativeTokenPriceUSD,
			PriceFeed: chain.NativePriceFeed,
		},
		addr:   nativeAddress,
		native: true,
	}
}
