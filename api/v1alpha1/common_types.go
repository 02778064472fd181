package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// OperatorName names the operator: the reporter of its events, and the manager
// (app.kubernetes.io/managed-by) of the objects it generates.
const OperatorName = "transfer-intent-operator"

// Environment is the network family a chain or an API key belongs to.
// +kubebuilder:validation:Enum=test;live
type Environment string

const (
	// EnvironmentTest is testnets; test keys (sk_test_) act on them only.
	EnvironmentTest Environment = "test"
	// EnvironmentLive is mainnets; live keys (sk_live_) act on them only.
	EnvironmentLive Environment = "live"
)

// LocalObjectReference names an object in the same namespace.
type LocalObjectReference struct {
	// name of the referenced object.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// SecretKeyReference names one key of a Secret in the same namespace.
type SecretKeyReference struct {
	// name of the Secret.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// key within the Secret's data. Default: passwordHash for an Account's passwordSecretRef,
	// url for a Chain's rpc.urlSecretRef, secret for a WebhookEndpoint's secretRef and a Filler's
	// signingSecretRef.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[-._a-zA-Z0-9]+$`
	Key string `json:"key,omitempty"`
}

// CommonStatus is the part of every kind's status that reports readiness.
type CommonStatus struct {
	// observedGeneration is the metadata.generation the conditions describe.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// conditions: Ready tells whether the object is served, and why not.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Object is what every kind of this group is to code shared by all kinds (the controllers' status
// helper, tests): a Kubernetes object with the common status.
// +kubebuilder:object:generate=false
type Object interface {
	metav1.Object
	runtime.Object
	// GetCommonStatus returns the part of the status every kind reports.
	GetCommonStatus() *CommonStatus
}

// GetCommonStatus implements Object.
func (c *Chain) GetCommonStatus() *CommonStatus { return &c.Status.CommonStatus }

// GetCommonStatus implements Object.
func (t *TokenDefinition) GetCommonStatus() *CommonStatus { return &t.Status.CommonStatus }

// GetCommonStatus implements Object.
func (a *Account) GetCommonStatus() *CommonStatus { return &a.Status.CommonStatus }

// GetCommonStatus implements Object.
func (k *ApiKey) GetCommonStatus() *CommonStatus { return &k.Status.CommonStatus }

// GetCommonStatus implements Object.
func (t *TransferIntent) GetCommonStatus() *CommonStatus { return &t.Status.CommonStatus }

// GetCommonStatus implements Object.
func (w *WebhookEndpoint) GetCommonStatus() *CommonStatus { return &w.Status.CommonStatus }

// GetCommonStatus implements Object.
func (f *Filler) GetCommonStatus() *CommonStatus { return &f.Status.CommonStatus }

// PriceFeed is a Chainlink AggregatorV3-compatible price feed of a USD price: the simulation reads
// its latestRoundData() in the same batch as balances and gas, and prefers a fresh, positive answer
// to the typed price.
type PriceFeed struct {
	// address is the EIP-55 0x address of the aggregator on the chain whose node the simulation
	// reads: a Chain's own, and for a TokenDefinition the token's chain.
	// +required
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	Address string `json:"address"`

	// decimals is the number of decimal places of the feed's answer (8 for Chainlink's USD feeds).
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=36
	Decimals int32 `json:"decimals"`

	// maxAgeSeconds is how old the answer's updatedAt may be before the price counts as stale (the
	// feed's heartbeat plus a margin: 3600 for most Chainlink USD feeds on Ethereum). A stale price
	// falls back to the typed one with a warning.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=604800
	MaxAgeSeconds int64 `json:"maxAgeSeconds"`
}
