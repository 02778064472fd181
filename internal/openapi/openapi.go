// Package openapi turns the repository's OpenAPI document (api/openapi/openapi.yaml) into
// what the HTTP server serves: the whole document at GET /openapi.json and the /v2
// interface alone at GET /v2/openapi.json, both as JSON with `servers` set to the
// service's base URL. It also exposes the document's catalogue of problem types so that
// the code building problem responses can be checked against it.
package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"sigs.k8s.io/yaml"

	spec "github.com/transferintent/transfer-intent-service/api/openapi"
)

// V2Prefix is the path prefix of the versioned interface; the /v2 document holds the
// paths under it and nothing else.
const V2Prefix = "/v2/"

// ProblemTypesExtension is the document extension that lists the problem types.
const ProblemTypesExtension = "x-problem-types"

// OtherMethodsExtension is the path item extension that lists, by status, the responses to the
// methods the path has no operation for (405 `method-not-allowed`, and on /v2 the answers of the
// authentication gate and the rate limit, which run first). OpenAPI describes responses of
// operations only, and these methods have none.
const OtherMethodsExtension = "x-other-methods"

// Load parses and validates the document. Every call returns a new document, which the
// caller may change.
func Load(ctx context.Context) (*openapi3.T, error) {
	return loadAndValidate(ctx, spec.YAML)
}

func loadAndValidate(ctx context.Context, data []byte) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	loader.Context = ctx
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("loading the OpenAPI document: %w", err)
	}
	if err := doc.Validate(ctx); err != nil {
		return nil, fmt.Errorf("validating the OpenAPI document: %w", err)
	}
	return doc, nil
}

// Documents renders the whole document and the /v2 document as JSON, each with a single
// server whose URL is baseURL (without a trailing slash). An empty baseURL keeps the
// servers written in the repository. Both documents are validated before they are
// returned, so an error here means the binary must not start.
func Documents(baseURL string) (full, v2 []byte, err error) {
	ctx := context.Background()
	if _, err := Load(ctx); err != nil {
		return nil, nil, err
	}
	root, err := decode()
	if err != nil {
		return nil, nil, err
	}
	if baseURL != "" {
		u, err := url.Parse(baseURL)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, nil, fmt.Errorf("base URL %q is not an absolute URL", baseURL)
		}
		root["servers"] = []any{map[string]any{
			"url":         strings.TrimSuffix(baseURL, "/"),
			"description": "This service.",
		}}
	}

	if full, err = encode(root); err != nil {
		return nil, nil, err
	}
	if v2, err = encode(v2Subset(root)); err != nil {
		return nil, nil, err
	}
	// What is served is validated too: the base URL is part of it, and the /v2 document
	// would not load if it missed a component it needs.
	if _, err := loadAndValidate(ctx, full); err != nil {
		return nil, nil, fmt.Errorf("the served document: %w", err)
	}
	if _, err := loadAndValidate(ctx, v2); err != nil {
		return nil, nil, fmt.Errorf("the served /v2 document: %w", err)
	}
	return full, v2, nil
}

