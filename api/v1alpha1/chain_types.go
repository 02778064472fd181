package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ChainSpec describes one blockchain the service can build intents for.
// +kubebuilder:validation:XValidation:rule="!self.chainId.startsWith('eip155:') || self.chainId.matches('^eip155:[1-9][0-9]{0,18}$')",message="an eip155 chainId must be eip155:<decimal chain id without leading zeros>"
// +kubebuilder:validation:XValidation:rule="!has(self.priceFeed) || has(self.rpc)",message="a priceFeed needs rpc: the feed is read through the chain's node"
type ChainSpec struct {
	// chainId is the CAIP-2 identifier of the chain, for example eip155:1 for Ethereum mainnet.
	// It cannot be changed: intents and tokens refer to it.
	// +required
	// +kubebuilder:validation:MaxLength=41
	// +kubebuilder:validation:Pattern=`^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="chainId is immutable"
	ChainID string `json:"chainId"`

	// environment says which API keys may act on this chain: test (testnets) or live (mainnets).
	// +required
	Environment Environment `json:"environment"`

	// displayName is the chain's human name, for example "Ethereum".
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	DisplayName string `json:"displayName"`

	// nativeSymbol is the symbol of the gas token, for example ETH.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=16
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9][A-Za-z0-9._+-]*$`
	NativeSymbol string `json:"nativeSymbol"`

	// nativeDecimals is the number of decimal places of the gas token (18 for ETH).
	// +optional
	// +kubebuilder:default=18
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=77
	NativeDecimals int32 `json:"nativeDecimals,omitempty"`

	// blockTimeSeconds is the typical time between blocks; it drives estimatedTimeS of transfers and swaps.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=3600
	BlockTimeSeconds int64 `json:"blockTimeSeconds"`

	// finalitySeconds is the time until a block is final; bridges wait for it on both chains.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=86400
	FinalitySeconds int64 `json:"finalitySeconds"`

	// defaultGasPriceWei is the gas price used for fee estimates when no live price is known,
	// as a decimal integer string in wei.
	// +required
	// +kubebuilder:validation:MaxLength=78
	// +kubebuilder:validation:Pattern=`^(0|[1-9][0-9]*)$`
	DefaultGasPriceWei string `json:"defaultGasPriceWei"`

	// nativeTokenPriceUsd is the USD price of one whole gas token, as a decimal string such as "3150.25".
	// +required
	// +kubebuilder:validation:MaxLength=40
	// +kubebuilder:validation:Pattern=`^(0|[1-9][0-9]*)(\.[0-9]+)?$`
	NativeTokenPriceUSD string `json:"nativeTokenPriceUsd"`

	// priceFeed is an AggregatorV3 price feed of the gas token in USD on this chain, read through
	// rpc; a fresh answer is preferred to nativeTokenPriceUsd, which remains the fallback.
	// +optional
	PriceFeed *PriceFeed `json:"priceFeed,omitempty"`

	// settlementAddress is the 0x address of the contract that executes swap and bridge orders on this
	// chain. Without it, swaps and bridges from or to this chain have no route.
	// +optional
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	SettlementAddress string `json:"settlementAddress,omitempty"`

	// permit2Address is the 0x address of Uniswap's Permit2 on this chain, through which gasless
	// orders pull their input (ERC-7683 openFor). Empty means Permit2's canonical address,
	// 0x000000000022D473030F116dDEE9F6B43aC78BA3, where it is deployed on every public chain. The
	// Chain controller checks, through rpc, that the address holds Permit2's code and that the
	// settlement contract pulls through it (the Permit2 condition).
	// +optional
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	Permit2Address string `json:"permit2Address,omitempty"`

	// maxGasOnArrival is the most of this chain's native token, in display units (a decimal string
	// such as "0.01" ETH), that a swap or bridge delivering here may ask to arrive with its output
	// (the request's gasOnArrival: the order's native drop, paid by the filler with the fill and
	// priced into the quote). Absent: gas on arrival is not offered on this chain. It may have no
	// more decimal places than nativeDecimals.
	// +optional
	// +kubebuilder:validation:MaxLength=40
	// +kubebuilder:validation:Pattern=`^(0|[1-9][0-9]*)(\.[0-9]+)?$`
	MaxGasOnArrival string `json:"maxGasOnArrival,omitempty"`

	// bridgeMinConfirmations is the least depth, in blocks, at which a bridge's open or fill on this
	// chain counts as final when the node does not serve the `finalized` block tag. A bridge waits for
	// the larger of this and finalitySeconds in blocks, so finalitySeconds: 0 never means one block
	// for a bridge. Where the node serves `finalized`, a bridge waits for that block instead.
	// +optional
	// +kubebuilder:default=64
	// +kubebuilder:validation:Minimum=2
	// +kubebuilder:validation:Maximum=100000
	BridgeMinConfirmations int64 `json:"bridgeMinConfirmations,omitempty"`

	// explorerUrl is the base URL of the chain's block explorer, such as https://etherscan.io: the API
	// links each transaction of a transfer on this chain to the explorer's page of it, explorerUrl
	// followed by /tx/ and the hash. An https URL without a query or fragment; without it, the chain's
	// transactions get no links.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="isURL(self) && self.matches('^https://[^/?#]+(/[^?#]*)?$')",message="explorerUrl must be an https URL without a query or fragment"
	ExplorerURL string `json:"explorerUrl,omitempty"`

	// rpc is the JSON-RPC endpoint of a node of this chain, used for live balances and gas prices,
	// and followed by the chain watcher.
	// +optional
	RPC *ChainRPC `json:"rpc,omitempty"`

	// witnessRpcs are further JSON-RPC endpoints of this chain, each from another provider than rpc.
	// The attester signs a bridge fill on this chain only when at least two distinct endpoints (rpc
	// and the witnesses, distinct by host and port) agree on the fill's log, its receipt's status and
	// its block's hash at final depth, and none that answers disagrees. Without a witness, bridges to
	// this chain are refused (valid: false).
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=4
	WitnessRPCs []ChainRPC `json:"witnessRpcs,omitempty"`
}

// ChainRPC locates a JSON-RPC endpoint.
// +kubebuilder:validation:XValidation:rule="has(self.url) != has(self.urlSecretRef)",message="set exactly one of url and urlSecretRef"
type ChainRPC struct {
	// url of the endpoint: https, or http on a loopback address only (localhost, 127.0.0.0/8,
	// [::1]). Prefer urlSecretRef when the URL holds a credential.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="isURL(self) && (self.startsWith('https://') || self.matches('^http://(localhost|127[.][0-9]{1,3}[.][0-9]{1,3}[.][0-9]{1,3}|[[]::1[]])(:[0-9]{1,5})?([/?#].*)?$'))",message="url must be https: plain http is allowed for a loopback node only, since anyone on the path of plain http can answer for the node"
	URL string `json:"url,omitempty"`
	// urlSecretRef names a Secret key holding the URL, for endpoints whose URL carries an API token.
	// +optional
	URLSecretRef *SecretKeyReference `json:"urlSecretRef,omitempty"`
}

// ChainStatus reports whether the chain is served and, for a chain with an RPC endpoint, what its
// node answered at the last probe.
type ChainStatus struct {
	CommonStatus `json:",inline"`
	// headBlock is the latest block number the node reported at the last successful probe.
	// +optional
	HeadBlock int64 `json:"headBlock,omitempty"`
	// watch is how far the chain watcher has followed this chain's blocks, matching their
	// transactions to pending intents. A new leader resumes from here.
	// +optional
	Watch *ChainWatchStatus `json:"watch,omitempty"`
	// settlement is what the node said, at the last probe that reached it, of the refund terms
	// of the settlement contract at spec.settlementAddress, when that is this release's contract:
	// the records of swaps and bridges tell their users from these when an escrow can be taken
	// back.
	// +optional
	Settlement *ChainSettlementStatus `json:"settlement,omitempty"`
}

// ChainSettlementStatus is a settlement contract's refund terms, as its node answered them.
type ChainSettlementStatus struct {
	// address is the contract the terms are of: spec.settlementAddress when it was probed.
	// +required
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	Address string `json:"address"`
	// refundDelaySeconds is the contract's refundDelay(): an order's escrow goes back to its user
	// by refund only after its deadline plus this, unless the guardian allowed it earlier.
	// +required
	// +kubebuilder:validation:Minimum=0
	RefundDelaySeconds int64 `json:"refundDelaySeconds"`
	// allRefundsAllowed is the contract's allRefundsAllowed(): the guardian let every order be
	// refunded now.
	// +optional
	AllRefundsAllowed bool `json:"allRefundsAllowed,omitempty"`
}

// ChainWatchStatus is the chain watcher's recorded progress on one chain.
type ChainWatchStatus struct {
	// processedBlock is the last block whose transactions were matched.
	// +required
	// +kubebuilder:validation:Minimum=0
	ProcessedBlock int64 `json:"processedBlock"`
	// processedBlockHash is that block's hash: a new leader whose node disagrees (a reorg while no
	// watcher ran) steps back before resuming.
	// +required
	// +kubebuilder:validation:Pattern=`^0x[0-9a-f]{64}$`
	ProcessedBlockHash string `json:"processedBlockHash"`
	// processedBlockTime is that block's timestamp: the TransferIntent controller expires a pending
	// intent only once the watcher has matched every block up to its expiry (or the chain is not
	// watched).
	// +required
	ProcessedBlockTime metav1.Time `json:"processedBlockTime"`
	// updatedAt is when the watcher last recorded progress.
	// +required
	UpdatedAt metav1.Time `json:"updatedAt"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ch,categories=tis
// +kubebuilder:printcolumn:name="Chain-ID",type=string,JSONPath=`.spec.chainId`
// +kubebuilder:printcolumn:name="Env",type=string,JSONPath=`.spec.environment`
// +kubebuilder:printcolumn:name="Name",type=string,JSONPath=`.spec.displayName`,priority=1
// +kubebuilder:printcolumn:name="Native",type=string,JSONPath=`.spec.nativeSymbol`
// +kubebuilder:printcolumn:name="Settlement",type=string,JSONPath=`.spec.settlementAddress`,priority=1
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,priority=1
// +kubebuilder:printcolumn:name="RPC",type=string,JSONPath=`.status.conditions[?(@.type=="RPCReachable")].reason`
// +kubebuilder:printcolumn:name="Head",type=integer,JSONPath=`.status.headBlock`
// +kubebuilder:printcolumn:name="Watched",type=integer,JSONPath=`.status.watch.processedBlock`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// Chain is a blockchain the service can build intents for.
type Chain struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec ChainSpec `json:"spec"`
	// +optional
	Status ChainStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ChainList is a list of Chain.
type ChainList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Chain `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Chain{}, &ChainList{})
}
