package app

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The one rule for characters of text that enters the system, whatever
// the way in (a JSON or form body, a catalog CSV file, an admin
// command): text is stored exactly or refused with the field named,
// never repaired. A control character (NUL, ESC, BEL, …) has no place
// in a name or a description; it would reach terminals, CSV exports and
// PostgreSQL (whose text cannot hold NUL) as it is.

// CheckChars refuses text that is not valid UTF-8 or holds a control
// character (Unicode's Cc: C0, DEL and C1) other than tab, line feed and
// a carriage return that starts a CRLF line break.
func CheckChars(field, s string) error {
	if p := charsProblem(s); p != "" {
		return Invalid(field, "%s", p)
	}
	return nil
}

// charsProblem is CheckChars' reason for refusing s, or "".
func charsProblem(s string) string {
	if !utf8.ValidString(s) {
		return "must be valid UTF-8 text"
	}
	chars := 0
	for i, r := range s {
		chars++
		if !unicode.IsControl(r) || r == '\t' || r == '\n' || (r == '\r' && strings.HasPrefix(s[i+1:], "\n")) {
			continue
		}
		return fmt.Sprintf("contains the control character U+%04X at character %d; only tabs and line breaks (LF or CRLF) are allowed", r, chars)
	}
	return ""
}
