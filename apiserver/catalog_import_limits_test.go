package apiserver

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"proposaldesk/app"
)

// The catalog import over HTTP, on the test binary's backend
// (PD_TEST_BACKEND=postgres for PostgreSQL): what the file may hold, what
// a Replace may remove, and what an import may cost before it is refused.

func (e *tenv) catalogCount(u *tuser) int {
	e.t.Helper()
	var res app.CatalogResponse
	e.get(u, "/public/catalog").json(e.t, &res)
	return res.Count
}

// Labor and fee rows usually have no part number: they import, and
// import again onto the same items.
func TestCatalogImportRowsWithoutPartNumber(t *testing.T) {
	e := newEnv(t)
	a := e.main
	file := "ItemType,Brand,Name,SellPrice\nLabor,,NoPN install hour,95.00\nFee,Acme,\"Trip, zone 2\",75\n"
	var rep app.CatalogImportReport
	res := e.postCSV(a.admin, "/public/catalog/import", file)
	res.json(t, &rep)
	if res.status != 200 || rep.Added != 2 {
		t.Fatalf("first import: %d %s", res.status, res.body)
	}
	file = strings.Replace(file, "95.00", "99.00", 1)
	res = e.postCSV(a.admin, "/public/catalog/import", file)
	rep = app.CatalogImportReport{}
	res.json(t, &rep)
	if res.status != 200 || rep.Added != 0 || rep.Updated != 1 || rep.Unchanged != 1 {
		t.Fatalf("second import: %d %s", res.status, res.body)
	}
	if n := e.catalogCount(a.sales); n != 7 {
		t.Errorf("catalog has %d items, want the 5 before and 2", n)
	}
}

// A CSV file keeps the character rule of every other way in: no NUL, ESC
// or BEL is stored; the row and column are named.
func TestCatalogImportRefusesControlCharacters(t *testing.T) {
	e := newEnv(t)
	a := e.main
	file := "ItemType,Name,SellPrice,PartNumber,Description\nPart,esc\x1b[31mred\x07,1,ESC-1,\nPart,Fine,1,OK-1,nul\x00here\n"
	b := wantError(t, e.postCSV(a.admin, "/public/catalog/import", file), 400, app.KindValidationFailed)
	var got []string
	for _, f := range b.ResponseStatus.Errors {
		got = append(got, f.FieldName+": "+f.Message)
	}
	want := []string{"line 2: Name contains the control character U+001B at character 4", "line 3: Description contains the control character U+0000 at character 4"}
	if len(got) != 2 || !strings.HasPrefix(got[0], want[0]) || !strings.HasPrefix(got[1], want[1]) {
		t.Errorf("errors %q, want %q", got, want)
	}
	if n := e.catalogCount(a.sales); n != 5 {
		t.Errorf("catalog has %d items after a refused file", n)
	}
}

