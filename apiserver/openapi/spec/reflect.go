package spec

import (
	"fmt"
	"reflect"
	"strings"

	"proposaldesk/app"
)

// The response schemas are read from the Go types the server encodes
// (app's views and apiserver's bodies) by reflection, so a field added to
// a view is in the document as soon as it is regenerated. What reflection
// cannot know (descriptions, limits, the enum of a plain string) is
// written beside, in schemas.go.

// A named is a Go type that is a schema of its own in components.
type named struct {
	name string
	typ  reflect.Type
	doc  string
	// fields overrides or describes properties by JSON name: a string is
	// the property's description, an *obj its whole schema.
	fields map[string]any
	// nilSlices marks a stored model rather than a view: its lists may
	// be nil, which encoding/json writes as null.
	nilSlices bool
}

// An enum is a string type of app with its list of values.
type enum struct {
	name   string
	typ    reflect.Type
	values []string
	doc    string
}

func enumType[E ~string](name string, values []E, doc string) enum {
	vs := make([]string, len(values))
	for i, v := range values {
		vs[i] = string(v)
	}
	return enum{name: name, typ: reflect.TypeFor[E](), values: vs, doc: doc}
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// reflector turns Go types into schemas, referring to the named ones.
type reflector struct {
	names map[reflect.Type]string
	enums map[reflect.Type]string
	// nilSlices is the named type being reflected's (see named).
	nilSlices bool
}

func newReflector(ns []named, es []enum) *reflector {
	r := &reflector{names: map[reflect.Type]string{}, enums: map[reflect.Type]string{}}
	for _, n := range ns {
		r.names[n.typ] = n.name
	}
	for _, e := range es {
		r.enums[e.typ] = e.name
	}
	return r
}

// Descriptions of the scalar wire types, shared by every field of the type.
const (
	moneyDoc    = "Money: a JSON number rounded to the currency's minor unit (2 decimal places for USD); arithmetic is decimal, rounding half away from zero."
	quantityDoc = "Quantity with up to 4 decimal places."
	rateDoc     = "Percentage with up to 4 decimal places (8.875 means 8.875%)."
	timeDoc     = "ISO 8601 UTC with milliseconds (2006-01-02T15:04:05.000Z); null when never set."
)

var (
	moneyType    = typeOf[app.Money]()
	quantityType = typeOf[app.Quantity]()
	rateType     = typeOf[app.Rate]()
	timeType     = typeOf[app.Time]()
	nullIDType   = typeOf[app.NullID]()
)

// ofType is the schema of a value of type t, as a property or an item.
func (r *reflector) ofType(t reflect.Type) (*obj, error) {
	if n, ok := r.enums[t]; ok {
		return ref(n), nil
	}
	if n, ok := r.names[t]; ok {
		return ref(n), nil
	}
	switch t {
	case moneyType:
		return o("type", "number", "description", moneyDoc), nil
	case quantityType:
		return o("type", "number", "description", quantityDoc), nil
	case rateType:
		return o("type", "number", "description", rateDoc), nil
	case timeType:
		return o("type", []string{"string", "null"}, "format", "date-time", "description", timeDoc), nil
	case nullIDType:
		return o("type", []string{"integer", "null"}, "format", "int64"), nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return r.ofPointer(t.Elem())
	case reflect.String:
		return str(), nil
	case reflect.Bool:
		return boolean(), nil
	case reflect.Int64:
		return int64s(), nil
	case reflect.Int, reflect.Int32:
		return o("type", "integer"), nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Interface {
			return arr(o()), nil
		}
		items, err := r.ofType(t.Elem())
		if err != nil {
			return nil, err
		}
		if r.nilSlices {
			return arr(items).with("type", []string{"array", "null"}), nil
		}
		return arr(items), nil
	case reflect.Map:
		var keys *obj
		switch t.Key().Kind() {
		case reflect.String:
		case reflect.Int64:
			// encoding/json writes an integer key as its decimal text.
			keys = o("pattern", "^-?[0-9]+$")
		default:
			return nil, fmt.Errorf("map type %s: only maps with string or int64 keys are described", t)
		}
		values, err := r.ofType(t.Elem())
		if err != nil {
			return nil, fmt.Errorf("map type %s: %w", t, err)
		}
		if keys != nil {
			return o("type", "object", "propertyNames", keys, "additionalProperties", values), nil
		}
		return o("type", "object", "additionalProperties", values), nil
	case reflect.Interface:
		return o(), nil
	case reflect.Struct:
		return r.object(t, nil)
	}
	return nil, fmt.Errorf("type %s has no schema rule", t)
}

// ofPointer is the schema of a *T field: T or null.
func (r *reflector) ofPointer(t reflect.Type) (*obj, error) {
	s, err := r.ofType(t)
	if err != nil {
		return nil, err
	}
	if _, isRef := s.vals["$ref"]; isRef {
		return nullable(s), nil
	}
	typ, ok := s.get("type").(string)
	if !ok {
		return nil, fmt.Errorf("pointer to %s: cannot make its schema nullable", t)
	}
	return s.with("type", []string{typ, "null"}), nil
}

// object is the schema of struct type t. An embedded struct that is a
// named schema becomes allOf [that schema, the struct's own fields];
// any other embedded struct is flattened into t, as encoding/json does.
func (r *reflector) object(t reflect.Type, fields map[string]any) (*obj, error) {
	props := o()
	var base string
	optional := map[string]bool{}
	if err := r.collect(t, props, &base, optional, fields); err != nil {
		return nil, err
	}
	required := []string{}
	for _, k := range props.keys {
		if !optional[k] {
			required = append(required, k)
		}
	}
	own := o("type", "object", "properties", props, "required", required)
	for name := range fields {
		if _, ok := props.vals[name]; !ok {
			return nil, fmt.Errorf("%s: a description names field %q, which the type does not have", t, name)
		}
	}
	if base != "" {
		return o("allOf", []any{ref(base), own}), nil
	}
	return own, nil
}

// collect adds t's fields to props; optional gets those encoding/json may
// leave out (omitempty, omitzero).
func (r *reflector) collect(t reflect.Type, props *obj, base *string, optional map[string]bool, fields map[string]any) error {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			if n, ok := r.names[f.Type]; ok && *base == "" && i == 0 {
				*base = n
				continue
			}
			if err := r.collect(f.Type, props, base, optional, fields); err != nil {
				return err
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		s, err := r.field(f.Type, fields[name])
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t, f.Name, err)
		}
		props.set(name, s)
		if strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,") {
			optional[name] = true
		}
	}
	return nil
}

// field is a property's schema: the type's, or the hand-written one, with
// the hand-written description.
func (r *reflector) field(t reflect.Type, over any) (*obj, error) {
	switch v := over.(type) {
	case *obj:
		return v, nil
	case string:
		s, err := r.ofType(t)
		if err != nil {
			return nil, err
		}
		return s.with("description", v), nil
	case nil:
		return r.ofType(t)
	}
	return nil, fmt.Errorf("override of type %T", over)
}
