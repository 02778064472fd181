package main

// The JSON schemas kubeconform checks the rendered chart with (make test-chart), made offline:
//
//   - -crds GLOB: from CustomResourceDefinition files (config/crd/bases, and once the Prometheus
//     Operator's ServiceMonitor, vendored in hack/chart/schemas): each version's openAPIV3Schema.
//   - -core: the built-in kinds, from the OpenAPI v2 document a local kube-apiserver serves (the
//     envtest control plane of bin/k8s, started for a few seconds); make caches the result per
//     Kubernetes version under bin/, so this runs once.
//
// Both are converted the way kubeconform's openapi2jsonschema does for its "standalone-strict"
// schemas: references inlined, additionalProperties false where properties are listed, int-or-string
// as string or integer, and descriptions dropped. They are written as DIR/GROUP/VERSION/KIND.json,
// GROUP being the version for the core group, which kubeconform finds with
// -schema-location 'DIR/{{.Group}}/{{.ResourceAPIVersion}}/{{.ResourceKind}}.json'.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

func writeSchemas(dir, crdGlob string, core bool) error {
	if crdGlob != "" {
		if err := crdSchemas(dir, crdGlob); err != nil {
			return err
		}
	}
	if core {
		return coreSchemas(dir)
	}
	return nil
}

func schemaPath(dir, group, version, kind string) string {
	if group == "" {
		group = version
	}
	return filepath.Join(dir, group, version, strings.ToLower(kind)+".json")
}

func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func crdSchemas(dir, glob string) error {
	var files []string
	for _, g := range strings.Split(glob, ",") {
		m, err := filepath.Glob(g)
		if err != nil {
			return err
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		return fmt.Errorf("no CRD files match %s", glob)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var crd struct {
			Kind string `yaml:"kind"`
			Spec struct {
				Group string `yaml:"group"`
				Names struct {
					Kind string `yaml:"kind"`
				} `yaml:"names"`
				Versions []struct {
					Name   string `yaml:"name"`
					Schema struct {
						OpenAPIV3Schema map[string]any `yaml:"openAPIV3Schema"`
					} `yaml:"schema"`
				} `yaml:"versions"`
			} `yaml:"spec"`
		}
		if err := yaml.NewDecoder(bytes.NewReader(b)).Decode(&crd); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if crd.Kind != "CustomResourceDefinition" {
			return fmt.Errorf("%s is not a CustomResourceDefinition", f)
		}
		for _, v := range crd.Spec.Versions {
			s := convert(v.Schema.OpenAPIV3Schema, nil, nil).(map[string]any)
			if err := writeJSON(schemaPath(dir, crd.Spec.Group, v.Name, crd.Spec.Names.Kind), s); err != nil {
				return err
			}
		}
	}
	return nil
}

func coreSchemas(dir string) error {
	env := &envtest.Environment{}
	cfg, err := env.Start()
	if err != nil {
		return fmt.Errorf("starting the local control plane (KUBEBUILDER_ASSETS): %w", err)
	}
	defer func() { _ = env.Stop() }()
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return err
	}
	raw, err := dc.RESTClient().Get().AbsPath("/openapi/v2").SetHeader("Accept", "application/json").Do(context.TODO()).Raw()
	if err != nil {
		return fmt.Errorf("GET /openapi/v2: %w", err)
	}
	var doc struct {
		Definitions map[string]map[string]any `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return err
	}
	n := 0
	for name, def := range doc.Definitions {
		gvks, _ := def["x-kubernetes-group-version-kind"].([]any)
		for _, x := range gvks {
			gvk, _ := x.(map[string]any)
			group, _ := gvk["group"].(string)
			version, _ := gvk["version"].(string)
			kind, _ := gvk["kind"].(string)
			s := convert(def, doc.Definitions, map[string]bool{name: true}).(map[string]any)
			if err := writeJSON(schemaPath(dir, group, version, kind), s); err != nil {
				return err
			}
			n++
		}
	}
	if n < 50 {
		return fmt.Errorf("only %d kinds in /openapi/v2", n)
	}
	return os.WriteFile(filepath.Join(dir, ".complete"), []byte(fmt.Sprintf("%d kinds\n", n)), 0o644)
}

// convert returns the JSON schema of an OpenAPI schema node: references to defs inlined (a
// reference back to a definition being inlined, as in JSONSchemaProps, accepts anything), strict
// objects, int-or-string and quantities as kubectl accepts them, no descriptions.
func convert(n any, defs map[string]map[string]any, stack map[string]bool) any {
	switch n := n.(type) {
	case map[string]any:
		if ref, ok := n["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/definitions/")
			def, ok := defs[name]
			if !ok || stack[name] {
				return map[string]any{}
			}
			stack[name] = true
			defer delete(stack, name)
			if name == "io.k8s.apimachinery.pkg.api.resource.Quantity" {
				return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}
			}
			return convert(def, defs, stack)
		}
		out := map[string]any{}
		for k, v := range n {
			switch k {
			case "description", "x-kubernetes-validations", "x-kubernetes-group-version-kind", "example":
				continue
			case "properties", "patternProperties", "definitions":
				props := map[string]any{}
				for pk, pv := range v.(map[string]any) {
					props[pk] = convert(pv, defs, stack)
				}
				out[k] = props
			default:
				out[k] = convert(v, defs, stack)
			}
		}
		if out["x-kubernetes-int-or-string"] == true || out["format"] == "int-or-string" {
			delete(out, "type")
			delete(out, "format")
			out["oneOf"] = []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}
		}
		if out["nullable"] == true {
			if t, ok := out["type"].(string); ok {
				out["type"] = []any{t, "null"}
			}
		}
		if _, has := out["properties"]; has && out["additionalProperties"] == nil && out["x-kubernetes-preserve-unknown-fields"] != true {
			out["additionalProperties"] = false
		}
		return out
	case []any:
		out := make([]any, len(n))
		for i, v := range n {
			out[i] = convert(v, defs, stack)
		}
		return out
	default:
		return n
	}
}
