package openapitest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// recordingTB is a testing.TB that records failures instead of failing, to prove the
// Validator fails a test when it should.
type recordingTB struct {
	testing.TB
	mu       sync.Mutex
	failures []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

func (r *recordingTB) failed() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.failures...)
}

const (
	correlationID = "01J9Z3Q0S4M8V6X2T7K5N1R3PB"
	intentID      = "int_transfer_01J9Z3Q0S4M8V6X2T7K5N1R3PB"
	problemBase   = "https://docs.example.com/problems/"
)

// response is a canned answer of the test server.
type response struct {
	status int
	header map[string]string
	body   string
}

// v2Headers are the headers of an authenticated /v2 response.
func v2Headers(contentType string, extra ...string) map[string]string {
	h := map[string]string{
		"Content-Type":     contentType,
		"X-Correlation-Id": correlationID,
		"RateLimit-Policy": `"default";q=50;w=60`,
		"RateLimit":        `"default";r=49;t=60`,
	}
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i+1] == "" {
			delete(h, extra[i])
		} else {
			h[extra[i]] = extra[i+1]
		}
	}
	return h
}

func problem(short, title string, status int, extra string) string {
	return fmt.Sprintf(`{"type":%q,"title":%q,"status":%d,"detail":"d","instance":"https://api.example.com/v2/x","correlationId":%q%s}`,
		problemBase+short, title, status, correlationID, extra)
}

