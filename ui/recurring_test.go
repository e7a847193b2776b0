package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
	"proposaldesk/app/exportfmt"
)

// chooseMenu opens the ⋯ menu of the item named item and picks entry.
func chooseMenu(t *testing.T, d *Desktop, v *proposalView, item, entry string) *fyne.MenuItem {
	t.Helper()
	test.Tap(rowOfItem(t, v, item).more)
	for _, mi := range v.cui().lastMenu.Items {
		if mi.Label == entry {
			if mi.Disabled {
				t.Fatalf("%q is disabled", entry)
			}
			d.win.Canvas().Overlays().Top().Hide()
			checked := mi.Checked
			mi.Action()
			return &fyne.MenuItem{Label: mi.Label, Checked: checked}
		}
	}
	t.Fatalf("no %q in the menu of %s", entry, item)
	return nil
}

// A monthly service added from the catalog is recurring all the way:
// the line says /month, the option and the summary count it apart from
// the one-time total, the ⋯ menu turns a line recurring and back, and
// the server, items.csv, proposals.csv and the client PDF agree.
func TestRecurringServiceFromCatalog(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleAdmin)
	name := runName("Recurring")
	_, id := h.contentFixture(name, [][2]string{{"Rack", "100.00"}, {"Care visit", "40.00"}}, nil)
	importCatalog(t, h)
	h.sync()
	v := d.detail
	st := d.sess.st
	found, _, err := st.SearchCatalog(app.CatalogQuery{SearchText: "Remote Monitoring monthly", PageNumber: 1, PageSize: 5})
	if err != nil || len(found) == 0 {
		t.Fatalf("no monitoring plan in the local catalog: %v", err)
	}
	mon := found[0]
	if !mon.IsRecurringService {
		t.Fatalf("the demo catalog's %q is not a recurring service", mon.Name)
	}

	p := openPickerOf(t, v, 0)
	test.Type(p.search, mon.PartNumber)
	if len(p.results) == 0 || p.results[0].ID != mon.ID {
		t.Fatalf("searching %q lists %d items", mon.PartNumber, len(p.results))
	}
	pressKey(p.search, fyne.KeyReturn)
	pressKey(p.search, fyne.KeyEscape)

	cur := v.p.Currency
	o := &v.p.Areas[0].Options[0]
	if len(o.Items) != 3 || !o.Items[2].IsRecurringService || o.Items[2].ReferencedItemID != mon.ID {
		t.Fatalf("option items %+v, want the monitoring plan added as recurring", o.Items)
	}
	month := perMonth(mon.SellPrice, cur)
	if got, want := v.rowFor(o.Items[2].ID).total.Text, app.FormatMoney(mon.SellPrice, cur)+"/mo"; got != want {
		t.Errorf("the plan's row total %q, want %q", got, want)
	}
	wantOption := "Option total $140.00 · recurring services " + month
	if got := v.cui().optTotal[o.ID].Text; got != wantOption {
		t.Errorf("option total %q, want %q", got, wantOption)
	}
	sum := summaryText(v)
	if !strings.Contains(sum, "Recurring services\n"+month) || strings.Contains(sum, app.FormatMoney(14000+mon.SellPrice, cur)) {
		t.Errorf("summary does not show the plan apart per month:\n%s", sum)
	}

	// The care visit is monthly too: the menu makes it so, and back.
	if was := chooseMenu(t, d, v, "Care visit", recurringMenuLabel); was.Checked {
		t.Fatal("a one-time line's menu shows it recurring")
	}
	both := perMonth(mon.SellPrice+4000, cur)
	if got := v.cui().optTotal[o.ID].Text; got != "Option total $100.00 · recurring services "+both {
		t.Errorf("after making the visit recurring: %q", got)
	}
	if got := rowOfItem(t, v, "Care visit").total.Text; got != "$40.00/mo" {
		t.Errorf("the visit's row total %q", got)
	}
	if was := chooseMenu(t, d, v, "Care visit", recurringMenuLabel); !was.Checked {
		t.Fatal("a recurring line's menu does not show it checked")
	}
	if got := v.cui().optTotal[o.ID].Text; got != wantOption {
		t.Errorf("after making the visit one-time again: %q", got)
	}
	chooseMenu(t, d, v, "Care visit", recurringMenuLabel) // recurring for the exports

	h.sync()
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	if items := sp.Areas[0].Options[0].Items; len(items) != 3 || items[0].IsRecurringService || !items[1].IsRecurringService || !items[2].IsRecurringService {
		t.Fatalf("the server has %+v", items)
	}
	wantRecurring := (mon.SellPrice + 4000).String()

	// items.csv and proposals.csv.
	dir := t.TempDir()
	q := d.list.query
	q.SearchText = name
	if _, err := exportSearch(context.Background(), st, q, app.RoleAdmin, exportCSV, dir, nil); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, filepath.Join(dir, itemsCSV))
	col := colIndex(exportfmt.ItemColumns)
	flags := map[string]string{}
	for _, r := range rows[1:] {
		if r[col["proposalId"]] == fmt.Sprint(id) {
			flags[r[col["name"]]] = r[col["isRecurringService"]]
			if r[col["optionTotal"]] != "100.00" || r[col["optionTotalRecurringService"]] != wantRecurring {
				t.Errorf("items.csv option totals %s and %s, want 100.00 and %s", r[col["optionTotal"]], r[col["optionTotalRecurringService"]], wantRecurring)
			}
		}
	}
	if flags["Rack"] != "false" || flags["Care visit"] != "true" || flags[mon.Name] != "true" {
		t.Errorf("items.csv isRecurringService by name: %v", flags)
	}
	prow := readCSV(t, filepath.Join(dir, proposalsCSV))
	pcol := colIndex(exportfmt.ProposalColumns)
	if len(prow) != 2 || prow[1][pcol["proposalTotal"]] != app.Summarize(&v.p.Document).Total.String() ||
		prow[1][pcol["totalRecurringService"]] != wantRecurring {
		t.Errorf("proposals.csv %v", prow)
	}

	// The client PDF: the plan per month in its own section, out of the
	// option's one-time total.
	pdf := filepath.Join(dir, "client.pdf")
	if err := exportPDF(st, id, 0, app.RoleAdmin, pdfClient, pdf); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(pdfText(t, pdf)), " ")
	for _, want := range []string{"Recurring services (monthly)", month, "$40.00/month", "Recurring total per month " + app.FormatMoney(mon.SellPrice+4000, cur),
		"Option total $100.00", "Recurring services per month " + app.FormatMoney(mon.SellPrice+4000, cur)} {
		if !strings.Contains(text, want) {
			t.Errorf("client PDF lacks %q:\n%s", want, text)
		}
	}
}
