package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func loadDoc(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestDocumentLoadsAndValidatesAsOpenAPI31(t *testing.T) {
	doc := loadDoc(t)
	if doc.OpenAPI != "3.1.0" || !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	// Load validated already; validate again explicitly, as the document's own test.
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// operations yields every operation of the document with its path and method.
func operations(doc *openapi3.T) map[string]*openapi3.Operation {
	ops := map[string]*openapi3.Operation{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			ops[method+" "+path] = op
		}
	}
	return ops
}

func requires(security *openapi3.SecurityRequirements, scheme string) bool {
	if security == nil || len(*security) == 0 {
		return false
	}
	for _, requirement := range *security {
		if _, ok := requirement[scheme]; !ok {
			return false
		}
	}
	return true
}

func TestEveryV2OperationDocumentsAuthenticationAndRateLimit(t *testing.T) {
	doc := loadDoc(t)
	want := map[int]string{
		http.StatusUnauthorized:       "#/components/responses/MissingApiKey",
		http.StatusForbidden:          "#/components/responses/ApiKeyForbidden",
		http.StatusTooManyRequests:    "#/components/responses/RateLimited",
		http.StatusServiceUnavailable: "#/components/responses/ServiceUnavailable",
	}
	found := 0
	for name, op := range operations(doc) {
		path := strings.SplitN(name, " ", 2)[1]
		if !strings.HasPrefix(path, V2Prefix) {
			continue
		}
		found++
		security := op.Security
		if security == nil {
			security = &doc.Security
		}
		if !requires(security, "apiKey") {
			t.Errorf("%s: does not require the apiKey scheme", name)
		}
		for status, ref := range want {
			response := op.Responses.Status(status)
			if response == nil || response.Ref != ref {
				t.Errorf("%s: response %d must be %s", name, status, ref)
			}
		}
		for code, response := range op.Responses.Map() {
			headers := response.Value.Headers
			for _, header := range []string{"X-Correlation-Id", "RateLimit-Policy", "RateLimit"} {
				if headers[header] == nil {
					t.Errorf("%s: response %s does not document the %s header", name, code, header)
				}
			}
			if strings.HasPrefix(code, "2") {
				for _, header := range []string{"X-Correlation-Id", "RateLimit-Policy", "RateLimit"} {
					if h := headers[header]; h != nil && !h.Value.Required {
						t.Errorf("%s: response %s must require the %s header", name, code, header)
					}
				}
			}
		}
	}
	if found < 6 {
		t.Fatalf("found %d /v2 operations, want at least 6", found)
	}

	retryAfter := doc.Components.Responses["RateLimited"].Value.Headers["Retry-After"]
	if retryAfter == nil || !retryAfter.Value.Required || !retryAfter.Value.Schema.Value.Type.Is("integer") {
		t.Errorf("RateLimited must require an integer Retry-After header")
	}
}

func TestOperationsOutsideV2DoNotTakeAnAPIKey(t *testing.T) {
	doc := loadDoc(t)
	for name, op := range operations(doc) {
		path := strings.SplitN(name, " ", 2)[1]
		if strings.HasPrefix(path, V2Prefix) {
			continue
		}
		if op.Security == nil {
			t.Errorf("%s: must override the document's api-key security", name)
			continue
		}
		for _, requirement := range *op.Security {
			if _, ok := requirement["apiKey"]; ok {
				t.Errorf("%s: must not take an API key", name)
			}
		}
		if strings.HasPrefix(path, "/auth/api-key") && !requires(op.Security, "session") {
			t.Errorf("%s: must require the session", name)
		}
	}
}

func TestOperationIDsAreUnique(t *testing.T) {
	seen := map[string]string{}
	for name, op := range operations(loadDoc(t)) {
		if op.OperationID == "" {
			t.Errorf("%s: no operationId", name)
		}
		if other, dup := seen[op.OperationID]; dup {
			t.Errorf("operationId %q of %s is also that of %s", op.OperationID, name, other)
		}
		seen[op.OperationID] = name
	}
}

func TestDocumentsSetTheBaseURLAndSplitOffV2(t *testing.T) {
	full, v2, err := Documents("https://api.example.com/")
	if err != nil {
		t.Fatal(err)
	}
	fullDoc := parse(t, full)
	v2Doc := parse(t, v2)

	for name, doc := range map[string]*openapi3.T{"full": fullDoc, "v2": v2Doc} {
		if len(doc.Servers) != 1 || doc.Servers[0].URL != "https://api.example.com" {
			t.Errorf("%s: servers = %+v, want the base URL without its trailing slash", name, doc.Servers)
		}
		if !doc.IsOpenAPI31OrLater() {
			t.Errorf("%s: not OpenAPI 3.1", name)
		}
	}

	var fullV2Paths, v2Paths []string
	for _, path := range fullDoc.Paths.InMatchingOrder() {
		if strings.HasPrefix(path, V2Prefix) {
			fullV2Paths = append(fullV2Paths, path)
		}
	}
	for _, path := range v2Doc.Paths.InMatchingOrder() {
		if !strings.HasPrefix(path, V2Prefix) {
			t.Errorf("v2 document holds %s", path)
		}
		v2Paths = append(v2Paths, path)
	}
	slices.Sort(fullV2Paths)
	slices.Sort(v2Paths)
	if !slices.Equal(fullV2Paths, v2Paths) || len(v2Paths) == 0 {
		t.Errorf("v2 paths = %v, want %v", v2Paths, fullV2Paths)
	}
	for _, path := range []string{"/health", "/openapi.json", "/auth/sign-in", "/auth/api-key/create", "/keys", "/intents", "/intents/{id}"} {
		if fullDoc.Paths.Value(path) == nil {
			t.Errorf("full document lacks %s", path)
		}
	}

	// The /v2 description includes the 401, 403 and 429 responses (the contract requires them of /v2/openapi.json).
	for _, name := range []string{"MissingApiKey", "ApiKeyForbidden", "RateLimited"} {
		if v2Doc.Components.Responses[name] == nil {
			t.Errorf("v2 document lacks components/responses/%s", name)
		}
	}
	// Nothing of /auth leaks into it.
	for name := range v2Doc.Components.Responses {
		if strings.HasPrefix(name, "Auth") {
			t.Errorf("v2 document holds components/responses/%s", name)
		}
	}
	for _, name := range []string{"SignInRequest", "ApiKey", "CreatedApiKey", "Health"} {
		if v2Doc.Components.Schemas[name] != nil {
			t.Errorf("v2 document holds components/schemas/%s", name)
		}
	}
	if v2Doc.Components.SecuritySchemes["session"] != nil || v2Doc.Components.SecuritySchemes["apiKey"] == nil {
		t.Errorf("v2 security schemes = %v, want apiKey alone", keys(v2Doc.Components.SecuritySchemes))
	}
	for _, tag := range v2Doc.Tags {
		if tag.Name == "Authentication" || tag.Name == "Pages" {
			t.Errorf("v2 document holds tag %q", tag.Name)
		}
	}
	if bytes.Contains(v2, []byte(`"/auth/sign-in"`)) {
		t.Errorf("v2 document mentions /auth/sign-in as a path")
	}
}

func TestDocumentsAreStableJSON(t *testing.T) {
	full1, v21, err := Documents("http://127.0.0.1:9999")
	if err != nil {
		t.Fatal(err)
	}
	full2, v22, err := Documents("http://127.0.0.1:9999")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(full1, full2) || !bytes.Equal(v21, v22) {
		t.Error("Documents is not deterministic")
	}
	if !json.Valid(full1) || !json.Valid(v21) {
		t.Error("Documents returned invalid JSON")
	}
	if bytes.Contains(full1, []byte(`\u003e`)) {
		t.Error("Documents escapes HTML characters")
	}
}

// The served JSON is converted from the YAML text; it must say what the YAML says.
func TestServedDocumentEqualsTheRepositoryDocument(t *testing.T) {
	full, _, err := Documents("")
	if err != nil {
		t.Fatal(err)
	}
	fromYAML, err := json.Marshal(loadDoc(t))
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := json.Marshal(parse(t, full))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fromYAML, fromJSON) {
		t.Error("the served document differs from openapi.yaml")
	}
}

