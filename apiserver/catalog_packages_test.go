package apiserver

import (
	"bytes"
	"strings"
	"testing"

	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// Catalog packages over the API: imported from CSV (Components column),
// carried by the item and the changes feed, and added to an option in
// one request that nests the components under the package line.

// packagesCSV adds two packages to testCatalog's items; the first names
// an item that comes after it in the file.
const packagesCSV = `ItemType,Name,SellPrice,Cost,PartNumber,Components
Part,5.1 Sonos theater,2999,2100,PKG-THEATER,SON-ARC:1; SON-AMP:2; PLATE-9:4
Part,Whole-home audio (priced per item),0,,PKG-AUDIO,son-amp:3;LAB-INSTALL:2.5
Part,Wall plate,9.50,2,PLATE-9,
`

func TestCatalogPackagesAPI(t *testing.T) {
	e := newEnv(t)
	a := e.main
	var rep app.CatalogImportReport
	res := e.postCSV(a.admin, "/public/catalog/import", packagesCSV)
	if res.json(t, &rep); res.status != 200 || rep.Added != 3 {
		t.Fatalf("import: %d %s", res.status, res.body)
	}
	find := func(pn string) app.CatalogItem {
		t.Helper()
		var r app.CatalogResponse
		e.get(a.sales, "/public/catalog?SearchText="+pn).json(t, &r)
		for _, it := range r.Items {
			if it.PartNumber == pn {
				var full app.CatalogItem
				e.get(a.sales, pathf("/public/catalog/%d", it.ID)).json(t, &full)
				return full
			}
		}
		t.Fatalf("no catalog item %s", pn)
		return app.CatalogItem{}
	}
	theater, amp, arc, plate := find("PKG-THEATER"), find("SON-AMP"), find("SON-ARC"), find("PLATE-9")
	want := []app.CatalogComponent{{CatalogItemID: arc.ID, Quantity: app.OneUnit}, {CatalogItemID: amp.ID, Quantity: app.MustQuantity("2")},
		{CatalogItemID: plate.ID, Quantity: app.MustQuantity("4")}}
	if !equalComponents(theater.Components, want) {
		t.Fatalf("package item's components %+v, want %+v", theater.Components, want)
	}
	// The raw JSON names the field as the contract does.
	if body := e.get(a.sales, pathf("/public/catalog/%d", theater.ID)).body; !strings.Contains(string(body), `"components":[{"catalogItemId":`) {
		t.Errorf("item JSON %s", body)
	}
	var ch app.CatalogChanges
	e.get(a.sales, "/public/catalog/changes").json(t, &ch)
	found := false
	for _, it := range ch.Items {
		found = found || it.ID == theater.ID && equalComponents(it.Components, want)
	}
	if !found {
		t.Errorf("changes feed lacks the package's components")
	}

	// Added to an option: one request, the package line and its
	// components nested under it; the package price is a combined price.
	var d app.ProposalDetail
	res = e.postJSON(a.sales, pathf("/public/proposals/%d/area-options/%d/items", a.draft, a.option), pathf(`{"CatalogItemId":%d,"Quantity":2}`, theater.ID))
	if res.json(t, &d); res.status != 200 {
		t.Fatalf("add package: %d %s", res.status, res.body)
	}
	items := d.Areas[0].Options[0].Items
	if len(items) != 5 {
		t.Fatalf("%d items after adding the package, want the speaker, the package and 3 components", len(items))
	}
	pkg := items[1]
	if !pkg.Total.IsCombinedPrice || pkg.Total.Amount != app.MustMoney("5998.00") || pkg.ReferencedItemID != app.NullID(theater.ID) {
		t.Errorf("package line %+v", pkg)
	}
	for i, wantQty := range []string{"2", "4", "8"} {
		c := items[2+i]
		if c.ParentID != app.NullID(pkg.ID) || c.Quantity != app.MustQuantity(wantQty) || c.Total.Amount != 0 {
			t.Errorf("component %d: %+v, want nested under %d, quantity %s, no price of its own", i, c, pkg.ID, wantQty)
		}
	}
	// A package cannot be nested; a package in a package is refused at
	// import.
	wantError(t, e.postJSON(a.sales, pathf("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
		pathf(`{"CatalogItemId":%d,"ParentId":%d}`, theater.ID, a.item)), 400, app.KindValidationFailed)

	bad := "ItemType,Name,SellPrice,PartNumber,Components\n" +
		"Part,Nested,1,PKG-N,PKG-THEATER:1\n" + // a package of the catalog
		"Part,Loop,1,PKG-L,pkg-l:1\n" + // itself
		"Part,Ghost,1,PKG-G,NOPE-1:1;SON-ARC:0\n" + // missing; quantity 0
		"Part,Twice,1,PKG-T,SON-ARC;son-arc:2\n" +
		"Part,Inner,1,PKG-I,SON-ARC\n" +
		"Part,Outer,1,PKG-O,PKG-I:1\n" // a package of the file
	b := wantError(t, e.postCSV(a.admin, "/public/catalog/import", bad), 400, app.KindValidationFailed)
	var got []string
	for _, f := range b.ResponseStatus.Errors {
		got = append(got, f.FieldName+": "+f.Message)
	}
	wantRows := []string{
		`line 3: Components lists the item itself; a package cannot contain itself`,
		`line 4: Components "SON-ARC:0": the quantity after the colon must be above 0 and at most 1000000 with at most 4 decimals`,
		`line 5: Components "son-arc" is listed twice; give it one quantity`,
		`line 2: Components: "PKG-THEATER" is a package itself; packages do not nest`,
		`line 7: Components: "PKG-I" is a package itself; packages do not nest`,
	}
	if strings.Join(got, "\n") != strings.Join(wantRows, "\n") {
		t.Errorf("rejected rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantRows, "\n"))
	}
	// In a replace, components must be in the file.
	b = wantError(t, e.postCSV(a.admin, "/public/catalog/import?Mode=Replace&ConfirmRemoval=true",
		"ItemType,Name,SellPrice,PartNumber,Components\nPart,Kit,1,PKG-K,SON-ARC:1\n"), 400, app.KindValidationFailed)
	if len(b.ResponseStatus.Errors) != 1 || !strings.Contains(b.ResponseStatus.Errors[0].Message, "not a part number of the file") {
		t.Errorf("replace naming an item outside the file: %+v", b.ResponseStatus.Errors)
	}
	missing := wantError(t, e.postCSV(a.admin, "/public/catalog/import",
		"ItemType,Name,SellPrice,PartNumber,Components\nPart,Kit,1,PKG-K,NOPE-9\n"), 400, app.KindValidationFailed)
	if len(missing.ResponseStatus.Errors) != 1 || !strings.Contains(missing.ResponseStatus.Errors[0].Message, `"NOPE-9" is not a part number of the file or the catalog`) {
		t.Errorf("missing component: %+v", missing.ResponseStatus.Errors)
	}
}

// The CSV written by catalogdemo.WriteCSV reads back with the same
// packages.
func TestCatalogPackagesCSVRoundTrip(t *testing.T) {
	e := newEnv(t)
	a := e.main
	e.postCSV(a.admin, "/public/catalog/import", packagesCSV)
	var ch app.CatalogChanges
	e.get(a.admin, "/public/catalog/changes").json(t, &ch)
	var buf bytes.Buffer
	if err := catalogdemo.WriteCSV(&buf, ch.Items); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "SON-ARC:1;SON-AMP:2;PLATE-9:4") {
		t.Errorf("written CSV:\n%s", buf.String())
	}
	other := e.other
	var rep app.CatalogImportReport
	res := e.postCSV(other.admin, "/public/catalog/import?Mode=Replace&ConfirmRemoval=true", buf.String())
	if res.json(t, &rep); res.status != 200 {
		t.Fatalf("import of the written file: %d %s", res.status, res.body)
	}
	var back app.CatalogChanges
	e.get(other.admin, "/public/catalog/changes").json(t, &back)
	pnOf := func(items []app.CatalogItem) map[int64]string {
		m := map[int64]string{}
		for _, it := range items {
			m[it.ID] = it.PartNumber
		}
		return m
	}
	describe := func(items []app.CatalogItem) map[string]string {
		pn := pnOf(items)
		out := map[string]string{}
		for _, it := range items {
			var parts []string
			for _, c := range it.Components {
				parts = append(parts, pn[c.CatalogItemID]+"×"+c.Quantity.String())
			}
			out[it.PartNumber] = strings.Join(parts, ",")
		}
		return out
	}
	x, y := describe(ch.Items), describe(back.Items)
	if len(x) != len(y) || x["PKG-THEATER"] == "" {
		t.Fatalf("round trip: %v\nback: %v", x, y)
	}
	for k, v := range x {
		if y[k] != v {
			t.Errorf("%s: %q, read back %q", k, v, y[k])
		}
	}
}

func equalComponents(a, b []app.CatalogComponent) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
