package webauth

import (
	"net/http"
	"strings"
	"testing"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
)

// Every status the sign-in handler answers, to every method on every documented path it serves
// (/auth, /sign-in, /keys, /intents, /webhooks), is one the document lists for that path and method: the operation's
// responses, GET's for HEAD, and the path's x-other-methods for a method it has no operation
// for. The other paths are covered by internal/apiserver's TestEveryMethodOnEveryPathIsDocumented.
func TestEveryMethodOnEveryPathIsDocumented(t *testing.T) {
	h := newHarness(t)
	cookie := h.signIn(h.addAccount("alice"))
	key := h.createKey(cookie, `{"name":"ci"}`)
	ep := h.addWebhook("alice", "orders")
	ti := h.intents.add(testIntent("alice", v1alpha1.EnvironmentTest, v1alpha1.IntentPhaseConfirmed, 0))
	session := http.Header{"Cookie": {CookieName + "=" + cookie}}
	sessionJSON := http.Header{"Cookie": {CookieName + "=" + cookie}, "Content-Type": {"application/json"}}
	variants := []openapitest.Variant{
		{Name: "no session"},
		{Name: "session", Header: session},
		{Name: "session and {}", Header: sessionJSON, Body: "{}"},
		{Name: "session and a key name", Header: sessionJSON, Body: `{"name":"other"}`},
	}
	paths := map[string]string{
		"/auth/sign-in":               "/auth/sign-in",
		"/auth/sign-out":              "/auth/sign-out",
		"/auth/api-key/create":        "/auth/api-key/create",
		"/auth/api-keys":              "/auth/api-keys",
		"/auth/api-keys/{id}/disable": "/auth/api-keys/" + key.ID + "/disable",
		"/auth/api-keys/{id}":         "/auth/api-keys/" + key.ID,
		"/sign-in":                    "/sign-in",
		"/keys":                       "/keys",
		"/intents":                    "/intents",
		"/intents/{id}":               "/intents/" + ti.Spec.ID,
		"/auth/assets/{name}":         "/auth/assets/app.css",
		"/webhooks":                   "/webhooks",
		"/webhooks/{name}/delete":     "/webhooks/" + ep.Name + "/delete",
	}
	served := func(template string) bool {
		return strings.HasPrefix(template, "/auth/") || template == "/sign-in" || template == "/keys" ||
			template == "/intents" || template == "/intents/{id}" || template == "/webhooks" || template == "/webhooks/{name}/delete"
	}
	openapitest.NewValidator(t).CheckEveryMethod(t, h.http, h.srv.URL, served, paths, variants)
}
