package endpoint

import (
	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// DefaultLimit is the default of --webhook-endpoints-per-account: the most endpoints of one
// account that receive deliveries. One account's endpoints share the deliverer's workers with
// every other account's; the limit keeps a tenant from turning the service into a fan-out of its
// events to hundreds of receivers (or of one third party's addresses).
const DefaultLimit = 10

// Why an endpoint receives nothing (Unserved's answers).
const (
	StopDeleted         = "endpoint_deleted"
	StopDisabled        = "endpoint_disabled"
	StopLimit           = "endpoint_limit"
	StopAccountDisabled = "account_disabled"
)

// Admitted reports whether ep is within its account's limit: the account's endpoints (of every
// environment, not being deleted), oldest first and then by name, are served up to limit; the
// newer ones beyond it are not. A limit below 1 admits every endpoint. siblings are the
// endpoints of ep's namespace (ep among them or not).
func Admitted(ep *v1alpha1.WebhookEndpoint, siblings []v1alpha1.WebhookEndpoint, limit int) bool {
	if limit < 1 {
		return true
	}
	older := 0
	for i := range siblings {
		o := &siblings[i]
		if o.UID == ep.UID || o.Spec.AccountRef.Name != ep.Spec.AccountRef.Name || !o.DeletionTimestamp.IsZero() {
			continue
		}
		if o.CreationTimestamp.Before(&ep.CreationTimestamp) ||
			(o.CreationTimestamp.Equal(&ep.CreationTimestamp) && o.Name < ep.Name) {
			older++
		}
	}
	return older < limit
}

// Unserved says why ep receives no delivery now, one of the Stop reasons, or "" when it does.
// account is ep's Account, nil when it does not exist (its endpoints are deleted with it).
// It is the one rule the emitter, the deliverer and replays follow.
func Unserved(ep *v1alpha1.WebhookEndpoint, account *v1alpha1.Account, siblings []v1alpha1.WebhookEndpoint, limit int) string {
	switch {
	case !ep.DeletionTimestamp.IsZero():
		return StopDeleted
	case ep.Spec.Disabled || ep.DeliveriesStopped():
		return StopDisabled
	case account == nil || account.Spec.Disabled || !account.DeletionTimestamp.IsZero():
		return StopAccountDisabled
	case !Admitted(ep, siblings, limit):
		return StopLimit
	}
	return ""
}
