package spec_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// A validator checks JSON values against the document's schemas, with
// the subset of JSON Schema the document uses. Objects are closed: a
// field the schema does not list is an error (unless it declares
// additionalProperties), so a field the server sends cannot go
// undocumented.
type validator struct {
	doc map[string]any
	// seen counts the component schemas a value was checked against.
	seen map[string]int
}

func newValidator(raw []byte) (*validator, error) {
	v := &validator{seen: map[string]int{}}
	if err := json.Unmarshal(raw, &v.doc); err != nil {
		return nil, err
	}
	return v, nil
}

// resolve follows a "#/..." reference.
func (v *validator) resolve(ref string) (map[string]any, error) {
	var cur any = v.doc
	for _, p := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		m, ok := cur.(map[string]any)
		if !ok || m[p] == nil {
			return nil, fmt.Errorf("unresolved $ref %s", ref)
		}
		cur = m[p]
	}
	if name, ok := strings.CutPrefix(ref, "#/components/schemas/"); ok {
		v.seen[name]++
	}
	return cur.(map[string]any), nil
}

// check validates val (decoded with UseNumber) against schema; where is
// the value's place in the body, for messages.
func (v *validator) check(where string, schema map[string]any, val any) []string {
	if ref, ok := schema["$ref"].(string); ok {
		s, err := v.resolve(ref)
		if err != nil {
			return []string{where + ": " + err.Error()}
		}
		return v.check(where, s, val)
	}
	if all, ok := schema["allOf"].([]any); ok {
		merged, err := v.merge(all)
		if err != nil {
			return []string{where + ": " + err.Error()}
		}
		return v.check(where, merged, val)
	}
	if one, ok := schema["oneOf"].([]any); ok {
		var matched int
		var errs []string
		for _, s := range one {
			e := v.check(where, s.(map[string]any), val)
			if len(e) == 0 {
				matched++
			}
			errs = append(errs, e...)
		}
		if matched != 1 {
			return append([]string{fmt.Sprintf("%s: matches %d of oneOf's schemas, want 1", where, matched)}, errs...)
		}
		return nil
	}
	if types := schemaTypes(schema); types != nil && !slices.Contains(types, jsonType(val)) &&
		!(jsonType(val) == "integer" && slices.Contains(types, "number")) {
		return []string{fmt.Sprintf("%s: %s %s, schema says %v", where, jsonType(val), short(val), types)}
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.Contains(enum, val) {
		return []string{fmt.Sprintf("%s: %s is not one of %v", where, short(val), enum)}
	}
	var errs []string
	switch x := val.(type) {
	case string:
		if schema["format"] == "date-time" {
			if _, err := time.Parse(time.RFC3339Nano, x); err != nil {
				errs = append(errs, fmt.Sprintf("%s: %q is not a date-time", where, x))
			}
		}
	case json.Number:
		if minimum, ok := schema["minimum"].(float64); ok {
			if f, _ := x.Float64(); f < minimum {
				errs = append(errs, fmt.Sprintf("%s: %s is below the minimum %v", where, x, minimum))
			}
		}
	case []any:
		if most, ok := schema["maxItems"].(float64); ok && float64(len(x)) > most {
			errs = append(errs, fmt.Sprintf("%s: %d items, at most %v", where, len(x), most))
		}
		if items, ok := schema["items"].(map[string]any); ok {
			for i, e := range x {
				errs = append(errs, v.check(fmt.Sprintf("%s[%d]", where, i), items, e)...)
			}
		}
	case map[string]any:
		errs = append(errs, v.checkObject(where, schema, x)...)
	}
	return errs
}

func (v *validator) checkObject(where string, schema map[string]any, x map[string]any) []string {
	var errs []string
	props, _ := schema["properties"].(map[string]any)
	for _, r := range asStrings(schema["required"]) {
		if _, ok := x[r]; !ok {
			errs = append(errs, fmt.Sprintf("%s: required field %s is missing", where, r))
		}
	}
	extra := schema["additionalProperties"]
	for k, e := range x {
		if s, ok := props[k].(map[string]any); ok {
			errs = append(errs, v.check(where+"."+k, s, e)...)
			continue
		}
		switch a := extra.(type) {
		case map[string]any:
			errs = append(errs, v.check(where+"."+k, a, e)...)
		case bool:
			if !a {
				errs = append(errs, fmt.Sprintf("%s: field %s is not in the schema", where, k))
			}
		default:
			if props != nil || schemaTypes(schema) != nil {
				errs = append(errs, fmt.Sprintf("%s: field %s is not in the schema", where, k))
			}
		}
	}
	return errs
}

// merge joins allOf's object schemas into one: the union of their
// properties and required fields.
func (v *validator) merge(all []any) (map[string]any, error) {
	props, required := map[string]any{}, []any{}
	for _, s := range all {
		m := s.(map[string]any)
		if ref, ok := m["$ref"].(string); ok {
			var err error
			if m, err = v.resolve(ref); err != nil {
				return nil, err
			}
		}
		if _, nested := m["allOf"]; nested {
			return nil, fmt.Errorf("nested allOf is not supported")
		}
		for k, p := range m["properties"].(map[string]any) {
			props[k] = p
		}
		if r, ok := m["required"].([]any); ok {
			required = append(required, r...)
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required}, nil
}

func schemaTypes(schema map[string]any) []string {
	switch t := schema["type"].(type) {
	case string:
		return []string{t}
	case []any:
		return asStrings(t)
	}
	return nil
}

func asStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, e := range l {
		out = append(out, e.(string))
	}
	return out
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if strings.ContainsAny(x.String(), ".eE") {
			return "number"
		}
		return "integer"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}
