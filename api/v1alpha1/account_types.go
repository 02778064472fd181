package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// AccountSpec is a person or team that owns API keys and transfer intents.
type AccountSpec struct {
	// displayName is the account's human name.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	DisplayName string `json:"displayName"`

	// email is the sign-in identity of the account; unique within the namespace.
	// +required
	// +kubebuilder:validation:MaxLength=254
	// +kubebuilder:validation:Pattern=`^[^@\s]+@[^@\s]+\.[^@\s]+$`
	Email string `json:"email"`

	// passwordSecretRef names the Secret key holding the bcrypt hash of the account's password,
	// used for browser sign-in. The password itself is never stored.
	// +optional
	PasswordSecretRef *SecretKeyReference `json:"passwordSecretRef,omitempty"`

	// disabled refuses every API key and session of the account while true.
	// +optional
	Disabled bool `json:"disabled,omitempty"`

	// maxApiKeys is how many ApiKeys the account may hold (default 25). The /keys page refuses
	// a key past it, and the ApiKey controller refuses (Ready=False, reason KeyLimitExceeded) the
	// newest keys of an account that holds more, for instance applied from Git.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	MaxAPIKeys *int32 `json:"maxApiKeys,omitempty"`

	// fees is the account's integrator fee policy: what its swaps and bridges may charge their
	// users on top of the service's fees, and to whom it is paid. Absent: its requests charge none,
	// and a request that sets a fee is refused (fee-not-allowed).
	// +optional
	Fees *IntegratorFeePolicy `json:"fees,omitempty"`
}

// IntegratorFeePolicy is an Account's integrator fee policy. The fee is a share of the order's
// input (amountIn, in the input token), credited to the recipient by the settlement contract when
// the order is paid out (a bridge's settle, a swap's fill) and never on a refund.
// +kubebuilder:validation:XValidation:rule="!has(self.defaultBps) || self.defaultBps <= self.maxBps",message="defaultBps must not exceed maxBps"
type IntegratorFeePolicy struct {
	// defaultBps is the fee of a swap or bridge whose request sets none, in basis points of its
	// amount (absent: 0, no fee unless the request sets one).
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	DefaultBps int32 `json:"defaultBps,omitempty"`

	// maxBps is the most a request may set, in basis points (at most 1000, 10%).
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	MaxBps int32 `json:"maxBps"`

	// recipients are, per origin chain (where the fee is credited, in the input token), the
	// addresses a fee may be paid to; the first is the one a request that names none is paid at.
	// A fee on an order from a chain not listed is refused.
	// +required
	// +listType=map
	// +listMapKey=chainId
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=64
	Recipients []FeeRecipients `json:"recipients"`
}

// FeeRecipients are the addresses an integrator fee may be paid to on one chain.
type FeeRecipients struct {
	// chainId is the CAIP-2 id of the origin chain.
	// +required
	// +kubebuilder:validation:MaxLength=41
	// +kubebuilder:validation:Pattern=`^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$`
	// +kubebuilder:validation:XValidation:rule="!self.startsWith('eip155:') || self.matches('^eip155:[1-9][0-9]{0,18}$')",message="an eip155 chain id must be eip155:<decimal chain id without leading zeros>"
	ChainID string `json:"chainId"`

	// addresses are the 0x EVM addresses (EIP-55 checksummed or all one case) a fee on an order
	// from that chain may be paid to; the first is the default.
	// +required
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:Pattern=`^0x[0-9a-fA-F]{40}$`
	Addresses []string `json:"addresses"`
}

// DefaultMaxAPIKeys is how many ApiKeys an Account may hold when its spec does not say.
const DefaultMaxAPIKeys = 25

// APIKeyLimit is how many ApiKeys the account may hold: spec.maxApiKeys, or DefaultMaxAPIKeys.
func (s *AccountSpec) APIKeyLimit() int {
	if s.MaxAPIKeys == nil || *s.MaxAPIKeys <= 0 {
		return DefaultMaxAPIKeys
	}
	return int(*s.MaxAPIKeys)
}

// AccountStatus reports whether the account is usable, and which of its browser sessions ended
// before they expired.
type AccountStatus struct {
	CommonStatus `json:",inline"`

	// signedOutSessions are the browser sessions of the account that were signed out before they
	// expired; every replica refuses them. An entry is dropped once its session would have expired.
	// Written by the service at sign-out.
	// +optional
	// +listType=map
	// +listMapKey=session
	// +kubebuilder:validation:MaxItems=100
	SignedOutSessions []SignedOutSession `json:"signedOutSessions,omitempty"`

	// sessionsNotBefore ends every browser session of the account issued at or before it. The
	// service sets it when signedOutSessions is full; an operator may set it to sign the account
	// out everywhere.
	// +optional
	SessionsNotBefore *metav1.Time `json:"sessionsNotBefore,omitempty"`
}

// SignedOutSession is one browser session ended by sign-out.
type SignedOutSession struct {
	// session is the hex SHA-256 (first 32 digits) of the session's id; the id itself is never
	// stored.
	// +required
	// +kubebuilder:validation:Pattern=`^[0-9a-f]{32}$`
	Session string `json:"session"`

	// expires is when the session would have ended by itself.
	// +required
	Expires metav1.Time `json:"expires"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=acct,categories=tis
// +kubebuilder:printcolumn:name="Email",type=string,JSONPath=`.spec.email`
// +kubebuilder:printcolumn:name="Disabled",type=boolean,JSONPath=`.spec.disabled`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// Account owns API keys and transfer intents. Deleting it invalidates its keys at once and
// garbage-collects them.
type Account struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec AccountSpec `json:"spec"`
	// +optional
	Status AccountStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// AccountList is a list of Account.
type AccountList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Account `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Account{}, &AccountList{})
}
