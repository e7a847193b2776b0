package boltstore

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// smallChunks makes staged imports write 7 rows (or copied keys) per
// transaction for the test, so a few dozen rows take many transactions.
func smallChunks(t *testing.T) {
	old := ImportChunk
	ImportChunk = 7
	t.Cleanup(func() { ImportChunk = old })
}

var stagedNow = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// catalogDump is the account's catalog buckets, every key and value and
// sequence, but the version (a transaction ID); it also says whether a
// staging copy is left.
func catalogDump(t *testing.T, f *storetest.Fixture) string {
	t.Helper()
	var buf strings.Builder
	var walk func(prefix string, b *bolt.Bucket) error
	walk = func(prefix string, b *bolt.Bucket) error {
		fmt.Fprintf(&buf, "%s seq=%d\n", prefix, b.Sequence())
		return b.ForEach(func(k, v []byte) error {
			switch {
			case v == nil:
				return walk(prefix+"/"+string(k), b.Bucket(k))
			case !bytes.Equal(k, kCatVersion):
				fmt.Fprintf(&buf, "%s/%x=%s\n", prefix, k, v)
			}
			return nil
		})
	}
	f.S.(*Store).db.View(func(btx *bolt.Tx) error {
		ab := btx.Bucket(bAccounts).Bucket(idKey(f.A))
		if st := ab.Bucket(bCatStaging); st != nil {
			st.ForEachBucket(func(k []byte) error {
				fmt.Fprintf(&buf, "staging copy %s left\n", k)
				return nil
			})
		}
		if cb := ab.Bucket(bCatalog); cb != nil {
			return walk("catalog", cb)
		}
		return nil
	})
	return buf.String()
}

// stagedImport imports rows staged; a Replace is confirmed.
func stagedImport(f *storetest.Fixture, mode app.CatalogImportMode, rows iter.Seq2[app.CatalogRow, error], n int) (app.CatalogImportReport, error) {
	rep := app.CatalogImportReport{Mode: mode, ConfirmRemoval: true}
	err := f.S.(*Store).ImportCatalogStaged(ctx, f.A, mode, n, rows, &rep)
	return rep, err
}

// A staged import leaves the catalog exactly as the same import in one
// transaction does (items, keys, categories, feed and its sequence,
// counts), for a first import, a merge and a replace, and a desktop's
// feed cursor from before it still pages on from where it was.
func TestStagedImportEqualsOneTransaction(t *testing.T) {
	smallChunks(t)
	gen := catalogdemo.Generate(120)
	changed := slices.Clone(gen[30:100])
	for i := range changed {
		if i%3 == 0 {
			changed[i].SellPrice += 100
		}
	}
	steps := []struct {
		mode  app.CatalogImportMode
		items []app.CatalogItem
	}{
		{app.CatalogMerge, gen[:60]},
		{app.CatalogMerge, changed}, // 30 of them new, some changed
		{app.CatalogReplace, gen[50:110]},
	}
	one, staged := newFixture(t, WithClock(func() time.Time { return stagedNow })), newFixture(t, WithClock(func() time.Time { return stagedNow }))
	var cursor string
	var version uint64
	for i, step := range steps {
		want := storetest.ImportItems(t, one.S, one.A, step.mode, step.items)
		got, err := stagedImport(staged, step.mode, app.CatalogRowsOf(step.items), len(step.items))
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("step %d report %+v, in one transaction %+v", i, got, want)
		}
		if g, w := catalogDump(t, staged), catalogDump(t, one); g != w {
			t.Fatalf("step %d catalog:\n%s\nin one transaction:\n%s", i, g, w)
		}
		// A new version, so searches use a new index.
		if v := catalogVersion(t, staged); v <= version {
			t.Errorf("step %d: version %d after %d", i, v, version)
		}
		version = catalogVersion(t, staged)
		if i == 0 {
			cursor = catalogChanges(t, staged, "").Cursor
		}
	}
	// Since the first import: 40 + 10 added, 3 changed that remain, 50
	// removed.
	ch := catalogChanges(t, staged, cursor)
	if len(ch.Items) != 53 || len(ch.DeletedIDs) != 50 {
		t.Errorf("feed from the first import's cursor: %d items, %d removed", len(ch.Items), len(ch.DeletedIDs))
	}
	if ids, n := storetest.SearchIDs(t, staged.S, staged.A, app.CatalogQuery{PageNumber: 1, PageSize: 5}); n != 60 || len(ids) != 5 {
		t.Errorf("search after the imports: %d of %d", len(ids), n)
	}
}

// A staged Replace that would remove most of the catalog without
// confirmation publishes nothing and leaves no staging copy.
func TestStagedReplaceNeedsConfirmation(t *testing.T) {
	smallChunks(t)
	gen := catalogdemo.Generate(60)
	f := newFixture(t)
	if _, err := stagedImport(f, app.CatalogMerge, app.CatalogRowsOf(gen), len(gen)); err != nil {
		t.Fatal(err)
	}
	before := catalogDump(t, f)
	rep := app.CatalogImportReport{Mode: app.CatalogReplace}
	err := f.S.(*Store).ImportCatalogStaged(ctx, f.A, app.CatalogReplace, 10, app.CatalogRowsOf(gen[50:]), &rep)
	if e, ok := err.(*app.Error); !ok || len(e.Fields) != 1 || e.Fields[0].Field != "ConfirmRemoval" || !strings.Contains(e.Message, "remove 50 of the catalog's 60 items") {
		t.Fatalf("unconfirmed staged replace: %v", err)
	}
	if got := catalogDump(t, f); got != before {
		t.Errorf("refused replace changed the catalog:\n%s", got)
	}
}

