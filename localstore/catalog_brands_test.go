package localstore

import (
	"reflect"
	"testing"

	"proposaldesk/app"
)

// The brand filter's choices: each brand once, as written, in catalog
// order; a brand whose last item goes leaves them; items without a
// brand add none.
func TestCatalogBrands(t *testing.T) {
	s := openStore(t, "")
	item := func(id int64, brand, model string) app.CatalogItem {
		return app.CatalogItem{ID: id, ItemType: app.ItemPart, Brand: brand, Model: model, Name: model}
	}
	items := []app.CatalogItem{
		item(1, "Sonos", "Amp"), item(2, "Crestron", "DM-NVX"), item(3, "sonos", "Arc"),
		item(4, "Araknis", "AN-310"), item(5, "", "Install labor"), item(6, "Crestron", "TSW-770"),
	}
	if err := s.ApplyCatalogChanges(ctx, app.CatalogChanges{StoreID: "st", Cursor: "1", Items: items}); err != nil {
		t.Fatal(err)
	}
	got, err := s.CatalogBrands()
	if err != nil {
		t.Fatal(err)
	}
	// Brands compare case-insensitively: "Sonos" and "sonos" are one.
	if want := []string{"Araknis", "Crestron", "Sonos"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("brands %q, want %q", got, want)
	}
	if err := s.ApplyCatalogChanges(ctx, app.CatalogChanges{StoreID: "st", Cursor: "2", DeletedIDs: []int64{4}}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.CatalogBrands()
	if want := []string{"Crestron", "Sonos"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after removing Araknis's only item: %q, want %q", got, want)
	}
}
