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
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.UTC().Format(TimeLayout) + `"`), nil
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
