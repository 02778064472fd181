package controller

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// These specs check that the API server refuses bad manifests (OpenAPI schema and CEL rules of
// the CRDs), as `kubectl apply` would; validation_test.go checks the Go mirror of the same rules.

// createChain creates a Chain after edit.
func createChain(edit func(*v1alpha1.ChainSpec)) error {
	chain := newChain(uniqueChainID())
	edit(&chain.Spec)
	return k8sClient.Create(ctx, chain)
}

func createToken(edit func(*v1alpha1.TokenDefinitionSpec)) error {
	token := newToken(uniqueChainID(), "USDC", randomAddress())
	edit(&token.Spec)
	return k8sClient.Create(ctx, token)
}

func createApiKey(edit func(*v1alpha1.ApiKeySpec)) error {
	key, _ := newApiKey(uniqueName("acct"))
	edit(&key.Spec)
	return k8sClient.Create(ctx, key)
}

func createWebhookEndpoint(edit func(*v1alpha1.WebhookEndpointSpec)) error {
	ep := newWebhookEndpoint(uniqueName("acct"))
	edit(&ep.Spec)
	return k8sClient.Create(ctx, ep)
}

func createAccount(edit func(*v1alpha1.AccountSpec)) error {
	account := newAccount()
	edit(&account.Spec)
	return k8sClient.Create(ctx, account)
}

// patchAfterCreate creates obj, then merge-patches it (without a resourceVersion, so that no
// conflict with the controllers hides the validation error) with edit applied.
func patchAfterCreate[T client.Object](obj T, edit func(T)) error {
	GinkgoHelper()
	Expect(k8sClient.Create(ctx, obj)).To(Succeed())
	before := obj.DeepCopyObject().(T)
	edit(obj)
	return k8sClient.Patch(ctx, obj, client.MergeFrom(before))
}