const (
	token          = `{"symbol":"USDC","chainId":"eip155:1","address":"eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48","decimals":6,"metadata":null}`
	transferReq    = `{"from":"eip155:11155111:0x1111111111111111111111111111111111111111","to":"eip155:11155111:0x2222222222222222222222222222222222222222","asset":{"in":"eip155:11155111:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238","out":"eip155:11155111:0xfFf9976782d46CC05630D1f6eBAb18b2324d6B14"},"amount":"12.5"}`
	tx             = `{"to":"0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238","data":"0xa9059cbb","value":"0","chainId":11155111}`
	summaryFields  = `"id":"` + intentID + `","type":"swap","status":"pending","orderId":"0x` + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" + `","createdAt":"2025-01-02T03:04:05Z","updatedAt":"2025-01-02T03:04:05.123Z","metadata":{"chainId":"eip155:11155111"}`
	intent         = `{` + summaryFields + `,"resolvedPath":["swap"],"expiresAt":"2025-01-02T04:04:05Z","request":` + transferReq + `,"tx":` + tx + `,"environment":"test"}`
	simulation     = `{"simulationId":"sim_01J9Z3Q0S4M8V6X2T7K5N1R3PB","valid":true,"resolvedPath":["swap"],"estimatedFees":{"gasUsd":"0.42","protocolFeeBps":5,"solverFeeBps":2.5,"totalUsd":"1.30"},"estimatedTimeS":12,"warnings":[],"errors":[],"expiresAt":"2025-01-02T03:05:05Z","tx":` + tx + `,"prices":[{"asset":"eip155:11155111:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE","symbol":"ETH","usd":"3000.5","source":"feed","updatedAt":"2025-01-02T03:04:00Z"},{"asset":"eip155:11155111:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238","symbol":"USDC","usd":"1","source":"typed"}]}`
	apiKey         = `{"id":"key-1","name":"ci","environment":"test","displayPrefix":"sk_test_AbCd","createdAt":"2025-01-02T03:04:05Z","expiresAt":null,"disabled":true}`
	createdKey     = `{"id":"key-1","name":"ci","environment":"live","key":"sk_live_` + "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01" + `","displayPrefix":"sk_live_0123","createdAt":"2025-01-02T03:04:05Z","expiresAt":"2026-01-02T03:04:05Z"}`
	chainDetails   = `,"details":{"chainId":1,"keyEnv":"test"}`
	problemJSON    = "application/problem+json"
	applicationJSN = "application/json"
)

type exchange struct {
	name   string
	method string
	path   string
	resp   response
}

// conforming are responses the document describes.
var conforming = []exchange{
	{"tokens", "GET", "/v2/tokens?chain-id=eip155:1&limit=10", response{200, v2Headers(applicationJSN, "Link", `<https://api.example.com/v2/tokens?cursor=abc>; rel="next"`), "[" + token + "]"}},
	{"tokens with charset", "GET", "/v2/tokens", response{200, v2Headers(applicationJSN + "; charset=utf-8"), "[]"}},
	{"transfers", "GET", "/v2/transfers?type=swap", response{200, v2Headers(applicationJSN), "[{" + summaryFields + "}]"}},
	{"transfer", "GET", "/v2/transfers/" + intentID, response{200, v2Headers(applicationJSN), intent}},
	{"transfer not found", "GET", "/v2/transfers/" + intentID, response{404, v2Headers(problemJSON), problem("not-found", "Not Found", 404, "")}},
	{"create", "POST", "/v2/transfers", response{201, v2Headers(applicationJSN, "Location", "https://api.example.com/v2/transfers/"+intentID), intent}},
	{"create replay", "POST", "/v2/transfers", response{200, v2Headers(applicationJSN), intent}},
	{"create chain not allowed", "POST", "/v2/transfers", response{403, v2Headers(problemJSON), problem("chain-not-allowed-for-key-environment", "Chain Not Allowed For Key Environment", 403, chainDetails)}},
	{"simulate", "POST", "/v2/transfers/simulate", response{200, v2Headers(applicationJSN), simulation}},
	{"simulate currency error", "POST", "/v2/transfers/simulate", response{422, v2Headers(problemJSON), problem("CurrencyError", "Currency Error", 422, "")}},
	{"simulate failure", "POST", "/v2/transfers/simulate", response{500, v2Headers(problemJSON), problem("transfer-service-failure", "Transfer Service Failure", 500, "")}},
	{"missing api key", "GET", "/v2/tokens", response{401, map[string]string{"Content-Type": problemJSON, "X-Correlation-Id": correlationID, "WWW-Authenticate": `ApiKey header="api-key"`}, problem("missing-api-key", "Missing API Key", 401, "")}},
	{"invalid api key", "GET", "/v2/openapi.json", response{403, map[string]string{"Content-Type": problemJSON, "X-Correlation-Id": correlationID}, problem("invalid-api-key", "Invalid API Key", 403, "")}},
	{"rate limited", "GET", "/v2/transfers", response{429, v2Headers(problemJSON, "Retry-After", "12"), problem("rate-limited", "Rate Limit Exceeded", 429, "")}},
	{"unknown v2 path", "GET", "/v2/nothing", response{404, v2Headers(problemJSON), problem("not-found", "Not Found", 404, "")}},
	{"unknown v2 path without key", "GET", "/v2/nothing", response{401, map[string]string{"Content-Type": problemJSON, "X-Correlation-Id": correlationID, "WWW-Authenticate": "ApiKey"}, problem("missing-api-key", "Missing API Key", 401, "")}},
	{"v2 method not allowed", "DELETE", "/v2/tokens", response{405, v2Headers(problemJSON, "Allow", "GET"), problem("method-not-allowed", "Method Not Allowed", 405, "")}},
	{"v2 document", "GET", "/v2/openapi.json", response{200, v2Headers(applicationJSN), `{"openapi":"3.1.0","info":{}}`}},
	{"document", "GET", "/openapi.json", response{200, map[string]string{"Content-Type": applicationJSN}, `{"openapi":"3.1.0","info":{}}`}},
	{"health", "GET", "/health", response{200, map[string]string{"Content-Type": applicationJSN}, `{"status":"ok","checks":{"caches":"ok"}}`}},
	{"health unavailable", "GET", "/health", response{503, map[string]string{"Content-Type": applicationJSN}, `{"status":"unavailable","checks":{"caches":"not synced"}}`}},
	{"sign in", "POST", "/auth/sign-in", response{204, map[string]string{"X-Correlation-Id": correlationID, "Set-Cookie": "session=abc; Path=/; HttpOnly"}, ""}},
	{"sign in form", "POST", "/auth/sign-in", response{303, map[string]string{"X-Correlation-Id": correlationID, "Set-Cookie": "session=abc; Path=/; HttpOnly", "Location": "/keys"}, ""}},
	{"sign in refused", "POST", "/auth/sign-in", response{401, map[string]string{"Content-Type": problemJSON, "X-Correlation-Id": correlationID}, problem("unauthorized", "Unauthorized", 401, "")}},
	{"sign in throttled", "POST", "/auth/sign-in", response{429, map[string]string{"Content-Type": problemJSON, "X-Correlation-Id": correlationID, "Retry-After": "30"}, problem("rate-limited", "Rate Limit Exceeded", 429, "")}},
	{"create key", "POST", "/auth/api-key/create", response{201, map[string]string{"Content-Type": applicationJSN, "X-Correlation-Id": correlationID, "Cache-Control": "no-store"}, createdKey}},
	{"create key cross-site", "POST", "/auth/api-key/create", response{403, map[string]string{"Content-Type": problemJSON, "X-Correlation-Id": correlationID}, problem("forbidden", "Forbidden", 403, "")}},
	{"list keys", "GET", "/auth/api-keys", response{200, map[string]string{"Content-Type": applicationJSN, "X-Correlation-Id": correlationID}, "[" + apiKey + "]"}},
	{"disable key", "POST", "/auth/api-keys/key-1/disable", response{200, map[string]string{"Content-Type": applicationJSN, "X-Correlation-Id": correlationID}, apiKey}},
	{"delete key", "DELETE", "/auth/api-keys/key-1", response{204, map[string]string{"X-Correlation-Id": correlationID}, ""}},
	{"auth method not allowed", "GET", "/auth/sign-in", response{405, map[string]string{"Content-Type": problemJSON, "X-Correlation-Id": correlationID, "Allow": "POST"}, problem("method-not-allowed", "Method Not Allowed", 405, "")}},
	{"sign-in page", "GET", "/sign-in", response{200, map[string]string{"Content-Type": "text/html; charset=utf-8"}, "<!doctype html><title>Sign in</title>"}},
	{"keys page redirect", "GET", "/keys", response{303, map[string]string{"Location": "/sign-in"}, ""}},
}

