package app_test

import (
	"strings"
	"testing"

	"proposaldesk/app"
)

// A catalog's monthly services are recurring from the import file to
// the proposal: the CSV column sets the flag, adding the item copies it,
// and the option counts the line in its recurring total, not its total.

func TestCatalogCSVRecurringService(t *testing.T) {
	const header = "ItemType,Name,SellPrice,IsRecurringService\n"
	for _, tc := range []struct {
		cell   string
		want   bool
		reason string
	}{
		{"true", true, ""}, {"Yes", true, ""}, {"1", true, ""},
		{"false", false, ""}, {"no", false, ""}, {"0", false, ""}, {"", false, ""},
		{"monthly", false, `IsRecurringService "monthly" must be true or false`},
	} {
		rows, rejected, err := readCatalogCSV(t, header+"Fee,Remote Monitoring (monthly),29,"+tc.cell+"\n")
		if err != nil {
			t.Fatal(err)
		}
		if tc.reason != "" {
			if len(rows) != 0 || len(rejected) != 1 || !strings.Contains(rejected[0], tc.reason) {
				t.Errorf("%q: rows %v rejected %q, want %q", tc.cell, rows, rejected, tc.reason)
			}
			continue
		}
		if len(rows) != 1 || rows[0].Item.IsRecurringService != tc.want {
			t.Errorf("%q: rows %+v rejected %q, want recurring %v", tc.cell, rows, rejected, tc.want)
		}
	}
}

const catalogMonitoring = 5002

func TestAddItemCopiesRecurringService(t *testing.T) {
	env := func(e *app.Env) {
		e.Catalog = fixtureCatalog{catalogMonitoring: {ID: catalogMonitoring, ItemType: app.ItemFee, Name: "Remote Monitoring (monthly)",
			SellPrice: app.MustMoney("29.00"), IsRecurringService: true}}
	}
	add := func(f func(*app.AddItem)) *app.AddItem {
		m := &app.AddItem{ID: fixtureProposalID, OptionID: kitchenOptionID, CatalogItemID: ptr(int64(catalogMonitoring))}
		f(m)
		return m
	}
	runMutationCases(t, []mutationCase{
		{name: "recurring from the catalog", p: fixtureProposal(app.StatusDraft), env: env, m: add(func(*app.AddItem) {}),
			check: func(t *testing.T, got *app.Proposal) {
				if it := kitchenItems(t, got)[1]; !it.IsRecurringService {
					t.Errorf("added %+v, want recurring", it)
				}
				o, _ := got.Option(kitchenOptionID)
				if total, recurring := app.OptionTotals(o); total != app.MustMoney("200.00") || recurring != app.MustMoney("29.00") {
					t.Errorf("option totals %s and recurring %s, want 200.00 and 29.00", total, recurring)
				}
			}},
		{name: "the request's flag wins over the catalog's", p: fixtureProposal(app.StatusDraft), env: env,
			m: add(func(m *app.AddItem) { m.IsRecurringService = ptr(false) }),
			check: func(t *testing.T, got *app.Proposal) {
				if it := kitchenItems(t, got)[1]; it.IsRecurringService {
					t.Errorf("added %+v, want one-time", it)
				}
			}},
	})
}
