package localstore

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// demoCatalog is n generated items with IDs, as the server's feed sends
// them.
func demoCatalog(n int) []app.CatalogItem {
	items := catalogdemo.Generate(n)
	for i := range items {
		items[i].ID = int64(5000 + i*2)
	}
	return items
}

// loadCatalog stores items through the feed in pages of size.
func loadCatalog(t testing.TB, s *Store, storeID string, items []app.CatalogItem, size int) {
	t.Helper()
	for i := 0; i < len(items); i += size {
		page := items[i:min(i+size, len(items))]
		ch := app.CatalogChanges{StoreID: storeID, Cursor: "c" + string(rune('0'+i%10)), Items: page}
		if err := s.ApplyCatalogChanges(ctx, ch); err != nil {
			t.Fatal(err)
		}
	}
}

func catalogIDs(t testing.TB, s *Store, q app.CatalogQuery) ([]int64, int) {
	t.Helper()
	page, n, err := s.SearchCatalog(q)
	if err != nil {
		t.Fatal(err)
	}
	ids := []int64{}
	for _, it := range page {
		ids = append(ids, it.ID)
	}
	return ids, n
}

func TestCatalogFeedAppliesAndSurvivesReopen(t *testing.T) {
	s := openStore(t, "")
	if id, cur, err := s.CatalogCursor(); id != "" || cur != "" || err != nil {
		t.Fatalf("new store cursor %q %q %v", id, cur, err)
	}
	items := demoCatalog(250)
	loadCatalog(t, s, "store-A", items, 100)
	if n, _ := s.CatalogSize(); n != 250 {
		t.Fatalf("%d items", n)
	}
	if _, n := catalogIDs(t, s, app.CatalogQuery{PageNumber: 1, PageSize: 10}); n != 250 {
		t.Fatalf("search counts %d", n)
	}
	// A change and a removal: the index follows at once.
	changed := items[7]
	changed.Name = "Zebra-striped speaker"
	err := s.ApplyCatalogChanges(ctx, app.CatalogChanges{StoreID: "store-A", Cursor: "c99",
		Items: []app.CatalogItem{changed}, DeletedIDs: []int64{items[8].ID}})
	if err != nil {
		t.Fatal(err)
	}
	if ids, n := catalogIDs(t, s, app.CatalogQuery{SearchText: "zebra", PageNumber: 1, PageSize: 10}); n != 1 || ids[0] != changed.ID {
		t.Errorf("search for the changed name: %v", ids)
	}
	if _, ok, _ := s.CatalogItem(items[8].ID); ok {
		t.Error("removed item still there")
	}
	if it, ok, _ := s.CatalogItem(changed.ID); !ok || it.Name != changed.Name {
		t.Errorf("changed item %+v", it)
	}
	s = reopen(t, s)
	if id, cur, _ := s.CatalogCursor(); id != "store-A" || cur != "c99" {
		t.Errorf("cursor after reopen %q %q", id, cur)
	}
	if _, n := catalogIDs(t, s, app.DefaultCatalogQuery()); n != 249 {
		t.Errorf("after reopen %d items", n)
	}
	// Another server store: the old catalog is dropped.
	loadCatalog(t, s, "store-B", items[:3], 10)
	if _, n := catalogIDs(t, s, app.DefaultCatalogQuery()); n != 3 {
		t.Errorf("after a new store ID %d items", n)
	}
}

