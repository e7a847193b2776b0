package storetest

import (
	"slices"
	"testing"

	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// testCatalogPackages: a package's components are kept as the IDs of
// the items they name, also when the package comes before them in the
// file and they are new; the item, the search and the changes feed
// carry them; importing the same file again changes nothing.
func testCatalogPackages(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	parts := catalogdemo.Generate(4)
	pkg := app.CatalogItem{ItemType: app.ItemPart, Name: "5.1 Theater package", PartNumber: "PKG-THEATER", SellPrice: app.MustMoney("1999.00"),
		// CatalogRowsOf: positions in the list, plus 1 (the package is first).
		Components: []app.CatalogComponent{{CatalogItemID: 2, Quantity: app.OneUnit}, {CatalogItemID: 4, Quantity: app.MustQuantity("2")}}}
	items := append([]app.CatalogItem{pkg}, parts...)
	if rep := ImportItems(t, f.S, f.A, app.CatalogMerge, items); rep.Added != 5 {
		t.Fatalf("first import %+v", rep)
	}
	got, ok := itemByPart(t, f.S, f.A, "PKG-THEATER")
	if !ok {
		t.Fatal("package not stored")
	}
	a, _ := itemByPart(t, f.S, f.A, parts[0].PartNumber)
	b, _ := itemByPart(t, f.S, f.A, parts[2].PartNumber)
	want := []app.CatalogComponent{{CatalogItemID: a.ID, Quantity: app.OneUnit}, {CatalogItemID: b.ID, Quantity: app.MustQuantity("2")}}
	if a.ID == 0 || b.ID == 0 || !slices.Equal(got.Components, want) {
		t.Fatalf("components %+v, want %+v", got.Components, want)
	}
	if a.IsPackage() {
		t.Errorf("a component is a package: %+v", a)
	}
	ch := changesAll(t, f.S, f.A, "", 2)
	i := slices.IndexFunc(ch.Items, func(it app.CatalogItem) bool { return it.ID == got.ID })
	if i < 0 || !slices.Equal(ch.Items[i].Components, want) {
		t.Errorf("changes feed: package at %d, %+v", i, ch.Items)
	}
	if rep := ImportItems(t, f.S, f.A, app.CatalogMerge, items); rep.Unchanged != 5 {
		t.Errorf("the same file again: %+v, want every row unchanged", rep)
	}
	// A package's components change with the file.
	items[0].Components = items[0].Components[:1]
	if rep := ImportItems(t, f.S, f.A, app.CatalogMerge, items); rep.Updated != 1 || rep.Unchanged != 4 {
		t.Errorf("one component fewer: %+v", rep)
	}
	if got, _ := itemByPart(t, f.S, f.A, "PKG-THEATER"); !slices.Equal(got.Components, want[:1]) {
		t.Errorf("after the change: %+v", got.Components)
	}
}
