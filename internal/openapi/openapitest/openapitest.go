// Package openapitest checks, in tests, that the service's HTTP traffic conforms to its
// OpenAPI document (api/openapi/openapi.yaml).
//
// A response conforms when its status is documented for the operation, its documented
// headers are present and valid, its Content-Type is one documented for that status and
// its body matches the schema. A problem response (application/problem+json) must also
// agree with the document's catalogue of problem types: the title belongs to the type's
// short name, the HTTP status is the type's status, and correlationId equals the
// X-Correlation-Id header.
//
// Routes are matched by path and method only, so requests sent to an httptest server on
// any host and port are matched. Responses to /v2 and /auth paths that no operation
// describes (404, 405, and the authentication gate's answers to them) are checked
// against the shared responses of the document.
//
// Use it for every response a test sees:
//
//	v := openapitest.NewValidator(t)
//	client := &http.Client{Transport: v.Transport(t, nil)}
//
// or, for a single response, v.Validate(t, req, resp, body) or v.ValidateRecorder(t, req, rec).
package openapitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/transferintent/transfer-intent-service/internal/openapi"
)

const problemMediaType = "application/problem+json"

// Validator checks requests and responses against the OpenAPI document. It is safe for
// concurrent use.
type Validator struct {
	doc      *openapi3.T
	router   routers.Router
	problems map[string]openapi.ProblemType
}

// shared is loaded once per test binary: a Validator never changes, and loading and
// validating the document takes tens of milliseconds.
var shared = sync.OnceValues(New)

// NewValidator returns the Validator of the document, failing t (fatally) when the
// document does not load.
func NewValidator(t testing.TB) *Validator {
	t.Helper()
	v, err := shared()
	if err != nil {
		t.Fatalf("openapitest: %v", err)
	}
	return v
}

// New loads the document. Prefer NewValidator in tests.
func New() (*Validator, error) {
	doc, err := openapi.Load(context.Background())
	if err != nil {
		return nil, err
	}
	// Match requests by path alone: tests talk to servers on random ports, and the
	// document's server is whatever --base-url says.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("building the router: %w", err)
	}
	types, err := openapi.ProblemTypes()
	if err != nil {
		return nil, err
	}
	problems := make(map[string]openapi.ProblemType, len(types))
	for _, p := range types {
		problems[p.Name] = p
	}
	return &Validator{doc: doc, router: router, problems: problems}, nil
}

// Validate fails t (without stopping it) when resp does not conform to the document.
// req is the request that resp answers; body is resp's body, already read (when body is
// nil, resp.Body is read and put back).
func (v *Validator) Validate(t testing.TB, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	if body == nil && resp.Body != nil {
		var err error
		if body, err = io.ReadAll(resp.Body); err != nil {
			t.Errorf("openapitest: reading the response body: %v", err)
			return
		}
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
	}
	if err := v.CheckResponse(req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("%v", err)
	}
}

// ValidateRecorder is Validate for a response recorded by an httptest.ResponseRecorder.
func (v *Validator) ValidateRecorder(t testing.TB, req *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	resp := rec.Result()
	if err := v.CheckResponse(req, resp.StatusCode, resp.Header, rec.Body.Bytes()); err != nil {
		t.Errorf("%v", err)
	}
}

// ValidateRequest fails t (without stopping it) when req does not conform to the
// document: its operation, parameters, credentials (present, not checked) and body.
// body is req's body (nil when it has none); req.Body is not read.
func (v *Validator) ValidateRequest(t testing.TB, req *http.Request, body []byte) {
	t.Helper()
	if err := v.CheckRequest(req, body); err != nil {
		t.Errorf("%v", err)
	}
}

