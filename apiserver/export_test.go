package apiserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
)

// The export and document routes' rules on a small fixture: who may call
// them and what bad parameters get. Their content is checked on the demo
// data in export_demo_test.go.

func TestExportRoles(t *testing.T) {
	e := newEnv(t)
	a := e.main
	paths := []string{
		"/public/export/proposals?Format=csv",
		"/public/export/proposals?Format=csv&Part=items",
		"/public/export/proposals?Format=jsonl",
		pathf("/public/proposals/%d/document?Kind=client", a.draft),
		pathf("/public/proposals/%d/document?Kind=installer", a.draft),
		pathf("/public/proposals/%d/changeorders/%d/document", a.locked, a.changeOrder),
	}
	for _, path := range paths {
		for _, u := range []*tuser{a.sales, a.viewer} {
			r := e.get(u, path)
			b := wantError(t, r, http.StatusForbidden, app.KindPermissionDenied)
			if !strings.Contains(b.Message, string(app.PermExport)) {
				t.Errorf("%s as %s: message %q does not name the permission", path, u.rec.Role, b.Message)
			}
		}
		wantStatus(t, e.get(a.admin, path), http.StatusOK)
	}
	// Exports work for a lapsed account too: a dealer can take their data
	// away.
	wantStatus(t, e.get(e.lapsed.admin, "/public/export/proposals?Format=jsonl"), http.StatusOK)
	wantStatus(t, e.get(e.lapsed.admin, pathf("/public/proposals/%d/document", e.lapsed.draft)), http.StatusOK)
	// Another account's proposal is not found.
	wantError(t, e.get(e.other.admin, pathf("/public/proposals/%d/document", a.draft)), http.StatusNotFound, app.KindNotFound)
	wantError(t, e.get(a.admin, pathf("/public/proposals/%d/changeorders/%d/document", a.draft, a.changeOrder)), http.StatusNotFound, app.KindNotFound)
}

func TestExportBadParameters(t *testing.T) {
	e := newEnv(t)
	a := e.main
	for _, c := range []struct{ query, field string }{
		{"", "Format"},
		{"Format=xml", "Format"},
		{"Format=jsonl&Part=items", "Part"},
		{"Format=csv&Part=lines", "Part"},
		{"Format=csv&Statuses=Bogus", "Statuses"},
		{"Format=csv&ModifiedAfter=yesterday", "ModifiedAfter"},
		{"Format=csv&IsArchive=maybe", "IsArchive"},
		{"Format=csv&SalesPersonId=abc", "SalesPersonId"},
		{"Format=csv&SalesPersonId=-3", "SalesPersonId"},
		{"format=CSV&searchtext=" + strings.Repeat("x", 201), "SearchText"},
	} {
		r := e.get(a.admin, "/public/export/proposals?"+c.query)
		b := wantError(t, r, http.StatusBadRequest, app.KindValidationFailed)
		if len(b.ResponseStatus.Errors) != 1 || b.ResponseStatus.Errors[0].FieldName != c.field {
			t.Errorf("%q: errors %+v, want field %s", c.query, b.ResponseStatus.Errors, c.field)
		}
	}
	// Sort and paging parameters do not apply to an export and are
	// ignored, even when the list would refuse them.
	wantStatus(t, e.get(a.admin, "/public/export/proposals?Format=csv&PageSize=5000&SortBy=Nope"), http.StatusOK)
	for _, q := range []string{"Kind=pdf", "kind=everything"} {
		r := e.get(a.admin, pathf("/public/proposals/%d/document?%s", a.draft, q))
		b := wantError(t, r, http.StatusBadRequest, app.KindValidationFailed)
		if b.ResponseStatus.Errors[0].FieldName != "Kind" {
			t.Errorf("%s: field %q", q, b.ResponseStatus.Errors[0].FieldName)
		}
	}
	wantError(t, e.get(a.admin, "/public/proposals/abc/document"), http.StatusBadRequest, app.KindValidationFailed)
}

func TestExportHeaders(t *testing.T) {
	e := newEnv(t)
	a := e.main
	r := e.get(a.admin, "/public/export/proposals?Format=csv")
	wantStatus(t, r, http.StatusOK)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv; charset=utf-8") {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := r.header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="proposals-`) {
		t.Errorf("Content-Disposition %q", cd)
	}
	if r.header.Get(HeaderTotalCount) == "" {
		t.Error("no X-Total-Count")
	}
	r = e.get(a.admin, pathf("/public/proposals/%d/document", a.draft))
	if ct := r.header.Get("Content-Type"); ct != "application/pdf" || !strings.HasPrefix(string(r.body), "%PDF-") {
		t.Errorf("document: Content-Type %q, body starts %q", ct, r.body[:min(8, len(r.body))])
	}
	if lm, err := http.ParseTime(r.header.Get("Last-Modified")); err != nil || time.Since(lm) > time.Hour {
		t.Errorf("Last-Modified %q", r.header.Get("Last-Modified"))
	}
}
