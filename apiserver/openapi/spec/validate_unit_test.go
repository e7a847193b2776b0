package spec_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestValidatorCatches: the validator the demo test relies on accepts a
// conforming value and reports each kind of mismatch.
func TestValidatorCatches(t *testing.T) {
	raw, err := os.ReadFile("testdata/validator-doc.json")
	if err != nil {
		t.Fatal(err)
	}
	const good = `{"id": 1, "color": "Red", "price": 10.5, "cost": null, "when": "2026-01-02T03:04:05.000Z",
		"parent": {"id": 2}, "tags": ["a"], "meta": {"k": "v"}}`
	tests := []struct {
		name, value, want string
	}{
		{"conforming", good, ""},
		{"integer where number", strings.Replace(good, "10.5", "10", 1), ""},
		{"missing field", strings.Replace(good, `"price": 10.5,`, "", 1), "required field price is missing"},
		{"missing base field", strings.Replace(good, `"id": 1,`, "", 1), "required field id is missing"},
		{"extra field", strings.Replace(good, `"id": 1,`, `"id": 1, "ghost": true,`, 1), "field ghost is not in the schema"},
		{"extra field in a nested ref", strings.Replace(good, `{"id": 2}`, `{"id": 2, "x": 1}`, 1), "matches 0 of oneOf"},
		{"wrong type", strings.Replace(good, `"price": 10.5`, `"price": "10.5"`, 1), "body.price: string"},
		{"fraction where integer", strings.Replace(good, `"id": 1,`, `"id": 1.5,`, 1), "body.id: number"},
		{"null where not nullable", strings.Replace(good, `"price": 10.5`, `"price": null`, 1), "body.price: null"},
		{"not in the enum", strings.Replace(good, `"Red"`, `"Green"`, 1), `"Green" is not one of`},
		{"bad date-time", strings.Replace(good, `"2026-01-02T03:04:05.000Z"`, `"yesterday"`, 1), "is not a date-time"},
		{"too many items", strings.Replace(good, `["a"]`, `["a", "b", "c"]`, 1), "3 items, at most 2"},
		{"wrong item type", strings.Replace(good, `["a"]`, `[1]`, 1), "body.tags[0]: integer"},
		{"wrong additional property", strings.Replace(good, `{"k": "v"}`, `{"k": 1}`, 1), "body.meta.k: integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := newValidator(raw)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader([]byte(tt.value)))
			dec.UseNumber()
			var val any
			if err := dec.Decode(&val); err != nil {
				t.Fatal(err)
			}
			errs := strings.Join(v.check("body", map[string]any{"$ref": "#/components/schemas/Thing"}, val), "\n")
			if tt.want == "" && errs != "" {
				t.Fatalf("unexpected errors:\n%s", errs)
			}
			if !strings.Contains(errs, tt.want) {
				t.Fatalf("errors %q, want one containing %q", errs, tt.want)
			}
		})
	}
}
