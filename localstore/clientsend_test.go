package localstore

import (
	"errors"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
)

func TestCheckSendRequest(t *testing.T) {
	now := time.Date(2026, 11, 26, 16, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		r     SendRequest
		email string
		field string // "" when accepted
	}{
		{"the customer's email", SendRequest{}, "ann@example.test", ""},
		{"several", SendRequest{To: "a@example.test, b@example.test"}, "", ""},
		{"no address at all", SendRequest{}, "", "To"},
		{"not an address", SendRequest{To: "ann at example"}, "x@example.test", "To"},
		{"too many", SendRequest{To: strings.Repeat("a@example.test,", 21)}, "", "To"},
		{"message too long", SendRequest{Message: strings.Repeat("é", app.MaxSendMessage+1)}, "a@example.test", "Message"},
		{"today", SendRequest{ExpiresOn: "2026-11-26"}, "a@example.test", ""},
		{"yesterday", SendRequest{ExpiresOn: "2026-11-25"}, "a@example.test", "ExpiresOn"},
		{"not a date", SendRequest{ExpiresOn: "26/11/2026"}, "a@example.test", "ExpiresOn"},
		{"a year ahead", SendRequest{ExpiresOn: "2027-11-26"}, "a@example.test", ""},
		{"over a year ahead", SendRequest{ExpiresOn: "2027-11-28"}, "a@example.test", "ExpiresOn"},
	} {
		err := CheckSendRequest(c.r, c.email, now)
		var ae *app.Error
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.field != "" && (err == nil || !errors.As(err, &ae) || len(ae.Fields) == 0 || ae.Fields[0].Field != c.field):
			t.Errorf("%s: %v, want a refusal of %s", c.name, err, c.field)
		}
	}
}
