package controller

import (
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
)

func TestValidateWebhookEndpointSpec(t *testing.T) {
	tests := []struct {
		name string
		edit func(*v1alpha1.WebhookEndpointSpec)
		want string
	}{
		{"valid test endpoint on loopback http", func(*v1alpha1.WebhookEndpointSpec) {}, ""},
		{"valid test endpoint on https", func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "https://hooks.example.com/tis" }, ""},
		{"valid live endpoint", func(s *v1alpha1.WebhookEndpointSpec) {
			s.Environment, s.URL = v1alpha1.EnvironmentLive, "https://hooks.example.com/tis"
		}, ""},
		{"valid with a secretRef", func(s *v1alpha1.WebhookEndpointSpec) {
			s.SecretRef = &v1alpha1.SecretKeyReference{Name: "hooks", Key: "hmac"}
		}, ""},
		{"live endpoint on loopback http", func(s *v1alpha1.WebhookEndpointSpec) { s.Environment = v1alpha1.EnvironmentLive },
			"a live endpoint's url must be https"},
		{"test endpoint on plain http to a remote host", func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "http://hooks.example.com/tis" },
			"plain http is allowed to a loopback address only"},
		{"url not http", func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "ftp://127.0.0.1/hooks" }, "spec.url"},
		{"url missing", func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "" }, "spec.url: Required value"},
		{"url too long", func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "https://h.example/" + strings.Repeat("a", 2048) }, "spec.url: Too long"},
		{"no event type", func(s *v1alpha1.WebhookEndpointSpec) { s.EventTypes = nil }, "spec.eventTypes: Required value"},
		{"unknown event type", func(s *v1alpha1.WebhookEndpointSpec) { s.EventTypes = append(s.EventTypes, "transfer.refunded") },
			`spec.eventTypes[1]: Unsupported value: "transfer.refunded"`},
		{"event type twice", func(s *v1alpha1.WebhookEndpointSpec) { s.EventTypes = append(s.EventTypes, s.EventTypes[0]) },
			"spec.eventTypes[1]: Duplicate value"},
		{"environment", func(s *v1alpha1.WebhookEndpointSpec) { s.Environment = "staging" }, `spec.environment: Unsupported value: "staging"`},
		{"account missing", func(s *v1alpha1.WebhookEndpointSpec) { s.AccountRef.Name = "" }, "spec.accountRef.name: Required value"},
		{"secret key malformed", func(s *v1alpha1.WebhookEndpointSpec) {
			s.SecretRef = &v1alpha1.SecretKeyReference{Name: "hooks", Key: "no spaces"}
		}, "spec.secretRef.key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := v1alpha1.WebhookEndpointSpec{
				AccountRef: v1alpha1.LocalObjectReference{Name: "acme"}, Environment: v1alpha1.EnvironmentTest,
				URL: "http://127.0.0.1:9999/hooks", EventTypes: []v1alpha1.WebhookEventType{v1alpha1.WebhookEventTransferConfirmed},
			}
			tt.edit(&spec)
			checkErrors(t, endpoint.ValidateSpec(&spec), tt.want)
		})
	}
}
