package apiserver

import (
	"context"
	"errors"
	"net/http"
	"regexp"

	"github.com/transferintent/transfer-intent-service/internal/problem"
	"github.com/transferintent/transfer-intent-service/internal/webhook/ssrf"
)

// WebhookTester sends one test event to an account's WebhookEndpoint (*delivery.Tester through
// the service's adapter). It answers ErrWebhookNotFound for an endpoint of another account or
// environment as for none, and an error matching ssrf.ErrRefused for a URL the rules refuse.
type WebhookTester interface {
	TestWebhook(ctx context.Context, account, environment, name string) (WebhookTestResult, error)
}

// ErrWebhookNotFound is WebhookTester's answer for an endpoint the caller does not have.
var ErrWebhookNotFound = errors.New("no such webhook endpoint")

// WebhookTestResult is the answer of POST /v2/webhooks/{name}/test (OpenAPI WebhookTestResult).
type WebhookTestResult struct {
	EventID    string `json:"eventId"`
	Delivered  bool   `json:"delivered"`
	Status     int    `json:"status,omitempty"`
	DurationMs int64  `json:"durationMs"`
	Error      string `json:"error,omitempty"`
}

// endpointNamePattern is a Kubernetes object name (DNS subdomain), what the path names.
var endpointNamePattern = regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$`)

// testWebhook is POST /v2/webhooks/{name}/test: a signed test event to the caller's endpoint,
// once, and how it went. A receiver that fails is still a 200: the test ran, and the answer says
// what the receiver did, in words that tell nothing of the network (sender.Describe). The account
// has testSendsPerMinute of them, whatever its keys' limits.
func (s *Server) testWebhook(w http.ResponseWriter, r *http.Request) {
	if s.deps.Webhooks == nil {
		s.problems.Write(w, r, problem.ServiceUnavailable, "Webhooks are not served by this instance.", nil)
		return
	}
	key, _ := KeyFrom(r)
	name, ok := s.endpointName(w, r)
	if !ok {
		return
	}
	if !s.accountAllows(w, r, "webhook-test", key.Account, testSendsPerMinute, "test sends") {
		return
	}
	res, err := s.deps.Webhooks.TestWebhook(r.Context(), key.Account, string(key.Environment), name)
	var unserved *WebhookUnservedError
	switch {
	case errors.As(err, &unserved):
		s.writeWebhookError(w, r, name, err)
	case errors.Is(err, ErrWebhookNotFound):
		s.problems.Write(w, r, problem.NotFound, "Your account has no WebhookEndpoint "+name+" in this key's environment.", nil)
	case errors.Is(err, ssrf.ErrRefused):
		s.problems.Write(w, r, problem.ValidationFailed, "The endpoint's URL is refused: "+err.Error()+".",
			problem.Details{"field": "spec.url"})
	case err != nil:
		s.log.V(1).Info("webhook test", "correlationId", problem.CorrelationID(r.Context()), "error", err.Error())
		w.Header().Set("Retry-After", "5")
		s.problems.Write(w, r, problem.ServiceUnavailable, "The endpoint could not be tested now: "+err.Error()+".", nil)
	default:
		s.writeJSON(w, r, http.StatusOK, res)
	}
}
