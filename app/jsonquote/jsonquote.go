// Package jsonquote quotes strings as json.Marshal does, byte for byte,
// for the hand-written JSON encoders of app (Proposal.AppendJSON,
// ProposalDetail.AppendJSON and their parts).
//
// It stays hand-written because users feel it: quoting each string with
// json.Marshal instead made an uncached detail GET of the demo's typical
// proposal cost 40 % more CPU (BenchmarkUncachedDetailGet in apiserver,
// median of ten alternated runs: 257 µs against 183 µs of CPU, 826
// allocations against 152; see docs/performance.md, "The request log").
// TestAppendMarshalMatchesMarshal holds it to json.Marshal.
package jsonquote

import "unicode/utf8"

// AppendMarshal appends s quoted as json.Marshal quotes it: control
// characters, quotes and backslashes escaped, <, > and & escaped,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func AppendMarshal(b []byte, s string) []byte {
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
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
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

// safe is the ASCII json.Marshal writes as it is.
var safe = func() (safe [utf8.RuneSelf]bool) {
	for c := byte(0x20); c < utf8.RuneSelf; c++ {
		safe[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return safe
}()
