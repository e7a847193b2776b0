package openapi_test

import (
	"encoding/json"
	"log/slog"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/openapi"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
)

type document struct {
	OpenAPI    string                                `json:"openapi"`
	Info       map[string]any                        `json:"info"`
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas         map[string]any `json:"schemas"`
		Parameters      map[string]any `json:"parameters"`
		Responses       map[string]any `json:"responses"`
		SecuritySchemes map[string]any `json:"securitySchemes"`
	} `json:"components"`
}

type operation struct {
	OperationID string            `json:"operationId"`
	Extension   bool              `json:"x-extension"`
	Operation   string            `json:"x-operation"`
	Subscribed  *bool             `json:"x-requires-subscription"`
	Parameters  []json.RawMessage `json:"parameters"`
	RequestBody *struct {
		Content map[string]any `json:"content"`
	} `json:"requestBody"`
	Responses map[string]json.RawMessage `json:"responses"`
	Security  []map[string][]string      `json:"security"`
}

func parse(t *testing.T) (document, map[string]any) {
	t.Helper()
	var d document
	if err := json.Unmarshal(openapi.JSON(), &d); err != nil {
		t.Fatalf("openapi.json does not parse: %v", err)
	}
	var raw map[string]any
	json.Unmarshal(openapi.JSON(), &raw)
	return d, raw
}

