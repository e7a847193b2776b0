package spec

import (
	"bytes"
	"encoding/json"
)

// obj is a JSON object that keeps its keys in the order they were set,
// so the document reads in a sensible order (a schema's properties in
// the Go struct's order) and regenerates byte for byte.
type obj struct {
	keys []string
	vals map[string]any
}

// o builds an object from alternating keys and values.
func o(kv ...any) *obj {
	m := &obj{vals: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		m.set(kv[i].(string), kv[i+1])
	}
	return m
}

// set adds or replaces a key; a new key goes last.
func (m *obj) set(k string, v any) *obj {
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
	return m
}

func (m *obj) get(k string) any { return m.vals[k] }

// with is a copy of m with the extra keys set.
func (m *obj) with(kv ...any) *obj {
	c := o()
	for _, k := range m.keys {
		c.set(k, m.vals[k])
	}
	for i := 0; i+1 < len(kv); i += 2 {
		c.set(kv[i].(string), kv[i+1])
	}
	return c
}

func (m *obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := marshal(m.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes v without HTML escaping: the document's prose has
// < > & in it, and it is read by people.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Shorthands for the schemas the document repeats.
func ref(name string) *obj      { return o("$ref", "#/components/schemas/"+name) }
func arr(items any) *obj        { return o("type", "array", "items", items) }
func nullable(s *obj) *obj      { return o("oneOf", []any{s, o("type", "null")}) }
func str() *obj                 { return o("type", "string") }
func strDoc(doc string) *obj    { return o("type", "string", "description", doc) }
func boolean() *obj             { return o("type", "boolean") }
func int64s() *obj              { return o("type", "integer", "format", "int64") }
func pathID() *obj              { return o("type", "integer", "format", "int64", "minimum", 1) }
func enumOf(vals []string) *obj { return o("type", "string", "enum", vals) }
