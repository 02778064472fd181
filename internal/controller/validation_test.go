package controller

import (
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// The Go mirror of the CRD rules; validation_cel_test.go checks the API server's side.

const (
	usdcAddress = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
	// usdcBadChecksum is usdcAddress with the case of one letter flipped.
	usdcBadChecksum = "0xa0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
)

// checkErrors fails unless errs is empty when want is "", or some error contains want.
func checkErrors(t testing.TB, errs field.ErrorList, want string) {
	t.Helper()
	if want == "" {
		if len(errs) > 0 {
			t.Errorf("unexpected errors: %v", errs.ToAggregate())
		}
		return
	}
	if len(errs) == 0 {
		t.Errorf("no errors, want one containing %q", want)
		return
	}
	if !strings.Contains(errs.ToAggregate().Error(), want) {
		t.Errorf("errors %v do not contain %q", errs.ToAggregate(), want)
	}
}

func validChainSpec() v1alpha1.ChainSpec {
	return v1alpha1.ChainSpec{
		ChainID: "eip155:1", Environment: v1alpha1.EnvironmentLive, DisplayName: "Ethereum", NativeSymbol: "ETH",
		NativeDecimals: 18, BlockTimeSeconds: 12, FinalitySeconds: 780, DefaultGasPriceWei: "20000000000",
		NativeTokenPriceUSD: "3150.25",
	}
}

var _ = DescribeTable("ValidateChainSpec",
	func(edit func(*v1alpha1.ChainSpec), want string) {
		t := GinkgoTB()
		spec := validChainSpec()
		edit(&spec)
		checkErrors(t, ValidateChainSpec(&spec), want)
	},
	Entry("valid", func(*v1alpha1.ChainSpec) {}, ""),
	Entry("valid non-eip155 chain", func(s *v1alpha1.ChainSpec) { s.ChainID = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" }, ""),
	Entry("valid lowercase settlement", func(s *v1alpha1.ChainSpec) { s.SettlementAddress = strings.ToLower(usdcAddress) }, ""),
	Entry("valid checksummed settlement", func(s *v1alpha1.ChainSpec) { s.SettlementAddress = usdcAddress }, ""),
	Entry("valid rpc url", func(s *v1alpha1.ChainSpec) { s.RPC = &v1alpha1.ChainRPC{URL: "https://rpc.example.com"} }, ""),
	Entry("missing chainId", func(s *v1alpha1.ChainSpec) { s.ChainID = "" }, "spec.chainId: Required value"),
	Entry("chainId not CAIP-2", func(s *v1alpha1.ChainSpec) { s.ChainID = "ethereum" }, "spec.chainId: Invalid value"),
	Entry("eip155 leading zero", func(s *v1alpha1.ChainSpec) { s.ChainID = "eip155:01" }, "without leading zeros"),
	Entry("eip155 reference too long", func(s *v1alpha1.ChainSpec) { s.ChainID = "eip155:12345678901234567890" }, "without leading zeros"),
	Entry("environment", func(s *v1alpha1.ChainSpec) { s.Environment = "prod" }, `spec.environment: Unsupported value: "prod"`),
	Entry("displayName empty", func(s *v1alpha1.ChainSpec) { s.DisplayName = "" }, "spec.displayName: Required value"),
	Entry("displayName too long", func(s *v1alpha1.ChainSpec) { s.DisplayName = strings.Repeat("x", 65) }, "spec.displayName: Too long"),
	Entry("nativeSymbol pattern", func(s *v1alpha1.ChainSpec) { s.NativeSymbol = "-ETH" }, "spec.nativeSymbol"),
	Entry("nativeDecimals", func(s *v1alpha1.ChainSpec) { s.NativeDecimals = 78 }, "spec.nativeDecimals"),
	Entry("blockTimeSeconds zero", func(s *v1alpha1.ChainSpec) { s.BlockTimeSeconds = 0 }, "spec.blockTimeSeconds"),
	Entry("finalitySeconds", func(s *v1alpha1.ChainSpec) { s.FinalitySeconds = 86401 }, "spec.finalitySeconds"),
	Entry("gas price leading zero", func(s *v1alpha1.ChainSpec) { s.DefaultGasPriceWei = "01" }, "spec.defaultGasPriceWei"),
	Entry("gas price above uint256", func(s *v1alpha1.ChainSpec) { s.DefaultGasPriceWei = strings.Repeat("9", 78) }, "2^256-1"),
	Entry("native price exponent", func(s *v1alpha1.ChainSpec) { s.NativeTokenPriceUSD = "1e3" }, "spec.nativeTokenPriceUsd"),
	Entry("settlement not hex", func(s *v1alpha1.ChainSpec) { s.SettlementAddress = "0x1234" }, "spec.settlementAddress"),
	Entry("maxGasOnArrival", func(s *v1alpha1.ChainSpec) { s.MaxGasOnArrival = "0.01" }, ""),
	Entry("maxGasOnArrival of one wei", func(s *v1alpha1.ChainSpec) { s.MaxGasOnArrival = "0.000000000000000001" }, ""),
	Entry("maxGasOnArrival zero", func(s *v1alpha1.ChainSpec) { s.MaxGasOnArrival = "0" }, "spec.maxGasOnArrival"),
	Entry("maxGasOnArrival finer than the native token", func(s *v1alpha1.ChainSpec) { s.MaxGasOnArrival = "0.0000000000000000001" }, "at most 18 decimal places"),
	Entry("maxGasOnArrival exponent", func(s *v1alpha1.ChainSpec) { s.MaxGasOnArrival = "1e-2" }, "spec.maxGasOnArrival"),
	Entry("valid price feed", func(s *v1alpha1.ChainSpec) {
		s.RPC = &v1alpha1.ChainRPC{URL: "https://rpc.example.com"}
		s.PriceFeed = &v1alpha1.PriceFeed{Address: usdcAddress, Decimals: 8, MaxAgeSeconds: 3600}
	}, ""),
	Entry("price feed without rpc", func(s *v1alpha1.ChainSpec) {
		s.PriceFeed = &v1alpha1.PriceFeed{Address: usdcAddress, Decimals: 8, MaxAgeSeconds: 3600}
	}, "a priceFeed needs rpc"),
	Entry("price feed bad checksum", func(s *v1alpha1.ChainSpec) {
		s.RPC = &v1alpha1.ChainRPC{URL: "https://rpc.example.com"}
		s.PriceFeed = &v1alpha1.PriceFeed{Address: usdcBadChecksum, Decimals: 8, MaxAgeSeconds: 3600}
	}, "spec.priceFeed.address"),
	Entry("settlement bad checksum", func(s *v1alpha1.ChainSpec) { s.SettlementAddress = usdcBadChecksum }, "EIP-55"),
	Entry("explorer url", func(s *v1alpha1.ChainSpec) { s.ExplorerURL = "https://sepolia.etherscan.io" }, ""),
	Entry("explorer url with a path", func(s *v1alpha1.ChainSpec) { s.ExplorerURL = "https://explorer.example/chain/1/" }, ""),
	Entry("explorer url plain http", func(s *v1alpha1.ChainSpec) { s.ExplorerURL = "http://etherscan.io" }, "spec.explorerUrl"),
	Entry("explorer url with a fragment", func(s *v1alpha1.ChainSpec) { s.ExplorerURL = "https://etherscan.io/#x" }, "spec.explorerUrl"),
	Entry("explorer url without a host", func(s *v1alpha1.ChainSpec) { s.ExplorerURL = "https:///tx" }, "spec.explorerUrl"),
	Entry("explorer url too long", func(s *v1alpha1.ChainSpec) { s.ExplorerURL = "https://e.example/" + strings.Repeat("a", 256) }, "spec.explorerUrl"),
	Entry("rpc url ftp", func(s *v1alpha1.ChainSpec) { s.RPC = &v1alpha1.ChainRPC{URL: "ftp://x.example.com"} }, "http or https"),
	Entry("rpc url without host", func(s *v1alpha1.ChainSpec) { s.RPC = &v1alpha1.ChainRPC{URL: "https://"} }, "http or https"),
	Entry("rpc url plain http, not loopback", func(s *v1alpha1.ChainSpec) { s.RPC = &v1alpha1.ChainRPC{URL: "http://node.example.com:8545"} }, "must be https"),
	Entry("rpc url plain http, loopback", func(s *v1alpha1.ChainSpec) { s.RPC = &v1alpha1.ChainRPC{URL: "http://127.0.0.1:8545"} }, ""),
	Entry("witness url plain http, not loopback", func(s *v1alpha1.ChainSpec) {
		s.WitnessRPCs = []v1alpha1.ChainRPC{{URL: "http://localhost.attacker.example"}}
	}, "spec.witnessRpcs[0].url"),
	Entry("bridgeMinConfirmations of one block", func(s *v1alpha1.ChainSpec) { s.BridgeMinConfirmations = 1 }, "spec.bridgeMinConfirmations"),
	Entry("rpc url and secret", func(s *v1alpha1.ChainSpec) {
		s.RPC = &v1alpha1.ChainRPC{URL: "https://x.example.com", URLSecretRef: &v1alpha1.SecretKeyReference{Name: "rpc"}}
	}, "exactly one of url and urlSecretRef"),
	Entry("rpc with neither url nor secret", func(s *v1alpha1.ChainSpec) { s.RPC = &v1alpha1.ChainRPC{} }, "exactly one of url and urlSecretRef"),
	Entry("rpc secret key pattern", func(s *v1alpha1.ChainSpec) {
		s.RPC = &v1alpha1.ChainRPC{URLSecretRef: &v1alpha1.SecretKeyReference{Name: "rpc", Key: "a/b"}}
	}, "spec.rpc.urlSecretRef.key"),
)

var _ = Describe("ValidateChainSpec", func() {
	It("does not echo the RPC URL", func() {
		t := GinkgoTB()
		spec := validChainSpec()
		spec.RPC = &v1alpha1.ChainRPC{URL: "ftp://user:s3cr3t@x.example.com"}
		if msg := ValidateChainSpec(&spec).ToAggregate().Error(); strings.Contains(msg, "s3cr3t") {
			t.Errorf("the message repeats the URL: %s", msg)
		}
	})
})

var _ = DescribeTable("ValidateTokenDefinitionSpec",
	func(edit func(*v1alpha1.TokenDefinitionSpec), want string) {
		t := GinkgoTB()
		spec := v1alpha1.TokenDefinitionSpec{Symbol: "USDC", ChainID: "eip155:1", Address: "eip155:1:" + usdcAddress, Decimals: 6}
		edit(&spec)
		checkErrors(t, ValidateTokenDefinitionSpec(&spec), want)
	},
	Entry("valid", func(*v1alpha1.TokenDefinitionSpec) {}, ""),
	Entry("valid lowercase", func(s *v1alpha1.TokenDefinitionSpec) { s.Address = "eip155:1:" + strings.ToLower(usdcAddress) }, ""),
	Entry("valid uppercase", func(s *v1alpha1.TokenDefinitionSpec) { s.Address = "eip155:1:0x" + strings.ToUpper(usdcAddress[2:]) }, ""),
	Entry("valid native", func(s *v1alpha1.TokenDefinitionSpec) { s.Address = "eip155:1:" + registry.NativeTokenAddress }, ""),
	Entry("valid non-eip155", func(s *v1alpha1.TokenDefinitionSpec) {
		s.ChainID = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
		s.Address = s.ChainID + ":EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
	}, ""),
	Entry("valid metadata and price", func(s *v1alpha1.TokenDefinitionSpec) {
		s.Metadata = ptr.To("ipfs://x")
		s.PriceUSD = "0.9999"
	}, ""),
	Entry("symbol empty", func(s *v1alpha1.TokenDefinitionSpec) { s.Symbol = "" }, "spec.symbol: Required value"),
	Entry("symbol pattern", func(s *v1alpha1.TokenDefinitionSpec) { s.Symbol = "US DC" }, "spec.symbol"),
	Entry("symbol too long", func(s *v1alpha1.TokenDefinitionSpec) { s.Symbol = strings.Repeat("A", 33) }, "spec.symbol: Too long"),
	Entry("chainId", func(s *v1alpha1.TokenDefinitionSpec) { s.ChainID = "eip155:01" }, "spec.chainId"),
	Entry("address on another chain", func(s *v1alpha1.TokenDefinitionSpec) { s.Address = "eip155:10:" + usdcAddress }, "address must be a CAIP-10 account on chainId"),
	Entry("address prefix of a longer chain id", func(s *v1alpha1.TokenDefinitionSpec) { s.Address = "eip155:10:" + usdcAddress; s.ChainID = "eip155:1" }, "on chainId"),
	Entry("address not CAIP-10", func(s *v1alpha1.TokenDefinitionSpec) { s.Address = usdcAddress }, "spec.address"),
	Entry("eip155 address short", func(s *v1alpha1.TokenDefinitionSpec) { s.Address = "eip155:1:0xabc" }, "0x followed by 40 hex digits"),
	Entry("eip155 bad checksum", func(s *v1alpha1.TokenDefinitionSpec) { s.Address = "eip155:1:" + usdcBadChecksum }, "EIP-55"),
	Entry("negative decimals", func(s *v1alpha1.TokenDefinitionSpec) { s.Decimals = -1 }, "spec.decimals"),
	Entry("decimals above 77", func(s *v1alpha1.TokenDefinitionSpec) { s.Decimals = 78 }, "spec.decimals"),
	Entry("metadata too long", func(s *v1alpha1.TokenDefinitionSpec) { s.Metadata = ptr.To(strings.Repeat("x", 4097)) }, "spec.metadata: Too long"),
	Entry("price negative", func(s *v1alpha1.TokenDefinitionSpec) { s.PriceUSD = "-1" }, "spec.priceUsd"),
	Entry("valid price feed", func(s *v1alpha1.TokenDefinitionSpec) {
		s.PriceFeed = &v1alpha1.PriceFeed{Address: strings.ToLower(usdcAddress), Decimals: 8, MaxAgeSeconds: 86400}
	}, ""),
	Entry("price feed not an address", func(s *v1alpha1.TokenDefinitionSpec) {
		s.PriceFeed = &v1alpha1.PriceFeed{Address: "eip155:1:" + usdcAddress, Decimals: 8, MaxAgeSeconds: 3600}
	}, "spec.priceFeed.address"),
	Entry("price feed decimals", func(s *v1alpha1.TokenDefinitionSpec) {
		s.PriceFeed = &v1alpha1.PriceFeed{Address: usdcAddress, Decimals: 37, MaxAgeSeconds: 3600}
	}, "spec.priceFeed.decimals"),
	Entry("price feed without a max age", func(s *v1alpha1.TokenDefinitionSpec) {
		s.PriceFeed = &v1alpha1.PriceFeed{Address: usdcAddress, Decimals: 8}
	}, "spec.priceFeed.maxAgeSeconds"),
	Entry("valid max amount", func(s *v1alpha1.TokenDefinitionSpec) { s.Limits = &v1alpha1.TokenLimits{MaxAmount: "250000.5"} }, ""),
	Entry("valid max amount at the token's precision", func(s *v1alpha1.TokenDefinitionSpec) {
		s.Limits = &v1alpha1.TokenLimits{MaxAmount: "0.000001"}
	}, ""),
	Entry("max amount empty", func(s *v1alpha1.TokenDefinitionSpec) { s.Limits = &v1alpha1.TokenLimits{} }, "spec.limits.maxAmount: Required value"),
	Entry("max amount zero", func(s *v1alpha1.TokenDefinitionSpec) { s.Limits = &v1alpha1.TokenLimits{MaxAmount: "0.000"} }, "spec.limits.maxAmount"),
	Entry("max amount negative", func(s *v1alpha1.TokenDefinitionSpec) { s.Limits = &v1alpha1.TokenLimits{MaxAmount: "-5"} }, "spec.limits.maxAmount"),
	Entry("max amount finer than the token", func(s *v1alpha1.TokenDefinitionSpec) {
		s.Limits = &v1alpha1.TokenLimits{MaxAmount: "1.0000001"}
	}, "spec.limits.maxAmount"),
	Entry("max amount beyond uint256", func(s *v1alpha1.TokenDefinitionSpec) {
		s.Limits = &v1alpha1.TokenLimits{MaxAmount: strings.Repeat("9", 78)}
	}, "spec.limits.maxAmount"),
)

var _ = DescribeTable("ValidateAccountSpec",
	func(edit func(*v1alpha1.AccountSpec), want string) {
		t := GinkgoTB()
		spec := v1alpha1.AccountSpec{DisplayName: "Alice", Email: "alice@example.com"}
		edit(&spec)
		checkErrors(t, ValidateAccountSpec(&spec), want)
	},
	Entry("valid", func(*v1alpha1.AccountSpec) {}, ""),
	Entry("valid with secret", func(s *v1alpha1.AccountSpec) { s.PasswordSecretRef = &v1alpha1.SecretKeyReference{Name: "pw"} }, ""),
	Entry("email without domain dot", func(s *v1alpha1.AccountSpec) { s.Email = "alice@localhost" }, "spec.email"),
	Entry("email with space", func(s *v1alpha1.AccountSpec) { s.Email = "ali ce@example.com" }, "spec.email"),
	Entry("email missing", func(s *v1alpha1.AccountSpec) { s.Email = "" }, "spec.email: Required value"),
	Entry("email too long", func(s *v1alpha1.AccountSpec) { s.Email = strings.Repeat("a", 250) + "@example.com" }, "spec.email: Too long"),
	Entry("displayName missing", func(s *v1alpha1.AccountSpec) { s.DisplayName = "" }, "spec.displayName"),
	Entry("secret name missing", func(s *v1alpha1.AccountSpec) { s.PasswordSecretRef = &v1alpha1.SecretKeyReference{} }, "spec.passwordSecretRef.name"),
	Entry("valid fee policy", func(s *v1alpha1.AccountSpec) { s.Fees = feePolicy() }, ""),
	Entry("fee default above its most", func(s *v1alpha1.AccountSpec) {
		s.Fees = feePolicy()
		s.Fees.DefaultBps = 101
	}, "defaultBps must not exceed maxBps"),
	Entry("fee most above 10%", func(s *v1alpha1.AccountSpec) {
		s.Fees = feePolicy()
		s.Fees.MaxBps = 1001
	}, "spec.fees.maxBps"),
	Entry("fee without recipients", func(s *v1alpha1.AccountSpec) {
		s.Fees = feePolicy()
		s.Fees.Recipients = nil
	}, "spec.fees.recipients: Required value"),
	Entry("fee recipients of one chain twice", func(s *v1alpha1.AccountSpec) {
		s.Fees = feePolicy()
		s.Fees.Recipients = append(s.Fees.Recipients, s.Fees.Recipients[0])
	}, "spec.fees.recipients[1].chainId: Duplicate value"),
	Entry("fee recipient with a bad checksum", func(s *v1alpha1.AccountSpec) {
		s.Fees = feePolicy()
		s.Fees.Recipients[0].Addresses = []string{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"}
	}, "spec.fees.recipients[0].addresses[0]"),
	Entry("fee recipients on a malformed chain", func(s *v1alpha1.AccountSpec) {
		s.Fees = feePolicy()
		s.Fees.Recipients[0].ChainID = "eip155:01"
	}, "spec.fees.recipients[0].chainId"),
)

// feePolicy is a valid integrator fee policy: 25 bps by default, up to 100, paid on Sepolia.
func feePolicy() *v1alpha1.IntegratorFeePolicy {
	return &v1alpha1.IntegratorFeePolicy{DefaultBps: 25, MaxBps: 100, Recipients: []v1alpha1.FeeRecipients{
		{ChainID: "eip155:11155111", Addresses: []string{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}}}}
}

var _ = DescribeTable("ValidateApiKeySpec",
	func(edit func(*v1alpha1.ApiKeySpec), want string) {
		t := GinkgoTB()
		spec := v1alpha1.ApiKeySpec{
			AccountRef: v1alpha1.LocalObjectReference{Name: "acme"}, Environment: v1alpha1.EnvironmentTest,
			KeyHash: registry.HashKey("sk_test_x"), DisplayPrefix: "sk_test_AbCd", RateLimitPerMinute: 50,
		}
		edit(&spec)
		checkErrors(t, ValidateApiKeySpec(&spec), want)
	},
	Entry("valid", func(*v1alpha1.ApiKeySpec) {}, ""),
	Entry("valid live", func(s *v1alpha1.ApiKeySpec) {
		s.Environment = v1alpha1.EnvironmentLive
		s.DisplayPrefix = "sk_live_AbCd"
	}, ""),
	Entry("valid without rate limit (stored before the default)", func(s *v1alpha1.ApiKeySpec) { s.RateLimitPerMinute = 0 }, ""),
	Entry("keyHash uppercase", func(s *v1alpha1.ApiKeySpec) { s.KeyHash = strings.ToUpper(s.KeyHash) }, "spec.keyHash"),
	Entry("keyHash missing", func(s *v1alpha1.ApiKeySpec) { s.KeyHash = "" }, "spec.keyHash: Required value"),
	Entry("prefix of the other environment", func(s *v1alpha1.ApiKeySpec) { s.DisplayPrefix = "sk_live_AbCd" }, "must start with sk_test_"),
	Entry("prefix too long", func(s *v1alpha1.ApiKeySpec) { s.DisplayPrefix = "sk_test_AbCdEfGhI" }, "spec.displayPrefix"),
	Entry("environment", func(s *v1alpha1.ApiKeySpec) { s.Environment = "staging" }, `spec.environment: Unsupported value: "staging"`),
	Entry("account missing", func(s *v1alpha1.ApiKeySpec) { s.AccountRef.Name = "" }, "spec.accountRef.name: Required value"),
	Entry("rate limit above bound", func(s *v1alpha1.ApiKeySpec) { s.RateLimitPerMinute = 100001 }, "spec.rateLimitPerMinute"),
	Entry("rate limit negative", func(s *v1alpha1.ApiKeySpec) { s.RateLimitPerMinute = -5 }, "spec.rateLimitPerMinute"),
	Entry("displayName too long", func(s *v1alpha1.ApiKeySpec) { s.DisplayName = strings.Repeat("k", 64) }, "spec.displayName: Too long"),
)

var _ = DescribeTable("ValidateTransferIntentSpec",
	func(edit func(*v1alpha1.TransferIntentSpec), want string) {
		t := GinkgoTB()
		spec := v1alpha1.TransferIntentSpec{
			ID: "int_transfer_01HZY5N3Q8W6X7V9T2R4M6K8J0", AccountRef: v1alpha1.LocalObjectReference{Name: "acme"},
			Environment: v1alpha1.EnvironmentTest, Type: v1alpha1.IntentTypeTransfer,
			FromChain: "eip155:11155111", ToChain: "eip155:11155111",
			OrderID:   "0x" + strings.Repeat("ab", 32),
			ExpiresAt: metav1.Now(),
		}
		edit(&spec)
		checkErrors(t, ValidateTransferIntentSpec(&spec), want)
	},
	Entry("valid", func(*v1alpha1.TransferIntentSpec) {}, ""),
	Entry("id lowercase", func(s *v1alpha1.TransferIntentSpec) { s.ID = strings.ToLower(s.ID) }, "spec.id"),
	Entry("id with I (not Crockford)", func(s *v1alpha1.TransferIntentSpec) { s.ID = "int_transfer_01HZZZZZZZZZZZZZZZZZZZZZZI" }, "spec.id"),
	Entry("type", func(s *v1alpha1.TransferIntentSpec) { s.Type = "teleport" }, `spec.type: Unsupported value: "teleport"`),
	Entry("resolvedPath too long", func(s *v1alpha1.TransferIntentSpec) {
		s.ResolvedPath = []v1alpha1.IntentType{"swap", "bridge", "swap", "bridge", "swap"}
	}, "spec.resolvedPath: Too many"),
	Entry("resolvedPath step", func(s *v1alpha1.TransferIntentSpec) { s.ResolvedPath = []v1alpha1.IntentType{"hop"} }, "spec.resolvedPath[0]"),
	Entry("orderId", func(s *v1alpha1.TransferIntentSpec) { s.OrderID = "0x12" }, "spec.orderId"),
	Entry("fromChain", func(s *v1alpha1.TransferIntentSpec) { s.FromChain = "eth" }, "spec.fromChain"),
	Entry("requestHash", func(s *v1alpha1.TransferIntentSpec) { s.RequestHash = "md5:abc" }, "spec.requestHash"),
)

// Two URLs of one endpoint are one source, however they are written.
var _ = Describe("endpointOf", func() {
	It("names one endpoint one way", func() {
		t := GinkgoTB()
		for _, pair := range [][2]string{
			{"http://localhost:8545", "http://127.0.0.1:8545"},
			{"http://127.0.0.2:8545/x", "http://[::1]:8545"},
			{"https://node.example.com/key-a", "https://NODE.example.com./key-b"},
			{"https://node.example.com", "https://node.example.com:0443"},
			{"https://1.2.3.4/", "https://[::ffff:1.2.3.4]:443/"},
		} {
			if a, b := endpointOf(pair[0]), endpointOf(pair[1]); a != b {
				t.Errorf("%s is %q, %s is %q: want one endpoint", pair[0], a, pair[1], b)
			}
		}
		if endpointOf("https://a.example.com") == endpointOf("https://b.example.com") || endpointOf("http://127.0.0.1:1") == endpointOf("http://127.0.0.1:2") {
			t.Error("two endpoints are taken for one")
		}
	})
})
