package apiclient

import (
	"encoding/json"
	"fmt"
)

// A sync page is megabytes of proposals that the caller decodes one by
// one (in parallel) and may keep as they are. Decoding the page into
// json.RawMessage values first validated, scanned and copied all of it
// again (a quarter of a first sync's CPU), so the page is split here:
// each member's and each element's bytes are found by matching brackets
// and quotes, without validating them; whoever decodes a part validates
// it then (json.Unmarshal checks its input whole).

// objectMembers calls fn with each member of the JSON object b: its key
// (decoded) and its value's bytes, a subslice of b.
func objectMembers(b []byte, fn func(key string, value []byte) error) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return fmt.Errorf("not a JSON object")
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return trailing(b, i+1)
	}
	for {
		end, err := valueEnd(b, i)
		if err != nil {
			return err
		}
		var key string
		if err := json.Unmarshal(b[i:end], &key); err != nil {
			return fmt.Errorf("object key: %w", err)
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return fmt.Errorf("no colon after key %q", key)
		}
		i = skipSpace(b, i+1)
		if end, err = valueEnd(b, i); err != nil {
			return fmt.Errorf("member %q: %w", key, err)
		}
		if err := fn(key, b[i:end]); err != nil {
			return err
		}
		i = skipSpace(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return trailing(b, i+1)
		default:
			return fmt.Errorf("object not closed after member %q", key)
		}
	}
}

// arrayElements returns the elements of the JSON array b as subslices
// of b ("null" is no elements).
func arrayElements(b []byte) ([][]byte, error) {
	i := skipSpace(b, 0)
	if string(b[i:skipLiteral(b, i)]) == "null" {
		return nil, trailing(b, i+4)
	}
	if i >= len(b) || b[i] != '[' {
		return nil, fmt.Errorf("not a JSON array")
	}
	out := [][]byte{}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return out, trailing(b, i+1)
	}
	for {
		end, err := valueEnd(b, i)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", len(out), err)
		}
		out = append(out, b[i:end])
		i = skipSpace(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return out, trailing(b, i+1)
		default:
			return nil, fmt.Errorf("array not closed after element %d", len(out)-1)
		}
	}
}

// valueEnd is the index just after the JSON value starting at b[i]: a
// string, an object or array (brackets matched, strings skipped), or a
// literal (number, true, false, null).
func valueEnd(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, fmt.Errorf("unexpected end of JSON")
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, err := stringEnd(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, fmt.Errorf("unexpected end of JSON")
	}
	end := skipLiteral(b, i)
	if end == i {
		return 0, fmt.Errorf("unexpected %q in JSON", b[i])
	}
	return end, nil
}

// stringEnd is the index just after the string whose opening quote is
// b[i].
func stringEnd(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated string in JSON")
}

func skipLiteral(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ':', ' ', '\t', '\r', '\n', '"', '{', '[':
			return i
		}
		i++
	}
	return i
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// trailing fails when anything but white space follows b[i-1].
func trailing(b []byte, i int) error {
	if i > len(b) {
		return fmt.Errorf("unexpected end of JSON")
	}
	if j := skipSpace(b, i); j != len(b) {
		return fmt.Errorf("unexpected %q after the JSON value", b[j])
	}
	return nil
}
