package harness

import (
	"bytes"
	"errors"
	"io"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// DecodeObjects reads every object of a multi-document YAML (or JSON) stream, as a rendered
// installer or kustomization is, skipping empty documents.
func DecodeObjects(data []byte) ([]*unstructured.Unstructured, error) {
	var objects []*unstructured.Unstructured
	decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var o map[string]any
		err := decoder.Decode(&o)
		if errors.Is(err, io.EOF) {
			return objects, nil
		}
		if err != nil {
			return nil, err
		}
		if len(o) > 0 {
			objects = append(objects, &unstructured.Unstructured{Object: o})
		}
	}
}
