// Package openapi holds the OpenAPI 3.1 document of the service's HTTP interface,
// openapi.yaml, which is the single source of truth for it. Programs use it through
// internal/openapi, which serves it as JSON.
package openapi

import _ "embed"

// Filename is the name of the document in this directory.
const Filename = "openapi.yaml"

// YAML is the OpenAPI document as written in the repository. Do not modify it:
// it is shared by every user of the package.
//
//go:embed openapi.yaml
var YAML []byte
