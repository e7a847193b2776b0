package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Request is an edit as the API receives it: its method, its path with
// the IDs filled in, and its JSON body. The sync client sends it as it
// is. IDs are sent as the mutation holds them, so temporary IDs must be
// remapped before (HasTemporaryRefs); created IDs are never sent.
func Request(m Mutation) (method, path string, body []byte, err error) {
	r := m.Route()
	path = r.Path
	for _, p := range PathParams(m) {
		id, ok := p.idTarget()
		if !ok {
			return "", "", nil, fmt.Errorf("%s: %s is not set and cannot be sent", m.Kind(), p.Name)
		}
		if *id <= 0 {
			return "", "", nil, fmt.Errorf("%s: %s %d cannot be sent", m.Kind(), p.Name, *id)
		}
		path = strings.Replace(path, "{"+p.Name+"}", FormatID(*id), 1)
	}
	if strings.Contains(path, "{") {
		return "", "", nil, fmt.Errorf("bug: %s: path %s has a parameter the mutation does not bind", m.Kind(), r.Path)
	}
	body, err = encodeBody(m)
	return r.Method, path, body, err
}

// encodeBody writes the body params that are set, in their declared
// order, as one JSON object with the contract's names. When the route's
// body repeats the path, the path IDs are written first under their
// lower-camel names. The bytes are those json.Marshal gives a struct of
// the same fields, so an edit queued by an older version of the desktop
// is sent byte for byte as it was (its Idempotency-Key fingerprint
// covers the body).
func encodeBody(m Mutation) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	add := func(name string, v any) error {
		k, err := json.Marshal(name)
		if err != nil {
			return err
		}
		val, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encode %s of %s: %w", name, m.Kind(), err)
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
		return nil
	}
	if m.Route().BodyRepeatsPath {
		for _, p := range PathParams(m) {
			v, _ := p.Value()
			if err := add(lowerFirst(p.Name), v); err != nil {
				return nil, err
			}
		}
	}
	for _, p := range BodyParams(m) {
		v, ok := p.Value()
		if !ok {
			continue
		}
		if err := add(p.Name, v); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// enumValue reads a *E or **E of a string enumeration E (*Status, …);
// set is false for a nil **E.
func enumValue(target any) (s string, set, ok bool) {
	v := reflect.ValueOf(target)
	if v.Kind() != reflect.Pointer {
		return "", false, false
	}
	v = v.Elem()
	if v.Kind() == reflect.Pointer {
		if v.Type().Elem().Kind() != reflect.String {
			return "", false, false
		}
		if v.IsNil() {
			return "", false, true
		}
		return v.Elem().String(), true, true
	}
	if v.Kind() != reflect.String {
		return "", false, false
	}
	return v.String(), true, true
}

// setEnum writes s into a *E or **E of a string enumeration.
func setEnum(target any, s string) bool {
	v := reflect.ValueOf(target)
	if v.Kind() != reflect.Pointer {
		return false
	}
	v = v.Elem()
	if v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.String {
		n := reflect.New(v.Type().Elem())
		n.Elem().SetString(s)
		v.Set(n)
		return true
	}
	if v.Kind() != reflect.String {
		return false
	}
	v.SetString(s)
	return true
}