// nonConforming are responses the document refuses, each with a word the failure must
// contain.
var nonConforming = []struct {
	exchange
	want string
}{
	{exchange{"missing required field", "GET", "/v2/tokens", response{200, v2Headers(applicationJSN), `[{"symbol":"USDC","chainId":"eip155:1","address":"eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48","metadata":null}]`}}, "decimals"},
	{exchange{"unknown field", "GET", "/v2/tokens", response{200, v2Headers(applicationJSN), `[` + strings.TrimSuffix(token, "}") + `,"priceUsd":"1"}]`}}, "priceUsd"},
	{exchange{"wrong type", "GET", "/v2/tokens", response{200, v2Headers(applicationJSN), `[` + strings.Replace(token, `"metadata":null`, `"metadata":7`, 1) + `]`}}, "metadata"},
	{exchange{"undocumented status", "GET", "/v2/tokens", response{418, v2Headers(problemJSON), problem("bad-request", "Bad Request", 418, "")}}, "status 418 is not documented"},
	{exchange{"created on a list", "GET", "/v2/tokens", response{201, v2Headers(applicationJSN), "[]"}}, "status 201 is not documented"},
	{exchange{"undocumented redirect", "GET", "/v2/transfers", response{301, v2Headers(applicationJSN, "Location", "/v2/transfers/"), ""}}, "status 301 is not documented"},
	{exchange{"text content type", "GET", "/v2/tokens", response{200, v2Headers("text/plain"), "[]"}}, "Content-Type"},
	{exchange{"problem as json", "GET", "/v2/tokens", response{401, map[string]string{"Content-Type": applicationJSN, "X-Correlation-Id": correlationID, "WWW-Authenticate": "ApiKey"}, problem("missing-api-key", "Missing API Key", 401, "")}}, "Content-Type"},
	{exchange{"no content type", "GET", "/v2/tokens", response{200, v2Headers(""), "[]"}}, "Content-Type"},
	{exchange{"missing Retry-After", "GET", "/v2/tokens", response{429, v2Headers(problemJSON), problem("rate-limited", "Rate Limit Exceeded", 429, "")}}, "Retry-After"},
	{exchange{"non-integer Retry-After", "GET", "/v2/tokens", response{429, v2Headers(problemJSON, "Retry-After", "soon"), problem("rate-limited", "Rate Limit Exceeded", 429, "")}}, "Retry-After"},
	{exchange{"missing RateLimit", "GET", "/v2/tokens", response{200, v2Headers(applicationJSN, "RateLimit", ""), "[]"}}, "RateLimit"},
	{exchange{"missing correlation id", "GET", "/v2/tokens", response{200, v2Headers(applicationJSN, "X-Correlation-Id", ""), "[]"}}, "X-Correlation-Id"},
	{exchange{"missing Location", "POST", "/v2/transfers", response{201, v2Headers(applicationJSN), intent}}, "Location"},
	{exchange{"summary with tx", "GET", "/v2/transfers", response{200, v2Headers(applicationJSN), `[{` + summaryFields + `,"tx":` + tx + `}]`}}, "tx"},
	{exchange{"bad intent id", "GET", "/v2/transfers/" + intentID, response{200, v2Headers(applicationJSN), strings.Replace(intent, intentID, "int_transfer_1", 1)}}, "id"},
	{exchange{"float amount", "POST", "/v2/transfers/simulate", response{200, v2Headers(applicationJSN), strings.Replace(simulation, `"gasUsd":"0.42"`, `"gasUsd":0.42`, 1)}}, "gasUsd"},
	{exchange{"unknown price source", "POST", "/v2/transfers/simulate", response{200, v2Headers(applicationJSN), strings.Replace(simulation, `"source":"typed"`, `"source":"oracle"`, 1)}}, "source"},
	{exchange{"wrong problem type for status", "GET", "/v2/tokens", response{401, map[string]string{"Content-Type": problemJSON, "X-Correlation-Id": correlationID, "WWW-Authenticate": "ApiKey"}, problem("invalid-api-key", "Invalid API Key", 401, "")}}, "type"},
	{exchange{"wrong title", "GET", "/v2/tokens", response{401, map[string]string{"Content-Type": problemJSON, "X-Correlation-Id": correlationID, "WWW-Authenticate": "ApiKey"}, problem("missing-api-key", "Unauthorized", 401, "")}}, "title"},
	{exchange{"status member differs", "GET", "/v2/tokens", response{400, v2Headers(problemJSON), problem("bad-request", "Bad Request", 422, "")}}, "status"},
	{exchange{"correlation id differs", "GET", "/v2/tokens", response{400, v2Headers(problemJSON, "X-Correlation-Id", "01J9Z3Q0S4M8V6X2T7K5N1R3PC"), problem("bad-request", "Bad Request", 400, "")}}, "correlationId"},
	{exchange{"problem missing correlation id", "GET", "/v2/tokens", response{400, v2Headers(problemJSON), strings.Replace(problem("bad-request", "Bad Request", 400, ""), `,"correlationId":"`+correlationID+`"`, "", 1)}}, "correlationId"},
	{exchange{"chain not allowed without details", "POST", "/v2/transfers", response{403, v2Headers(problemJSON), problem("chain-not-allowed-for-key-environment", "Chain Not Allowed For Key Environment", 403, "")}}, "details"},
	{exchange{"missing WWW-Authenticate", "GET", "/v2/tokens", response{401, map[string]string{"Content-Type": problemJSON, "X-Correlation-Id": correlationID}, problem("missing-api-key", "Missing API Key", 401, "")}}, "WWW-Authenticate"},
	{exchange{"created key cacheable", "POST", "/auth/api-key/create", response{201, map[string]string{"Content-Type": applicationJSN, "X-Correlation-Id": correlationID, "Cache-Control": "private"}, createdKey}}, "Cache-Control"},
	{exchange{"api key with secret", "GET", "/auth/api-keys", response{200, map[string]string{"Content-Type": applicationJSN, "X-Correlation-Id": correlationID}, "[" + strings.TrimSuffix(apiKey, "}") + `,"key":"sk_test_x"}]`}}, "key"},
	{exchange{"plain 404 under v2", "GET", "/v2/nothing", response{404, v2Headers("text/plain; charset=utf-8"), "404 page not found"}}, "Content-Type"},
	{exchange{"undocumented path", "GET", "/metrics", response{200, map[string]string{"Content-Type": "text/plain"}, ""}}, "does not describe"},
	{exchange{"health with problem", "GET", "/health", response{503, map[string]string{"Content-Type": problemJSON}, problem("service-unavailable", "Service Unavailable", 503, "")}}, "Content-Type"},
}

