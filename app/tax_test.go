package app_test

import (
	"encoding/csv"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"proposaldesk/app"
)

const taxCSV = "taxdata/us_state_sales_tax.csv"

// usStates are the 50 states and DC, which the table must all hold.
var usStates = strings.Fields(`AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO
	MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY`)

// taxRows reads the CSV the table embeds, without its header.
func taxRows(t *testing.T) [][]string {
	t.Helper()
	f, err := os.Open(taxCSV)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || !slices.Equal(rows[0], []string{"abbrev", "state", "rate"}) {
		t.Fatalf("CSV header %v, want abbrev,state,rate", rows[:min(1, len(rows))])
	}
	return rows[1:]
}

func TestTaxCSVNotesSourceAndDate(t *testing.T) {
	data, err := os.ReadFile(taxCSV)
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "#") {
			break
		}
		header = append(header, line)
	}
	text := strings.Join(header, "\n")
	if !regexp.MustCompile(`(?i)#\s*source:\s*\S`).MatchString(text) {
		t.Errorf("comment header does not name a source:\n%s", text)
	}
	if !regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`).MatchString(text) {
		t.Errorf("comment header has no date:\n%s", text)
	}
}

func TestTaxTableHoldsEveryRow(t *testing.T) {
	table := app.USTaxTable()
	rows := taxRows(t)
	var abbrevs []string
	for _, row := range rows {
		if len(row) != 3 {
			t.Fatalf("row %v: want abbrev,state,rate", row)
		}
		abbrev, name := row[0], row[1]
		abbrevs = append(abbrevs, abbrev)
		want, err := app.ParseRate(row[2])
		if err != nil {
			t.Errorf("%s: rate %q: %v", abbrev, row[2], err)
			continue
		}
		if want < 0 || want > app.MustRate("15") {
			t.Errorf("%s: rate %s is not a plausible state rate", abbrev, want)
		}
		for _, loc := range []app.Location{
			{StateAbbrev: abbrev},
			{StateAbbrev: strings.ToLower(abbrev)},
			{State: name},
			{State: strings.ToUpper(name)},
			{State: strings.ToLower(name)},
			{State: " " + name + " "},
		} {
			rate, state, ok := table.Lookup(loc)
			if !ok || rate != want || state != abbrev {
				t.Errorf("Lookup(%+v) = %s, %q, %v; want %s, %q", loc, rate, state, ok, want, abbrev)
			}
		}
	}
	slices.Sort(abbrevs)
	want := slices.Clone(usStates)
	slices.Sort(want)
	if !slices.Equal(abbrevs, want) {
		t.Errorf("CSV states %v\nwant       %v", abbrevs, want)
	}
}

// TestKnownRates are state base rates in force in 2025, from the states'
// revenue departments.
func TestKnownRates(t *testing.T) {
	for _, tc := range []struct {
		loc  app.Location
		rate string
	}{
		{app.Location{StateAbbrev: "CA"}, "7.25"},
		{app.Location{StateAbbrev: "TX"}, "6.25"},
		{app.Location{StateAbbrev: "NY"}, "4"},
		{app.Location{StateAbbrev: "MN"}, "6.875"},
		{app.Location{StateAbbrev: "OR"}, "0"},
		{app.Location{State: "new jersey"}, "6.625"},
		{app.Location{State: "District of Columbia"}, "6"},
		{app.Location{StateAbbrev: "xx", State: "Texas"}, "6.25"}, // a bad abbreviation falls back to the name
	} {
		rate, _, ok := app.USTaxTable().Lookup(tc.loc)
		if !ok || rate != app.MustRate(tc.rate) {
			t.Errorf("Lookup(%+v) = %s, %v; want %s", tc.loc, rate, ok, tc.rate)
		}
	}
}

func TestTaxLookupNotFound(t *testing.T) {
	for _, loc := range []app.Location{
		{},
		{State: "  ", StateAbbrev: " "},
		{StateAbbrev: "ZZ"},
		{State: "Ontario", StateAbbrev: "ON"},
		{State: "Puerto Rico", StateAbbrev: "PR"},
		{State: "Calif."},
		{State: "NewYork"},
	} {
		if rate, state, ok := app.USTaxTable().Lookup(loc); ok {
			t.Errorf("Lookup(%+v) = %s, %q; want not found", loc, rate, state)
		}
	}
}

func TestTaxOverrides(t *testing.T) {
	base := app.USTaxTable()
	table := base.WithOverrides(map[string]app.Rate{
		"ca":          app.MustRate("9.5"),
		"New York":    app.MustRate("8.875"),
		"OR":          app.MustRate("0.5"),
		"Puerto Rico": app.MustRate("10.5"),
	})
	for _, tc := range []struct {
		loc    app.Location
		rate   string
		found  bool
		before string // the base table's answer, which must not change
	}{
		{app.Location{StateAbbrev: "CA"}, "9.5", true, "7.25"},
		{app.Location{State: "california"}, "9.5", true, "7.25"},
		{app.Location{StateAbbrev: "NY"}, "8.875", true, "4"},
		{app.Location{State: "NEW YORK"}, "8.875", true, "4"},
		{app.Location{StateAbbrev: "or"}, "0.5", true, "0"},
		{app.Location{StateAbbrev: "TX"}, "6.25", true, "6.25"},
		{app.Location{State: "Puerto Rico"}, "10.5", true, ""},
	} {
		rate, _, ok := table.Lookup(tc.loc)
		if ok != tc.found || rate != app.MustRate(tc.rate) {
			t.Errorf("with overrides Lookup(%+v) = %s, %v; want %s", tc.loc, rate, ok, tc.rate)
		}
		rate, _, ok = base.Lookup(tc.loc)
		if tc.before == "" {
			if ok {
				t.Errorf("base Lookup(%+v) found %s after overrides were added", tc.loc, rate)
			}
		} else if !ok || rate != app.MustRate(tc.before) {
			t.Errorf("base Lookup(%+v) = %s, %v; overrides leaked into the base table", tc.loc, rate, ok)
		}
	}
}

// TestAssignedLocationUsesOverrides: an account's overrides decide the
// tax of an assigned location.
func TestAssignedLocationUsesOverrides(t *testing.T) {
	env := fixtureEnv(fixtureSales)
	env.Account.Taxes = app.USTaxTable().WithOverrides(map[string]app.Rate{"NY": app.MustRate("8.875")})
	p := fixtureProposalWithContact(app.StatusDraft, contactOnePrimary, locCA)
	got, err := app.Apply(p, &app.AssignLocation{ID: fixtureProposalID, LocationID: locNY}, env)
	if err != nil {
		t.Fatal(err)
	}
	if got.Tax.Status != app.TaxOK || got.Tax.Parts.Rate != app.MustRate("8.875") {
		t.Errorf("tax %s at %s, want Ok at the override 8.875", got.Tax.Status, got.Tax.Parts.Rate)
	}
}
