package apiserver

import (
	"bytes"
	"net/url"
	"strings"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
)

// testCatalog is every account's catalog in the test env.
const testCatalog = `ItemType,Brand,Model,Name,PartNumber,Category,Msrp,SellPrice,Cost
Part,Sonos,AMPG1US1BLK,Sonos Amp,SON-AMP,Amplifiers,699,699,497
Part,Sonos,ARCULUS1,Sonos Arc Ultra,SON-ARC,Soundbars,999,999,710
Part,Denon,AVR-X4800H,Denon 9.4 Receiver,DEN-4800,Receivers,2499,2399,1720
Labor,,,Installation Labor,LAB-INSTALL,Labor,,115,52
Fee,,,Trip Charge,FEE-TRIP,Fees,,75,
`

// importCatalog merges csv into the account's catalog through
// ImportCatalog and returns the IDs of the items it added, in file order.
func (e *tenv) importCatalog(a *tacct, csv string) []int64 {
	e.t.Helper()
	var before string
	e.st.View(bg, a.acct.ID, func(tx store.Tx) error {
		ch, err := tx.CatalogChanges("", 1<<30)
		before = ch.Cursor
		return err
	})
	rep, err := ImportCatalog(bg, e.st, a.acct.ID, app.CatalogMerge, strings.NewReader(csv))
	if err != nil || !rep.Applied {
		e.t.Fatalf("import: %v %+v", err, rep)
	}
	var ids []int64
	e.st.View(bg, a.acct.ID, func(tx store.Tx) error {
		ch, err := tx.CatalogChanges(before, 1<<30)
		for _, it := range ch.Items {
			ids = append(ids, it.ID)
		}
		return err
	})
	return ids
}

func (e *tenv) postCSV(u *tuser, path, body string) tres {
	e.t.Helper()
	return e.do(treq{method: "POST", path: path, body: body, ct: "text/csv", as: u})
}

func TestCatalogSearchRoute(t *testing.T) {
	e := newEnv(t)
	a := e.main
	for _, tc := range []struct {
		query string
		want  []string // part numbers, in order
		count int
	}{
		{"", []string{"LAB-INSTALL", "FEE-TRIP", "DEN-4800", "SON-AMP", "SON-ARC"}, 5},
		{"SearchText=amp%20SONOS", []string{"SON-AMP"}, 1},
		{"searchtext=4800", []string{"DEN-4800"}, 1},
		{"ItemType=labor", []string{"LAB-INSTALL"}, 1},
		{"Brands=sonos&Brands=Denon&PageSize=2&PageNumber=2", []string{"SON-ARC"}, 3},
		{"PageNumber=9", []string{}, 5},
	} {
		var res app.CatalogResponse
		e.get(a.sales, "/public/catalog?"+tc.query).json(t, &res)
		var got []string
		for _, it := range res.Items {
			got = append(got, it.PartNumber)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") || res.Count != tc.count {
			t.Errorf("%q: %v (%d), want %v (%d)", tc.query, got, res.Count, tc.want, tc.count)
		}
	}
	var cat struct {
		Items []map[string]any `json:"items"`
	}
	e.get(a.sales, "/public/catalog?SearchText=SON-AMP").json(t, &cat)
	if cat.Items[0]["cost"] != 497.0 || cat.Items[0]["categoryName"] != "Amplifiers" || cat.Items[0]["categoryId"] == 0.0 {
		t.Errorf("Sales sees %v", cat.Items[0])
	}
	e.get(a.viewer, "/public/catalog?SearchText=SON-AMP").json(t, &cat)
	if v, ok := cat.Items[0]["cost"]; !ok || v != nil {
		t.Errorf("Viewer sees cost %v (present %v)", v, ok)
	}
	wantError(t, e.get(a.sales, "/public/catalog?PageSize=201"), 400, app.KindInvalidPaging)
	b := wantError(t, e.get(a.sales, "/public/catalog?ItemType=Widget"), 400, app.KindValidationFailed)
	if len(b.ResponseStatus.Errors) != 1 || b.ResponseStatus.Errors[0].FieldName != "ItemType" {
		t.Errorf("errors %+v", b.ResponseStatus.Errors)
	}
}

func TestCatalogItemRoute(t *testing.T) {
	e := newEnv(t)
	var it app.CatalogItem
	e.get(e.main.sales, pathf("/public/catalog/%d", e.main.catalogItem)).json(t, &it)
	if it.ID != e.main.catalogItem || it.PartNumber != "SON-AMP" || it.Cost == nil || *it.Cost != app.MustMoney("497") {
		t.Errorf("item %+v", it)
	}
	e.get(e.main.viewer, pathf("/public/catalog/%d", e.main.catalogItem)).json(t, &it)
	if it.Cost != nil {
		t.Errorf("Viewer sees cost %v", *it.Cost)
	}
	wantError(t, e.get(e.main.sales, pathf("/public/catalog/%d", e.other.catalogItem)), 404, app.KindNotFound)
	wantError(t, e.get(e.main.sales, "/public/catalog/999999999"), 404, app.KindNotFound)
	wantError(t, e.get(e.main.sales, "/public/catalog/x"), 400, app.KindValidationFailed)
}

