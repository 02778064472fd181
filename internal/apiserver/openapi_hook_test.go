package apiserver

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/transferintent/transfer-intent-service/internal/intent"
	"github.com/transferintent/transfer-intent-service/internal/openapi"
	"github.com/transferintent/transfer-intent-service/internal/openapi/openapitest"
	"github.com/transferintent/transfer-intent-service/internal/problem"
)

var (
	validatorOnce sync.Once
	validator     *openapitest.Validator
	validatorErr  error
)

// validateAgainstOpenAPI checks every response the tests receive against the OpenAPI document:
// a documented status, its headers and its body schema.
func validateAgainstOpenAPI(t *testing.T, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	if !documentedSurface(req) {
		return // e.g. GET /nope: assertProblem still checks the problem body field by field
	}
	validatorOnce.Do(func() { validator, validatorErr = openapitest.New() })
	if validatorErr != nil {
		t.Fatalf("loading the OpenAPI document: %v", validatorErr)
	}
	validator.Validate(t, req, resp, body)
}

// documentedSurface is the part of the URL space the document describes: /v2 and /auth entirely
// (unknown paths there have documented 401/404/405 answers), and the documented unauthenticated GETs.
func documentedSurface(req *http.Request) bool {
	p := req.URL.Path
	switch {
	case strings.HasPrefix(p, "/v2/"), strings.HasPrefix(p, "/auth/"):
		return true
	case req.Method == http.MethodGet && (p == "/health" || p == "/openapi.json"):
		return true
	}
	return false
}

func testDocuments(t *testing.T) (full, v2 []byte) {
	t.Helper()
	full, v2, err := openapi.Documents(testBaseURL)
	if err != nil {
		t.Fatal(err)
	}
	return full, v2
}

// The problem catalogue in Go and the one in the OpenAPI document are the same list.
func TestProblemCatalogueMatchesOpenAPI(t *testing.T) {
	documented, err := openapi.ProblemTypes()
	if err != nil {
		t.Fatal(err)
	}
	inDoc := map[string]openapi.ProblemType{}
	for _, p := range documented {
		inDoc[p.Name] = p
	}
	for _, p := range problem.Catalogue {
		d, ok := inDoc[p.Slug]
		if !ok || d.Title != p.Title || d.Status != p.Status {
			t.Errorf("catalogue %+v, document %+v", p, d)
		}
		delete(inDoc, p.Slug)
	}
	for name := range inDoc {
		t.Errorf("problem type %q is documented but not in the catalogue", name)
	}
}

func TestOpenAPIDocumentsServed(t *testing.T) {
	h := newHarness(t)
	full, v2 := testDocuments(t) // the harness serves the same documents
	resp, body := h.do(t, http.MethodGet, "/openapi.json", nil, "")
	if resp.StatusCode != http.StatusOK || string(body) != string(full) {
		t.Fatalf("/openapi.json: %d", resp.StatusCode)
	}
	resp, _ = h.do(t, http.MethodGet, "/v2/openapi.json", nil, "")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/v2/openapi.json without a key: %d, want 401", resp.StatusCode)
	}
	resp, body = h.do(t, http.MethodGet, "/v2/openapi.json", withKey(testKeyA), "")
	if resp.StatusCode != http.StatusOK || string(body) != string(v2) {
		t.Fatalf("/v2/openapi.json: %d", resp.StatusCode)
	}
}

// The domain names its refusals by short name; each must be a catalogue type.
func TestDomainProblemKindsAreCatalogueTypes(t *testing.T) {
	for _, kind := range []intent.ProblemKind{intent.KindBadRequest, intent.KindValidationFailed, intent.KindCurrencyError,
		intent.KindConflict, intent.KindUnavailable, intent.KindQuoteExpired, intent.KindQuoteMismatch, intent.KindMinAmountOut} {
		if _, ok := problem.BySlug(string(kind)); !ok {
			t.Errorf("intent kind %q is not in the problem catalogue", kind)
		}
	}
}
