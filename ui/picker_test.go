package ui

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/apiserver"
	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

var catalogOnce sync.Once

// importCatalog gives the shared server's account a demo catalog of 400
// items, once per process; it reports whether this call imported it.
func importCatalog(t *testing.T, h *harness) (first bool) {
	t.Helper()
	catalogOnce.Do(func() {
		first = true
		var csv bytes.Buffer
		if err := catalogdemo.WriteCSV(&csv, catalogdemo.Generate(400)); err != nil {
			t.Fatal(err)
		}
		if _, err := apiserver.ImportCatalog(bg, h.srv.Store, h.srv.AccountID, app.CatalogMerge, &csv); err != nil {
			t.Fatalf("import the catalog: %v", err)
		}
	})
	return first
}

func pressKey(e *pickerEntry, k fyne.KeyName) { e.TypedKey(&fyne.KeyEvent{Name: k}) }

// openPickerOf taps the option's Add item… and returns the picker.
func openPickerOf(t *testing.T, v *proposalView, option int) *catalogPicker {
	t.Helper()
	before := v.cui().picker
	test.Tap(tipButtons(v.body, "Add item…")[option])
	p := v.cui().picker
	if p == nil || p == before || v.d.dlg != p.dlg {
		t.Fatal("Add item… opened no picker")
	}
	if v.d.win.Canvas().Focused() != p.search {
		t.Fatal("the picker's search box does not have the keys")
	}
	return p
}

