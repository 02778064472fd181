package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WebhookEventType is the type of an event a WebhookEndpoint can receive: a transfer intent that
// was created or moved to a lifecycle state.
// +kubebuilder:validation:Enum=transfer.created;transfer.signed;transfer.submitted;transfer.confirmed;transfer.failed;transfer.expired;transfer.cancelled
type WebhookEventType string

// The event types, one per lifecycle state of a transfer intent.
const (
	// WebhookEventTransferCreated: an intent was created (POST /v2/transfers); it is pending.
	WebhookEventTransferCreated WebhookEventType = "transfer.created"
	// WebhookEventTransferSigned: a gasless intent's signature was accepted; its order is offered
	// to fillers.
	WebhookEventTransferSigned WebhookEventType = "transfer.signed"
	// WebhookEventTransferSubmitted: the intent's transaction was seen on its chain or reported.
	WebhookEventTransferSubmitted WebhookEventType = "transfer.submitted"
	// WebhookEventTransferConfirmed: the transaction (and, for a swap or bridge, its fill) is final.
	WebhookEventTransferConfirmed WebhookEventType = "transfer.confirmed"
	// WebhookEventTransferFailed: the transaction reverted, or the order was refunded.
	WebhookEventTransferFailed WebhookEventType = "transfer.failed"
	// WebhookEventTransferExpired: the deadline passed before a transaction was seen.
	WebhookEventTransferExpired WebhookEventType = "transfer.expired"
	// WebhookEventTransferCancelled: a gasless intent's user cancelled it, and nobody can open it
	// any more (at once for an unsigned one; for a signed one at its open deadline).
	WebhookEventTransferCancelled WebhookEventType = "transfer.cancelled"
)

// WebhookEndpointSpec declares where one account's transfer events are delivered, signed as
// Standard Webhooks.
// +kubebuilder:validation:XValidation:rule="self.environment != 'live' || self.url.startsWith('https://')",message="a live endpoint's url must be https"
type WebhookEndpointSpec struct {
	// accountRef names the Account whose transfers the endpoint hears about. It cannot be changed.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="accountRef is immutable"
	AccountRef LocalObjectReference `json:"accountRef"`

	// environment selects the transfers the endpoint hears about: those created with test keys or
	// with live keys.
	// +required
	Environment Environment `json:"environment"`

	// url receives the deliveries (HTTP POST). It must be https; a test endpoint may also use
	// plain http to a loopback address (localhost, 127.0.0.0/8, [::1]), for development.
	// +required
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="isURL(self) && (self.startsWith('https://') || self.matches('^http://(localhost|127[.][0-9]{1,3}[.][0-9]{1,3}[.][0-9]{1,3}|[[]::1[]])(:[0-9]{1,5})?([/?#].*)?$'))",message="url must be https: plain http is allowed to a loopback address only, and for a test endpoint only"
	URL string `json:"url"`

	// eventTypes are the events delivered to the endpoint; at least one.
	// +required
	// +listType=set
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=5
	EventTypes []WebhookEventType `json:"eventTypes"`

	// secretRef names the Secret key holding the signing secret ("whsec_" and the base64 of 24 to
	// 64 bytes; key default: secret). When absent, the operator generates a secret in the Secret
	// named after the endpoint with the suffix -webhook-secret, owned by the endpoint. Either way
	// status.secretRef names it.
	// +optional
	SecretRef *SecretKeyReference `json:"secretRef,omitempty"`

	// disabled stops deliveries to the endpoint while true.
	// +optional
	Disabled bool `json:"disabled,omitempty"`
}

// The delivery fields (lastSuccessAt, consecutiveFailures, lastError) are written by the deliverer
// at most once a minute per endpoint, so that a busy endpoint does not turn every delivery into a
// write to the API server; the delivery log itself lives in the archive's PostgreSQL
// (internal/webhook/outbox; docs/decisions.md, "Webhooks").

// WebhookEndpointStatus reports whether the endpoint is usable, where its signing secret is, and
// how its deliveries fare.
type WebhookEndpointStatus struct {
	CommonStatus `json:",inline"`

	// secretRef names the Secret key that holds the signing secret: spec.secretRef, or the Secret
	// the operator generated. The secret itself is never in the status.
	// +optional
	SecretRef *SecretKeyReference `json:"secretRef,omitempty"`

	// previousSecretExpiresAt is, while a rotation lasts, when the previous secret stops signing.
	// Until then deliveries carry a signature with each of the two secrets.
	// +optional
	PreviousSecretExpiresAt *metav1.Time `json:"previousSecretExpiresAt,omitempty"`

	// lastSuccessAt is when a delivery to the endpoint last succeeded (a 2xx answer). Written by
	// the deliverer, at most once a minute.
	// +optional
	LastSuccessAt *metav1.Time `json:"lastSuccessAt,omitempty"`

	// consecutiveFailures counts the delivery attempts that failed since the last success.
	// Written by the deliverer, at most once a minute.
	// +optional
	// +kubebuilder:validation:Minimum=0
	ConsecutiveFailures int32 `json:"consecutiveFailures,omitempty"`

	// lastError describes the last failed delivery attempt (status code or network error).
	// Written by the deliverer, at most once a minute; cleared by a success.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	LastError string `json:"lastError,omitempty"`

	// disabledAt is when the deliverer stopped deliveries to the endpoint after three days of
	// failures (with an Event). Any change of the spec (a new generation) resumes them.
	// +optional
	DisabledAt *metav1.Time `json:"disabledAt,omitempty"`

	// disabledGeneration is the generation of the spec that was disabled; deliveries stay stopped
	// while metadata.generation equals it.
	// +optional
	// +kubebuilder:validation:Minimum=0
	DisabledGeneration int64 `json:"disabledGeneration,omitempty"`
}

// DeliveriesStopped reports whether the deliverer stopped deliveries to the endpoint for failing
// too long, at its current spec.
func (ep *WebhookEndpoint) DeliveriesStopped() bool {
	return ep.Status.DisabledAt != nil && ep.Status.DisabledGeneration == ep.Generation
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=whe;webhook,categories=tis
// +kubebuilder:printcolumn:name="Account",type=string,JSONPath=`.spec.accountRef.name`
// +kubebuilder:printcolumn:name="Env",type=string,JSONPath=`.spec.environment`
// +kubebuilder:printcolumn:name="URL",type=string,JSONPath=`.spec.url`
// +kubebuilder:printcolumn:name="Disabled",type=boolean,JSONPath=`.spec.disabled`,priority=1
// +kubebuilder:printcolumn:name="Failures",type=integer,JSONPath=`.status.consecutiveFailures`
// +kubebuilder:printcolumn:name="Last-Success",type=date,JSONPath=`.status.lastSuccessAt`,priority=1
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// WebhookEndpoint is a URL that receives an account's transfer events as signed webhooks.
type WebhookEndpoint struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec WebhookEndpointSpec `json:"spec"`
	// +optional
	Status WebhookEndpointStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// WebhookEndpointList is a list of WebhookEndpoint.
type WebhookEndpointList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WebhookEndpoint `json:"items"`
}

func init() {
	SchemeBuilder.Register(&WebhookEndpoint{}, &WebhookEndpointList{})
}
