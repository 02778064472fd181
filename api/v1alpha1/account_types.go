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