// A salesperson adds from the catalog with the keyboard only: types part
// of a model, arrows down to the one wanted, types a quantity, Enter;
// the item is in the option at that quantity with the catalog's price,
// the option total follows, the picker stays open for the next, and the
// server has it after a sync. Filters narrow, a bad quantity is refused
// in words, and Esc closes.
func TestCatalogPickerAddsByKeyboard(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v, id := h.contentFixture(runName("Picker"), nil, nil)
	if importCatalog(t, h) {
		// The laptop has no catalog until the next sync: the picker says so.
		p := openPickerOf(t, v, 0)
		if !strings.Contains(p.status.Text, "not on this computer yet") || !p.add.Disabled() {
			t.Fatalf("empty catalog: status %q, Add disabled %v", p.status.Text, p.add.Disabled())
		}
		pressKey(p.search, fyne.KeyEscape)
	}
	h.sync()
	v = d.detail
	st := d.sess.st

	// The item to add: the fifth Sonos item in catalog order, found by
	// part of its model.
	sonos, _, err := st.SearchCatalog(app.CatalogQuery{Brands: []string{"Sonos"}, PageNumber: 1, PageSize: 50})
	if err != nil || len(sonos) < 5 {
		t.Fatalf("local catalog: %d Sonos items, %v", len(sonos), err)
	}
	p := openPickerOf(t, v, 0)
	if p.count < 400 || len(p.results) != pickerPageSize || p.sel != 0 {
		t.Fatalf("opened: %d matches, %d listed, chosen %d", p.count, len(p.results), p.sel)
	}
	test.Type(p.search, "sono")
	want := sonos[4]
	at := -1
	for i, it := range p.results {
		if !strings.Contains(strings.ToLower(catalogItemName(&it)), "sono") {
			t.Fatalf("%q listed for \"sono\"", catalogItemName(&it))
		}
		if it.ID == want.ID && at < 0 {
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("%q not listed for \"sono\"", catalogItemName(&want))
	}
	pressKey(p.search, fyne.KeyUp) // already first: stays
	for range at {
		pressKey(p.search, fyne.KeyDown)
	}
	if p.sel != at {
		t.Fatalf("after %d ↓ the choice is %d", at, p.sel)
	}
	d.win.Canvas().Focus(p.qty)
	p.qty.TypedShortcut(&fyne.ShortcutSelectAll{})
	test.Type(p.qty, "3")
	pressKey(p.qty, fyne.KeyReturn)

	o := v.p.Areas[0].Options[0]
	if len(o.Items) != 1 {
		t.Fatalf("option has %d items after Enter, want 1 (status %q, qty %q, chosen %d)", len(o.Items), p.status.Text, p.qty.Text, p.sel)
	}
	it := o.Items[0]
	if it.ReferencedItemID != want.ID || it.Quantity != app.MustQuantity("3") || it.SellPrice != want.SellPrice || it.Model != want.Model {
		t.Fatalf("added %+v, want 3 × catalog item %d at %s", it, want.ID, want.SellPrice)
	}
	total := app.FormatMoney(want.SellPrice*3, v.p.Currency)
	if got := v.cui().optTotal[o.ID].Text; !strings.Contains(got, total) {
		t.Fatalf("option total %q, want %s", got, total)
	}
	if d.dlg != p.dlg || d.win.Canvas().Focused() != p.search || !strings.Contains(p.status.Text, "Added 3 × "+want.Brand) ||
		!strings.Contains(p.status.Text, total) {
		t.Fatalf("after adding: picker open %v, status %q", d.dlg == p.dlg, p.status.Text)
	}

	// Filters narrow to their type and brand.
	p.search.SetText("")
	p.typ.SetSelected(string(app.ItemLabor))
	if p.count == 0 || p.count >= 400 {
		t.Fatalf("Labor: %d matches", p.count)
	}
	for _, it := range p.results {
		if it.ItemType != app.ItemLabor {
			t.Fatalf("Labor filter lists %s %q", it.ItemType, it.Name)
		}
	}
	p.typ.SetSelected(allTypes)
	p.brand.SetSelected("Sonos")
	if len(p.results) == 0 {
		t.Fatal("the Sonos filter lists nothing")
	}
	for _, it := range p.results {
		if it.Brand != "Sonos" {
			t.Fatalf("Sonos filter lists %q", catalogItemName(&it))
		}
	}

	// A bad quantity is refused in words; nothing is added.
	p.qty.SetText("0")
	pressKey(p.search, fyne.KeyReturn)
	if !strings.Contains(p.status.Text, "Quantity") || len(v.p.Areas[0].Options[0].Items) != 1 {
		t.Fatalf("quantity 0: status %q, %d items", p.status.Text, len(v.p.Areas[0].Options[0].Items))
	}
	// Nothing matches: said, and Enter adds nothing.
	p.qty.SetText("1")
	p.search.SetText("zzqx no such thing")
	pressKey(p.search, fyne.KeyReturn)
	if !strings.Contains(p.status.Text, "No catalog item matches") || !p.add.Disabled() || len(v.p.Areas[0].Options[0].Items) != 1 {
		t.Fatalf("no match: status %q, Add disabled %v", p.status.Text, p.add.Disabled())
	}
	pressKey(p.search, fyne.KeyEscape)
	if d.dlg != nil {
		t.Fatal("Esc did not close the picker")
	}

	h.sync()
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	if items := sp.Areas[0].Options[0].Items; len(items) != 1 || items[0].ReferencedItemID != want.ID || items[0].Quantity != app.MustQuantity("3") {
		t.Fatalf("server has %+v", items)
	}
}

func TestCatalogItemName(t *testing.T) {
	for _, c := range []struct {
		brand, model, name, want string
	}{
		{"Sonos", "AMP-1010A", "Sonos 16 Ch Amplifier", "Sonos AMP-1010A — 16 Ch Amplifier"},
		{"Crestron", "TSW-770", "7 in. Touch Screen", "Crestron TSW-770 — 7 in. Touch Screen"},
		{"", "", "Install labor", "Install labor"},
		{"", "LAB-1", "Install labor", "LAB-1 — Install labor"},
		{"Sonos", "Arc", "Arc", "Sonos Arc"},
		{"Sonos", "Arc", "", "Sonos Arc"},
		{"Sonos", "Sub", "Sonoscape Sub", "Sonos Sub — Sonoscape Sub"},
	} {
		it := app.CatalogItem{Brand: c.brand, Model: c.model, Name: c.name}
		if got := catalogItemName(&it); got != c.want {
			t.Errorf("%q %q %q: %q, want %q", c.brand, c.model, c.name, got, c.want)
		}
	}
}
