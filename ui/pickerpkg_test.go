package ui

// (The file sorts after picker_test.go: its import of packages must not
// come before that test sees a laptop without a catalog.)

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/apiserver"
	"proposaldesk/app"
	"proposaldesk/app/exportfmt"
)

var packagesOnce sync.Once

// uiPackagesCSV is a small catalog of two packages of three parts and a
// monthly plan, one with a package price and one priced by its items.
const uiPackagesCSV = `ItemType,Brand,Name,PartNumber,SellPrice,Cost,IsRecurringService,Components
Part,Acme,Acme soundbar,UIPK-BAR,900,600,,
Part,Acme,Acme subwoofer,UIPK-SUB,700,450,,
Part,Acme,Acme rear speaker,UIPK-REAR,250,160,,
Fee,,Uipk care plan (monthly),UIPK-CARE,15,,true,
Part,,Uipk theater kit,UIPK-THEATER,1999,1300,,UIPK-BAR:1;UIPK-SUB:1;UIPK-REAR:2;UIPK-CARE
Part,,Uipk audio zone,UIPK-ZONE,0,,,UIPK-REAR:2;UIPK-SUB:1
`

// importPackages merges uiPackagesCSV into the shared server's catalog,
// once per process.
func importPackages(t *testing.T, h *harness) {
	t.Helper()
	packagesOnce.Do(func() {
		rep, err := apiserver.ImportCatalog(bg, h.srv.Store, h.srv.AccountID, app.CatalogMerge, strings.NewReader(uiPackagesCSV))
		if err != nil || !rep.Applied {
			t.Fatalf("import the packages: %v %+v", err, rep)
		}
	})
}

