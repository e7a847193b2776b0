// Package spec builds the API's OpenAPI document (apiserver/openapi/openapi.json)
// from Go: paths from the server's route table, edit routes and their
// bodies from the edits' descriptions in app, response schemas from the
// Go types the server encodes, and hand-written descriptions kept beside
// them here. Run `go generate ./apiserver/openapi` after changing any of
// them; a test fails while the committed document differs.
package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"proposaldesk/apiserver"
)

// Build returns the document as it is committed: indented JSON with a
// final newline.
func Build() ([]byte, error) {
	schemas, _, err := componentSchemas()
	if err != nil {
		return nil, err
	}
	paths, err := buildPaths(apiserver.New(apiserver.Config{}, nil).Routes())
	if err != nil {
		return nil, err
	}
	doc := o(
		"openapi", "3.1.0",
		"info", o("title", "Proposal Desk API", "version", "1.0.0",
			"description", "The public Proposal Management API (proposal-api.md) with the wire details of contract.md. Operations are numbered as in the spec. Routes beyond the spec's 15 operations that Portal does not document are marked `x-extension: true`; the people endpoints are Portal-documented and carry no mark. `x-operation` names the rule-engine operation; `x-requires-subscription` says whether a lapsed subscription makes it 402 (reads of single documents, the exchange and the extension reads stay available so a lapsed dealer can open and sync what they have). Bodies are JSON or forms; responses are JSON with lower-camelCase names; writes are POST. Money is decimal, rounded half away from zero to the currency's minor unit per line and per tax amount.",
			"license", o("name", "Proprietary", "identifier", "LicenseRef-Proprietary")),
		"servers", []any{o("url", "{base_url}", "variables", o("base_url", o("default", "http://127.0.0.1:8080")))},
		"tags", []any{o("name", "Proposals"), o("name", "Authentication"), o("name", "People"), o("name", "Webhooks", "description", "Webhook subscriptions (Admin only) and Zapier's polling triggers."),
			o("name", "Extensions", "description", "x-extension routes: what the desktop client needs, and the Admin-only exports and documents.")},
		"security", signed(),
		"paths", paths,
		"components", o("schemas", schemas, "parameters", parameters(), "responses", responses(), "securitySchemes", securitySchemes()),
	)
	raw, err := marshal(doc)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

var pathParamRE = regexp.MustCompile(`\{(\w+)\}`)

// buildPaths describes every route but the document's own, paths in
// alphabetical order and GET before POST.
func buildPaths(routes []apiserver.Route) (*obj, error) {
	docs := readDocs()
	maps.Copy(docs, webhookDocs())
	es := enums()
	slices.SortFunc(routes, func(a, b apiserver.Route) int {
		if c := strings.Compare(a.Pattern, b.Pattern); c != 0 {
			return c
		}
		return strings.Compare(a.Method, b.Method)
	})
	paths := o()
	for _, rt := range routes {
		if rt.Pattern == "/openapi.json" {
			continue
		}
		key := rt.Method + " " + rt.Pattern
		var d opDoc
		if rt.Edit != "" {
			var err error
			if d, err = editDoc(rt.Edit, es); err != nil {
				return nil, err
			}
		} else {
			var ok bool
			if d, ok = docs[key]; !ok {
				return nil, fmt.Errorf("route %s has no description in spec/reads.go", key)
			}
			delete(docs, key)
		}
		op, err := operation(rt, d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		p, _ := paths.get(rt.Pattern).(*obj)
		if p == nil {
			p = o()
			paths.set(rt.Pattern, p)
		}
		p.set(strings.ToLower(rt.Method), op)
	}
	for key := range docs {
		return nil, fmt.Errorf("spec/reads.go describes %s, which the server does not route", key)
	}
	return paths, nil
}

// operation is one route's operation object.
func operation(rt apiserver.Route, d opDoc) (*obj, error) {
	sub := rt.Operation.NeedsSubscription()
	op := o("operationId", d.id, "summary", d.summary, "description", d.doc)
	tags := d.tags
	if tags == nil {
		tags = proposalTags
	}
	op.set("tags", tags)
	op.set("x-operation", string(rt.Operation))
	op.set("x-requires-subscription", sub)
	if rt.Extension {
		op.set("x-extension", true)
	}
	var params []any
	var pathIDs []string
	for _, m := range pathParamRE.FindAllStringSubmatch(rt.Pattern, -1) {
		if !slices.ContainsFunc(pathParams, func(p struct{ name, doc string }) bool { return p.name == m[1] }) {
			return nil, fmt.Errorf("path parameter %s has no description in spec/components.go", m[1])
		}
		pathIDs = append(pathIDs, m[1])
		params = append(params, param(m[1]))
	}
	// Writes to an existing proposal take If-Match; creates ignore it.
	proposalWrite := d.write && slices.Contains(pathIDs, "ProposalId")
	if d.write {
		params = append(params, param("IdempotencyKey"))
	}
	if proposalWrite {
		params = append(params, param("IfMatch"))
	}
	for _, q := range d.query {
		params = append(params, q)
	}
	if params == nil {
		params = []any{}
	}
	op.set("parameters", params)
	if d.body != nil {
		op.set("requestBody", d.body)
	}
	codes := []string{"Unauthorized", "Forbidden"}
	if sub {
		codes = append(codes, "PaymentRequired")
	}
	codes = append(codes, d.errors...)
	if len(pathIDs) > 0 {
		codes = append(codes, "BadRequest") // a path ID that is not a positive whole number
	}
	if d.write {
		codes = append(codes, "BadRequest", "Conflict", "PayloadTooLarge", "UnsupportedMediaType")
	}
	if proposalWrite {
		codes = append(codes, "PreconditionFailed")
	}
	if d.exchange {
		codes[0] = "ExchangeUnauthorized"
	}
	rs := o()
	if d.noContent {
		rs.set("204", d.ok)
	} else {
		rs.set("200", d.ok)
	}
	for _, e := range errorResponses {
		if slices.Contains(codes, e.name) {
			rs.set(e.code, response(e.name))
		}
	}
	rs.set("500", response("InternalError"))
	op.set("responses", rs)
	op.set("security", signed())
	return op, nil
}