// TestCatalogSearchEqualsReference compares the offline search with
// app's reference Select over the same items, after changes.
func TestCatalogSearchEqualsReference(t *testing.T) {
	s := openStore(t, "")
	items := demoCatalog(1500)
	loadCatalog(t, s, "st", items, 500)
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 2 {
		if round == 1 { // remove a third, rename some
			var del []int64
			var upd []app.CatalogItem
			for i := range items {
				switch i % 3 {
				case 0:
					del = append(del, items[i].ID)
				case 1:
					items[i].Model += " MK2"
					upd = append(upd, items[i])
				}
			}
			s.ApplyCatalogChanges(ctx, app.CatalogChanges{StoreID: "st", Cursor: "x", Items: upd, DeletedIDs: del})
			items = slices.DeleteFunc(items, func(it app.CatalogItem) bool { return slices.Contains(del, it.ID) })
		}
		entries := make([]app.CatalogEntry, len(items))
		for i := range items {
			entries[i] = app.CatalogEntryOf(&items[i])
		}
		for range 500 {
			e := entries[rng.IntN(len(entries))]
			words := strings.Fields(e.Search)
			q := app.CatalogQuery{SearchText: words[rng.IntN(len(words))], PageNumber: 1 + rng.IntN(2), PageSize: 1 + rng.IntN(25)}
			if rng.IntN(3) == 0 {
				q.SearchText = q.SearchText[:min(len(q.SearchText), 1+rng.IntN(3))]
			}
			if rng.IntN(4) == 0 {
				q.Brands = []string{e.Brand}
			}
			page, count := q.Select(entries)
			want := []int64{}
			for _, e := range page {
				want = append(want, e.ID)
			}
			got, gotCount := catalogIDs(t, s, q)
			if gotCount != count || !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d %+v: local %v (%d), reference %v (%d)", round, q, got, gotCount, want, count)
			}
		}
	}
}

// A store written at schema 2 opens at schema 3 with an empty catalog,
// its proposals kept.
func TestMigrate2To3AddsCatalog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "desk.db")
	old, err := OpenWith(path, Options{schema: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := old.view(func(t2 *txn) error {
		if t2.tx.Bucket(bucketCatalog) != nil {
			t.Error("schema 2 has a catalog bucket")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	old.Close()
	s := openStore(t, path)
	seed(t, s)
	p, err := s.Edit(ctx, 0, &app.CreateProposal{SalesPersonID: sales.ID}, envAt(1, sales))
	if err != nil {
		t.Fatal(err)
	}
	loadCatalog(t, s, "st", demoCatalog(5), 5)
	s = reopen(t, s)
	if _, n := catalogIDs(t, s, app.DefaultCatalogQuery()); n != 5 {
		t.Errorf("catalog after migration: %d", n)
	}
	if _, n, _ := s.Search(app.DefaultListQuery()); n != 1 || p == nil {
		t.Errorf("proposals after migration: %d", n)
	}
}

// An item added from the offline catalog copies the catalog's figures,
// and the edit replays when a newer server copy arrives before it is
// sent (the replay reads the catalog inside its own transaction).
func TestAddFromOfflineCatalogReplays(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	pid := pulled(t, s, f, "Rack room").ID
	sp, err := f.apply(&app.CreateArea{ID: pid, Name: "Den"}, t0, sales)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutServerCopy(ctx, sp); err != nil {
		t.Fatal(err)
	}
	items := demoCatalog(40)
	loadCatalog(t, s, "st", items, 15)
	want := items[7]
	q := app.MustQuantity("2")
	optionID := sp.Areas[0].Options[0].ID
	check := func(when string, p *app.Proposal) {
		t.Helper()
		got := p.Areas[0].Options[0].Items
		if len(got) != 1 || got[0].ReferencedItemID != want.ID || got[0].Model != want.Model ||
			got[0].SellPrice != want.SellPrice || got[0].Quantity != q {
			t.Fatalf("%s: items %+v, want 2 × catalog item %d", when, got, want.ID)
		}
	}
	p, err := s.Edit(ctx, pid, &app.AddItem{ID: pid, OptionID: optionID, CatalogItemID: &want.ID, Quantity: &q}, envAt(1, sales))
	if err != nil {
		t.Fatalf("add from the offline catalog: %v", err)
	}
	check("after the edit", p)

	// A colleague renamed the proposal: the new server copy arrives and
	// the queued add replays on it.
	if sp, err = f.apply(&app.UpdateProposal{ID: pid, Name: strp("Rack room v2")}, t0, sales2); err != nil {
		t.Fatal(err)
	}
	if err := s.PutServerCopy(ctx, sp); err != nil {
		t.Fatal(err)
	}
	rec, err := s.Record(pid)
	if err != nil {
		t.Fatal(err)
	}
	check("after the replay", rec.Local)
	if rec.Local.Name != "Rack room v2" {
		t.Fatalf("replayed on %q", rec.Local.Name)
	}
	pend, err := s.Pending(0)
	if err != nil || len(pend) != 1 || pend[0].State != StatePending {
		t.Fatalf("outbox %+v, %v: want the add still pending", pend, err)
	}
}