func TestCatalogChangesRoute(t *testing.T) {
	e := newEnv(t)
	a := e.main
	var all []app.CatalogItem
	cursor := ""
	for pages := 0; ; pages++ {
		var ch app.CatalogChanges
		e.get(a.viewer, "/public/catalog/changes?Limit=2&since="+url.QueryEscape(cursor)).json(t, &ch)
		if ch.StoreID != e.st.StoreID() || ch.ItemCount != 5 || len(ch.Items) > 2 {
			t.Fatalf("page %+v", ch)
		}
		for _, it := range ch.Items {
			if it.Cost != nil {
				t.Errorf("Viewer's feed has cost on %d", it.ID)
			}
		}
		all = append(all, ch.Items...)
		cursor = ch.Cursor
		if !ch.HasMore {
			if pages != 2 {
				t.Errorf("%d pages of 2 for 5 items", pages+1)
			}
			break
		}
	}
	if len(all) != 5 {
		t.Fatalf("feed has %d items", len(all))
	}
	// A replace that drops two items: the feed after the cursor has them
	// as deleted IDs.
	keep := strings.Join(strings.Split(testCatalog, "\n")[:4], "\n") + "\n"
	res := e.postCSV(a.admin, "/public/catalog/import?Mode=Replace", keep)
	if res.status != 200 {
		t.Fatalf("replace: %d %s", res.status, res.body)
	}
	var ch app.CatalogChanges
	e.get(a.sales, "/public/catalog/changes?since="+cursor).json(t, &ch)
	if len(ch.DeletedIDs) != 2 || len(ch.Items) != 0 || ch.ItemCount != 3 {
		t.Errorf("after replace: %+v", ch)
	}
	wantError(t, e.get(a.sales, "/public/catalog/changes?Limit=0"), 400, app.KindInvalidPaging)
	wantError(t, e.get(a.sales, "/public/catalog/changes?since=abc"), 400, app.KindValidationFailed)
}

func TestCatalogImportRoute(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxImportBytes = 64 << 10 })
	a := e.main
	count := func() int {
		var res app.CatalogResponse
		e.get(a.sales, "/public/catalog").json(t, &res)
		return res.Count
	}
	good := "ItemType,Name,SellPrice,PartNumber\nPart,Wall plate,4.50,WP-1\nLabor,Programming,150,LAB-PROG\n"
	var rep app.CatalogImportReport
	res := e.postCSV(a.admin, "/public/catalog/import", good)
	res.json(t, &rep)
	if res.status != 200 || !rep.Applied || rep.Added != 2 || rep.Rows != 2 || rep.Mode != app.CatalogMerge || count() != 7 {
		t.Fatalf("merge import: %d %s (catalog has %d)", res.status, res.body, count())
	}

	bad := "ItemType,Name,SellPrice,PartNumber\nPart,Good one,1,G-1\nPart,,1,G-2\nPart,Three decimals,1.005,G-3\nPart,Dup,1,wp-1\nPart,Dup,1,WP-1\n"
	b := wantError(t, e.postCSV(a.admin, "/public/catalog/import?Mode=Replace", bad), 400, app.KindValidationFailed)
	want := []string{"line 3: Name is required", "line 4: SellPrice \"1.005\" is not an amount with at most 2 decimals", "line 6: the same item as line 5 (part number \"wp-1\")"}
	var got []string
	for _, f := range b.ResponseStatus.Errors {
		got = append(got, f.FieldName+": "+f.Message)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || !strings.HasPrefix(b.Message, "3 of 5 rows were rejected") {
		t.Errorf("report %q / %q", b.Message, got)
	}
	if count() != 7 {
		t.Errorf("a rejected import changed the catalog: %d items", count())
	}
	h := wantError(t, e.postCSV(a.admin, "/public/catalog/import", "Name,Price\nx,1\n"), 400, app.KindValidationFailed)
	if len(h.ResponseStatus.Errors) != 1 || h.ResponseStatus.Errors[0].FieldName != "line 1" {
		t.Errorf("header error %+v", h.ResponseStatus.Errors)
	}

	wantError(t, e.postCSV(a.sales, "/public/catalog/import", good), 403, app.KindPermissionDenied)
	wantError(t, e.postJSON(a.admin, "/public/catalog/import", `{"Name":"x"}`), 415, app.KindUnsupportedMediaType)
	wantError(t, e.postCSV(a.admin, "/public/catalog/import?Mode=Append", good), 400, app.KindValidationFailed)
	var big bytes.Buffer
	if err := catalogdemo.WriteCSV(&big, catalogdemo.Generate(1000)); err != nil {
		t.Fatal(err)
	}
	wantError(t, e.postCSV(a.admin, "/public/catalog/import", big.String()), 413, app.KindPayloadTooLarge)
	if count() != 7 {
		t.Errorf("catalog has %d items after refused imports", count())
	}
	// The lapsed account cannot import (a write), but still reads items.
	wantError(t, e.postCSV(e.lapsed.admin, "/public/catalog/import", good), 402, app.KindSubscriptionInactive)
	if r := e.get(e.lapsed.sales, pathf("/public/catalog/%d", e.lapsed.catalogItem)); r.status != 200 {
		t.Errorf("lapsed get item: %d", r.status)
	}
}
