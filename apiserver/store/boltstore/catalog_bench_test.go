package boltstore

import (
	"testing"

	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// BenchmarkImportCatalog20k is the demo seed's catalog: 20,000 new items
// in one transaction (fsync on).
func BenchmarkImportCatalog20k(b *testing.B) {
	items := catalogdemo.Generate(20_000)
	for b.Loop() {
		b.StopTimer()
		f := newFixture(b)
		b.StartTimer()
		storetest.ImportItems(b, f.S, f.A, app.CatalogMerge, items)
	}
}

// BenchmarkCatalogSearch100k is one search page of 10 over 100,000 items
// in a read transaction, with the index built.
func BenchmarkCatalogSearch100k(b *testing.B) {
	f := newFixture(b)
	storetest.ImportItems(b, f.S, f.A, app.CatalogMerge, catalogdemo.Generate(100_000))
	for _, text := range []string{"", "so", "sonos amp", "cat6", "lab-install"} {
		q := app.CatalogQuery{SearchText: text, PageNumber: 1, PageSize: 10}
		storetest.SearchIDs(b, f.S, f.A, q) // builds the index
		b.Run(text, func(b *testing.B) {
			for b.Loop() {
				storetest.SearchIDs(b, f.S, f.A, q)
			}
		})
	}
}
