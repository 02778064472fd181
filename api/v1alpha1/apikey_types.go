package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ApiKeySpec describes one API key by its hash. The plaintext key is never stored: it is shown once
// to its owner (by POST /auth/api-key/create or `manager keygen`) and only sha256 of it is kept.
// +kubebuilder:validation:XValidation:rule="self.displayPrefix.startsWith(self.environment == 'test' ? 'sk_test_' : 'sk_live_')",message="displayPrefix must start with sk_test_ for a test key and sk_live_ for a live key"
type ApiKeySpec struct {
	// accountRef names the Account that owns the key. It cannot be changed.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="accountRef is immutable"
	AccountRef LocalObjectReference `json:"accountRef"`

	// environment is the key's environment: test keys act on testnets, live keys on mainnets.
	// It cannot be changed: it is part of the key itself (sk_test_ / sk_live_).
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="environment is immutable"
	Environment Environment `json:"environment"`

	// keyHash is "sha256:" followed by the lowercase hex SHA-256 of the whole key string.
	// It cannot be changed: to rotate a key, create a new ApiKey and delete this one.
	// +required
	// +kubebuilder:validation:Pattern=`^sha256:[0-9a-f]{64}$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="keyHash is immutable; create a new ApiKey to rotate"
	KeyHash string `json:"keyHash"`

	// displayPrefix is the start of the key (its environment prefix and a few characters), so that
	// people can recognise a key without seeing it, for example sk_test_AbCd.
	// +required
	// +kubebuilder:validation:MinLength=9
	// +kubebuilder:validation:MaxLength=16
	// +kubebuilder:validation:Pattern=`^sk_(test|live)_[0-9A-Za-z]{1,8}$`
	DisplayPrefix string `json:"displayPrefix"`

	// displayName is the name the owner gave the key.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	DisplayName string `json:"displayName,omitempty"`

	// expiresAt is when the key stops working; never when absent.
	// +optional
	ExpiresAt *metav1.Time `json:"expiresAt,omitempty"`

	// disabled refuses the key while true.
	// +optional
	Disabled bool `json:"disabled,omitempty"`

	// rateLimitPerMinute is the number of requests the key may make in any 60 seconds.
	// +optional
	// +kubebuilder:default=50
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	RateLimitPerMinute int32 `json:"rateLimitPerMinute,omitempty"`

	// role is what the key may do beyond its account's own intents: a filler key also reads the
	// order book of signed gasless orders of every account in its environment (GET /v2/orders).
	// Only an operator grants it, in the manifest: keys made by POST /auth/api-key/create are
	// client keys.
	// +optional
	// +kubebuilder:default=client
	Role ApiKeyRole `json:"role,omitempty"`
}

// ApiKeyRole is what a key may do beyond its own account's intents.
// +kubebuilder:validation:Enum=client;filler
type ApiKeyRole string

const (
	// ApiKeyRoleClient acts on its account's own intents only.
	ApiKeyRoleClient ApiKeyRole = "client"
	// ApiKeyRoleFiller also reads the order book (GET /v2/orders) of its environment.
	ApiKeyRoleFiller ApiKeyRole = "filler"
)

// ApiKeyStatus reports whether the key is accepted.
type ApiKeyStatus struct {
	CommonStatus `json:",inline"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ak;apikey,categories=tis
// +kubebuilder:printcolumn:name="Account",type=string,JSONPath=`.spec.accountRef.name`
// +kubebuilder:printcolumn:name="Env",type=string,JSONPath=`.spec.environment`
// +kubebuilder:printcolumn:name="Prefix",type=string,JSONPath=`.spec.displayPrefix`
// +kubebuilder:printcolumn:name="Key-Name",type=string,JSONPath=`.spec.displayName`,priority=1
// +kubebuilder:printcolumn:name="Role",type=string,JSONPath=`.spec.role`
// +kubebuilder:printcolumn:name="Expires",type=string,JSONPath=`.spec.expiresAt`
// +kubebuilder:printcolumn:name="Disabled",type=boolean,JSONPath=`.spec.disabled`,priority=1
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// ApiKey is an API key, held as its hash, that authenticates /v2 requests for one account.
type ApiKey struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec ApiKeySpec `json:"spec"`
	// +optional
	Status ApiKeyStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ApiKeyList is a list of ApiKey.
type ApiKeyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ApiKey `json:"items"`
}

func init() {
	SchemeBuilder.Register(&ApiKey{}, &ApiKeyList{})
}
