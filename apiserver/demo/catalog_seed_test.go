package demo_test

import (
	"context"
	"testing"

	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// TestDemoCatalog checks the contract's demo catalog: at least 20,000
// realistic items in the main account (many brands and categories,
// labor and fees, cost below sell), a small catalog in
// the others, and --demo-catalog growing the main one.
func TestDemoCatalog(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := demo.Seed(ctx, st, demo.Options{Now: seedNow}); err != nil {
		t.Fatal(err)
	}
	main := accountNamed(t, st, demo.MainAccountName)
	items := catalogOf(t, st, main.ID)
	if len(items) < 20_000 {
		t.Fatalf("main catalog has %d items", len(items))
	}
	brands, cats, types := map[string]bool{}, map[int64]bool{}, map[app.ItemType]int{}
	byID := map[int64]app.CatalogItem{}
	for _, it := range items {
		byID[it.ID] = it
	}
	priced, unpriced := 0, 0
	for _, it := range items {
		brands[it.Brand] = true
		cats[it.CategoryID] = true
		types[it.ItemType]++
		if it.IsPackage() {
			// A package without a package price is priced by its items.
			if it.SellPrice > 0 {
				priced++
			} else {
				unpriced++
			}
			for _, c := range it.Components {
				if comp, ok := byID[c.CatalogItemID]; !ok || comp.IsPackage() || c.Quantity <= 0 {
					t.Errorf("package %q: component %+v is %+v", it.Name, c, comp)
				}
			}
			continue
		}
		if it.Name == "" || it.SellPrice <= 0 ||
			(it.Cost != nil && *it.Cost > it.SellPrice) {
			t.Fatalf("implausible item %+v", it)
		}
	}
	if len(brands) < 60 || len(cats) < 25 || types[app.ItemLabor] < 100 || types[app.ItemFee] < 50 || types[app.ItemPart] < 18_000 {
		t.Errorf("%d brands, %d categories, types %v", len(brands), len(cats), types)
	}
	if priced < 6 || unpriced < 4 {
		t.Errorf("%d packages with a package price, %d without; want a dozen of both kinds", priced, unpriced)
	}
	// Growing to 20,500 adds 500 and changes none of the first.
	if _, err := demo.Seed(ctx, st, demo.Options{Now: seedNow, CatalogSize: len(items) + 500}); err != nil {
		t.Fatal(err)
	}
	grown := catalogOf(t, st, main.ID)
	if len(grown) != len(items)+500 {
		t.Fatalf("grown catalog has %d items", len(grown))
	}
	for i := range items {
		if !app.SameCatalogContent(&items[i], &grown[i]) || items[i].ID != grown[i].ID {
			t.Fatalf("item %d changed by growing: %+v -> %+v", i, items[i], grown[i])
		}
	}
}

// catalogOf reads the account's whole catalog in feed order.
func catalogOf(t *testing.T, st store.Store, accountID int64) []app.CatalogItem {
	t.Helper()
	var items []app.CatalogItem
	err := st.View(context.Background(), accountID, func(tx store.Tx) error {
		ch, err := tx.CatalogChanges("", 1<<30)
		items = ch.Items
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return items
}
