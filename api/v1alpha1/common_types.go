package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
	// url for a Chain's rpc.urlSecretRef.
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

// GetConditions returns the conditions, for helpers shared by all kinds.
func (s *CommonStatus) GetConditions() []metav1.Condition { return s.Conditions }

// SetConditions replaces the conditions, for helpers shared by all kinds.
func (s *CommonStatus) SetConditions(c []metav1.Condition) { s.Conditions = c }