// newServer answers each request with the canned response named by its X-Test-Case header.
func newServer(t *testing.T) *httptest.Server {
	cases := map[string]response{}
	for _, c := range conforming {
		cases[c.name] = c.resp
	}
	for _, c := range nonConforming {
		cases[c.name] = c.resp
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		resp, ok := cases[r.Header.Get("X-Test-Case")]
		if !ok {
			http.Error(w, "unknown case", http.StatusTeapot)
			return
		}
		for k, v := range resp.header {
			w.Header().Set(k, v)
		}
		if _, ok := resp.header["Content-Type"]; !ok {
			w.Header()["Content-Type"] = nil // keep net/http from sniffing one
		}
		w.WriteHeader(resp.status)
		_, _ = io.WriteString(w, resp.body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// roundTrip sends the exchange's request to srv and returns the response and its body.
func roundTrip(t *testing.T, srv *httptest.Server, c exchange) (*http.Request, *http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(c.method, srv.URL+c.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Test-Case", c.name)
	client := &http.Client{
		Transport:     srv.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return req, resp, body
}

func TestValidatorAcceptsConformingResponses(t *testing.T) {
	v := NewValidator(t)
	srv := newServer(t)
	for _, c := range conforming {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			req, resp, body := roundTrip(t, srv, c)
			rec := &recordingTB{TB: t}
			v.Validate(rec, req, resp, body)
			if failures := rec.failed(); len(failures) != 0 {
				t.Errorf("conforming response refused:\n%s", strings.Join(failures, "\n"))
			}
		})
	}
}

func TestValidatorRefusesNonConformingResponses(t *testing.T) {
	v := NewValidator(t)
	srv := newServer(t)
	for _, c := range nonConforming {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			req, resp, body := roundTrip(t, srv, c.exchange)
			rec := &recordingTB{TB: t}
			v.Validate(rec, req, resp, body)
			failures := rec.failed()
			if len(failures) != 1 {
				t.Fatalf("got %d failures, want 1: %q", len(failures), failures)
			}
			t.Log(failures[0])
			if !strings.Contains(failures[0], c.want) {
				t.Errorf("failure does not mention %q:\n%s", c.want, failures[0])
			}
			if !strings.Contains(failures[0], c.method+" "+c.path) {
				t.Errorf("failure does not name the request:\n%s", failures[0])
			}
		})
	}
}

func TestValidateRecorder(t *testing.T) {
	v := NewValidator(t)
	handler := func(status int, contentType, body string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		for k, val := range v2Headers(contentType) {
			rec.Header().Set(k, val)
		}
		rec.WriteHeader(status)
		_, _ = io.WriteString(rec, body)
		return rec
	}
	req := httptest.NewRequest(http.MethodGet, "/v2/tokens", nil)

	ok := &recordingTB{TB: t}
	v.ValidateRecorder(ok, req, handler(200, applicationJSN, "["+token+"]"))
	if f := ok.failed(); len(f) != 0 {
		t.Errorf("conforming response refused: %q", f)
	}

	bad := &recordingTB{TB: t}
	v.ValidateRecorder(bad, req, handler(200, applicationJSN, `{"tokens":[]}`))
	if f := bad.failed(); len(f) != 1 {
		t.Errorf("an object instead of an array: got %d failures, want 1", len(f))
	}

	// A real server never sends a body with 204; a handler under test might.
	deleted := httptest.NewRecorder()
	deleted.Header().Set("X-Correlation-Id", correlationID)
	deleted.WriteHeader(http.StatusNoContent)
	_, _ = io.WriteString(deleted, "{}")
	withBody := &recordingTB{TB: t}
	v.ValidateRecorder(withBody, httptest.NewRequest(http.MethodDelete, "/auth/api-keys/key-1", nil), deleted)
	if f := withBody.failed(); len(f) != 1 || !strings.Contains(f[0], "body") {
		t.Errorf("a body on 204: failures = %q, want one about the body", f)
	}
}

func TestTransportValidatesEveryResponse(t *testing.T) {
	v := NewValidator(t)
	srv := newServer(t)
	rec := &recordingTB{TB: t}
	client := &http.Client{Transport: v.Transport(rec, srv.Client().Transport)}

	for _, name := range []string{"tokens", "missing required field"} {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/v2/tokens", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Test-Case", name)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if !strings.HasPrefix(string(body), "[") {
			t.Errorf("%s: body not readable after validation: %q", name, body)
		}
	}
	if f := rec.failed(); len(f) != 1 || !strings.Contains(f[0], "decimals") {
		t.Errorf("failures = %q, want one about decimals", f)
	}
}

