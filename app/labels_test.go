package app_test

import (
	"testing"

	"proposaldesk/app"
)

// Every value of every enumeration shown to people has words of its
// own; the ones the issue names read as people say them.
func TestLabels(t *testing.T) {
	for _, s := range app.Statuses {
		if s.Label() == "" || (s.Label() == string(s) && len(s) > 9) {
			t.Errorf("status %s has no words: %q", s, s.Label())
		}
	}
	for _, s := range app.OptionStatuses {
		if s.Label() == "" {
			t.Errorf("option status %s has no words", s)
		}
	}
	for _, s := range app.TaxStatuses {
		if s.Label() == "" || s.Label() == string(s) {
			t.Errorf("tax status %s has no words: %q", s, s.Label())
		}
	}
	for _, it := range app.ItemTypes {
		if it.Label() == "" {
			t.Errorf("item type %s has no words", it)
		}
	}
	cases := []struct{ got, want string }{
		{app.ItemCustomItem.Label(), "Custom item"},
		{app.StatusViewedByClient.Label(), "Viewed by client"},
		{app.StatusEmailFailed.Label(), "Email failed"},
		{app.TaxOK.Label(), "Sales tax"},
		{app.TaxUnavailable.Problem(), "Tax unavailable: check the location's state"},
		{app.TaxOK.Problem(), ""},
		{app.TaxExempt.Problem(), ""},
		{app.Status("Archived").Label(), "Archived"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