// pendingCount is the number of edits waiting to be sent.
func pendingCount(t *testing.T, d *Desktop) int {
	t.Helper()
	es, err := d.sess.st.Pending(0)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// firstOptionItems is the first option's items as the view has them.
func firstOptionItems(v *proposalView) []app.Item { return v.p.Areas[0].Options[0].Items }

// checkPackageLine checks that items hold one package line of catalog
// item pkg with n items nested under it, each with a row on screen, and
// returns the line.
func checkPackageLine(t *testing.T, v *proposalView, pkg int64, n int) app.Item {
	t.Helper()
	var line app.Item
	nested := 0
	for _, it := range firstOptionItems(v) {
		if it.ReferencedItemID == pkg && it.ParentID == 0 {
			line = it
		}
	}
	for _, it := range firstOptionItems(v) {
		if line.ID != 0 && it.ParentID == line.ID {
			nested++
			if v.rowFor(it.ID) == nil {
				t.Errorf("nested %q has no row on screen", it.Name)
			}
		}
	}
	if line.ID == 0 || nested != n || v.rowFor(line.ID) == nil {
		t.Fatalf("option items %+v: want package %d with %d nested", firstOptionItems(v), pkg, n)
	}
	return line
}

// A package in the picker: its row says "Package · 3 items", the
// highlighted package lists its contents, Enter adds the package line
// with its items nested under it as one edit, Ctrl+Z removes it all as
// one edit; offline the same, and the server gets it on the next sync.
func TestPickerAddsPackage(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleAdmin) // an Admin also exports
	name := runName("Packages")
	_, id := h.contentFixture(name, nil, nil)
	importPackages(t, h)
	h.sync()
	v := d.detail
	st := d.sess.st
	find := func(pn string) app.CatalogItem {
		found, _, err := st.SearchCatalog(app.CatalogQuery{SearchText: pn, PageNumber: 1, PageSize: 5})
		if err != nil || len(found) == 0 || found[0].PartNumber != pn {
			t.Fatalf("%s not in the local catalog: %v %v", pn, found, err)
		}
		return found[0]
	}
	theater, zone := find("UIPK-THEATER"), find("UIPK-ZONE")
	if len(theater.Components) != 4 {
		t.Fatalf("the laptop's copy of the package has components %+v", theater.Components)
	}

	p := openPickerOf(t, v, 0)
	test.Type(p.search, "uipk theater")
	if len(p.results) == 0 || p.results[0].ID != theater.ID || p.sel != 0 {
		t.Fatalf("search lists %v", p.results)
	}
	row := newPickerRow()
	showPickerRow(row, &p.results[0], v.p.Currency)
	if got := row.(*fyne.Container).Objects[1].(*widget.Label).Text; !strings.HasPrefix(got, "Package · 4 items · UIPK-THEATER") {
		t.Errorf("package row says %q", got)
	}
	if !p.contents.Visible() || p.contents.Text != "Contains: 1 × Acme — soundbar · 1 × Acme — subwoofer · 2 × Acme — rear speaker · 1 × Uipk care plan (monthly) (package price $1,999.00)" {
		t.Errorf("contents line (shown %v): %q", p.contents.Visible(), p.contents.Text)
	}
	if !strings.Contains(texts(d.win.Canvas().Overlays().Top()), "Contains: 1 × Acme") {
		t.Error("the contents line is not in the picker")
	}

	before := pendingCount(t, d)
	pressKey(p.qty, fyne.KeyReturn)
	line := checkPackageLine(t, v, theater.ID, 4)
	if !line.IsCombinedPrice || line.SellPrice != app.MustMoney("1999") {
		t.Errorf("package line %+v, want a combined price of 1,999.00", line)
	}
	if n := pendingCount(t, d); n != before+1 {
		t.Errorf("%d edits queued by adding a package, want 1", n-before)
	}
	if !strings.Contains(p.status.Text, "with 4 items nested under it") || p.undo.Disabled() {
		t.Errorf("status %q, Undo add disabled %v", p.status.Text, p.undo.Disabled())
	}
	total := app.FormatMoney(app.MustMoney("1999"), v.p.Currency)
	if got := v.cui().optTotal[v.p.Areas[0].Options[0].ID].Text; !strings.Contains(got, total) {
		t.Errorf("option total %q, want %s", got, total)
	}
	// The package line shows its price; its one-time items say they are
	// included (not "$0.00"), the care plan its monthly price.
	for _, it := range firstOptionItems(v) {
		want := "included"
		switch {
		case it.ID == line.ID:
			want = total
		case it.IsRecurringService:
			want = "/mo"
		}
		if got := v.rowFor(it.ID).total.Text; !strings.Contains(got, want) {
			t.Errorf("%s shows %q, want %q", it.Name, got, want)
		}
	}

	// One Ctrl+Z removes the package and its items, as one edit.
	p.search.TypedShortcut(&fyne.ShortcutUndo{})
	if items := firstOptionItems(v); len(items) != 0 {
		t.Fatalf("after Ctrl+Z the option holds %+v", items)
	}
	if n := pendingCount(t, d); n != before+2 {
		t.Errorf("%d edits queued by add and undo, want 2", n-before)
	}
	if !p.undo.Disabled() || !strings.HasPrefix(p.status.Text, "Removed ") {
		t.Errorf("after undo: status %q, Undo add disabled %v", p.status.Text, p.undo.Disabled())
	}
	// Added again and synced: the server has the package and its items.
	pressKey(p.search, fyne.KeyReturn)
	pressKey(p.search, fyne.KeyEscape)
	h.sync()
	v = d.detail
	line = checkPackageLine(t, v, theater.ID, 4)
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	if items := sp.Areas[0].Options[0].Items; len(items) != 5 || items[0].ID != line.ID || !items[0].IsCombinedPrice ||
		items[1].ParentID != line.ID || items[3].Quantity != app.MustQuantity("2") || items[3].SellPrice != 0 {
		t.Fatalf("the server has %+v", items)
	}

	// Offline: a package added and one undone, then synced.
	h.gate.down.Store(true)
	p = openPickerOf(t, v, 0)
	test.Type(p.search, "UIPK-ZONE")
	d.win.Canvas().Focus(p.qty)
	p.qty.TypedShortcut(&fyne.ShortcutSelectAll{})
	test.Type(p.qty, "2")
	pressKey(p.qty, fyne.KeyReturn)
	zl := checkPackageLine(t, v, zone.ID, 2)
	if !app.IsTemporaryID(zl.ID) || zl.IsCombinedPrice || zl.SellPrice != 0 {
		t.Errorf("offline package line %+v: want a temporary ID, no price of its own", zl)
	}
	test.Type(p.search, "UIPK-ZONE") // the search was selected: typing replaces it
	pressKey(p.search, fyne.KeyReturn)
	if n := len(firstOptionItems(v)); n != 11 {
		t.Fatalf("%d items after the second offline add, want 11", n)
	}
	test.Tap(p.undo)
	if n := len(firstOptionItems(v)); n != 8 {
		t.Fatalf("%d items after Undo add offline, want 8", n)
	}
	pressKey(p.search, fyne.KeyEscape)
	h.gate.down.Store(false)
	h.sync()
	v = d.detail
	zl = checkPackageLine(t, v, zone.ID, 2)
	sp, err = h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	items := sp.Areas[0].Options[0].Items
	if len(items) != 8 || items[5].ID != zl.ID || items[6].ParentID != zl.ID || items[7].ParentID != zl.ID ||
		items[6].Quantity != app.MustQuantity("4") || items[6].SellPrice != app.MustMoney("250") || items[7].Quantity != app.MustQuantity("2") {
		t.Fatalf("the server has %+v", items)
	}
	for _, it := range firstOptionItems(v) {
		if app.IsTemporaryID(it.ID) || app.IsTemporaryID(it.ParentID) {
			t.Errorf("after the sync the laptop still has temporary IDs: %+v", it)
		}
	}
	if n := pendingCount(t, d); n != 0 {
		t.Errorf("%d edits still queued after the sync", n)
	}
	checkPackageExports(t, d, name, id)

	// On the proposal, the package line's ✕ takes its items along, and
	// one Undo brings them all back.
	test.Tap(rowOfItem(t, v, "Uipk theater kit").remove)
	pend := v.cui().pending
	if n := len(firstOptionItems(v)); n != 3 || pend == nil || pend.text != "Removed “Uipk theater kit” and 4 items nested under it." {
		t.Fatalf("after ✕ on the package: %d items, pending %+v", n, pend)
	}
	test.Tap(pend.undo)
	checkPackageLine(t, v, theater.ID, 4)
	if n := len(firstOptionItems(v)); n != 8 {
		t.Errorf("%d items after Undo, want 8", n)
	}
}