func catalogVersion(t *testing.T, f *storetest.Fixture) uint64 {
	var v uint64
	f.S.View(ctx, f.A, func(stx store.Tx) error {
		if cb := stx.(*tx).b(bCatalog); cb != nil {
			v = u64At(cb, kCatVersion)
		}
		return nil
	})
	return v
}

func catalogChanges(t *testing.T, f *storetest.Fixture, cursor string) app.CatalogChanges {
	t.Helper()
	var ch app.CatalogChanges
	err := f.S.View(ctx, f.A, func(tx store.Tx) (err error) { ch, err = tx.CatalogChanges(cursor, 1000); return })
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// A staged import that fails midway (the file cannot be read again, the
// caller gave up, another import was published meanwhile) applies
// nothing and leaves no staging copy.
func TestStagedImportAllOrNothing(t *testing.T) {
	smallChunks(t)
	gen := catalogdemo.Generate(80)
	cases := []struct {
		name string
		// during runs after the rows' 30th row has been read.
		during func(t *testing.T, f *storetest.Fixture)
		err    error
		kind   app.Kind
	}{
		{name: "read error", err: errors.New("disk gone")},
		{name: "another import", during: func(t *testing.T, f *storetest.Fixture) {
			storetest.ImportItems(t, f.S, f.A, app.CatalogMerge, gen[70:])
		}, kind: app.KindPreconditionFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			storetest.ImportItems(t, f.S, f.A, app.CatalogMerge, gen[:20])
			rows := func(yield func(app.CatalogRow, error) bool) {
				i := 0
				for row := range app.CatalogRowsOf(gen[:60]) {
					if i++; i == 31 {
						if tc.err != nil {
							yield(app.CatalogRow{}, tc.err)
							return
						}
						tc.during(t, f)
					}
					if !yield(row, nil) {
						return
					}
				}
			}
			before := catalogDump(t, f)
			_, err := stagedImport(f, app.CatalogReplace, rows, 60)
			switch {
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Fatalf("error %v, want %v", err, tc.err)
			case tc.kind != "" && app.KindOf(err) != tc.kind:
				t.Fatalf("error %v, want kind %s", err, tc.kind)
			}
			if tc.during != nil {
				// The other import stands; this one added nothing.
				storetest.ImportItems(t, f.S, f.A, app.CatalogMerge, nil)
				if _, n := storetest.SearchIDs(t, f.S, f.A, app.CatalogQuery{PageNumber: 1, PageSize: 1}); n != 30 {
					t.Errorf("%d items after the other import", n)
				}
				return
			}
			if after := catalogDump(t, f); after != before {
				t.Errorf("catalog changed:\n%s\nbefore:\n%s", after, before)
			}
		})
	}
}

// Open drops the staging copies a crash left behind, and nothing else.
func TestOpenDropsStagedImports(t *testing.T) {
	smallChunks(t)
	f := newFixture(t)
	gen := catalogdemo.Generate(30)
	storetest.ImportItems(t, f.S, f.A, app.CatalogMerge, gen[:10])
	before := catalogDump(t, f)
	// A crash after some chunks: the copy is written but not published.
	st := &staging{s: f.S.(*Store), ctx: ctx, acct: f.A, name: []byte("crashed")}
	if err := st.copyLive(); err != nil {
		t.Fatal(err)
	}
	if got := catalogDump(t, f); !strings.Contains(got, "staging copy crashed left") {
		t.Fatalf("no staging copy:\n%s", got)
	}
	f.S = backend.Reopen(t, f.S)
	if after := catalogDump(t, f); after != before {
		t.Errorf("after reopen:\n%s\nbefore the crash:\n%s", after, before)
	}
}

// A staged import writes packages after the other rows, so a package
// names items of later chunks, new ones too, as one transaction does.
func TestStagedImportKeepsPackages(t *testing.T) {
	smallChunks(t)
	gen := catalogdemo.Generate(20)
	pkg := func(pn string, at ...int) app.CatalogItem {
		it := app.CatalogItem{ItemType: app.ItemPart, Name: "Package " + pn, PartNumber: pn, SellPrice: app.MustMoney("99.00")}
		for _, i := range at {
			// CatalogRowsOf: positions plus 1; the two packages come first.
			it.Components = append(it.Components, app.CatalogComponent{CatalogItemID: int64(i + 3), Quantity: app.OneUnit})
		}
		return it
	}
	items := append([]app.CatalogItem{pkg("PKG-A", 0, 19), pkg("PKG-B", 10)}, gen...)
	one, staged := newFixture(t, WithClock(func() time.Time { return stagedNow })), newFixture(t, WithClock(func() time.Time { return stagedNow }))
	want := storetest.ImportItems(t, one.S, one.A, app.CatalogMerge, items)
	got, err := stagedImport(staged, app.CatalogMerge, app.CatalogRowsOf(items), len(items))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || got.Added != 22 {
		t.Errorf("report %+v, in one transaction %+v", got, want)
	}
	g, w := catalogDump(t, staged), catalogDump(t, one)
	if g != w {
		t.Fatalf("catalog:\n%s\nin one transaction:\n%s", g, w)
	}
	if !strings.Contains(g, `"components":[{"catalogItemId":`) {
		t.Errorf("no components in the staged catalog:\n%s", g)
	}
}