// A Replace that would remove more than half of the catalog, or all of
// it, needs ConfirmRemoval=true; its answer names what it removed.
func TestCatalogReplaceNeedsConfirmation(t *testing.T) {
	e := newEnv(t)
	a := e.main
	for _, file := range []string{
		"ItemType,Name,SellPrice\n", // header only: every item would go
		"ItemType,Name,SellPrice,PartNumber\nPart,Sonos Amp,699,SON-AMP\nPart,Sonos Arc Ultra,999,SON-ARC\n", // 3 of 5
	} {
		for _, q := range []string{"Mode=Replace", "Mode=Replace&ConfirmRemoval=false"} {
			b := wantError(t, e.postCSV(a.admin, "/public/catalog/import?"+q, file), 400, app.KindValidationFailed)
			if len(b.ResponseStatus.Errors) != 1 || b.ResponseStatus.Errors[0].FieldName != "ConfirmRemoval" || !strings.Contains(b.Message, "of the catalog's 5 items") {
				t.Errorf("%s, %d rows: %+v", q, strings.Count(file, "\n")-1, b)
			}
			if n := e.catalogCount(a.sales); n != 5 {
				t.Fatalf("refused replace left %d items", n)
			}
		}
	}
	wantError(t, e.postCSV(a.admin, "/public/catalog/import?Mode=Replace&ConfirmRemoval=yes", "ItemType,Name,SellPrice\n"), 400, app.KindValidationFailed)

	// Two of five may go unasked.
	keep3 := "ItemType,Name,SellPrice,PartNumber\nPart,Sonos Amp,699,SON-AMP\nPart,Sonos Arc Ultra,999,SON-ARC\nPart,Denon 9.4 Receiver,2399,DEN-4800\n"
	var rep app.CatalogImportReport
	res := e.postCSV(a.admin, "/public/catalog/import?Mode=Replace", keep3)
	res.json(t, &rep)
	if res.status != 200 || rep.Deleted != 2 || len(rep.Removed) != 2 || rep.ConfirmRemoval {
		t.Fatalf("replace removing 2 of 5: %d %s", res.status, res.body)
	}
	names := []string{rep.Removed[0].Name, rep.Removed[1].Name}
	if !strings.Contains(strings.Join(names, "|"), "Installation Labor") || !strings.Contains(strings.Join(names, "|"), "Trip Charge") {
		t.Errorf("removed %+v", rep.Removed)
	}
	// Confirmed, a header-only file empties the catalog.
	rep = app.CatalogImportReport{}
	res = e.postCSV(a.admin, "/public/catalog/import?mode=replace&confirmRemoval=TRUE", "ItemType,Name,SellPrice\n")
	res.json(t, &rep)
	if res.status != 200 || rep.Deleted != 3 || len(rep.Removed) != 3 || !rep.ConfirmRemoval || e.catalogCount(a.sales) != 0 {
		t.Fatalf("confirmed replace: %d %s", res.status, res.body)
	}
}

// A body that declares more than the import cap is refused at once,
// before authentication, without waiting for the body to arrive.
func TestImportDeclaredTooLargeRefusedAtOnce(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxImportBytes = 1 << 20 })
	a := e.main
	for _, as := range []*tuser{a.admin, nil} {
		req := e.httpRequest(treq{method: "POST", path: "/public/catalog/import", body: "ItemType,Name,SellPrice\n", ct: "text/csv", as: as, unsigned: as == nil})
		pr, pw := io.Pipe()
		go pw.Write([]byte("ItemType,Name,SellPrice\n")) // the rest never comes
		// A server that waits for the body gets its end after 10 s
		// (a body read blocked for ever would hang the client too).
		var gaveUp atomic.Bool
		stop := time.AfterFunc(10*time.Second, func() { gaveUp.Store(true); pw.CloseWithError(errors.New("the client gave up")) })
		req.Body, req.ContentLength = pr, 300<<20
		resp, err := http.DefaultClient.Do(req)
		early := !gaveUp.Load()
		stop.Stop()
		pw.Close()
		if err != nil {
			t.Fatalf("declared 300 MiB: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !early {
			t.Errorf("the answer came only once the body ended")
		}
		if resp.StatusCode != 413 || !strings.Contains(string(body), `"PayloadTooLarge"`) || !strings.Contains(string(body), fmt.Sprint(1<<20)) {
			t.Errorf("declared 300 MiB: %d %s", resp.StatusCode, body)
		}
	}
}

// A file of many bad rows gets a report of the first ones and a count,
// not a second copy of the file.
func TestImportErrorReportIsBounded(t *testing.T) {
	e := newEnv(t)
	a := e.main
	var file strings.Builder
	file.WriteString("ItemType,Name,SellPrice,PartNumber\n")
	const bad = 20_000
	for i := range bad {
		fmt.Fprintf(&file, "Gadget,Item %d,1.001,P-%d\n", i, i)
	}
	res := e.postCSV(a.admin, "/public/catalog/import", file.String())
	b := wantError(t, res, 400, app.KindValidationFailed)
	if len(b.ResponseStatus.Errors) != app.MaxReportedRows || b.ResponseStatus.Errors[0].FieldName != "line 2" ||
		!strings.HasPrefix(b.Message, fmt.Sprintf("%d of %d rows were rejected; nothing was imported. The first %d are listed.", bad, bad, app.MaxReportedRows)) {
		t.Errorf("report: %q, %d errors", b.Message, len(b.ResponseStatus.Errors))
	}
	if len(res.body) > 64<<10 {
		t.Errorf("report of %d bytes", len(res.body))
	}
}