func TestDocumentsWithoutBaseURLKeepTheRepositoryServer(t *testing.T) {
	full, _, err := Documents("")
	if err != nil {
		t.Fatal(err)
	}
	doc := parse(t, full)
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "http://127.0.0.1:8080" {
		t.Errorf("servers = %+v", doc.Servers)
	}
}

func TestDocumentsRefuseARelativeBaseURL(t *testing.T) {
	for _, base := range []string{"api.example.com", "/v2", "://x"} {
		if _, _, err := Documents(base); err == nil {
			t.Errorf("Documents(%q) succeeded", base)
		}
	}
}

func TestProblemTypesCatalogue(t *testing.T) {
	types, err := ProblemTypes()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"bad-request": 400, "missing-api-key": 401, "unauthorized": 401,
		"invalid-api-key": 403, "chain-not-allowed-for-key-environment": 403, "forbidden": 403,
		"not-found": 404, "method-not-allowed": 405, "conflict": 409, "payload-too-large": 413,
		"unsupported-media-type": 415, "validation-failed": 422, "CurrencyError": 422,
		"rate-limited": 429, "internal-error": 500, "transfer-service-failure": 500,
		"service-unavailable": 503,
		"quote-expired":       422, "quote-mismatch": 422, "min-amount-out": 422, "fee-not-allowed": 422, "fee-recipient-not-allowed": 422,
		"signature-invalid": 422, "nonce-used": 422, "insufficient-balance": 422, "permit2-allowance-short": 422, "orders-exceed-funds": 422,
		"open-would-revert": 422, "filler-key-required": 403, "too-many-streams": 429,
	}
	got := map[string]ProblemType{}
	for _, p := range types {
		got[p.Name] = p
		if p.Title == "" || p.Description == "" {
			t.Errorf("%s: title and description are required", p.Name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("catalogue has %d types, want %d", len(got), len(want))
	}
	for name, status := range want {
		if got[name].Status != status {
			t.Errorf("%s: status %d, want %d", name, got[name].Status, status)
		}
	}
	if got["bad-request"].Title != "Bad Request" {
		t.Errorf("bad-request title = %q", got["bad-request"].Title)
	}

	// The Problem schema's type pattern and every problem response agree with the catalogue.
	doc := loadDoc(t)
	typePattern := doc.Components.Schemas["Problem"].Value.Properties["type"].Value.Pattern
	for name := range want {
		if !regexp.MustCompile(typePattern).MatchString("https://docs.example.com/problems/" + name) {
			t.Errorf("Problem.type pattern refuses %s", name)
		}
	}
	alternatives := regexp.MustCompile(`^/\(?([A-Za-z0-9|-]+)\)?\$$`)
	for name, response := range doc.Components.Responses {
		media := response.Value.Content.Get(problemMediaType)
		if media == nil {
			continue
		}
		refined := media.Schema.Value.AllOf[1].Value
		status := int(refined.Properties["status"].Value.Const.(float64))
		m := alternatives.FindStringSubmatch(refined.Properties["type"].Value.Pattern)
		if m == nil {
			t.Errorf("response %s: unexpected type pattern", name)
			continue
		}
		for _, short := range strings.Split(m[1], "|") {
			if p, ok := got[short]; !ok || p.Status != status {
				t.Errorf("response %s: problem %s is not a %d problem of the catalogue", name, short, status)
			}
		}
	}
}

const problemMediaType = "application/problem+json"

func TestHandlerServesTheDocument(t *testing.T) {
	doc := []byte(`{"openapi":"3.1.0"}`)
	h := Handler(doc)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || !bytes.Equal(rec.Body.Bytes(), doc) {
		t.Errorf("GET: %d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/openapi.json", nil))
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 || rec.Header().Get("Content-Length") != "19" {
		t.Errorf("HEAD: %d %q %q", rec.Code, rec.Header().Get("Content-Length"), rec.Body.String())
	}
}

func TestComponentRef(t *testing.T) {
	for ref, want := range map[string][2]string{
		"#/components/schemas/Problem":  {"schemas", "Problem"},
		"#/components/headers/a~1b~0c":  {"headers", "a/b~c"},
		"#/components/schemas/X/y":      {"", ""},
		"#/paths/~1v2~1tokens":          {"", ""},
		"other.yaml#/components/schema": {"", ""},
	} {
		kind, name, _ := componentRef(ref)
		if kind != want[0] || name != want[1] {
			t.Errorf("componentRef(%q) = %q, %q; want %q", ref, kind, name, want)
		}
	}
}

func parse(t *testing.T, data []byte) *openapi3.T {
	t.Helper()
	doc, err := loadAndValidate(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
