package apiserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"proposaldesk/app"
)

// Request bodies arrive as JSON or as a form, with field names in any
// letter case. Each endpoint declares its fields; a decoder reads either
// encoding into the same values, ignores unknown fields, and names the
// field in every error.

type fieldType int

const (
	fString   fieldType = iota
	fID                 // a positive whole number; JSON number or numeric string
	fBool               // JSON true/false, or "true"/"false" (any case) as text
	fIDOrZero           // fID that may be 0 ("none")
	fNumber             // a decimal: JSON number or numeric string, kept as its text
	fList               // a JSON array, kept as its json.RawMessage for app to read
)

type field struct {
	name string // canonical name, as errors name it
	typ  fieldType
}

// fields is a decoded body: canonical name → string, int64 or bool.
// Absent fields (and JSON nulls) are not in the map.
type fields map[string]any

func (f fields) id(name string) (int64, bool) {
	v, ok := f[name].(int64)
	return v, ok
}

// maxFieldBytes bounds one string field before the rules check its
// length in characters: the longest allowed text is 100,000 characters
// of at most 4 bytes.
const maxFieldBytes = 4 * app.MaxTextLength

// readBody reads the request body once, enforcing the size cap.
func (c *call) readBody() ([]byte, error) {
	if c.bodyRead {
		return c.body, nil
	}
	c.bodyRead = true
	if c.r.Body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(c.r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, app.Errorf(app.KindPayloadTooLarge, "The request body is larger than the limit of %d bytes.", mbe.Limit)
		}
		return nil, app.Errorf(app.KindValidationFailed, "The request body could not be read.")
	}
	c.body = b
	return b, nil
}

// decodeBody reads the body as JSON or as a form into the declared
// fields. An empty body has no fields, whatever its content type.
func (c *call) decodeBody(spec []field) (fields, error) {
	b, err := c.readBody()
	if err != nil {
		return nil, err
	}
	return decodeFields(c.r.Header.Get("Content-Type"), b, spec)
}

// decodeFields is decodeBody without the request, for tests and fuzzing.
func decodeFields(contentType string, b []byte, spec []field) (fields, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return fields{}, nil
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, errUnsupportedMedia(contentType)
	}
	switch {
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return decodeJSON(b, spec)
	case mt == "application/x-www-form-urlencoded":
		return decodeForm(b, spec)
	}
	return nil, errUnsupportedMedia(contentType)
}

func errUnsupportedMedia(ct string) error {
	if ct == "" {
		ct = "none"
	}
	return app.Errorf(app.KindUnsupportedMediaType,
		"A request body must be application/json or application/x-www-form-urlencoded, not %s.", ct)
}

func lookupField(spec []field, key string) (field, bool) {
	for _, f := range spec {
		if strings.EqualFold(f.name, key) {
			return f, true
		}
	}
	return field{}, false
}

func decodeJSON(b []byte, spec []field) (fields, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, app.Invalid("body", "is not a JSON object: %s", jsonErrorText(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, app.Invalid("body", "has data after the JSON object")
	}
	out := fields{}
	for key, val := range raw {
		f, ok := lookupField(spec, key)
		if !ok {
			continue
		}
		if _, dup := out[f.name]; dup {
			return nil, app.Invalid(f.name, "is given more than once")
		}
		v, err := jsonValue(f, val)
		if err != nil {
			return nil, err
		}
		if v != nil {
			out[f.name] = v
		}
	}
	return out, nil
}

func jsonErrorText(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "syntax error at byte " + strconv.FormatInt(se.Offset, 10)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "found " + te.Value + " instead"
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "it ends too early"
	}
	return "malformed JSON"
}