// checkPackageExports reads the proposal's items.csv and client PDF: the
// priced package is one combined price with its one-time items
// "included" and its monthly plan per month; the unpriced one costs
// nothing and its items are priced.
func checkPackageExports(t *testing.T, d *Desktop, name string, id int64) {
	t.Helper()
	st := d.sess.st
	dir := t.TempDir()
	q := d.list.query
	q.SearchText = name
	if _, err := exportSearch(context.Background(), st, q, app.RoleAdmin, exportCSV, dir, nil); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, filepath.Join(dir, itemsCSV))
	col := colIndex(exportfmt.ItemColumns)
	var got []string
	ids := map[string]string{}
	for _, r := range rows[1:] {
		if r[col["proposalId"]] != fmt.Sprint(id) {
			continue
		}
		ids[r[col["itemId"]]] = r[col["name"]]
		got = append(got, fmt.Sprintf("%s|%s|%s|%s|%s|%s", r[col["name"]], ids[r[col["parentId"]]], r[col["quantity"]],
			r[col["total"]], r[col["isCombinedPrice"]], r[col["isRecurringService"]]))
		if r[col["optionTotal"]] != "4399.00" || r[col["optionTotalRecurringService"]] != "15.00" {
			t.Errorf("items.csv option totals %s and %s, want 4399.00 and 15.00", r[col["optionTotal"]], r[col["optionTotalRecurringService"]])
		}
	}
	want := []string{
		"Uipk theater kit||1|1999.00|true|false",
		"Acme soundbar|Uipk theater kit|1|0.00|false|false",
		"Acme subwoofer|Uipk theater kit|1|0.00|false|false",
		"Acme rear speaker|Uipk theater kit|2|0.00|false|false",
		"Uipk care plan (monthly)|Uipk theater kit|1|15.00|false|true",
		"Uipk audio zone||2|0.00|false|false",
		"Acme rear speaker|Uipk audio zone|4|1000.00|false|false",
		"Acme subwoofer|Uipk audio zone|2|1400.00|false|false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("items.csv rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	pdf := filepath.Join(dir, "client.pdf")
	if err := exportPDF(st, id, 0, app.RoleAdmin, pdfClient, pdf); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(pdfText(t, pdf)), " ")
	for _, want := range []string{
		"Uipk theater kit", "$1,999.00 $1,999.00", "Acme soundbar", "included",
		"Uipk care plan (monthly)", "$15.00 $15.00/month",
		"Uipk audio zone", "$1,000.00", "$1,400.00", "Option total $4,399.00", "Recurring services per month $15.00",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("client PDF lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "included"); n != 4 {
		t.Errorf("client PDF says \"included\" %d times, want 4 (the option's heading and the theater's one-time items):\n%s", n, text)
	}
}
