package app

import (
	"fmt"
	"time"
)

// Time is a UTC instant that encodes as ISO 8601 with millisecond
// precision, and as JSON null when it was never set (the spec's nullable
// dates: a proposal never submitted has a null lastSubmittedDate).
type Time struct{ time.Time }

// TimeLayout is the wire form of every date-time.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// At wraps t, in UTC and truncated to the wire's millisecond precision so
// that a value survives an encode/decode round trip unchanged.
func At(t time.Time) Time {
	if t.IsZero() {
		return Time{}
	}
	return Time{t.UTC().Truncate(time.Millisecond)}
}

func (t Time) MarshalJSON() ([]byte, error) {
	return t.appendJSON(make([]byte, 0, 26)), nil
}

// appendJSON appends what MarshalJSON returns.
func (t Time) appendJSON(b []byte) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	u := t.UTC()
	// Date and Clock split the instant once each; Year, Month, Day… would
	// each split it again.
	y, mo, d := u.Date()
	if y < 0 || y > 9999 {
		return append(b, `"`+u.Format(TimeLayout)+`"`...)
	}
	h, mi, sec := u.Clock()
	// TimeLayout written by hand: every stored date passes through here,
	// and time.Format's general layout parsing dominated encoding a
	// proposal of many items.
	b = append(b, '"')
	b = appendDigits(b, y, 4)
	b = append(b, '-')
	b = appendDigits(b, int(mo), 2)
	b = append(b, '-')
	b = appendDigits(b, d, 2)
	b = append(b, 'T')
	b = appendDigits(b, h, 2)
	b = append(b, ':')
	b = appendDigits(b, mi, 2)
	b = append(b, ':')
	b = appendDigits(b, sec, 2)
	b = append(b, '.')
	b = appendDigits(b, u.Nanosecond()/1e6, 3)
	return append(b, 'Z', '"')
}

// appendDigits writes v in exactly n decimal digits, zero-padded.
func appendDigits(b []byte, v, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		b = append(b, 0)
	}
	for i := len(b) - 1; n > 0; i, n = i-1, n-1 {
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return b
}

func (t *Time) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" || s == `""` {
		*t = Time{}
		return nil
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return fmt.Errorf("date-time must be a string, got %s", s)
	}
	v, err := ParseTime(s[1 : len(s)-1])
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// ParseTime reads an ISO 8601 date-time (RFC 3339, any offset) or a bare
// date, which is taken as midnight UTC.
func ParseTime(s string) (Time, error) {
	if v, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return At(v), nil
	}
	if v, err := time.Parse("2006-01-02T15:04:05", s); err == nil {
		return At(v), nil
	}
	if v, err := time.Parse("2006-01-02", s); err == nil {
		return At(v), nil
	}
	return Time{}, fmt.Errorf("%q is not an ISO 8601 date-time", s)
}
