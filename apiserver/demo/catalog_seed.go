package demo

import (
	"context"
	"fmt"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// Demo catalogs: the main account gets MainCatalogSize items (the
// hand-written products the demo proposals use, then generated ones),
// the other accounts a small one of their own. --demo-catalog grows the
// main account's to any size for load tests.

// MainCatalogSize is the main demo account's catalog size at first seed.
const MainCatalogSize = 20_000

// otherCatalogSize is the other demo accounts' catalog size.
const otherCatalogSize = 300

// catalogItems is the first n demo catalog items: the products of the
// demo proposals (in key order, so the list is stable), then generated
// ones. Generated items are the same for every n (a prefix), so growing
// a catalog adds items and changes none.
// A catalog that holds every written product also holds the demo
// packages (catalog_packages.go), after the generated items, which make
// up the rest of the n.
func catalogItems(n int) []app.CatalogItem {
	keys := handWrittenKeys()
	items := make([]app.CatalogItem, 0, n+len(demoPackages))
	at := map[string]int{}
	for _, k := range keys {
		if len(items) == n {
			return items
		}
		p, _ := productOf(k)
		at[k] = len(items)
		items = append(items, catalogItemOf(k, p))
	}
	items = append(items, catalogdemo.Generate(max(0, n-len(items)-len(demoPackages)))...)
	return append(items, packageItems(func(k string) (int, bool) { i, ok := at[k]; return i, ok })...)
}

func catalogItemOf(key string, p product) app.CatalogItem {
	it := app.CatalogItem{ItemType: p.kind, Brand: p.brand, Model: p.model, Name: p.name,
		Description: p.description, Supplier: p.supplier, PartNumber: p.model, CategoryName: "Demo packages",
		IsRecurringService: p.recurring}
	if it.PartNumber == "" {
		it.PartNumber = "DEMO-" + key
	}
	if p.msrp != "" {
		it.MSRP = app.MustMoney(p.msrp)
	}
	it.SellPrice = app.MustMoney(p.sell)
	if p.cost != "" {
		c := app.MustMoney(p.cost)
		it.Cost = &c
	}
	return it
}

// growCatalog merges the first n demo items into the account's catalog
// when it has fewer; items already there are unchanged.
func growCatalog(ctx context.Context, st store.Store, accountID int64, n int) (added int, err error) {
	var have int
	err = st.View(ctx, accountID, func(tx store.Tx) error {
		ch, err := tx.CatalogChanges("", 1)
		have = ch.ItemCount
		return err
	})
	if err != nil || have >= n {
		return 0, err
	}
	rep := app.CatalogImportReport{Mode: app.CatalogMerge}
	err = st.Update(ctx, accountID, func(tx store.Tx) error {
		rep = app.CatalogImportReport{Mode: app.CatalogMerge}
		return tx.ImportCatalog(app.CatalogMerge, app.CatalogRowsOf(catalogItems(n)), &rep)
	})
	if err != nil {
		return 0, fmt.Errorf("demo catalog of account %d: %w", accountID, err)
	}
	return rep.Added, nil
}

// growMainCatalog grows the main demo account's catalog to n items.
func growMainCatalog(ctx context.Context, st store.Store, n int) (int, error) {
	accts, err := st.Auth().Accounts(ctx)
	if err != nil {
		return 0, fmt.Errorf("demo catalog: %w", err)
	}
	for _, a := range accts {
		if a.Name == MainAccountName {
			return growCatalog(ctx, st, a.ID, n)
		}
	}
	return 0, fmt.Errorf("demo catalog: no account named %q", MainAccountName)
}
