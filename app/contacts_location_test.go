package app_test

import (
	"testing"

	"proposaldesk/app"
)

// The location rule shared by the server and the desktop: a US postal
// code is a ZIP code (5 or 5+4 digits); other countries keep theirs.
func TestLocationPostalCode(t *testing.T) {
	cases := []struct {
		country, zip string
		ok           bool
	}{
		{"US", "78701", true},
		{"US", "78701-1234", true},
		{"", "78701", true},
		{"usa", "ABCDE", false},
		{"US", "7870", false},
		{"US", "787011234", false},
		{"US", "78701-12", false},
		{"United States", " 78701", false},
		{"US", "", true},
		{"CA", "K1A 0B1", true},
	}
	for _, c := range cases {
		_, err := app.NewLocation{Street: "1 Elm St", Country: c.country, PostalCode: c.zip}.Location(-1, -1)
		if (err == nil) != c.ok {
			t.Errorf("%q %q: %v, want ok=%v", c.country, c.zip, err, c.ok)
		}
		if err != nil && app.KindOf(err) != app.KindValidationFailed {
			t.Errorf("%q %q: kind %s", c.country, c.zip, app.KindOf(err))
		}
	}
}

// The state picker lists the tax table's states, each found again by
// the table.
func TestTaxTableStates(t *testing.T) {
	states := app.USTaxTable().States()
	if len(states) < 50 {
		t.Fatalf("%d states", len(states))
	}
	for _, s := range states {
		if _, abbrev, ok := app.USTaxTable().Lookup(app.Location{State: s.Name}); !ok || abbrev != s.Abbrev {
			t.Errorf("%+v: lookup %q %v", s, abbrev, ok)
		}
	}
}
