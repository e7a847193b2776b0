package report

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"proposaldesk/app"
)

// Quantity formats a quantity without trailing zeros: "2", "1.5".
func Quantity(q app.Quantity) string {
	s := q.String()
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// dateText is a date for print: "April 15, 2026"; "" when unset.
func dateText(t app.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("January 2, 2006")
}

// printable makes text safe for the embedded fonts: line breaks become
// "\n", tabs and other spaces a space, control characters go, and a
// character the fonts have no glyph for becomes "?".
func printable(s string, has func(rune) bool) string {
	ok := true
	for _, r := range s {
		if r >= 0x80 || r < 0x20 || r == 0x7f {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			b.WriteByte('?')
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			b.WriteByte('\n')
		case unicode.IsSpace(r):
			b.WriteByte(' ')
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
		case r < 0x80:
			b.WriteRune(r)
		default:
			if has(r) {
				b.WriteRune(r)
			} else {
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}
