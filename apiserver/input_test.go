package apiserver

import (
	"net/http"
	"strings"
	"testing"

	"proposaldesk/app"
)

// TestTextFidelity: text arrives exactly as sent or is refused with the
// field named, the same in JSON and in a form; a refused write stores
// nothing.
func TestTextFidelity(t *testing.T) {
	e := newEnv(t)
	path := pathf("/public/proposals/%d/description", e.main.draft)
	const field = "Description"
	for _, tc := range []struct {
		name, ct, body string
		want           string // stored text; "" means refused
	}{
		{"json invalid utf-8", "json", "{\"Description\":\"a\xffb\"}", ""},
		{"form invalid utf-8", "form", "Description=a%FFb", ""},
		{"json unpaired surrogate", "json", `{"Description":"a\ud800b"}`, ""},
		{"json unpaired low surrogate", "json", `{"Description":"\udc00"}`, ""},
		{"json surrogate pair", "json", `{"Description":"smile \ud83d\ude00"}`, "smile 😀"},
		{"json escaped U+FFFD is text", "json", `{"Description":"\ufffd"}`, "\ufffd"},
		{"json bell", "json", `{"Description":"ring\u0007"}`, ""},
		{"form bell", "form", "Description=ring%07", ""},
		{"json NUL", "json", `{"Description":"a\u0000b"}`, ""},
		{"form DEL", "form", "Description=a%7Fb", ""},
		{"json C1 NEL", "json", `{"Description":"a\u0085b"}`, ""},
		{"form escape", "form", "Description=%1B%5B31m", ""},
		{"json lone CR", "json", `{"Description":"a\rb"}`, ""},
		{"form trailing CR", "form", "Description=a%0D", ""},
		{"json tab LF CRLF", "json", `{"Description":"a\tb\nc\r\nd"}`, "a\tb\nc\r\nd"},
		{"form tab LF CRLF", "form", "Description=a%09b%0Ac%0D%0Ad", "a\tb\nc\r\nd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.load(e.main, e.main.draft)
			var r tres
			if tc.ct == "json" {
				r = e.postJSON(e.main.admin, path, tc.body)
			} else {
				r = e.postForm(e.main.admin, path, tc.body)
			}
			if tc.want != "" {
				if d := detail(t, r); d.ProjectDescription != tc.want {
					t.Fatalf("answered %q, want %q", d.ProjectDescription, tc.want)
				}
				if got := e.load(e.main, e.main.draft).ProjectDescription; got != tc.want {
					t.Fatalf("stored %q, want %q", got, tc.want)
				}
				return
			}
			b := wantError(t, r, http.StatusBadRequest, app.KindValidationFailed)
			if len(b.ResponseStatus.Errors) != 1 || b.ResponseStatus.Errors[0].FieldName != field {
				t.Fatalf("errors %+v, want one naming %s", b.ResponseStatus.Errors, field)
			}
			after := e.load(e.main, e.main.draft)
			if after.ProjectDescription != before.ProjectDescription || after.Version != before.Version {
				t.Fatalf("a refused write changed the proposal: %q v%d -> %q v%d",
					before.ProjectDescription, before.Version, after.ProjectDescription, after.Version)
			}
		})
	}
}

// TestQueryFidelity: a query net/http would parse lossily is refused,
// naming the parameter, instead of being half-read.
func TestQueryFidelity(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		query string
		field string // "" means accepted
	}{
		{"PageSize=5;SortBy=Name", "PageSize"},
		{"PageSize=5&SearchText=job;x", "SearchText"},
		{"Sort;By=Name", "Sort"},
		{"SearchText=%zz", "SearchText"},
		{"Search%zzText=a", "Search%zzText"},
		{"SearchText=a%3Bb&PageSize=5", ""},
		{"", ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			r := e.get(e.main.admin, "/public/proposals?"+tc.query)
			if tc.field == "" {
				wantStatus(t, r, http.StatusOK)
				return
			}
			b := wantError(t, r, http.StatusBadRequest, app.KindValidationFailed)
			if len(b.ResponseStatus.Errors) != 1 || b.ResponseStatus.Errors[0].FieldName != tc.field {
				t.Fatalf("errors %+v, want one naming %q", b.ResponseStatus.Errors, tc.field)
			}
		})
	}
	// The exchange too: its password must not be cut at a ';'.
	r := e.do(treq{method: "GET", path: "/authenticate/apikeyexchange?UserName=" + e.main.sales.rec.Email + "&Password=a;b"})
	wantError(t, r, http.StatusBadRequest, app.KindValidationFailed)
}

// TestHeaderTooLargeIsContractShaped: a header over the API's limit but
// under the listener's gets the contract's JSON body with 431.
func TestHeaderTooLargeIsContractShaped(t *testing.T) {
	e := newEnv(t)
	big := strings.Repeat("x", MaxHeaderBytes)
	r := e.do(treq{method: "GET", path: "/public/proposals", as: e.main.admin, header: map[string]string{"X-Padding": big}})
	wantError(t, r, http.StatusRequestHeaderFieldsTooLarge, app.KindPayloadTooLarge)
	wantStatus(t, e.do(treq{method: "GET", path: "/public/proposals", as: e.main.admin,
		header: map[string]string{"X-Padding": big[:MaxHeaderBytes/2]}}), http.StatusOK)
}
