package controller

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/webhook/endpoint"
)

var _ = DescribeTable("ValidateWebhookEndpointSpec",
	func(edit func(*v1alpha1.WebhookEndpointSpec), want string) {
		t := GinkgoTB()
		spec := v1alpha1.WebhookEndpointSpec{
			AccountRef: v1alpha1.LocalObjectReference{Name: "acme"}, Environment: v1alpha1.EnvironmentTest,
			URL: "http://127.0.0.1:9999/hooks", EventTypes: []v1alpha1.WebhookEventType{v1alpha1.WebhookEventTransferConfirmed},
		}
		edit(&spec)
		checkErrors(t, endpoint.ValidateSpec(&spec), want)
	},
	Entry("valid test endpoint on loopback http", func(*v1alpha1.WebhookEndpointSpec) {}, ""),
	Entry("valid test endpoint on https", func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "https://hooks.example.com/tis" }, ""),
	Entry("valid live endpoint", func(s *v1alpha1.WebhookEndpointSpec) {
		s.Environment, s.URL = v1alpha1.EnvironmentLive, "https://hooks.example.com/tis"
	}, ""),
	Entry("valid with a secretRef", func(s *v1alpha1.WebhookEndpointSpec) {
		s.SecretRef = &v1alpha1.SecretKeyReference{Name: "hooks", Key: "hmac"}
	}, ""),
	Entry("live endpoint on loopback http", func(s *v1alpha1.WebhookEndpointSpec) { s.Environment = v1alpha1.EnvironmentLive },
		"a live endpoint's url must be https"),
	Entry("test endpoint on plain http to a remote host", func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "http://hooks.example.com/tis" },
		"plain http is allowed to a loopback address only"),
	Entry("url not http", func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "ftp://127.0.0.1/hooks" }, "spec.url"),
	Entry("url missing", func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "" }, "spec.url: Required value"),
	Entry("url too long", func(s *v1alpha1.WebhookEndpointSpec) { s.URL = "https://h.example/" + strings.Repeat("a", 2048) }, "spec.url: Too long"),
	Entry("no event type", func(s *v1alpha1.WebhookEndpointSpec) { s.EventTypes = nil }, "spec.eventTypes: Required value"),
	Entry("unknown event type", func(s *v1alpha1.WebhookEndpointSpec) { s.EventTypes = append(s.EventTypes, "transfer.refunded") },
		`spec.eventTypes[1]: Unsupported value: "transfer.refunded"`),
	Entry("event type twice", func(s *v1alpha1.WebhookEndpointSpec) { s.EventTypes = append(s.EventTypes, s.EventTypes[0]) },
		"spec.eventTypes[1]: Duplicate value"),
	Entry("environment", func(s *v1alpha1.WebhookEndpointSpec) { s.Environment = "staging" }, `spec.environment: Unsupported value: "staging"`),
	Entry("account missing", func(s *v1alpha1.WebhookEndpointSpec) { s.AccountRef.Name = "" }, "spec.accountRef.name: Required value"),
	Entry("secret key malformed", func(s *v1alpha1.WebhookEndpointSpec) {
		s.SecretRef = &v1alpha1.SecretKeyReference{Name: "hooks", Key: "no spaces"}
	}, "spec.secretRef.key"),
)
