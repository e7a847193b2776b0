package app

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"strings"
)

//go:embed taxdata/us_state_sales_tax.csv
var usStateTaxCSV string

// TaxTable gives the sales-tax rate of a location's state: the embedded US
// state base rates, with an account's overrides on top (a dealer adds
// local rates that way).
type TaxTable struct {
	rates     map[string]Rate // by upper-case abbreviation
	names     map[string]string
	overrides map[string]Rate
	states    []State // in the file's order
}

// State is a state of the tax table: its abbreviation and name.
type State struct {
	Abbrev, Name string
}

// States lists the table's states, for pickers.
func (t TaxTable) States() []State { return append([]State(nil), t.states...) }

var usTaxTable = mustParseTaxTable(usStateTaxCSV)

// USTaxTable is the table of US state base rates.
func USTaxTable() TaxTable { return usTaxTable }

func mustParseTaxTable(data string) TaxTable {
	t, err := parseTaxTable(data)
	if err != nil {
		panic("bug: embedded tax table: " + err.Error())
	}
	return t
}

func parseTaxTable(data string) (TaxTable, error) {
	r := csv.NewReader(strings.NewReader(data))
	r.Comment = '#'
	rows, err := r.ReadAll()
	if err != nil {
		return TaxTable{}, err
	}
	t := TaxTable{rates: map[string]Rate{}, names: map[string]string{}}
	for i, row := range rows {
		if i == 0 {
			continue // header
		}
		if len(row) != 3 {
			return TaxTable{}, fmt.Errorf("row %d: want abbrev,state,rate", i+1)
		}
		rate, err := ParseRate(row[2])
		if err != nil {
			return TaxTable{}, fmt.Errorf("row %d: %w", i+1, err)
		}
		abbrev := strings.ToUpper(row[0])
		t.rates[abbrev] = rate
		t.names[strings.ToUpper(row[1])] = abbrev
		t.states = append(t.states, State{Abbrev: abbrev, Name: row[1]})
	}
	return t, nil
}

// WithOverrides returns the table with per-state rates replaced; keys are
// state abbreviations or names in any case.
func (t TaxTable) WithOverrides(overrides map[string]Rate) TaxTable {
	c := t
	c.overrides = make(map[string]Rate, len(overrides))
	for k, v := range overrides {
		c.overrides[t.abbrev(k)] = v
	}
	return c
}

func (t TaxTable) abbrev(state string) string {
	s := strings.ToUpper(strings.TrimSpace(state))
	if a, ok := t.names[s]; ok {
		return a
	}
	return s
}

// Lookup is the rate for a location, found by its state abbreviation or,
// failing that, its state name.
func (t TaxTable) Lookup(loc Location) (rate Rate, state string, ok bool) {
	for _, s := range []string{loc.StateAbbrev, loc.State} {
		if strings.TrimSpace(s) == "" {
			continue
		}
		a := t.abbrev(s)
		if r, ok := t.overrides[a]; ok {
			return r, a, true
		}
		if r, ok := t.rates[a]; ok {
			return r, a, true
		}
	}
	return 0, "", false
}

// applyLocationTax recalculates a document's tax for a newly assigned
// location. Manual rates stay as they are; a client-location method looks
// the rate up, and a state the table does not know leaves the tax
// Unavailable rather than silently zero-rated.
func applyLocationTax(d *Document, loc *Location, table TaxTable) {
	t := &d.Tax
	if t.Method == "" {
		t.Method = TaxClientLocation
	}
	if len(t.ApplyTo) == 0 {
		t.ApplyTo = []ApplyTo{ApplyParts}
	}
	switch {
	case t.Method == TaxManual:
		t.TaxLocation = copyLocation(loc)
		return
	case t.Method == TaxDealerLocation:
		loc = &d.Dealer.Location
	case loc == nil:
		// No location, no rates: keep nothing from a previous location.
		t.TaxLocation = nil
		t.Status = TaxUndefined
		t.Parts = TaxRates{}
		t.IsTaxServiceAvailable = false
		return
	}
	t.TaxLocation = copyLocation(loc)
	t.IsTaxServiceAvailable = true
	if len(t.ApplyTo) == 1 && t.ApplyTo[0] == ApplyNone {
		t.Status = TaxExempt // the dealer taxes nothing for this document
		return
	}
	rate, state, ok := table.Lookup(*loc)
	if !ok {
		t.Status = TaxUnavailable
		t.Parts = TaxRates{}
		t.IsTaxServiceAvailable = false
		return
	}
	t.Status = TaxOK
	t.Parts = TaxRates{Rate: rate, Name: state + " sales tax"}
}

func copyLocation(l *Location) *Location {
	if l == nil {
		return nil
	}
	c := *l
	return &c
}
