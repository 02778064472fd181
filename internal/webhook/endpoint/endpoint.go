// Package endpoint holds what the controller and the /webhooks page share about a WebhookEndpoint:
// the Go mirror of its spec's rules, the Secret the operator generates for it, its owner reference
// to its Account, and its index by Account.
package endpoint

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/fieldrule"
	"github.com/transferintent/transfer-intent-service/internal/webhook/signing"
	"github.com/transferintent/transfer-intent-service/internal/webhook/ssrf"
)

// AccountField indexes WebhookEndpoints by the name of their Account.
const AccountField = "spec.accountRef.name"

// ByAccount is the AccountField index function of WebhookEndpoints.
func ByAccount(obj client.Object) []string {
	return []string{obj.(*v1alpha1.WebhookEndpoint).Spec.AccountRef.Name}
}

// GeneratedSecretName is the name of the Secret the operator generates for an endpoint without
// spec.secretRef.
func GeneratedSecretName(endpoint string) string { return endpoint + "-webhook-secret" }

// ValidateSpec mirrors the CRD rules of a WebhookEndpoint's spec.
func ValidateSpec(spec *v1alpha1.WebhookEndpointSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := fieldrule.LocalObjectReference(p.Child("accountRef"), spec.AccountRef)
	errs = append(errs, fieldrule.Environment(p.Child("environment"), spec.Environment)...)
	errs = append(errs, validateURL(p.Child("url"), spec.URL, spec.Environment)...)
	errs = append(errs, validateEventTypes(p.Child("eventTypes"), spec.EventTypes)...)
	return append(errs, fieldrule.SecretKeyReference(p.Child("secretRef"), spec.SecretRef)...)
}

// validateURL checks the CRD's rules of an endpoint's url: at most 2048 characters, https,
// or http to a loopback host for a test endpoint. Unlike an RPC URL it is shown: it is no secret
// and people need it to find the mistake.
func validateURL(path *field.Path, value string, env v1alpha1.Environment) field.ErrorList {
	if errs := (fieldrule.String{Required: true, MaxLen: 2048}).Validate(path, value); len(errs) > 0 {
		return errs
	}
	if fieldrule.RPCURL(path, value) != nil {
		return field.ErrorList{field.Invalid(path, value, "url must be https: plain http is allowed to a loopback address only, and for a test endpoint only")}
	}
	if env == v1alpha1.EnvironmentLive && !strings.HasPrefix(value, "https://") {
		return field.ErrorList{field.Invalid(path, value, "a live endpoint's url must be https")}
	}
	// An address literal of the service's own network is refused here; a name is resolved and
	// checked at each delivery (internal/webhook/ssrf), where DNS rebinding cannot fool it.
	if err := ssrf.CheckURL(value, env != v1alpha1.EnvironmentLive); err != nil {
		return field.ErrorList{field.Invalid(path, value, err.Error()+": deliveries go to public addresses only")}
	}
	return nil
}

var eventTypes = map[v1alpha1.WebhookEventType]bool{
	v1alpha1.WebhookEventTransferCreated: true, v1alpha1.WebhookEventTransferSigned: true, v1alpha1.WebhookEventTransferSubmitted: true,
	v1alpha1.WebhookEventTransferConfirmed: true, v1alpha1.WebhookEventTransferFailed: true,
	v1alpha1.WebhookEventTransferExpired: true, v1alpha1.WebhookEventTransferCancelled: true,
}

// IsEventType reports whether t is an event type an endpoint can subscribe to (and GET /v2/events
// filters by).
func IsEventType(t string) bool { return eventTypes[v1alpha1.WebhookEventType(t)] }

func validateEventTypes(path *field.Path, types []v1alpha1.WebhookEventType) field.ErrorList {
	if len(types) == 0 {
		return field.ErrorList{field.Required(path, "at least one event type")}
	}
	var errs field.ErrorList
	seen := map[v1alpha1.WebhookEventType]bool{}
	for i, t := range types {
		switch {
		case !eventTypes[t]:
			errs = append(errs, field.NotSupported(path.Index(i), t, []string{
				"transfer.created", "transfer.signed", "transfer.submitted", "transfer.confirmed", "transfer.failed", "transfer.expired", "transfer.cancelled"}))
		case seen[t]:
			errs = append(errs, field.Duplicate(path.Index(i), t))
		}
		seen[t] = true
	}
	return errs
}

// GeneratedSecret is the Secret the operator generates for an endpoint without spec.secretRef,
// holding value (signing.NewSecret): named GeneratedSecretName, its value under
// signing.DefaultSecretKey and, as already seen, signing.SecretKeyObserved, and controlled by the
// endpoint (which must have its UID) so that the garbage collector deletes it with it. The
// /webhooks page creates the same Secret, so that it can show the secret once.
func GeneratedSecret(ep *v1alpha1.WebhookEndpoint, value string) (*corev1.Secret, error) {
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: GeneratedSecretName(ep.Name), Namespace: ep.Namespace, Labels: map[string]string{
			"app.kubernetes.io/managed-by": v1alpha1.OperatorName, "app.kubernetes.io/component": "webhook-secret",
		}},
		Type: corev1.SecretTypeOpaque,
		Data: map[string][]byte{signing.DefaultSecretKey: []byte(value), signing.SecretKeyObserved: []byte(value)},
	}
	if err := controllerutil.SetControllerReference(ep, secret, v1alpha1.Scheme()); err != nil {
		return nil, fmt.Errorf("owner-referencing WebhookEndpoint %s: %w", ep.Name, err)
	}
	return secret, nil
}

// SetOwner makes the Account an owner of the endpoint, not its controller, as the controller does
// to every endpoint (the /webhooks page sets it from the start).
func SetOwner(ep *v1alpha1.WebhookEndpoint, account *v1alpha1.Account) error {
	if err := controllerutil.SetOwnerReference(account, ep, v1alpha1.Scheme(), controllerutil.WithBlockOwnerDeletion(true),
		func(ref *metav1.OwnerReference) { ref.Controller = ptr.To(false) }); err != nil {
		return fmt.Errorf("owner-referencing Account %s: %w", account.Name, err)
	}
	return nil
}