// Transport returns a RoundTripper that sends requests with next (http.DefaultTransport
// when nil) and validates every response with Validate, failing t for each one that does
// not conform. Response bodies stay readable.
func (v *Validator) Transport(t testing.TB, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(req)
		if err != nil {
			return resp, err
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("openapitest: reading the response body: %w", err)
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		v.Validate(t, req, resp, body)
		return resp, nil
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// CheckResponse returns why a response with this status, header and body does not
// conform to the document as the answer to req, or nil.
//
// A HEAD request is answered like GET without a body (net/http serves HEAD with the GET
// handler): its response is checked against the GET operation, when the path has one, and
// its body is not checked.
func (v *Validator) CheckResponse(req *http.Request, status int, header http.Header, body []byte) error {
	head := req.Method == http.MethodHead
	if head {
		get := req.Clone(req.Context())
		get.Method = http.MethodGet
		if _, _, err := v.router.FindRoute(get); err == nil {
			req = get
		}
	}
	route, pathParams, err := v.findRoute(req)
	if err != nil {
		return v.failure(req, status, body, err)
	}
	responses := route.Operation.Responses
	response := responses.Status(status)
	if response == nil {
		response = responses.Default()
	}
	if response == nil || response.Value == nil {
		// Checked here rather than by ValidateResponse, which lets redirects and 304 through
		// and does not say which statuses are documented.
		documented := slices.Sorted(maps.Keys(responses.Map()))
		return v.failure(req, status, body, fmt.Errorf("status %d is not documented for this operation (documented: %s)",
			status, strings.Join(documented, ", ")))
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    req,
			PathParams: pathParams,
			Route:      route,
		},
		Status: status,
		Header: header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
			ExcludeResponseBody:   head,
		},
	}
	input.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), input); err != nil {
		return v.failure(req, status, body, err)
	}

	if head {
		return nil
	}
	if len(response.Value.Content) == 0 && len(body) != 0 {
		return v.failure(req, status, body, errors.New("the response has a body but the document describes none"))
	}
	if err := v.checkProblem(status, header, body); err != nil {
		return v.failure(req, status, body, err)
	}
	return nil
}

// CheckRequest returns why req, with this body, does not conform to the document, or nil.
func (v *Validator) CheckRequest(req *http.Request, body []byte) error {
	route, pathParams, err := v.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("openapitest: request %s %s: %w", req.Method, req.URL.Path, err)
	}
	clone := req.Clone(context.Background())
	clone.Body = http.NoBody
	if body != nil {
		clone.Body = io.NopCloser(bytes.NewReader(body))
		clone.ContentLength = int64(len(body))
	}
	clone.GetBody = nil
	input := &openapi3filter.RequestValidationInput{
		Request:    clone,
		PathParams: pathParams,
		Route:      route,
		Options: &openapi3filter.Options{
			MultiError:                        true,
			RejectWhenRequestBodyNotSpecified: true,
			SkipSettingDefaults:               true,
			AuthenticationFunc:                credentialPresent,
		},
	}
	if err := openapi3filter.ValidateRequest(context.Background(), input); err != nil {
		return fmt.Errorf("openapitest: request %s %s does not conform to the OpenAPI document: %w",
			req.Method, req.URL.Path, err)
	}
	return nil
}

// credentialPresent accepts a request that carries the credential a security scheme
// names; whether the credential is valid is the server's business.
func credentialPresent(_ context.Context, input *openapi3filter.AuthenticationInput) error {
	scheme := input.SecurityScheme
	req := input.RequestValidationInput.Request
	switch {
	case scheme.Type == "apiKey" && scheme.In == "header":
		if req.Header.Get(scheme.Name) == "" {
			return fmt.Errorf("header %q is missing", scheme.Name)
		}
	case scheme.Type == "apiKey" && scheme.In == "cookie":
		if _, err := req.Cookie(scheme.Name); err != nil {
			return fmt.Errorf("cookie %q is missing", scheme.Name)
		}
	}
	return nil
}

