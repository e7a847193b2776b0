package storetest

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// The catalog's storage: import (merge, replace, all or nothing), search
// equal to app.CatalogQuery's reference, the changes feed, scoping.

// ImportItems imports items into the account and returns the report. A
// Replace is confirmed: it may remove any share of the catalog.
func ImportItems(t testing.TB, s store.Store, acct int64, mode app.CatalogImportMode, items []app.CatalogItem) app.CatalogImportReport {
	t.Helper()
	rep := app.CatalogImportReport{Mode: mode, ConfirmRemoval: true}
	err := s.Update(ctx, acct, func(tx store.Tx) error {
		return tx.ImportCatalog(mode, app.CatalogRowsOf(items), &rep)
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func SearchIDs(t testing.TB, s store.Store, acct int64, q app.CatalogQuery) ([]int64, int) {
	t.Helper()
	var ids []int64
	var count int
	err := s.View(ctx, acct, func(tx store.Tx) error {
		page, n, err := tx.SearchCatalog(q)
		for _, it := range page {
			ids = append(ids, it.ID)
		}
		count = n
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids, count
}

func testCatalogImportMergeReplaceAndFeed(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	items := catalogdemo.Generate(50)
	rep := ImportItems(t, f.S, f.A, app.CatalogMerge, items)
	if rep.Added != 50 || rep.Updated+rep.Unchanged+rep.Deleted != 0 {
		t.Fatalf("first import %+v", rep)
	}
	ids, count := SearchIDs(t, f.S, f.A, app.CatalogQuery{PageNumber: 1, PageSize: 200})
	if count != 50 || len(ids) != 50 {
		t.Fatalf("search after import: %d items, count %d", len(ids), count)
	}
	feed := changesAll(t, f.S, f.A, "", 7)
	if len(feed.Items) != 50 || len(feed.DeletedIDs) != 0 || feed.ItemCount != 50 {
		t.Fatalf("feed: %d items, %d deleted, count %d", len(feed.Items), len(feed.DeletedIDs), feed.ItemCount)
	}
	cursor := feed.Cursor

	// Merge: one changed price, one new item; the rest unchanged. The
	// changed item was on a search page before.
	if _, ok := itemByPart(t, f.S, f.A, items[3].PartNumber); !ok {
		t.Fatalf("item %s not found", items[3].PartNumber)
	}
	changed := slices.Clone(items[:10])
	changed[3].SellPrice += 100
	changed = append(changed, app.CatalogItem{ItemType: app.ItemFee, Name: "New fee", PartNumber: "FEE-NEW", SellPrice: 500})
	rep = ImportItems(t, f.S, f.A, app.CatalogMerge, changed)
	if rep.Added != 1 || rep.Updated != 1 || rep.Unchanged != 9 || rep.Deleted != 0 {
		t.Fatalf("merge %+v", rep)
	}
	feed = changesAll(t, f.S, f.A, cursor, 100)
	if len(feed.Items) != 2 || feed.ItemCount != 51 {
		t.Fatalf("feed after merge: %+v", feed)
	}
	price, ok := itemByPart(t, f.S, f.A, items[3].PartNumber)
	if !ok || price.SellPrice != items[3].SellPrice+100 {
		t.Errorf("updated item %+v", price)
	}
	cursor = feed.Cursor

	// Replace with 5 items (one with its old price back): 46 removed,
	// IDs of the kept ones stay.
	before, _ := itemByPart(t, f.S, f.A, items[0].PartNumber)
	rep = ImportItems(t, f.S, f.A, app.CatalogReplace, items[:5])
	if rep.Deleted != 46 || rep.Unchanged != 4 || rep.Updated != 1 {
		t.Fatalf("replace %+v", rep)
	}
	if after, ok := itemByPart(t, f.S, f.A, items[0].PartNumber); !ok || after.ID != before.ID {
		t.Errorf("kept item changed ID: %d -> %d", before.ID, after.ID)
	}
	feed = changesAll(t, f.S, f.A, cursor, 10)
	if len(feed.DeletedIDs) != 46 || len(feed.Items) != 1 || feed.ItemCount != 5 {
		t.Fatalf("feed after replace: %d items, %d deleted, count %d", len(feed.Items), len(feed.DeletedIDs), feed.ItemCount)
	}
	if _, n := SearchIDs(t, f.S, f.A, app.CatalogQuery{PageNumber: 1, PageSize: 10}); n != 5 {
		t.Errorf("search after replace counts %d", n)
	}
}

// Items without a part number (labor and fees, mostly) are known by
// brand, model and name: every store holds their keys, finds them again
// on the next import, and tells apart names that differ only where a
// naive join would put its separator.
func testCatalogImportWithoutPartNumbers(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	items := []app.CatalogItem{
		{ItemType: app.ItemLabor, Name: "NoPN install hour", SellPrice: 9500},
		{ItemType: app.ItemLabor, Brand: "Acme", Name: "NoPN install hour", SellPrice: 9000},
		{ItemType: app.ItemFee, Brand: `a","b`, Name: "c", SellPrice: 100},
		{ItemType: app.ItemFee, Brand: "a", Model: "b", Name: "c", SellPrice: 200},
		{ItemType: app.ItemFee, Name: `Trip "zone 2", far`, SellPrice: 7500},
		{ItemType: app.ItemPart, Brand: "Sonos", Name: "Arc", PartNumber: "SON-ARC", SellPrice: 99900},
	}
	if rep := ImportItems(t, f.S, f.A, app.CatalogMerge, items); rep.Added != len(items) {
		t.Fatalf("first import %+v", rep)
	}
	first := changesAll(t, f.S, f.A, "", 100)
	idOf := map[string]int64{}
	for _, it := range first.Items {
		idOf[app.CatalogKeyOf(&it)] = it.ID
	}
	if len(idOf) != len(items) {
		t.Fatalf("%d distinct keys among %d items", len(idOf), len(items))
	}
	// The same rows, one price changed and the letter case of a name:
	// the same items, no new ones.
	again := slices.Clone(items)
	again[0].SellPrice = 9900
	again[4].Name = `TRIP "Zone 2", far`
	rep := ImportItems(t, f.S, f.A, app.CatalogMerge, again)
	if rep.Added != 0 || rep.Updated != 2 || rep.Unchanged != len(items)-2 {
		t.Fatalf("second import %+v", rep)
	}
	// Replace keeps the items the file names (their IDs too) and removes
	// the rest.
	rep = ImportItems(t, f.S, f.A, app.CatalogReplace, again[:3])
	if rep.Deleted != 3 || rep.Added != 0 || rep.Unchanged != 3 {
		t.Fatalf("replace %+v", rep)
	}
	feed := changesAll(t, f.S, f.A, "", 100)
	if feed.ItemCount != 3 || len(feed.Items) != 3 {
		t.Fatalf("after replace %d items (count %d)", len(feed.Items), feed.ItemCount)
	}
	for _, it := range feed.Items {
		if id := idOf[app.CatalogKeyOf(&it)]; id != it.ID {
			t.Errorf("%q has ID %d, was %d", it.Name, it.ID, id)
		}
	}
	// A removed item named again is a new item.
	if rep := ImportItems(t, f.S, f.A, app.CatalogMerge, items[3:4]); rep.Added != 1 {
		t.Errorf("removed item imported again %+v", rep)
	}
}

// A Replace that would remove more than app.MaxUnconfirmedRemovalPercent
// of the catalog, or all of it, removes nothing unless confirmed; the
// report of one that removes names what it removed.
func testCatalogReplaceNeedsConfirmation(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	items := catalogdemo.Generate(10)
	ImportItems(t, f.S, f.A, app.CatalogMerge, items)
	replace := func(confirm bool, keep []app.CatalogItem) (app.CatalogImportReport, error) {
		rep := app.CatalogImportReport{Mode: app.CatalogReplace, ConfirmRemoval: confirm}
		err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
			rep = app.CatalogImportReport{Mode: app.CatalogReplace, ConfirmRemoval: confirm}
			return tx.ImportCatalog(app.CatalogReplace, app.CatalogRowsOf(keep), &rep)
		})
		return rep, err
	}
	count := func() int { _, n := SearchIDs(t, f.S, f.A, app.DefaultCatalogQuery()); return n }
	for _, keep := range [][]app.CatalogItem{nil, items[:4], {{ItemType: app.ItemFee, Name: "Only new", SellPrice: 1}}} {
		_, err := replace(false, keep)
		var e *app.Error
		if !errors.As(err, &e) || e.Kind != app.KindValidationFailed || len(e.Fields) != 1 || e.Fields[0].Field != "ConfirmRemoval" {
			t.Fatalf("replace keeping %d of 10 unconfirmed: %v", len(keep), err)
		}
		if n := count(); n != 10 {
			t.Fatalf("a refused replace left %d items", n)
		}
	}
	// Half may go without confirmation.
	rep, err := replace(false, items[:5])
	if err != nil || rep.Deleted != 5 || len(rep.Removed) != 5 {
		t.Fatalf("replace removing half: %+v %v", rep, err)
	}
	for i, r := range rep.Removed {
		if r.ID == 0 || r.Name == "" || !slices.ContainsFunc(items[5:], func(it app.CatalogItem) bool { return it.PartNumber == r.PartNumber }) {
			t.Errorf("removed[%d] = %+v, not one of the items the file left out", i, r)
		}
	}
	rep, err = replace(true, nil)
	if err != nil || rep.Deleted != 5 || len(rep.Removed) != 5 || count() != 0 {
		t.Fatalf("confirmed replace with no rows: %+v %v (%d left)", rep, err, count())
	}
}

// changesAll pages the feed from cursor, limit at a time.
func changesAll(t testing.TB, s store.Store, acct int64, cursor string, limit int) app.CatalogChanges {
	t.Helper()
	all := app.CatalogChanges{Cursor: cursor}
	for {
		var page app.CatalogChanges
		err := s.View(ctx, acct, func(tx store.Tx) error {
			var err error
			page, err = tx.CatalogChanges(all.Cursor, limit)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items)+len(page.DeletedIDs) > limit {
			t.Fatalf("page of %d over limit %d", len(page.Items)+len(page.DeletedIDs), limit)
		}
		all.Items = append(all.Items, page.Items...)
		all.DeletedIDs = append(all.DeletedIDs, page.DeletedIDs...)
		all.Cursor, all.ItemCount = page.Cursor, page.ItemCount
		if !page.HasMore {
			return all
		}
	}
}

func itemByPart(t testing.TB, s store.Store, acct int64, pn string) (app.CatalogItem, bool) {
	t.Helper()
	q := app.CatalogQuery{SearchText: pn, PageNumber: 1, PageSize: 200}
	var found app.CatalogItem
	var ok bool
	s.View(ctx, acct, func(tx store.Tx) error {
		page, _, err := tx.SearchCatalog(q)
		for _, it := range page {
			if it.PartNumber == pn {
				var err error
				if found, ok, err = tx.CatalogItem(it.ID); err != nil {
					return err
				}
				// The search page shows the item as stored (no
				// stale copy of an earlier import).
				if !reflect.DeepEqual(found, it) {
					t.Errorf("search page shows %+v, the store holds %+v", it, found)
				}
			}
		}
		return err
	})
	return found, ok
}

func testCatalogAccountScoping(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	ImportItems(t, f.S, f.A, app.CatalogMerge, catalogdemo.Generate(5))
	ids, _ := SearchIDs(t, f.S, f.A, app.DefaultCatalogQuery())
	f.S.View(ctx, f.B, func(tx store.Tx) error {
		if _, ok, err := tx.CatalogItem(ids[0]); ok || err != nil {
			t.Errorf("account B reads account A's catalog item %d (%v)", ids[0], err)
		}
		page, n, err := tx.SearchCatalog(app.DefaultCatalogQuery())
		if err != nil || n != 0 || len(page) != 0 {
			t.Errorf("account B's empty catalog: %d items, %v", n, err)
		}
		ch, err := tx.CatalogChanges("", 10)
		if err != nil || len(ch.Items) != 0 || ch.HasMore {
			t.Errorf("account B's feed: %+v %v", ch, err)
		}
		return nil
	})
}

func testCatalogImportRollsBack(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	ImportItems(t, f.S, f.A, app.CatalogMerge, catalogdemo.Generate(3))
	boom := errors.New("bad row later")
	rows := func(yield func(app.CatalogRow, error) bool) {
		items := catalogdemo.Generate(10)
		for i := range items {
			if !yield(app.CatalogRow{Line: i + 2, Item: items[i], Key: app.CatalogKeyOf(&items[i])}, nil) {
				return
			}
		}
		yield(app.CatalogRow{}, boom)
	}
	err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
		return tx.ImportCatalog(app.CatalogReplace, rows, &app.CatalogImportReport{})
	})
	if !errors.Is(err, boom) {
		t.Fatalf("import error %v", err)
	}
	if _, n := SearchIDs(t, f.S, f.A, app.DefaultCatalogQuery()); n != 3 {
		t.Errorf("after a failed import the catalog has %d items, want the 3 before", n)
	}
}

// TestCatalogSearchEqualsReference checks the store's indexed search with
// app's reference Select over the same items, through imports that
// change the catalog between searches (the index is rebuilt).
func testCatalogSearchEqualsReference(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	rng := rand.New(rand.NewPCG(3, 4))
	gen := catalogdemo.Generate(2000)
	for round, items := range [][]app.CatalogItem{gen[:1200], gen[600:2000]} {
		ImportItems(t, f.S, f.A, app.CatalogReplace, items)
		var entries []app.CatalogEntry
		f.S.View(ctx, f.A, func(tx store.Tx) error {
			ch, err := tx.CatalogChanges("", 1<<30)
			for i := range ch.Items {
				entries = append(entries, app.CatalogEntryOf(&ch.Items[i]))
			}
			return err
		})
		if len(entries) != len(items) {
			t.Fatalf("round %d: %d entries", round, len(entries))
		}
		for range 400 {
			q := app.CatalogQuery{PageNumber: 1 + rng.IntN(2), PageSize: 1 + rng.IntN(30)}
			e := entries[rng.IntN(len(entries))]
			words := strings.Fields(e.Search)
			q.SearchText = words[rng.IntN(len(words))]
			if rng.IntN(3) == 0 {
				q.SearchText = q.SearchText[:min(2, len(q.SearchText))]
			}
			if rng.IntN(3) == 0 {
				q.ItemType = app.ItemTypes[rng.IntN(len(app.ItemTypes))]
			}
			page, count := q.Select(entries)
			var want []int64
			for _, e := range page {
				want = append(want, e.ID)
			}
			got, gotCount := SearchIDs(t, f.S, f.A, q)
			if gotCount != count || !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d %+v: store %v (%d), reference %v (%d)", round, q, got, gotCount, want, count)
			}
		}
	}
}
