package app

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// sendInput is a send's fields as typed.
type sendInput struct{ To, Message, ExpiresOn string }

func TestParseSendRequest(t *testing.T) {
	now := time.Date(2026, 11, 26, 16, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		r     sendInput
		email string
		field string // "" when accepted
	}{
		{"the customer's email", sendInput{}, "ann@example.test", ""},
		{"several", sendInput{To: "a@example.test, b@example.test"}, "", ""},
		{"no address at all", sendInput{}, "", "To"},
		{"not an address", sendInput{To: "ann at example"}, "x@example.test", "To"},
		{"too many", sendInput{To: strings.Repeat("a@example.test,", 21)}, "", "To"},
		{"message too long", sendInput{Message: strings.Repeat("é", MaxSendMessage+1)}, "a@example.test", "Message"},
		{"today", sendInput{ExpiresOn: "2026-11-26"}, "a@example.test", ""},
		{"yesterday", sendInput{ExpiresOn: "2026-11-25"}, "a@example.test", "ExpiresOn"},
		{"not a date", sendInput{ExpiresOn: "26/11/2026"}, "a@example.test", "ExpiresOn"},
		{"a year ahead", sendInput{ExpiresOn: "2027-11-26"}, "a@example.test", ""},
		{"over a year ahead", sendInput{ExpiresOn: "2027-11-28"}, "a@example.test", "ExpiresOn"},
	} {
		_, err := ParseSendRequest(c.r.To, c.r.Message, c.r.ExpiresOn, c.email, now)
		var ae *Error
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.field != "" && (err == nil || !errors.As(err, &ae) || len(ae.Fields) == 0 || ae.Fields[0].Field != c.field):
			t.Errorf("%s: %v, want a refusal of %s", c.name, err, c.field)
		}
	}
}

func TestParseSendRequestDefaults(t *testing.T) {
	now := time.Date(2026, 11, 26, 16, 0, 0, 0, time.UTC)
	r, err := ParseSendRequest(" Ann Lee <ann@example.test> ", "hi", "", "x@example.test", now)
	if err != nil || len(r.To) != 1 || r.To[0] != "ann@example.test" || r.Message != "hi" {
		t.Fatalf("%+v, %v", r, err)
	}
	if want := time.Date(2026, 12, 27, 0, 0, 0, 0, time.UTC); !r.ExpiresOn.Equal(want) {
		t.Errorf("default expiry %v, want the end of the %dth day, %v", r.ExpiresOn, DefaultLinkDays, want)
	}
	if r, err := ParseSendRequest("", "", "2026-12-01T15:00:00Z", "a@example.test", now); err != nil || !r.ExpiresOn.Equal(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("an RFC 3339 time: %v, %v", r.ExpiresOn, err)
	}
}