// findRoute returns the operation req is for. Requests for a /v2 or /auth path that no
// operation describes get a stand-in operation made of the document's shared responses,
// since the server answers them too.
func (v *Validator) findRoute(req *http.Request) (*routers.Route, map[string]string, error) {
	route, pathParams, err := v.router.FindRoute(req)
	if err == nil {
		return route, pathParams, nil
	}
	notFound, methodNotAllowed := errors.Is(err, routers.ErrPathNotFound), errors.Is(err, routers.ErrMethodNotAllowed)
	if !notFound && !methodNotAllowed {
		return nil, nil, err
	}

	if methodNotAllowed {
		// The path is documented: its x-other-methods lists what other methods get.
		if route, err := v.otherMethodsRoute(req); route != nil || err != nil {
			return route, nil, err
		}
	}

	var names map[int]string
	switch path := req.URL.Path; {
	case path == "/v2" || strings.HasPrefix(path, openapi.V2Prefix):
		// The authentication gate and the rate limit run before routing.
		names = map[int]string{
			http.StatusUnauthorized:        "MissingApiKey",
			http.StatusForbidden:           "ApiKeyForbidden",
			http.StatusTooManyRequests:     "RateLimited",
			http.StatusInternalServerError: "InternalError",
			http.StatusServiceUnavailable:  "ServiceUnavailable",
		}
		if notFound {
			names[http.StatusNotFound] = "NotFound"
		} else {
			names[http.StatusMethodNotAllowed] = "MethodNotAllowed"
		}
	case strings.HasPrefix(path, "/auth/"):
		names = map[int]string{
			http.StatusInternalServerError: "AuthInternalError",
			http.StatusServiceUnavailable:  "AuthServiceUnavailable",
		}
		if notFound {
			names[http.StatusNotFound] = "AuthNotFound"
		} else {
			names[http.StatusMethodNotAllowed] = "AuthMethodNotAllowed"
		}
	default:
		return nil, nil, fmt.Errorf("%w: the OpenAPI document does not describe %s %s", err, req.Method, req.URL.Path)
	}

	responses := openapi3.NewResponses()
	for code, name := range names {
		ref := v.doc.Components.Responses[name]
		if ref == nil {
			return nil, nil, fmt.Errorf("the OpenAPI document has no components/responses/%s", name)
		}
		responses.Set(strconv.Itoa(code), ref)
	}
	return &routers.Route{
		Spec:      v.doc,
		Path:      req.URL.Path,
		PathItem:  &openapi3.PathItem{},
		Method:    req.Method,
		Operation: &openapi3.Operation{Responses: responses},
	}, nil, nil
}

// checkProblem checks what a schema cannot: that a problem agrees with the catalogue of
// problem types and with the X-Correlation-Id header.
func (v *Validator) checkProblem(status int, header http.Header, body []byte) error {
	mediaType, _, err := mime.ParseMediaType(header.Get("Content-Type"))
	if err != nil || mediaType != problemMediaType {
		return nil //nolint:nilerr // not a problem body: nothing to check here
	}
	var problem struct {
		Type          string `json:"type"`
		Title         string `json:"title"`
		Status        int    `json:"status"`
		CorrelationID string `json:"correlationId"`
	}
	if err := json.Unmarshal(body, &problem); err != nil {
		return fmt.Errorf("decoding the problem: %w", err)
	}
	var problems []string
	name := problem.Type[strings.LastIndex(problem.Type, "/")+1:]
	known, ok := v.problems[name]
	switch {
	case !ok:
		problems = append(problems, fmt.Sprintf("problem type %q is not in the catalogue (%s)", name, openapi.ProblemTypesExtension))
	default:
		if problem.Title != known.Title {
			problems = append(problems, fmt.Sprintf("title %q, want %q for %s", problem.Title, known.Title, name))
		}
		if status != known.Status {
			problems = append(problems, fmt.Sprintf("HTTP status %d, want %d for %s", status, known.Status, name))
		}
	}
	if problem.Status != status {
		problems = append(problems, fmt.Sprintf("status member %d differs from the HTTP status %d", problem.Status, status))
	}
	if id := header.Get("X-Correlation-Id"); id != "" && id != problem.CorrelationID {
		problems = append(problems, fmt.Sprintf("correlationId %q differs from the X-Correlation-Id header %q", problem.CorrelationID, id))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// failure formats a readable test failure, showing the start of the body.
func (v *Validator) failure(req *http.Request, status int, body []byte, err error) error {
	const maxBody = 2048
	shown := string(body)
	if len(shown) > maxBody {
		shown = shown[:maxBody] + "...(truncated)"
	}
	return fmt.Errorf("openapitest: response %d to %s %s does not conform to the OpenAPI document:\n  %w\n  body: %s",
		status, req.Method, req.URL.RequestURI(), err, shown)
}
