// Package registry holds the in-memory, read-optimised state that the controllers publish and the
// HTTP API serves from: the chain table, the token registry and the hashed API key index.
//
// Writers are the controllers (one reconcile at a time per object); readers are HTTP handlers on
// every request. Every read model therefore publishes immutable snapshots through an atomic pointer:
// readers never take a lock, writers copy-on-write under a mutex.
package registry

import (
	"math/big"
	"strings"
	"time"
)

// Environment is the network family a chain or an API key belongs to.
type Environment string

const (
	// EnvironmentTest is testnets (Sepolia, Base Sepolia, a local dev chain...). Keys start with sk_test_.
	EnvironmentTest Environment = "test"
	// EnvironmentLive is mainnets. Keys start with sk_live_.
	EnvironmentLive Environment = "live"
)

// Chain is one row of the chain table, built from a Ready Chain resource.
type Chain struct {
	// ID is the CAIP-2 identifier, e.g. "eip155:1".
	ID string
	// NumericID is the EIP-155 chain id for eip155 chains (nil for other namespaces).
	NumericID *big.Int
	// Environment says whether test or live keys may act on this chain.
	Environment Environment
	DisplayName string
	// NativeSymbol and NativeDecimals describe the gas token (ETH, 18).
	NativeSymbol   string
	NativeDecimals int32
	// BlockTimeSeconds and FinalitySeconds feed estimatedTimeS.
	BlockTimeSeconds int64
	FinalitySeconds  int64
	// DefaultGasPriceWei is used when no live gas price is known.
	DefaultGasPriceWei *big.Int
	// NativeTokenPriceUSD is an exact decimal string, e.g. "3150.25".
	NativeTokenPriceUSD string
	// NativePriceFeed, when set, is the chain's price feed of the gas token, read through RPCURL.
	NativePriceFeed *PriceFeed
	// ExplorerURL is the base URL of the chain's block explorer, without a trailing slash: a
	// transaction's page is ExplorerURL + "/tx/" + hash. Empty when the chain has none.
	ExplorerURL string
	// SettlementAddress is the EIP-55 address of the contract that executes swap and bridge
	// orders on this chain; empty when the chain has none (then swap/bridge have no route).
	SettlementAddress string
	// SettlementVerified is set only when the Chain's SettlementContract condition is True for
	// the Chain's current generation, and the Chain has a node: the contract at SettlementAddress
	// was seen on chain, answering attester(). The settlement address is used only then; an
	// address nobody checked could hold no code, and an order opened there would lose its funds.
	SettlementVerified bool
	// Permit2Address is the EIP-55 address of Permit2 on this chain (spec.permit2Address, or its
	// canonical address).
	Permit2Address string
	// Permit2Verified is set only when SettlementVerified is and the Chain's Permit2 condition is
	// True for its current generation: Permit2's code is at Permit2Address and the settlement
	// contract pulls through it. Gasless orders from the chain are offered only then.
	Permit2Verified bool
	// Refund is the refund terms of the contract at SettlementAddress, as the Chain's node last
	// answered them (Chain status.settlement); nil while unknown.
	Refund *RefundTerms
	// RPCURL is the JSON-RPC endpoint, empty when none is configured. It may carry a credential
	// (when it came from a Secret): never log it or serve it.
	RPCURL string
	// WitnessURLs are the further endpoints of spec.witnessRpcs, resolved, each on another host and
	// port than RPCURL and each other (duplicates are dropped). Secret like RPCURL.
	WitnessURLs []string
	// BridgeMinConfirmations is the least depth at which a bridge's transaction on this chain is
	// final when the node does not serve the finalized block tag.
	BridgeMinConfirmations uint64
	// MaxGasOnArrival is spec.maxGasOnArrival in base units of the native token: the most a swap
	// or bridge delivering here may ask to arrive as its native drop; nil: not offered.
	MaxGasOnArrival *big.Int
	// Name is the Chain object name; ChainTable.Upsert sets it.
	Name string
	// CreatedAt decides conflicts: of two Chain objects with the same ID, the older is served.
	CreatedAt time.Time
}

// RefundTerms are when a settlement contract lets an order's user take the escrow back.
type RefundTerms struct {
	// Contract is the EIP-55 address of the contract the terms are of.
	Contract string
	// Delay is its refundDelay: a refund is accepted once the block's time is past the order's
	// deadline plus Delay.
	Delay time.Duration
	// AllAllowed is its allRefundsAllowed: the guardian lets every order be refunded now.
	AllAllowed bool
}

// Token is one served token definition, built from a Ready TokenDefinition resource.
type Token struct {
	// Name is the Kubernetes object name, for diagnostics.
	Name string
	// Symbol is the canonical symbol, e.g. "USDC".
	Symbol string
	// ChainID is the CAIP-2 chain id.
	ChainID string
	// Address is the CAIP-10 account id of the contract, e.g. "eip155:1:0xA0b8...eB48",
	// with the address part in EIP-55 form.
	Address string
	// Decimals is the number of decimal places of the token's base unit.
	Decimals int32
	// Metadata is served as-is; nil is served as JSON null.
	Metadata *string
	// PriceUSD is an exact decimal string, or empty when unknown. Not served.
	PriceUSD string
	// PriceFeed, when set, is the token's USD price feed on its chain. Not served.
	PriceFeed *PriceFeed
	// MaxAmount is the largest amount one swap or bridge order may give up, in base units
	// (spec.limits.maxAmount); nil is no maximum. Not served by GET /v2/tokens.
	MaxAmount *big.Int
	// CreatedAt decides conflicts: the older of two definitions for the same chain and address
	// (or chain and symbol) wins.
	CreatedAt time.Time
}

