// Package openapi holds the API's OpenAPI 3.1 document, embedded so the
// server can serve it (GET /openapi.json) and tests can check it against
// the router.
//
// The document lives beside this file rather than at apiserver/openapi.json
// because go:embed cannot reach a parent directory. It is generated from
// Go (package spec: the route table, the edits' descriptions in app and
// the view structs); regenerate it with `go generate ./apiserver/openapi`.
package openapi

import _ "embed"

//go:generate go run ./spec/gen openapi.json

//go:embed openapi.json
var document []byte

// JSON returns the OpenAPI document. The slice is shared: do not modify it.
func JSON() []byte { return document }
