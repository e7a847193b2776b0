// Package jsonquote quotes strings as JSON byte for byte as the standard
// library's two encoders do, without their reflection and allocations:
// the API's hand-written response encoders match encoding/json, the
// server's log lines match log/slog's JSON handler.
package jsonquote

import "unicode/utf8"

// AppendMarshal appends s quoted as json.Marshal quotes it: control
// characters, quotes and backslashes escaped, <, > and & escaped,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func AppendMarshal(b []byte, s string) []byte { return appendQuoted(b, s, &htmlSafe, true) }

// AppendSlog appends s quoted as slog.JSONHandler quotes it: as
// json.Marshal, but <, > and & left as they are and \b and \f written
// as \u0008 and \u000c.
func AppendSlog(b []byte, s string) []byte { return appendQuoted(b, s, &safe, false) }

func appendQuoted(b []byte, s string, safe *[utf8.RuneSelf]bool, shortBF bool) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch {
			case c == '\\' || c == '"':
				b = append(b, '\\', c)
			case c == '\b' && shortBF:
				b = append(b, '\\', 'b')
			case c == '\f' && shortBF:
				b = append(b, '\\', 'f')
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// safe is the ASCII both encoders write as it is; htmlSafe, what
// json.Marshal does.
var safe, htmlSafe = func() (safe, htmlSafe [utf8.RuneSelf]bool) {
	for c := byte(0x20); c < utf8.RuneSelf; c++ {
		safe[c] = c != '"' && c != '\\'
		htmlSafe[c] = safe[c] && c != '<' && c != '>' && c != '&'
	}
	return safe, htmlSafe
}()
