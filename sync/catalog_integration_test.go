package syncer

import (
	"bytes"
	"reflect"
	"slices"
	"sync"
	"testing"

	"proposaldesk/apiserver"
	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// TestCatalogFirstDownloadAndChanges: a first sync downloads the
// account's catalog in pages with progress (Done of the catalog's size),
// the laptop then searches it offline exactly as the server does, and a
// later sync follows the changes feed (an import that replaces the
// catalog: updated and removed items).
func TestCatalogFirstDownloadAndChanges(t *testing.T) {
	s := startReal(t)
	items := catalogdemo.Generate(2*CatalogPage + 300)
	importCSV(t, s, app.CatalogReplace, items)

	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	var mu sync.Mutex
	var seen []State
	d.eng.Subscribe(func(st State) {
		if st.Phase == PhaseCatalog {
			mu.Lock()
			seen = append(seen, st)
			mu.Unlock()
		}
	})
	d.sync(t)
	mu.Lock()
	var dones []int
	for _, st := range seen {
		if st.Total != len(items) {
			t.Errorf("catalog progress total %d, want %d", st.Total, len(items))
		}
		dones = append(dones, st.Done)
	}
	mu.Unlock()
	if want := []int{CatalogPage, 2 * CatalogPage, len(items)}; !reflect.DeepEqual(dones, want) {
		t.Errorf("catalog progress %v, want %v", dones, want)
	}
	sameCatalogSearch(t, s, d, "sonos", "in-ceiling 8", "lab", "")

	// Replace with the first 1,000 items, one of them repriced.
	kept := slices.Clone(items[:1000])
	kept[0].SellPrice += 1000
	importCSV(t, s, app.CatalogReplace, kept)
	d.sync(t)
	if n, _ := d.st.CatalogSize(); n != 1000 {
		t.Errorf("after the replace the laptop has %d items", n)
	}
	sameCatalogSearch(t, s, d, "sonos", "a", kept[0].PartNumber)
	page, _, _ := d.st.SearchCatalog(app.CatalogQuery{SearchText: kept[0].PartNumber, PageNumber: 1, PageSize: 1})
	if len(page) != 1 || page[0].SellPrice != kept[0].SellPrice {
		t.Errorf("repriced item offline: %+v", page)
	}
	// Offline, the store is the rule engine's catalog.
	var cat app.Catalog = d.st
	if it, ok, _ := cat.CatalogItem(page[0].ID); !ok || it.PartNumber != kept[0].PartNumber {
		t.Errorf("CatalogItem(%d) = %+v, %v", page[0].ID, it, ok)
	}
	remote, err := d.c.CatalogItem(bg, page[0].ID)
	if local, _, _ := cat.CatalogItem(page[0].ID); err != nil || !reflect.DeepEqual(remote, local) {
		t.Errorf("server's item %+v (%v), laptop's %+v", remote, err, local)
	}
	if _, err := d.c.CatalogItem(bg, 1<<40); app.KindOf(err) != app.KindNotFound {
		t.Errorf("unknown catalog item: %v", err)
	}
}

// importCSV imports items into the fixture account as a CSV file (a
// Replace confirmed: it may remove most of the catalog).
func importCSV(t *testing.T, s *realServer, mode app.CatalogImportMode, items []app.CatalogItem) {
	t.Helper()
	var buf bytes.Buffer
	if err := catalogdemo.WriteCSV(&buf, items); err != nil {
		t.Fatal(err)
	}
	rep, err := apiserver.ImportCatalogConfirming(bg, s.Store, s.AccountID, mode, true, &buf)
	if err != nil || !rep.Applied {
		t.Fatalf("import: %v %+v", err, rep.Rejected)
	}
}

// sameCatalogSearch compares the laptop's offline search with the
// server's for each text (a page of 200 and the count).
func sameCatalogSearch(t *testing.T, s *realServer, d *desk, texts ...string) {
	t.Helper()
	for _, text := range texts {
		q := app.CatalogQuery{SearchText: text, PageNumber: 1, PageSize: 200}
		remote, err := d.c.Catalog(bg, q)
		if err != nil {
			t.Fatal(err)
		}
		local, n, err := d.st.SearchCatalog(q)
		if err != nil {
			t.Fatal(err)
		}
		if n != remote.Count || !reflect.DeepEqual(local, remote.Items) {
			t.Errorf("%q: laptop %d items (count %d), server %d (count %d)", text, len(local), n, len(remote.Items), remote.Count)
		}
	}
}
