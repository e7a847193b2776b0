// Package jsonscan finds the parts of a JSON document by matching
// brackets and quotes, without decoding or validating them: for code
// that passes large documents on, or changes a few values in them, as
// bytes (the server's sync route, the desktop's sync page). Whoever
// decodes a part validates it then; json.Unmarshal checks its input
// whole.
package jsonscan

import "fmt"

// Object walks the object starting at b[i] (after white space): fn gets
// each member's key (quoted, as written) and the index of its value, and
// returns the index just after that value (ValueEnd, or its own walk).
// Object returns the index just after the object.
func Object(b []byte, i int, fn func(key []byte, value int) (int, error)) (int, error) {
	i = SkipSpace(b, i)
	if i >= len(b) || b[i] != '{' {
		return 0, fmt.Errorf("expected a JSON object")
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		kend, err := StringEnd(b, i)
		if err != nil {
			return 0, err
		}
		key := b[i:kend]
		i = SkipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return 0, fmt.Errorf("no colon after the key %s", key)
		}
		if i, err = fn(key, SkipSpace(b, i+1)); err != nil {
			return 0, err
		}
		i = SkipSpace(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = SkipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return i + 1, nil
		default:
			return 0, fmt.Errorf("object not closed after the member %s", key)
		}
	}
}

// Array walks the array starting at b[i] (after white space): fn gets
// the index of each element and returns the index just after it. Array
// returns the index just after the array.
func Array(b []byte, i int, fn func(elem int) (int, error)) (int, error) {
	i = SkipSpace(b, i)
	if i >= len(b) || b[i] != '[' {
		return 0, fmt.Errorf("expected a JSON array")
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for n := 0; ; n++ {
		var err error
		if i, err = fn(i); err != nil {
			return 0, err
		}
		i = SkipSpace(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = SkipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return i + 1, nil
		default:
			return 0, fmt.Errorf("array not closed after element %d", n)
		}
	}
}

// ValueEnd is the index just after the value starting at b[i]: a string,
// an object or array (brackets matched, strings skipped), or a literal
// (number, true, false, null).
func ValueEnd(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, fmt.Errorf("unexpected end of JSON")
	}
	switch b[i] {
	case '"':
		return StringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, err := StringEnd(b, j)
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
	end := i
	for end < len(b) && !delimiter(b[end]) {
		end++
	}
	if end == i {
		return 0, fmt.Errorf("unexpected %q in JSON", b[i])
	}
	return end, nil
}

func delimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ':', ' ', '\t', '\r', '\n', '"', '{', '[':
		return true
	}
	return false
}

// StringEnd is the index just after the string whose opening quote is
// b[i].
func StringEnd(b []byte, i int) (int, error) {
	if i >= len(b) || b[i] != '"' {
		return 0, fmt.Errorf("expected a JSON string")
	}
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

// SkipSpace is the index of the first byte at or after i that is not
// JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// End checks that only white space follows b[i-1] (the end of a
// document's value).
func End(b []byte, i int) error {
	if j := SkipSpace(b, i); j != len(b) {
		return fmt.Errorf("unexpected %q after the JSON value", b[j])
	}
	return nil
}