func TestValidateRequest(t *testing.T) {
	v := NewValidator(t)
	request := func(method, target, body string, header ...string) (*http.Request, []byte) {
		req := httptest.NewRequest(method, "http://127.0.0.1:43210"+target, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		if body == "" {
			return req, nil
		}
		return req, []byte(body)
	}
	key := []string{"api-key", "sk_test_" + strings.Repeat("a", 64)}
	jsonKey := append([]string{"Content-Type", applicationJSN}, key...)

	for _, c := range []struct {
		name   string
		method string
		target string
		body   string
		header []string
		want   string // empty when the request conforms
	}{
		{"simulate", "POST", "/v2/transfers/simulate", transferReq, jsonKey, ""},
		{"create with idempotency key", "POST", "/v2/transfers", transferReq, append([]string{"Idempotency-Key", "k1"}, jsonKey...), ""},
		{"tokens", "GET", "/v2/tokens?chain-id=eip155:11155111", "", key, ""},
		{"sign in form", "POST", "/auth/sign-in", "email=a%40example.com&password=pw", []string{"Content-Type", "application/x-www-form-urlencoded"}, ""},
		{"create key", "POST", "/auth/api-key/create", `{"name":"ci"}`, []string{"Content-Type", applicationJSN, "Cookie", "session=abc"}, ""},
		{"health", "GET", "/health", "", nil, ""},
		{"unknown field", "POST", "/v2/transfers/simulate", strings.TrimSuffix(transferReq, "}") + `,"foo":1}`, jsonKey, "foo"},
		{"exponent amount", "POST", "/v2/transfers/simulate", strings.Replace(transferReq, `"12.5"`, `"1e3"`, 1), jsonKey, "amount"},
		{"no api key", "GET", "/v2/tokens", "", nil, "api-key"},
		{"bad chain id", "GET", "/v2/tokens?chain-id=ethereum", "", key, "chain-id"},
		{"limit too big", "GET", "/v2/transfers?limit=500", "", key, "limit"},
		{"bad type", "GET", "/v2/transfers?type=mint", "", key, "type"},
		{"bad intent id", "GET", "/v2/transfers/int_transfer_x", "", key, "id"},
		{"no session", "GET", "/auth/api-keys", "", nil, "session"},
		{"key name too long", "POST", "/auth/api-key/create", `{"name":"` + strings.Repeat("n", 64) + `"}`, []string{"Content-Type", applicationJSN, "Cookie", "session=abc"}, "name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, body := request(c.method, c.target, c.body, c.header...)
			rec := &recordingTB{TB: t}
			v.ValidateRequest(rec, req, body)
			failures := rec.failed()
			switch {
			case c.want == "" && len(failures) != 0:
				t.Errorf("conforming request refused: %q", failures)
			case c.want != "" && len(failures) != 1:
				t.Errorf("got %d failures, want 1", len(failures))
			case c.want != "" && !strings.Contains(failures[0], c.want):
				t.Errorf("failure does not mention %q: %s", c.want, failures[0])
			}
		})
	}
}
