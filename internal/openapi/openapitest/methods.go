package openapitest

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"

	"github.com/transferintent/transfer-intent-service/internal/openapi"
)

// Methods are the HTTP methods CheckEveryMethod sends to every path.
var Methods = []string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
	http.MethodPatch, http.MethodDelete, http.MethodOptions,
}

// Variant is one way CheckEveryMethod sends a request: its headers (a credential, a
// Content-Type) and its body.
type Variant struct {
	Name   string
	Header http.Header
	Body   string
}

// Documented reports, with the reason when not, whether the document lists status for method
// on the path template:
//   - a method with an operation: the operation's responses (or its default);
//   - HEAD on a path with a GET operation: the GET operation's responses, since the server
//     answers HEAD as GET without a body;
//   - any other method: the path item's x-other-methods responses.
func (v *Validator) Documented(template, method string, status int) error {
	item := v.doc.Paths.Value(template)
	if item == nil {
		return fmt.Errorf("the document has no path %s", template)
	}
	op := item.GetOperation(method)
	if op == nil && method == http.MethodHead {
		op = item.Get
	}
	if op != nil {
		if op.Responses.Status(status) != nil || op.Responses.Default() != nil {
			return nil
		}
		return fmt.Errorf("%s %s answered %d, which its operation does not list (it lists %s)",
			method, template, status, strings.Join(slices.Sorted(maps.Keys(op.Responses.Map())), ", "))
	}
	other := otherMethods(item)
	if _, ok := other[strconv.Itoa(status)]; ok {
		return nil
	}
	return fmt.Errorf("%s %s (no operation) answered %d, which the path's %s does not list (it lists %s)",
		method, template, status, openapi.OtherMethodsExtension, strings.Join(slices.Sorted(maps.Keys(other)), ", "))
}

// otherMethods returns the path item's x-other-methods: status code to response.
func otherMethods(item *openapi3.PathItem) map[string]any {
	m, _ := item.Extensions[openapi.OtherMethodsExtension].(map[string]any)
	return m
}

// CheckEveryMethod sends every method of Methods to every documented path, in every variant,
// and fails t for each status the document does not list for that path and method (see
// Documented). paths maps path templates to concrete paths to request (path parameters filled
// in); served lists the templates the server under test answers, and every one must be in
// paths, so a path added to the document is not silently left out. Each response is also
// checked like any other (CheckResponse): its headers and body.
func (v *Validator) CheckEveryMethod(t *testing.T, client *http.Client, baseURL string, served func(template string) bool, paths map[string]string, variants []Variant) {
	t.Helper()
	for _, template := range v.doc.Paths.InMatchingOrder() {
		if !served(template) {
			continue
		}
		concrete, ok := paths[template]
		if !ok {
			t.Errorf("no concrete path for the documented path %s", template)
			continue
		}
		for _, method := range Methods {
			for _, variant := range variants {
				status, err := v.send(client, baseURL, method, concrete, variant)
				if err != nil {
					t.Errorf("%s %s (%s): %v", method, concrete, variant.Name, err)
					continue
				}
				if err := v.Documented(template, method, status); err != nil {
					t.Errorf("%s: %v", variant.Name, err)
				}
			}
		}
	}
}

func (v *Validator) send(client *http.Client, baseURL, method, path string, variant Variant) (int, error) {
	var body io.Reader
	if variant.Body != "" {
		body = strings.NewReader(variant.Body)
	}
	req, err := http.NewRequest(method, baseURL+path, body)
	if err != nil {
		return 0, err
	}
	for k, vs := range variant.Header {
		req.Header[k] = slices.Clone(vs)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	return resp.StatusCode, v.CheckResponse(req, resp.StatusCode, resp.Header, b)
}

// otherMethodsRoute returns a stand-in operation for a request whose path is documented but
// whose method is not: its responses are the path item's x-other-methods. It returns nil when
// no documented method matches the path either.
func (v *Validator) otherMethodsRoute(req *http.Request) (*routers.Route, error) {
	var item *openapi3.PathItem
	var template string
	for _, method := range Methods {
		probe := req.Clone(req.Context())
		probe.Method = method
		if route, _, err := v.router.FindRoute(probe); err == nil {
			item, template = route.PathItem, route.Path
			break
		}
	}
	if item == nil {
		return nil, nil
	}
	responses := openapi3.NewResponses()
	for code, response := range otherMethods(item) {
		ref, _ := response.(map[string]any)["$ref"].(string)
		name, ok := strings.CutPrefix(ref, "#/components/responses/")
		if !ok || v.doc.Components.Responses[name] == nil {
			return nil, fmt.Errorf("%s %s: %s %s is not a reference to a response of the document's components", template, openapi.OtherMethodsExtension, code, ref)
		}
		responses.Set(code, v.doc.Components.Responses[name])
	}
	return &routers.Route{
		Spec: v.doc, Path: template, PathItem: item, Method: req.Method,
		Operation: &openapi3.Operation{Responses: responses},
	}, nil
}
