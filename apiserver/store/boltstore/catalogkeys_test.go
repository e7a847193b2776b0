package boltstore

import (
	"bytes"
	"fmt"
	"testing"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// A file of schema v3 keys items without a part number by brand, model
// and name joined with NUL bytes. Opened, it holds app.CatalogKeyOf's
// keys instead, so importing the same rows again updates those items
// rather than adding each a second time.
func TestMigrationRekeysTheCatalog(t *testing.T) {
	f := storetest.NewFixture(t, backend)
	items := []app.CatalogItem{
		{ItemType: app.ItemLabor, Name: "NoPN install hour", SellPrice: 9500},
		{ItemType: app.ItemFee, Brand: "Acme", Model: "T1", Name: "Trip charge", SellPrice: 7500},
		{ItemType: app.ItemPart, Brand: "Sonos", Name: "Arc", PartNumber: "SON-ARC", SellPrice: 99900},
	}
	if rep := storetest.ImportItems(t, f.S, f.A, app.CatalogMerge, items); rep.Added != 3 {
		t.Fatalf("first import %+v", rep)
	}
	s := asSchema(t, f.S, 3, func(btx *bolt.Tx) error {
		keys := btx.Bucket(bAccounts).Bucket(idKey(f.A)).Bucket(bCatalog).Bucket(bCatKeys)
		for i := range items {
			k := []byte(app.CatalogKeyOf(&items[i]))
			id := bytes.Clone(keys.Get(k))
			if id == nil {
				return fmt.Errorf("no key %q", k)
			}
			if err := keys.Delete(k); err != nil {
				return err
			}
			if err := keys.Put([]byte(app.LegacyCatalogKeyOf(&items[i])), id); err != nil {
				return err
			}
		}
		return nil
	})
	err := s.db.View(func(btx *bolt.Tx) error {
		return btx.Bucket(bAccounts).Bucket(idKey(f.A)).Bucket(bCatalog).Bucket(bCatKeys).ForEach(func(k, _ []byte) error {
			if bytes.IndexByte(k, 0) >= 0 {
				t.Errorf("key %q still holds NUL", k)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep := storetest.ImportItems(t, s, f.A, app.CatalogMerge, items); rep.Unchanged != 3 || rep.Added != 0 {
		t.Errorf("import after migration %+v, want 3 unchanged", rep)
	}
}