// jsonValue converts one JSON value; nil means null (treated as absent).
func jsonValue(f field, raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil, nil
	}
	switch f.typ {
	case fString:
		var s string
		if len(raw) == 0 || raw[0] != '"' {
			return nil, app.Invalid(f.name, "must be a string")
		}
		if err := checkJSONString(f.name, raw); err != nil {
			return nil, err
		}
		if json.Unmarshal(raw, &s) != nil {
			return nil, app.Invalid(f.name, "must be a string")
		}
		return checkString(f, s)
	case fID:
		if len(raw) > 0 && raw[0] == '"' {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return nil, app.Invalid(f.name, "must be a number")
			}
			return parseIDValue(f, s)
		}
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return nil, app.Invalid(f.name, "must be a number")
		}
		return parseIDValue(f, n.String())
	case fIDOrZero:
		var s string
		if len(raw) > 0 && raw[0] == '"' {
			if json.Unmarshal(raw, &s) != nil {
				return nil, app.Invalid(f.name, "must be a number")
			}
		} else {
			var n json.Number
			if json.Unmarshal(raw, &n) != nil {
				return nil, app.Invalid(f.name, "must be a number")
			}
			s = n.String()
		}
		return parseIDOrZero(f, s)
	case fNumber:
		if len(raw) > 0 && raw[0] == '"' {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return nil, app.Invalid(f.name, "must be a number")
			}
			return strings.TrimSpace(s), nil
		}
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return nil, app.Invalid(f.name, "must be a number")
		}
		return n.String(), nil
	case fList:
		if len(raw) == 0 || raw[0] != '[' {
			return nil, app.Invalid(f.name, "must be a list")
		}
		return json.RawMessage(raw), nil
	case fBool:
		switch string(raw) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		var s string
		if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
			return parseBoolValue(f, s)
		}
		return nil, app.Invalid(f.name, "must be true or false")
	}
	return nil, app.Invalid(f.name, "has an unknown type")
}

func decodeForm(b []byte, spec []field) (fields, error) {
	vals, err := url.ParseQuery(string(b))
	if err != nil {
		return nil, app.Invalid("body", "is not a valid form: %v", err)
	}
	out := fields{}
	for key, vs := range vals {
		f, ok := lookupField(spec, key)
		if !ok {
			continue
		}
		if _, dup := out[f.name]; dup || len(vs) > 1 {
			return nil, app.Invalid(f.name, "is given more than once")
		}
		var v any
		switch f.typ {
		case fString:
			v, err = checkString(f, vs[0])
		case fID:
			if strings.TrimSpace(vs[0]) == "" {
				continue // an empty form field is an omitted one
			}
			v, err = parseIDValue(f, vs[0])
		case fBool:
			if strings.TrimSpace(vs[0]) == "" {
				continue
			}
			v, err = parseBoolValue(f, vs[0])
		case fIDOrZero:
			if strings.TrimSpace(vs[0]) == "" {
				continue
			}
			v, err = parseIDOrZero(f, vs[0])
		case fNumber:
			// Unlike an empty ID (a form's unselected choice), an empty
			// number is a typing slip; reading it as absent would answer
			// 200 and change nothing.
			if strings.TrimSpace(vs[0]) == "" {
				return nil, app.Invalid(f.name, "is empty; give a number or leave the field out")
			}
			v = strings.TrimSpace(vs[0])
		case fList:
			err = app.Invalid(f.name, "is a list: send the body as JSON")
		}
		if err != nil {
			return nil, err
		}
		out[f.name] = v
	}
	return out, nil
}

func checkString(f field, s string) (any, error) {
	if len(s) > maxFieldBytes {
		return nil, app.Invalid(f.name, "is longer than the limit of %d characters", app.MaxTextLength)
	}
	if err := app.CheckChars(f.name, s); err != nil {
		return nil, err
	}
	return s, nil
}

func parseIDValue(f field, s string) (any, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v <= 0 {
		return nil, app.Invalid(f.name, "must be a positive whole number (an ID)")
	}
	return v, nil
}

func parseIDOrZero(f field, s string) (any, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v < 0 {
		return nil, app.Invalid(f.name, "must be a whole number of 0 or more")
	}
	return v, nil
}

func parseBoolValue(f field, s string) (any, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return nil, app.Invalid(f.name, "must be true or false")
}

// pathID reads a numeric path parameter. A value that is not a positive
// whole number is 400 naming the parameter.
func (c *call) pathID(name string) (int64, error) {
	s := c.r.PathValue(name)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, app.Invalid(name, "must be a positive whole number (an ID)")
	}
	return v, nil
}