// PriceFeed is a Chainlink AggregatorV3-compatible USD price feed on a chain.
type PriceFeed struct {
	// Address is the aggregator's EIP-55 address.
	Address string
	// Decimals is the number of decimal places of its answer.
	Decimals int32
	// MaxAge is how old its updatedAt may be before the price counts as stale.
	MaxAge time.Duration
}

// NativeTokenAddress is the pseudo-address that stands for a chain's native token.
const NativeTokenAddress = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"

// Key is one entry of the API key index. The plaintext key is never held anywhere: the index is
// keyed by "sha256:<hex>" of the whole key string.
type Key struct {
	// ID is the ApiKey object name; it is what logs and metrics name.
	ID string
	// Account is the owning Account's object name.
	Account string
	// Environment is the key's environment; it must match the chain's.
	Environment Environment
	// DisplayPrefix is the recognisable start of the key, e.g. "sk_test_AbCd".
	DisplayPrefix string
	// DisplayName is the name the owner gave the key.
	DisplayName string
	// ExpiresAt is the zero time when the key never expires.
	ExpiresAt time.Time
	// Disabled keys are refused like unknown ones.
	Disabled bool
	// RateLimitPerMinute is the number of requests allowed in any 60 seconds.
	RateLimitPerMinute int32
	// Filler keys also read the order book of their environment (GET /v2/orders).
	Filler bool
	// OverLimit keys are past their account's bound of keys (Account spec.maxApiKeys), among its
	// newest: refused like disabled ones, and still counted against the bound.
	OverLimit bool
	// CreatedAt decides conflicts: of two keys with the same hash, the older is the one served.
	CreatedAt time.Time
	// UID and Generation identify the ApiKey object and the version of its spec this entry was
	// built from: the index never lets an older version replace a newer one, nor a deleted object
	// come back, whatever order its writers (controllers, the key management API) run in.
	UID        string
	Generation int64
}

// DefaultRateLimitPerMinute is the contract's default request rate per API key.
const DefaultRateLimitPerMinute = 50

// Account is one entry of the account directory, built from an Account resource. It holds what
// sign-in needs to find an account; the password hash itself stays in its Secret.
type Account struct {
	// Name is the Account object name; keys and intents refer to it.
	Name string
	// DisplayName is the account's human name.
	DisplayName string
	// Email is the sign-in identity, as written in the spec (lookups ignore case).
	Email string
	// Disabled accounts are refused sign-in, and their API keys are refused.
	Disabled bool
	// PasswordSecret locates the bcrypt hash of the password; nil when the account has none
	// (browser sign-in is then impossible).
	PasswordSecret *SecretRef
	// CreatedAt decides conflicts: of two accounts with the same email, the older signs in.
	CreatedAt time.Time
	// Fees is the account's integrator fee policy (spec.fees); nil: its requests charge none.
	Fees *FeePolicy
}

// FeePolicy is an Account's integrator fee policy: the fee of a request that sets none, the most
// a request may set, and per origin chain the addresses a fee may be paid to.
type FeePolicy struct {
	DefaultBps, MaxBps uint32
	// Recipients are, by CAIP-2 chain id, the allowed addresses as 0x hex (EIP-55), the default
	// first.
	Recipients map[string][]string
}

// Recipient is the address a fee on an order from chain is paid to: want when the policy allows
// it there (compared without case), the chain's first when want is empty; false when the policy
// names no address on chain or does not allow want.
func (p *FeePolicy) Recipient(chain, want string) (string, bool) {
	allowed := p.Recipients[chain]
	if len(allowed) == 0 {
		return "", false
	}
	if want == "" {
		return allowed[0], true
	}
	for _, a := range allowed {
		if strings.EqualFold(a, want) {
			return a, true
		}
	}
	return "", false
}

// SecretRef names one key of a Secret in the operator's namespace.
type SecretRef struct {
	Name string
	Key  string
}

// compareAge orders two objects for the "older wins" rule of every read model: by creation time,
// then by name, so that two objects created in the same second still have one winner.
func compareAge(createdA time.Time, nameA string, createdB time.Time, nameB string) int {
	if c := createdA.Compare(createdB); c != 0 {
		return c
	}
	return strings.Compare(nameA, nameB)
}

// DefaultBridgeMinConfirmations is a Chain's bridgeMinConfirmations when it sets none (the CRD's
// default): about two Ethereum epochs.
const DefaultBridgeMinConfirmations = 64

// BridgeMinDepth is BridgeMinConfirmations, or DefaultBridgeMinConfirmations for a Chain that
// sets none.
func (c Chain) BridgeMinDepth() uint64 {
	if c.BridgeMinConfirmations == 0 {
		return DefaultBridgeMinConfirmations
	}
	return c.BridgeMinConfirmations
}

// RPCSources is how many distinct endpoints can testify about the chain: the node and its
// witnesses. A bridge fill on the chain is attested only on the word of two.
func (c Chain) RPCSources() int {
	if c.RPCURL == "" {
		return 0
	}
	return 1 + len(c.WitnessURLs)
}