func TestDocumentIsOpenAPI31(t *testing.T) {
	d, raw := parse(t)
	if !strings.HasPrefix(d.OpenAPI, "3.1.") {
		t.Errorf("openapi %q, want 3.1.x", d.OpenAPI)
	}
	if d.Info["title"] == nil || d.Info["version"] == nil {
		t.Error("info needs title and version")
	}
	if len(d.Paths) == 0 || len(d.Components.Schemas) == 0 || len(d.Components.SecuritySchemes) != 4 {
		t.Fatalf("paths %d, schemas %d, security schemes %d", len(d.Paths), len(d.Components.Schemas), len(d.Components.SecuritySchemes))
	}
	// Every $ref resolves.
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if r, ok := x["$ref"].(string); ok {
				parts := strings.Split(strings.TrimPrefix(r, "#/"), "/")
				var cur any = raw
				for _, p := range parts {
					m, ok := cur.(map[string]any)
					if !ok || m[p] == nil {
						t.Errorf("unresolved $ref %s", r)
						return
					}
					cur = m[p]
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(raw)

	// Every operation: a unique operationId, path parameters declared,
	// a success and a 401 response, the signing security, and bodies
	// in both JSON and form.
	ids := map[string]bool{}
	pathParam := regexp.MustCompile(`\{(\w+)\}`)
	for path, ops := range d.Paths {
		for method, rawOp := range ops {
			var op operation
			if err := json.Unmarshal(rawOp, &op); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			where := strings.ToUpper(method) + " " + path
			if op.OperationID == "" || ids[op.OperationID] {
				t.Errorf("%s: missing or duplicate operationId %q", where, op.OperationID)
			}
			ids[op.OperationID] = true
			params := string(must(json.Marshal(op.Parameters)))
			for _, m := range pathParam.FindAllStringSubmatch(path, -1) {
				if !strings.Contains(params, `"#/components/parameters/`+m[1]+`"`) {
					t.Errorf("%s: path parameter %s not declared", where, m[1])
				}
			}
			if op.Responses["200"] == nil && op.Responses["204"] == nil {
				t.Errorf("%s: no success response", where)
			}
			for _, code := range []string{"401", "403", "500"} {
				if op.Responses[code] == nil {
					t.Errorf("%s: no %s response", where, code)
				}
			}
			if len(op.Security) != 1 || len(op.Security[0]) != 4 {
				t.Errorf("%s: security %v", where, op.Security)
			}
			// Every write takes JSON and forms; the catalog import takes a CSV file.
			if method == "post" && (op.RequestBody == nil || op.RequestBody.Content["text/csv"] == nil) {
				if op.RequestBody == nil || op.RequestBody.Content["application/json"] == nil || op.RequestBody.Content["application/x-www-form-urlencoded"] == nil {
					t.Errorf("%s: request body must offer JSON and form", where)
				}
			}
			if op.Subscribed == nil {
				t.Errorf("%s: no x-requires-subscription", where)
			} else if *op.Subscribed != app.Operation(op.Operation).NeedsSubscription() {
				t.Errorf("%s: x-requires-subscription %v disagrees with app.%s", where, *op.Subscribed, op.Operation)
			} else if *op.Subscribed && op.Responses["402"] == nil {
				t.Errorf("%s: needs a subscription but has no 402", where)
			}
		}
	}
	// The enums match the app's.
	enum := func(name string) []string {
		var out []string
		for _, v := range d.Components.Schemas[name].(map[string]any)["enum"].([]any) {
			out = append(out, v.(string))
		}
		return out
	}
	check := func(name string, want []string) {
		if got := enum(name); !slices.Equal(got, want) {
			t.Errorf("enum %s = %v, want %v", name, got, want)
		}
	}
	strs := func(vs ...string) []string { return vs }
	var st []string
	for _, s := range app.Statuses {
		st = append(st, string(s))
	}
	check("Status", st)
	check("OptionStatus", strs("Draft", "Selected", "Declined"))
	check("ItemType", strs("Part", "Labor", "Fee", "CustomItem"))
	check("TaxStatus", strs("Undefined", "Ok", "Exempt", "Unavailable"))
	check("Role", strs("Admin", "Sales", "Viewer"))
	var kinds []string
	for _, k := range app.Kinds {
		kinds = append(kinds, string(k))
	}
	errCodes := d.Components.Schemas["ErrorBody"].(map[string]any)["properties"].(map[string]any)["errorCode"].(map[string]any)["enum"].([]any)
	var gotCodes []string
	for _, c := range errCodes {
		gotCodes = append(gotCodes, c.(string))
	}
	if !slices.Equal(gotCodes, kinds) {
		t.Errorf("errorCode enum %v, want app.Kinds %v", gotCodes, kinds)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestDocumentMatchesRoutes: the set of (method, path) in the document is
// exactly the server's routes, with the same extension marks and
// operations.
func TestDocumentMatchesRoutes(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "x.db"), boltstore.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := apiserver.New(apiserver.Config{Logger: slog.New(slog.DiscardHandler)}, st)
	d, _ := parse(t)
	inDoc := map[string]operation{}
	for path, ops := range d.Paths {
		for method, raw := range ops {
			var op operation
			json.Unmarshal(raw, &op)
			inDoc[strings.ToUpper(method)+" "+path] = op
		}
	}
	inRoutes := map[string]apiserver.Route{}
	for _, r := range srv.Routes() {
		if r.Pattern == "/openapi.json" {
			continue // the document itself
		}
		inRoutes[r.Method+" "+r.Pattern] = r
	}
	for k, r := range inRoutes {
		op, ok := inDoc[k]
		if !ok {
			t.Errorf("route %s is not in openapi.json", k)
			continue
		}
		if op.Extension != r.Extension {
			t.Errorf("%s: x-extension %v, route says %v", k, op.Extension, r.Extension)
		}
		if op.Operation != string(r.Operation) {
			t.Errorf("%s: x-operation %q, route says %q", k, op.Operation, r.Operation)
		}
		if r.Edit != "" {
			m, _ := app.NewMutation(r.Edit)
			if op.OperationID != m.Route().Name {
				t.Errorf("%s: operationId %q, edit %s says %q", k, op.OperationID, r.Edit, m.Route().Name)
			}
		}
	}
	for k := range inDoc {
		if _, ok := inRoutes[k]; !ok {
			t.Errorf("openapi.json has %s, which the server does not route", k)
		}
	}
}