// decode returns the document as generic JSON values. JSON is produced from the YAML text
// rather than from the parsed openapi3.T so that the served document says exactly what
// the repository says.
func decode() (map[string]any, error) {
	data, err := yaml.YAMLToJSON(spec.YAML)
	if err != nil {
		return nil, fmt.Errorf("converting the OpenAPI document to JSON: %w", err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("decoding the OpenAPI document: %w", err)
	}
	return root, nil
}

func encode(root map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// The descriptions hold "->" and "<...>"; escaping them would only hurt readers.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("encoding the OpenAPI document: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// v2Subset returns a copy of root with only the paths under V2Prefix, the components they
// reference (transitively), the security schemes they name and the tags they use.
func v2Subset(root map[string]any) map[string]any {
	out := make(map[string]any, len(root))
	for k, v := range root {
		out[k] = v
	}

	paths := map[string]any{}
	for path, item := range asMap(root["paths"]) {
		if strings.HasPrefix(path, V2Prefix) {
			paths[path] = item
		}
	}
	out["paths"] = paths

	components := asMap(root["components"])
	kept := map[string]map[string]any{}
	keep := func(kind, name string) bool {
		source, ok := asMap(components[kind])[name]
		if !ok {
			return false
		}
		if kept[kind] == nil {
			kept[kind] = map[string]any{}
		}
		if _, done := kept[kind][name]; done {
			return false
		}
		kept[kind][name] = source
		return true
	}

	// Follow the $refs of the kept paths, and of what they reference, transitively.
	pending := []any{paths}
	for len(pending) > 0 {
		node := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		for _, ref := range refsIn(node) {
			kind, name, ok := componentRef(ref)
			if ok && keep(kind, name) {
				pending = append(pending, kept[kind][name])
			}
		}
	}

	// Security schemes are named, not referenced.
	tags := map[string]bool{}
	schemes := map[string]bool{}
	addSchemes := func(security any) {
		for _, requirement := range asSlice(security) {
			for name := range asMap(requirement) {
				schemes[name] = true
			}
		}
	}
	addSchemes(root["security"])
	for _, item := range paths {
		for _, operation := range asMap(item) {
			op := asMap(operation)
			addSchemes(op["security"])
			for _, tag := range asSlice(op["tags"]) {
				if s, ok := tag.(string); ok {
					tags[s] = true
				}
			}
		}
	}
	for name := range schemes {
		keep("securitySchemes", name)
	}

	outComponents := map[string]any{}
	for kind, byName := range kept {
		outComponents[kind] = byName
	}
	out["components"] = outComponents

	var outTags []any
	for _, tag := range asSlice(root["tags"]) {
		if name, _ := asMap(tag)["name"].(string); tags[name] {
			outTags = append(outTags, tag)
		}
	}
	out["tags"] = outTags
	return out
}

// refsIn returns every $ref value found in node.
func refsIn(node any) []string {
	var refs []string
	var walk func(any)
	walk = func(n any) {
		switch n := n.(type) {
		case map[string]any:
			if ref, ok := n["$ref"].(string); ok {
				refs = append(refs, ref)
			}
			for _, v := range n {
				walk(v)
			}
		case []any:
			for _, v := range n {
				walk(v)
			}
		}
	}
	walk(node)
	return refs
}

// componentRef splits "#/components/<kind>/<name>".
func componentRef(ref string) (kind, name string, ok bool) {
	rest, found := strings.CutPrefix(ref, "#/components/")
	if !found {
		return "", "", false
	}
	kind, name, found = strings.Cut(rest, "/")
	if !found || strings.Contains(name, "/") {
		return "", "", false
	}
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	return kind, unescape.Replace(name), true
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// ProblemType is one entry of the document's catalogue of problem types.
type ProblemType struct {
	// Name is the short name that ends the problem's type URI.
	Name string
	// Title is the problem's title.
	Title string
	// Status is the HTTP status the problem is sent with.
	Status int
	// Description says when the problem is sent.
	Description string
}

// ProblemTypes returns the catalogue of problem types of the document, ordered by status
// and name.
func ProblemTypes() ([]ProblemType, error) {
	root, err := decode()
	if err != nil {
		return nil, err
	}
	catalogue, ok := root[ProblemTypesExtension].(map[string]any)
	if !ok || len(catalogue) == 0 {
		return nil, errors.New("the OpenAPI document has no " + ProblemTypesExtension)
	}
	types := make([]ProblemType, 0, len(catalogue))
	for name, entry := range catalogue {
		fields := asMap(entry)
		title, _ := fields["title"].(string)
		status, _ := fields["status"].(float64)
		description, _ := fields["description"].(string)
		if title == "" || status < 400 || status > 599 {
			return nil, fmt.Errorf("%s: %q needs a title and a 4xx or 5xx status", ProblemTypesExtension, name)
		}
		types = append(types, ProblemType{Name: name, Title: title, Status: int(status), Description: description})
	}
	sort.Slice(types, func(i, j int) bool {
		if types[i].Status != types[j].Status {
			return types[i].Status < types[j].Status
		}
		return types[i].Name < types[j].Name
	})
	return types, nil
}

// Handler serves a rendered document (as returned by Documents) to GET and HEAD.
// Authentication, correlation IDs and method checks are the job of the server around it.
func Handler(document []byte) http.Handler {
	length := strconv.Itoa(len(document))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", length)
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(document)
		}
	})
}