var _ = Describe("CRD validation", func() {
	DescribeTable("refuses a bad manifest",
		func(apply func() error, message string) {
			err := apply()
			Expect(err).To(HaveOccurred())
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "not an Invalid error: %v", err)
			Expect(err.Error()).To(ContainSubstring(message))
		},
		Entry("Chain: chainId not CAIP-2", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.ChainID = "ethereum" })
		}, `spec.chainId: Invalid value: "ethereum"`),
		Entry("Chain: eip155 chainId with a leading zero", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.ChainID = "eip155:01" })
		}, "an eip155 chainId must be eip155:<decimal chain id without leading zeros>"),
		Entry("Chain: environment neither test nor live", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.Environment = "prod" })
		}, `spec.environment: Unsupported value: "prod"`),
		Entry("Chain: settlementAddress not a 0x address", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.SettlementAddress = "0x1234" })
		}, `spec.settlementAddress: Invalid value: "0x1234"`),
		Entry("Chain: rpc url not http(s)", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.RPC = &v1alpha1.ChainRPC{URL: "ftp://node.example.com"} })
		}, "url must be https"),
		Entry("Chain: rpc url plain http to a host that is not loopback", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.RPC = &v1alpha1.ChainRPC{URL: "http://node.example.com:8545"} })
		}, "plain http is allowed for a loopback node only"),
		Entry("Chain: witness rpc url plain http to a name that starts like loopback", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) {
				s.RPC = &v1alpha1.ChainRPC{URL: "http://127.0.0.1:8545"}
				s.WitnessRPCs = []v1alpha1.ChainRPC{{URL: "http://127.0.0.1.attacker.example/"}}
			})
		}, "spec.witnessRpcs[0].url"),
		Entry("Chain: explorerUrl plain http", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.ExplorerURL = "http://etherscan.io" })
		}, "explorerUrl must be an https URL without a query or fragment"),
		Entry("Chain: explorerUrl with a query", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.ExplorerURL = "https://etherscan.io/?chain=1" })
		}, "explorerUrl must be an https URL without a query or fragment"),
		Entry("Chain: explorerUrl not a URL", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.ExplorerURL = "etherscan" })
		}, "explorerUrl must be an https URL without a query or fragment"),
		Entry("Chain: explorerUrl too long", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.ExplorerURL = "https://etherscan.io/" + strings.Repeat("a", 256) })
		}, "spec.explorerUrl: Too long"),
		Entry("Chain: bridgeMinConfirmations of one block", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.BridgeMinConfirmations = 1 })
		}, "spec.bridgeMinConfirmations"),
		Entry("Chain: rpc with both url and urlSecretRef", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) {
				s.RPC = &v1alpha1.ChainRPC{URL: "https://node.example.com", URLSecretRef: &v1alpha1.SecretKeyReference{Name: "rpc"}}
			})
		}, "set exactly one of url and urlSecretRef"),
		Entry("Chain: rpc with neither url nor urlSecretRef", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.RPC = &v1alpha1.ChainRPC{} })
		}, "set exactly one of url and urlSecretRef"),
		Entry("Chain: negative finalitySeconds", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) { s.FinalitySeconds = -1 })
		}, "spec.finalitySeconds: Invalid value: -1"),
		Entry("Chain: chainId changed", func() error {
			return patchAfterCreate(newChain(uniqueChainID()), func(c *v1alpha1.Chain) { c.Spec.ChainID = uniqueChainID() })
		}, "chainId is immutable"),
		Entry("Chain: a priceFeed without rpc", func() error {
			return createChain(func(s *v1alpha1.ChainSpec) {
				s.RPC = nil
				s.PriceFeed = &v1alpha1.PriceFeed{Address: "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", Decimals: 8, MaxAgeSeconds: 3600}
			})
		}, "a priceFeed needs rpc"),
		Entry("TokenDefinition: priceFeed address not a 0x address", func() error {
			return createToken(func(s *v1alpha1.TokenDefinitionSpec) {
				s.PriceFeed = &v1alpha1.PriceFeed{Address: "0x1234", Decimals: 8, MaxAgeSeconds: 3600}
			})
		}, `spec.priceFeed.address: Invalid value: "0x1234"`),
		Entry("TokenDefinition: priceFeed maxAgeSeconds zero", func() error {
			return createToken(func(s *v1alpha1.TokenDefinitionSpec) {
				s.PriceFeed = &v1alpha1.PriceFeed{Address: "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", Decimals: 8}
			})
		}, "spec.priceFeed.maxAgeSeconds"),
		Entry("TokenDefinition: address on another chain", func() error {
			return createToken(func(s *v1alpha1.TokenDefinitionSpec) { s.Address = "eip155:1:" + randomAddress() })
		}, "address must be a CAIP-10 account on chainId"),
		Entry("TokenDefinition: eip155 address not 40 hex digits", func() error {
			return createToken(func(s *v1alpha1.TokenDefinitionSpec) { s.Address = s.ChainID + ":0xabc" })
		}, "an eip155 address must be 0x followed by 40 hex digits"),
		Entry("TokenDefinition: eip155 chainId with a leading zero", func() error {
			return createToken(func(s *v1alpha1.TokenDefinitionSpec) {
				s.ChainID, s.Address = "eip155:01", "eip155:01:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
			})
		}, "an eip155 chainId must be eip155:<decimal chain id without leading zeros>"),
		Entry("TokenDefinition: negative decimals", func() error {
			return createToken(func(s *v1alpha1.TokenDefinitionSpec) { s.Decimals = -1 })
		}, "spec.decimals: Invalid value: -1"),
		Entry("TokenDefinition: decimals above 77", func() error {
			return createToken(func(s *v1alpha1.TokenDefinitionSpec) { s.Decimals = 78 })
		}, "spec.decimals: Invalid value: 78"),
		Entry("TokenDefinition: limits.maxAmount zero", func() error {
			return createToken(func(s *v1alpha1.TokenDefinitionSpec) { s.Limits = &v1alpha1.TokenLimits{MaxAmount: "0.00"} })
		}, "maxAmount must be positive"),
		Entry("TokenDefinition: limits.maxAmount not a decimal", func() error {
			return createToken(func(s *v1alpha1.TokenDefinitionSpec) { s.Limits = &v1alpha1.TokenLimits{MaxAmount: "1e6"} })
		}, `spec.limits.maxAmount: Invalid value: "1e6"`),
		Entry("TokenDefinition: limits.maxAmount finer than the token's decimals", func() error {
			return createToken(func(s *v1alpha1.TokenDefinitionSpec) { s.Limits = &v1alpha1.TokenLimits{MaxAmount: "1.0000001"} })
		}, "limits.maxAmount has more fraction digits than the token's decimals"),
		Entry("ApiKey: keyHash not sha256:<64 hex>", func() error {
			return createApiKey(func(s *v1alpha1.ApiKeySpec) { s.KeyHash = "sha256:ABC" })
		}, `spec.keyHash: Invalid value: "sha256:ABC"`),
		Entry("ApiKey: displayPrefix of the other environment", func() error {
			return createApiKey(func(s *v1alpha1.ApiKeySpec) { s.DisplayPrefix = "sk_live_AbCd" })
		}, "displayPrefix must start with sk_test_ for a test key and sk_live_ for a live key"),
		Entry("ApiKey: environment neither test nor live", func() error {
			return createApiKey(func(s *v1alpha1.ApiKeySpec) { s.Environment = "staging" })
		}, `spec.environment: Unsupported value: "staging"`),
		Entry("ApiKey: keyHash changed", func() error {
			key, _ := newApiKey(uniqueName("acct"))
			other, _ := newApiKey("x")
			return patchAfterCreate(key, func(k *v1alpha1.ApiKey) { k.Spec.KeyHash = other.Spec.KeyHash })
		}, "keyHash is immutable"),
		Entry("Account: email without a domain", func() error {
			return createAccount(func(s *v1alpha1.AccountSpec) { s.Email = "alice@localhost" })
		}, `spec.email: Invalid value: "alice@localhost"`),
		Entry("TransferIntent: spec changed", func() error {
			return patchAfterCreate(newIntent(uniqueName("acct")), func(i *v1alpha1.TransferIntent) {
				i.Spec.Request.Amount = "1000000"
			})
		}, "spec is immutable"),
		Entry("TransferIntent: status moved back from expired to pending", func() error {
			intent := newIntent(uniqueName("acct"))
			Expect(k8sClient.Create(ctx, intent)).To(Succeed())
			expectImpliedPending(intent)
			before := intent.DeepCopy()
			intent.Status.Phase = v1alpha1.IntentPhaseExpired
			Expect(k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))).To(Succeed())
			before = intent.DeepCopy()
			intent.Status.Phase = v1alpha1.IntentPhasePending
			return k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))
		}, "illegal lifecycle transition"),
		Entry("TransferIntent: a new (implied pending) intent written straight to confirmed", func() error {
			intent := newIntent(uniqueName("acct"))
			Expect(k8sClient.Create(ctx, intent)).To(Succeed())
			expectImpliedPending(intent)
			before := intent.DeepCopy()
			intent.Status.Phase, intent.Status.Hash = v1alpha1.IntentPhaseConfirmed, "0x"+strings.Repeat("ab", 32)
			return k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))
		}, "a new intent is pending and moves to submitted or expired"),
		Entry("TransferIntent: submitted without its transaction hash", func() error {
			intent := newIntent(uniqueName("acct"))
			Expect(k8sClient.Create(ctx, intent)).To(Succeed())
			expectImpliedPending(intent)
			before := intent.DeepCopy()
			intent.Status.Phase = v1alpha1.IntentPhaseSubmitted
			return k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))
		}, "a submitted, confirmed or failed intent has its transaction hash"),
		Entry("TransferIntent: status moved from confirmed back to submitted", func() error {
			intent := newIntent(uniqueName("acct"))
			Expect(k8sClient.Create(ctx, intent)).To(Succeed())
			expectImpliedPending(intent)
			before := intent.DeepCopy()
			intent.Status.Phase, intent.Status.Hash = v1alpha1.IntentPhaseSubmitted, "0x"+strings.Repeat("ab", 32)
			Expect(k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))).To(Succeed())
			before = intent.DeepCopy()
			intent.Status.Phase = v1alpha1.IntentPhaseConfirmed
			Expect(k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))).To(Succeed())
			before = intent.DeepCopy()
			intent.Status.Phase = v1alpha1.IntentPhaseSubmitted
			return k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))
		}, "illegal lifecycle transition"),
		Entry("TransferIntent: orderId not bytes32 hex", func() error {
			intent := newIntent(uniqueName("acct"))
			intent.Spec.OrderID = "0x1234"
			return k8sClient.Create(ctx, intent)
		}, `spec.orderId: Invalid value: "0x1234"`),
		Entry("WebhookEndpoint: live on plain http, even to loopback", func() error {
			return createWebhookEndpoint(func(s *v1alpha1.WebhookEndpointSpec) { s.Environment = v1alpha1.EnvironmentLive })
		}, "a live endpoint's url must be https"),
		Entry("WebhookEndpoint: test on plain http to a remote host", func() error {
			return createWebhookEndpoint(func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "http://hooks.example.com/tis" })
		}, "plain http is allowed to a loopback address only"),
		Entry("WebhookEndpoint: no event type", func() error {
			return createWebhookEndpoint(func(s *v1alpha1.WebhookEndpointSpec) { s.EventTypes = nil })
		}, "spec.eventTypes"),
		Entry("WebhookEndpoint: unknown event type", func() error {
			return createWebhookEndpoint(func(s *v1alpha1.WebhookEndpointSpec) { s.EventTypes = []v1alpha1.WebhookEventType{"transfer.refunded"} })
		}, `spec.eventTypes[0]: Unsupported value: "transfer.refunded"`),
		Entry("WebhookEndpoint: an event type twice", func() error {
			return createWebhookEndpoint(func(s *v1alpha1.WebhookEndpointSpec) {
				s.EventTypes = []v1alpha1.WebhookEventType{"transfer.failed", "transfer.failed"}
			})
		}, "spec.eventTypes[1]: Duplicate value"),
		Entry("WebhookEndpoint: accountRef changed", func() error {
			return patchAfterCreate(newWebhookEndpoint(uniqueName("acct")), func(ep *v1alpha1.WebhookEndpoint) { ep.Spec.AccountRef.Name = "other" })
		}, "accountRef is immutable"),
	)

	It("accepts the way back from submitted to pending (a reorg dropped the transaction)", func() {
		intent := newIntent(uniqueName("acct"))
		Expect(k8sClient.Create(ctx, intent)).To(Succeed())
		expectImpliedPending(intent)
		before := intent.DeepCopy()
		intent.Status.Phase, intent.Status.Hash = v1alpha1.IntentPhaseSubmitted, "0x"+strings.Repeat("ab", 32)
		intent.Status.BlockNumber, intent.Status.BlockHash = 7, "0x"+strings.Repeat("cd", 32)
		Expect(k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))).To(Succeed())
		before = intent.DeepCopy()
		intent.Status.Phase, intent.Status.Hash, intent.Status.BlockNumber, intent.Status.BlockHash = v1alpha1.IntentPhasePending, "", 0, ""
		Expect(k8sClient.Status().Patch(ctx, intent, client.MergeFrom(before))).To(Succeed())
	})

	It("accepts the samples' shape of every kind", func() {
		// Guards the table above: each refusal differs from an accepted object in one field only.
		Expect(createChain(func(*v1alpha1.ChainSpec) {})).To(Succeed())
		Expect(createToken(func(*v1alpha1.TokenDefinitionSpec) {})).To(Succeed())
		Expect(createToken(func(s *v1alpha1.TokenDefinitionSpec) {
			s.Limits = &v1alpha1.TokenLimits{MaxAmount: "250000.000001"} // the token's 6 decimals exactly
		})).To(Succeed())
		Expect(createToken(func(s *v1alpha1.TokenDefinitionSpec) { s.Limits = &v1alpha1.TokenLimits{MaxAmount: "1000000"} })).To(Succeed())
		Expect(createApiKey(func(*v1alpha1.ApiKeySpec) {})).To(Succeed())
		Expect(createAccount(func(*v1alpha1.AccountSpec) {})).To(Succeed())
		Expect(k8sClient.Create(ctx, newIntent(uniqueName("acct")))).To(Succeed())
		Expect(createWebhookEndpoint(func(*v1alpha1.WebhookEndpointSpec) {})).To(Succeed())
		Expect(createWebhookEndpoint(func(s *v1alpha1.WebhookEndpointSpec) {
			s.Environment, s.URL = v1alpha1.EnvironmentLive, "https://hooks.example.com/tis"
		})).To(Succeed())
	})
})
