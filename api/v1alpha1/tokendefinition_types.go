package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TokenDefinitionSpec is one canonical token, served by GET /v2/tokens.
// +kubebuilder:validation:XValidation:rule="!self.chainId.startsWith('eip155:') || self.chainId.matches('^eip155:[1-9][0-9]{0,18}$')",message="an eip155 chainId must be eip155:<decimal chain id without leading zeros>"
// +kubebuilder:validation:XValidation:rule="self.address.startsWith(self.chainId + ':')",message="address must be a CAIP-10 account on chainId (address must start with chainId followed by ':')"
// +kubebuilder:validation:XValidation:rule="!self.address.startsWith('eip155:') || self.address.matches('^eip155:[0-9]+:0x[0-9a-fA-F]{40}$')",message="an eip155 address must be 0x followed by 40 hex digits"
// +kubebuilder:validation:XValidation:rule="!has(self.limits) || !self.limits.maxAmount.contains('.') || size(self.limits.maxAmount) - self.limits.maxAmount.indexOf('.') - 1 <= self.decimals",message="limits.maxAmount has more fraction digits than the token's decimals"
type TokenDefinitionSpec struct {
	// symbol is the canonical token symbol, for example USDC.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9][A-Za-z0-9._+-]*$`
	Symbol string `json:"symbol"`

	// chainId is the CAIP-2 identifier of the chain the token lives on; a Chain with it must exist.
	// +required
	// +kubebuilder:validation:MaxLength=41
	// +kubebuilder:validation:Pattern=`^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$`
	ChainID string `json:"chainId"`

	// address is the CAIP-10 account id of the token contract, for example
	// eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48. eip155 addresses are EIP-55 checksummed or
	// all lowercase. The chain's native token uses 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE.
	// +required
	// +kubebuilder:validation:MaxLength=171
	// +kubebuilder:validation:Pattern=`^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$`
	Address string `json:"address"`

	// decimals is the number of decimal places of the token's base unit (6 for USDC, 18 for WETH).
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=77
	Decimals int32 `json:"decimals"`

	// metadata is an optional metadata URI or serialized payload, served as-is.
	// +optional
	// +kubebuilder:validation:MaxLength=4096
	Metadata *string `json:"metadata,omitempty"`

	// priceUsd is the USD price of one whole token, as a decimal string; used for fee estimates and
	// never served. Without it, fees expressed in basis points cannot be valued in USD.
	// +optional
	// +kubebuilder:validation:MaxLength=40
	// +kubebuilder:validation:Pattern=`^(0|[1-9][0-9]*)(\.[0-9]+)?$`
	PriceUSD string `json:"priceUsd,omitempty"`

	// priceFeed is an AggregatorV3 price feed of the token in USD on the token's chain; a fresh
	// answer is preferred to priceUsd, which remains the fallback.
	// +optional
	PriceFeed *PriceFeed `json:"priceFeed,omitempty"`

	// limits are what the fillers of swap and bridge orders giving up this token declare. Absent:
	// no maximum. The minimum is not declared: the service computes it from the fees.
	// +optional
	Limits *TokenLimits `json:"limits,omitempty"`
}

// TokenLimits bound the amount of one swap or bridge order that gives up the token.
type TokenLimits struct {
	// maxAmount is the largest amount of the token one order may give up, in display units (a
	// decimal string with at most the token's decimals, for example "250000" or "12.5"); the
	// simulation publishes it as limits.maxAmount and refuses a larger amount (422). Plain transfers
	// are not bounded by it.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:Pattern=`^(0|[1-9][0-9]*)(\.[0-9]+)?$`
	// +kubebuilder:validation:XValidation:rule="!self.matches('^0([.]0+)?$')",message="maxAmount must be positive"
	MaxAmount string `json:"maxAmount"`
}

// TokenDefinitionStatus reports whether the token is served.
type TokenDefinitionStatus struct {
	CommonStatus `json:",inline"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=td;token,categories=tis
// +kubebuilder:printcolumn:name="Symbol",type=string,JSONPath=`.spec.symbol`
// +kubebuilder:printcolumn:name="Chain",type=string,JSONPath=`.spec.chainId`
// +kubebuilder:printcolumn:name="Address",type=string,JSONPath=`.spec.address`
// +kubebuilder:printcolumn:name="Decimals",type=integer,JSONPath=`.spec.decimals`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// TokenDefinition is a canonical token on one chain.
type TokenDefinition struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec TokenDefinitionSpec `json:"spec"`
	// +optional
	Status TokenDefinitionStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// TokenDefinitionList is a list of TokenDefinition.
type TokenDefinitionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []TokenDefinition `json:"items"`
}

func init() {
	SchemeBuilder.Register(&TokenDefinition{}, &TokenDefinitionList{})
}
