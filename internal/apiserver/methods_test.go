package apiserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
)

// servedByWeb are the documented paths the browser sign-in handler (Deps.Web) answers; its own
// tests (internal/webauth) send every method to them.
func servedByWeb(template string) bool {
	return strings.HasPrefix(template, "/auth/") || template == "/sign-in" || template == "/keys" ||
		template == "/intents" || template == "/intents/{id}" || template == "/webhooks" || template == "/webhooks/{name}/delete"
}

// Every status the API answers, to every method on every documented path, is one the document
// lists for that path and method: the operation's responses, GET's for HEAD, and the path's
// x-other-methods for a method it has no operation for (405 with Allow, and on /v2 the gate's
// answers first). Sent without a key, with a key and no body, with a key and an empty JSON
// object, and with a key and a valid transfer.
func TestEveryMethodOnEveryPathIsDocumented(t *testing.T) {
	h := newTransferHarness(t)
	resp, body := h.post(t, "/v2/transfers", testKeyA, usdcTransfer().String())
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("creating an intent: %d %s", resp.StatusCode, body)
	}
	id := decodeJSON[struct{ ID string }](t, body).ID

	json := func(body string) openapitest.Variant {
		return openapitest.Variant{
			Name:   "key and " + body,
			Header: http.Header{"Api-Key": {testKeyA}, "Content-Type": {"application/json"}},
			Body:   body,
		}
	}
	variants := []openapitest.Variant{
		{Name: "no key"},
		{Name: "key", Header: withKey(testKeyA)},
		json("{}"),
		json(usdcTransfer().String()),
	}
	orderID := "0x" + strings.Repeat("ab", 32)
	paths := map[string]string{
		"/health":                          "/health",
		"/openapi.json":                    "/openapi.json",
		"/v2/openapi.json":                 "/v2/openapi.json",
		"/v2/tokens":                       "/v2/tokens",
		"/v2/transfers":                    "/v2/transfers",
		"/v2/transfers/simulate":           "/v2/transfers/simulate",
		"/v2/transfers/{id}":               "/v2/transfers/" + id,
		"/v2/transfers/{id}/submission":    "/v2/transfers/" + id + "/submission",
		"/v2/transfers/{id}/signature":     "/v2/transfers/" + id + "/signature",
		"/v2/transfers/{id}/cancel":        "/v2/transfers/" + id + "/cancel",
		"/v2/orders":                       "/v2/orders",
		"/v2/orders/{orderId}/attestation": "/v2/orders/" + orderID + "/attestation",
		"/v2/webhooks/{name}/test":         "/v2/webhooks/hooks/test",
		"/v2/webhooks/{name}/replay":       "/v2/webhooks/hooks/replay",
		"/v2/events":                       "/v2/events",
		"/v2/transfers/{id}/events":        "/v2/transfers/" + id + "/events",
	}
	validator := openapitest.NewValidator(t)
	served := func(template string) bool { return !servedByWeb(template) }
	validator.CheckEveryMethod(t, h.http.Client(), h.http.URL, served, paths, variants)
}
