package apiserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"proposaldesk/app"
)

var areaSeq atomic.Int64

// specOp is one of the spec's 15 operations as a request that succeeds
// for an active account's admin.
type specOp struct {
	num    int
	method string
	path   string
	body   string
	exch   bool
}

func specOps(a *tacct) []specOp {
	area := func() string { return pathf(`{"Name":"Room %d"}`, areaSeq.Add(1)) }
	return []specOp{
		{num: 1, method: "GET", path: "/public/proposals"},
		{num: 2, method: "POST", path: "/public/proposals", body: pathf(`{"SalesPersonId":%d}`, a.admin.rec.ID)},
		{num: 3, method: "GET", path: pathf("/public/proposals/%d", a.draft)},
		{num: 4, method: "POST", path: pathf("/public/proposals/%d", a.draft), body: `{"Name":"Renamed"}`},
		{num: 5, method: "POST", path: pathf("/public/proposals/%d/description", a.draft), body: `{"Description":"d"}`},
		{num: 6, method: "POST", path: pathf("/public/proposals/%d/internalnotes", a.draft), body: `{"InternalNotes":"n"}`},
		{num: 7, method: "GET", path: pathf("/public/proposals/%d/changeorders/%d", a.locked, a.changeOrder)},
		{num: 8, method: "GET", path: pathf("/public/proposals/%d/changeorders", a.locked)},
		{num: 9, method: "POST", path: pathf("/public/proposals/%d/area", a.draft), body: area()},
		{num: 10, method: "POST", path: pathf("/public/proposals/%d/area/%d/option", a.draft, a.area), body: `{}`},
		{num: 11, method: "POST", path: pathf("/public/proposals/%d/area-options/%d/clientdescription", a.draft, a.option), body: `{"ClientDescription":"c"}`},
		{num: 12, method: "POST", path: pathf("/public/proposals/%d/area-options/%d/installernotes", a.draft, a.option), body: `{"InstallerNotes":"i"}`},
		{num: 13, method: "POST", path: pathf("/public/proposals/%d/contact/%d", a.draft, a.contact)},
		{num: 14, method: "POST", path: pathf("/public/proposals/%d/location/%d", a.locked, a.loc2)},
		{num: 15, method: "GET", path: "/authenticate/apikeyexchange?UserName=" + url.QueryEscape(a.admin.rec.Email) + "&Password=" + url.QueryEscape(testPassword), exch: true},
	}
}

func (o specOp) req(u *tuser) treq {
	r := treq{method: o.method, path: o.path, body: o.body, as: u}
	if o.body != "" {
		r.ct = "application/json"
	}
	if o.exch {
		r.as = nil
	}
	return r
}

// routeReqs is every route of the router with the account's IDs filled
// in.
func routeReqs(s *Server, a *tacct) []treq {
	repl := strings.NewReplacer(
		"{ProposalId}", app.FormatID(a.draft), "{ChangeOrderId}", app.FormatID(a.changeOrder),
		"{AreaId}", app.FormatID(a.area), "{AreaOptionId}", app.FormatID(a.option),
		"{ContactId}", app.FormatID(a.contact), "{LocationId}", app.FormatID(a.loc),
		"{PersonId}", app.FormatID(a.contact),
		"{SubscriptionId}", "1", "{DeliveryId}", "1")
	catalogRepl := strings.NewReplacer("{ItemId}", app.FormatID(a.catalogItem))
	itemRepl := strings.NewReplacer("{ItemId}", app.FormatID(a.item))
	var out []treq
	for _, rt := range s.Routes() {
		pattern := rt.Pattern
		if strings.Contains(pattern, "changeorders") {
			pattern = strings.Replace(pattern, "{ProposalId}", app.FormatID(a.locked), 1)
		}
		if strings.HasPrefix(pattern, "/public/catalog/") {
			pattern = catalogRepl.Replace(pattern)
		} else {
			pattern = itemRepl.Replace(pattern)
		}
		r := treq{method: rt.Method, path: repl.Replace(pattern)}
		if rt.Operation == app.OpSyncProposals {
			r.path += "?ids=" + app.FormatID(a.draft)
		}
		if rt.Method == "POST" {
			r.body, r.ct = `{"Name":"x"}`, "application/json"
		}
		out = append(out, r)
	}
	return out
}

func TestSuccessOfEveryOperation(t *testing.T) {
	e := newEnv(t)
	for _, o := range specOps(e.main) {
		r := e.do(o.req(e.main.admin))
		want := http.StatusOK
		if o.num == 13 {
			want = http.StatusNoContent
		}
		if r.status != want {
			t.Errorf("op %d: status %d, want %d: %s", o.num, r.status, want, r.body)
		}
		if o.num == 13 && len(r.body) != 0 {
			t.Errorf("op 13 has a body: %s", r.body)
		}
	}
}

func TestUnauthorizedOnEveryRoute(t *testing.T) {
	e := newEnv(t)
	for _, r := range routeReqs(e.s, e.main) {
		r.as = e.main.admin
		if strings.HasPrefix(r.path, "/authenticate") {
			r.as = nil
		}
		missing := r
		missing.unsigned = true
		wantError(t, e.do(missing), 401, app.KindCredentialsMissing)

		bad := r
		bad.sign = func(p *pieces) { p.Secret = "not the secret" }
		b := wantError(t, e.do(bad), 401, app.KindSignatureInvalid)
		if b.Message != "You are not authorized. Your request signature (hash) is invalid." {
			t.Errorf("%s %s: message %q", r.method, r.path, b.Message)
		}
	}
}

func TestPermissionDeniedOnEveryRoute(t *testing.T) {
	e := newEnv(t)
	for _, r := range routeReqs(e.s, e.main) {
		r.as = e.main.noRole
		if strings.HasPrefix(r.path, "/authenticate") {
			r.as = nil
			r.path = "/authenticate/apikeyexchange?UserName=" + url.QueryEscape(e.main.noRole.rec.Email) + "&Password=" + url.QueryEscape(testPassword)
		}
		wantError(t, e.do(r), 403, app.KindPermissionDenied)
	}
}

func TestViewerIsReadOnlyAndSeesNoCosts(t *testing.T) {
	e := newEnv(t)
	before := e.load(e.main, e.main.draft)
	for _, r := range routeReqs(e.s, e.main) {
		if strings.HasPrefix(r.path, "/authenticate") {
			continue
		}
		r.as = e.main.viewer
		res := e.do(r)
		// Exports and documents are Admin only (export_test.go).
		// So are webhook subscriptions (webhooks_test.go).
		export := strings.HasPrefix(r.path, "/public/export/") || strings.Contains(r.path, "/document") || strings.Contains(r.path, "/webhook/")
		if r.method != "GET" || export {
			wantError(t, res, 403, app.KindPermissionDenied)
		} else if res.status != 200 && !(strings.HasSuffix(r.path, "/signed.pdf") && res.status == 404) {
			// A signed PDF is 404 before the client decides.
			t.Errorf("viewer %s %s: %d %s", r.method, r.path, res.status, res.body)
		}
	}
	if after := e.load(e.main, e.main.draft); after.Version != before.Version {
		t.Fatalf("viewer changed the proposal")
	}
	costOf := func(u *tuser) json.RawMessage {
		var raw struct {
			Areas []struct {
				Options []struct {
					Items []map[string]json.RawMessage `json:"items"`
				} `json:"options"`
			} `json:"areas"`
			Profit map[string]json.RawMessage `json:"profit"`
		}
		e.get(u, pathf("/public/proposals/%d", e.main.draft)).json(t, &raw)
		if u == e.main.viewer && string(raw.Profit["total"]) != "null" {
			t.Errorf("viewer sees profit %s", raw.Profit["total"])
		}
		return raw.Areas[0].Options[0].Items[0]["cost"]
	}
	if c := costOf(e.main.viewer); string(c) != "null" {
		t.Errorf("viewer sees cost %s", c)
	}
	if c := costOf(e.main.sales); string(c) != "40.00" && string(c) != "40" {
		t.Errorf("sales sees cost %s", c)
	}
}

func TestSubscriptionRequiredExactly(t *testing.T) {
	e := newEnv(t)
	needs := map[int]bool{1: true, 2: true, 4: true, 5: true, 6: true, 8: true, 9: true, 10: true, 11: true, 12: true, 13: true, 14: true}
	for _, o := range specOps(e.lapsed) {
		r := e.do(o.req(e.lapsed.admin))
		if needs[o.num] {
			wantError(t, r, 402, app.KindSubscriptionInactive)
		} else if r.status != 200 {
			t.Errorf("op %d on a lapsed account: %d %s", o.num, r.status, r.body)
		}
	}
	// Nothing was written.
	if p := e.load(e.lapsed, e.lapsed.draft); p.Name != "Draft job" || p.InternalNotes != "" {
		t.Fatalf("lapsed proposal changed: %+v", p.Name)
	}
}

// TestErrorTable walks the spec's error table, row by row, for every
// operation each row names.
func TestErrorTable(t *testing.T) {
	e := newEnv(t)
	a, u := e.main, e.main.admin
	const missing = 999999
	post := func(path, body string) tres { return e.postJSON(u, path, body) }

	t.Run("no such resource (2, 6)", func(t *testing.T) {
		wantError(t, post("/public/proposals", pathf(`{"SalesPersonId":%d}`, missing)), 404, app.KindNotFound)
		wantError(t, post("/public/proposals", pathf(`{"SalesPersonId":%d}`, e.other.admin.rec.ID)), 404, app.KindNotFound)
		wantError(t, post(pathf("/public/proposals/%d/internalnotes", missing), `{"InternalNotes":"x"}`), 404, app.KindNotFound)
	})
	t.Run("proposal not found (4, 5, 9)", func(t *testing.T) {
		wantError(t, post(pathf("/public/proposals/%d", missing), `{"Name":"x"}`), 404, app.KindNotFound)
		wantError(t, post(pathf("/public/proposals/%d/description", missing), `{"Description":"x"}`), 404, app.KindNotFound)
		wantError(t, post(pathf("/public/proposals/%d/area", missing), `{"Name":"x"}`), 404, app.KindNotFound)
		wantError(t, post(pathf("/public/proposals/%d", a.draft), pathf(`{"SalesPersonId":%d}`, missing)), 404, app.KindNotFound)
	})
	t.Run("proposal or area not found (10)", func(t *testing.T) {
		wantError(t, post(pathf("/public/proposals/%d/area/%d/option", missing, a.area), `{}`), 404, app.KindNotFound)
		wantError(t, post(pathf("/public/proposals/%d/area/%d/option", a.draft, missing), `{}`), 404, app.KindNotFound)
		wantError(t, post(pathf("/public/proposals/%d/area/%d/option", a.draft, a.lockedArea), `{}`), 404, app.KindNotFound)
	})
	t.Run("proposal or option not found (11, 12)", func(t *testing.T) {
		for _, op := range []string{"clientdescription", "installernotes"} {
			body := `{"ClientDescription":"x","InstallerNotes":"x"}`
			wantError(t, post(pathf("/public/proposals/%d/area-options/%d/%s", missing, a.option, op), body), 404, app.KindNotFound)
			wantError(t, post(pathf("/public/proposals/%d/area-options/%d/%s", a.draft, missing, op), body), 404, app.KindNotFound)
			wantError(t, post(pathf("/public/proposals/%d/area-options/%d/%s", a.draft, a.lockedOpt, op), body), 404, app.KindNotFound)
		}
	})
	t.Run("proposal or contact not found (13)", func(t *testing.T) {
		wantError(t, post(pathf("/public/proposals/%d/contact/%d", missing, a.contact), ""), 404, app.KindNotFound)
		wantError(t, post(pathf("/public/proposals/%d/contact/%d", a.draft, missing), ""), 404, app.KindNotFound)
	})
	t.Run("proposal or location not found (14)", func(t *testing.T) {
		wantError(t, post(pathf("/public/proposals/%d/location/%d", missing, a.loc), ""), 404, app.KindNotFound)
		wantError(t, post(pathf("/public/proposals/%d/location/%d", a.locked, missing), ""), 404, app.KindNotFound)
		// Another contact's location is not this proposal's.
		wantError(t, post(pathf("/public/proposals/%d/location/%d", a.locked, e.other.loc), ""), 404, app.KindNotFound)
	})
	t.Run("locked (4, 5, 9, 10, 11, 12)", func(t *testing.T) {
		before := e.load(a, a.locked)
		for _, r := range []tres{
			post(pathf("/public/proposals/%d", a.locked), `{"Name":"x"}`),
			post(pathf("/public/proposals/%d/description", a.locked), `{"Description":"x"}`),
			post(pathf("/public/proposals/%d/area", a.locked), `{"Name":"Attic"}`),
			post(pathf("/public/proposals/%d/area/%d/option", a.locked, a.lockedArea), `{}`),
			post(pathf("/public/proposals/%d/area-options/%d/clientdescription", a.locked, a.lockedOpt), `{"ClientDescription":"x"}`),
			post(pathf("/public/proposals/%d/area-options/%d/installernotes", a.locked, a.lockedOpt), `{"InstallerNotes":"x"}`),
		} {
			wantError(t, r, 409, app.KindProposalLocked)
		}
		if after := e.load(a, a.locked); after.Version != before.Version {
			t.Fatal("locked proposal changed")
		}
		// 6, 13 and 14 work in every status.
		detail(t, post(pathf("/public/proposals/%d/internalnotes", a.locked), `{"InternalNotes":"after"}`))
		wantStatus(t, post(pathf("/public/proposals/%d/contact/%d", a.locked, a.contact), ""), 204)
		detail(t, post(pathf("/public/proposals/%d/location/%d", a.locked, a.loc2), ""))
	})
	t.Run("area name taken (9)", func(t *testing.T) {
		for _, name := range []string{"Kitchen", " kitchen ", "KITCHEN"} {
			b, _ := json.Marshal(map[string]string{"Name": name})
			wantError(t, post(pathf("/public/proposals/%d/area", a.draft), string(b)), 400, app.KindAreaNameTaken)
		}
	})
	t.Run("option limit (10)", func(t *testing.T) {
		p := e.proposal(a, "Options")
		p = e.apply(a, p, &app.CreateArea{ID: p.ID, Name: "Hall"})
		path := pathf("/public/proposals/%d/area/%d/option", p.ID, p.Areas[0].ID)
		detail(t, post(path, `{}`))
		detail(t, post(path, `{"ClientDescription":"third"}`))
		wantError(t, post(path, `{}`), 400, app.KindOptionLimitReached)
	})
	t.Run("no person assigned (14)", func(t *testing.T) {
		wantError(t, post(pathf("/public/proposals/%d/location/%d", a.draft, a.loc), ""), 409, app.KindNoContactAssigned)
	})
	t.Run("exchange credentials (15)", func(t *testing.T) {
		ex := func(name, pw string) tres {
			return e.do(treq{method: "GET", path: "/authenticate/apikeyexchange?UserName=" + url.QueryEscape(name) + "&Password=" + url.QueryEscape(pw)})
		}
		wrong := wantError(t, ex(a.admin.rec.Email, "wrong password!"), 401, app.KindInvalidCredentials)
		unknown := wantError(t, ex("nobody@nowhere.test", testPassword), 401, app.KindInvalidCredentials)
		if wrong.Message != unknown.Message {
			t.Errorf("unknown user and wrong password differ: %q vs %q", wrong.Message, unknown.Message)
		}
		wantError(t, ex(a.unverified.rec.Email, testPassword), 401, app.KindEmailNotVerified)
		// An unverified user with a wrong password learns nothing more.
		wantError(t, ex(a.unverified.rec.Email, "wrong password!"), 401, app.KindInvalidCredentials)
	})
}

func TestCrossAccountIDsAreNotFound(t *testing.T) {
	e := newEnv(t)
	o := e.other
	before := map[int64]int64{}
	for _, id := range []int64{o.draft, o.locked} {
		before[id] = e.load(o, id).Version
	}
	u := e.main.admin
	// The sync route lists another account's IDs as missing
	// (TestSyncProposalsRoute); every other route answers 404.
	for _, r := range routeReqs(e.s, o) {
		if strings.HasPrefix(r.path, "/authenticate") || !strings.Contains(r.path, "/public/") ||
			r.path == "/public/proposals" || r.path == "/public/people" || r.path == "/public/users" || r.path == "/public/changes" || r.path == "/public/people/changes" ||
			r.path == "/public/export/proposals" || strings.HasPrefix(r.path, "/public/sync/") || strings.HasPrefix(r.path, "/public/webhook/") || (strings.HasPrefix(r.path, "/public/catalog") && !strings.Contains(r.path, app.FormatID(o.catalogItem))) {
			continue
		}
		r.as = u
		// Bodies that would otherwise be valid for each write.
		if r.method == "POST" {
			r.body = `{"Name":"x","Description":"d","InternalNotes":"n","ClientDescription":"c","InstallerNotes":"i","Status":"Submitted","Street":"1 A St","IsArchived":true,` +
				`"SignerName":"x","SignatureImage":"x","SnapshotHash":"x","SignedAt":"x","DeviceId":"x"}`
		}
		res := e.do(r)
		if res.status != 404 {
			t.Errorf("%s %s with another account's IDs: %d %s", r.method, r.path, res.status, res.body)
			continue
		}
		wantError(t, res, 404, app.KindNotFound)
	}
	// The main account's proposal with the other's contact, location and
	// salesperson.
	m := e.main
	wantError(t, e.postJSON(u, pathf("/public/proposals/%d/contact/%d", m.draft, o.contact), ""), 404, app.KindNotFound)
	wantError(t, e.postJSON(u, pathf("/public/proposals/%d/location/%d", m.locked, o.loc), ""), 404, app.KindNotFound)
	wantError(t, e.postJSON(u, pathf("/public/proposals/%d", m.draft), pathf(`{"SalesPersonId":%d}`, o.admin.rec.ID)), 404, app.KindNotFound)
	wantError(t, e.get(u, pathf("/public/proposals/%d/changeorders/%d", m.locked, o.changeOrder)), 404, app.KindNotFound)
	for id, v := range before {
		if got := e.load(o, id).Version; got != v {
			t.Errorf("other account's proposal %d changed: version %d → %d", id, v, got)
		}
	}
	// Lists show only the caller's own.
	var list app.ListResponse
	e.get(u, "/public/proposals?PageSize=200").json(t, &list)
	for _, p := range list.Proposals {
		if p.ID == o.draft || p.ID == o.locked {
			t.Errorf("list shows the other account's proposal %d", p.ID)
		}
	}
}

func TestBadInputGetsTheErrorBody(t *testing.T) {
	e := newEnv(t)
	u, a := e.main.admin, e.main
	long := strings.Repeat("x", 201)
	huge := strings.Repeat("y", app.MaxTextLength+1)
	cases := []struct {
		name   string
		r      treq
		status int
		code   app.Kind
		field  string
	}{
		{"malformed JSON", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: `{"Name":`, ct: "application/json"}, 400, app.KindValidationFailed, "body"},
		{"JSON array", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: `["Name"]`, ct: "application/json"}, 400, app.KindValidationFailed, "body"},
		{"trailing data", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: `{"Name":"a"} x`, ct: "application/json"}, 400, app.KindValidationFailed, "body"},
		{"wrong type string", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: `{"Name":5}`, ct: "application/json"}, 400, app.KindValidationFailed, "Name"},
		{"wrong type id", treq{method: "POST", path: "/public/proposals", body: `{"SalesPersonId":"abc"}`, ct: "application/json"}, 400, app.KindValidationFailed, "SalesPersonId"},
		{"fractional id", treq{method: "POST", path: "/public/proposals", body: `{"SalesPersonId":1.5}`, ct: "application/json"}, 400, app.KindValidationFailed, "SalesPersonId"},
		{"missing salesperson", treq{method: "POST", path: "/public/proposals", body: `{"Name":"n"}`, ct: "application/json"}, 400, app.KindValidationFailed, "SalesPersonId"},
		{"over-long name", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: `{"Name":"` + long + `"}`, ct: "application/json"}, 400, app.KindValidationFailed, "Name"},
		{"empty name", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: `{"name":"  "}`, ct: "application/json"}, 400, app.KindValidationFailed, "Name"},
		{"over-long description", treq{method: "POST", path: pathf("/public/proposals/%d/description", a.draft), body: `{"Description":"` + huge + `"}`, ct: "application/json"}, 400, app.KindValidationFailed, "Description"},
		{"missing description", treq{method: "POST", path: pathf("/public/proposals/%d/description", a.draft), body: `{"Other":"x"}`, ct: "application/json"}, 400, app.KindValidationFailed, "Description"},
		{"form wrong id", treq{method: "POST", path: "/public/proposals", body: `salespersonid=x`, ct: "application/x-www-form-urlencoded"}, 400, app.KindValidationFailed, "SalesPersonId"},
		{"form bad escape", treq{method: "POST", path: "/public/proposals", body: `Name=%zz`, ct: "application/x-www-form-urlencoded"}, 400, app.KindValidationFailed, "body"},
		{"duplicate field", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: `{"Name":"a","name":"b"}`, ct: "application/json"}, 400, app.KindValidationFailed, "Name"},
		{"invalid UTF-8", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: "Name=%ff", ct: "application/x-www-form-urlencoded"}, 400, app.KindValidationFailed, "Name"},
		{"body id mismatch", treq{method: "POST", path: pathf("/public/proposals/%d/contact/%d", a.draft, a.contact), body: pathf(`{"proposalId":%d,"contactId":%d}`, a.draft, a.contact+1), ct: "application/json"}, 400, app.KindValidationFailed, "ContactId"},
		{"bad path id", treq{method: "GET", path: "/public/proposals/abc"}, 400, app.KindValidationFailed, "ProposalId"},
		{"bad status", treq{method: "POST", path: pathf("/public/proposals/%d/status", a.draft), body: `{"Status":"Bogus"}`, ct: "application/json"}, 400, app.KindValidationFailed, "Status"},
		{"bad paging", treq{method: "GET", path: "/public/proposals?PageNumber=0"}, 400, app.KindInvalidPaging, ""},
		{"big page", treq{method: "GET", path: "/public/proposals?pagesize=201"}, 400, app.KindInvalidPaging, ""},
		{"bad sort", treq{method: "GET", path: "/public/proposals?SortBy=Colour"}, 400, app.KindValidationFailed, "SortBy"},
		{"bad cursor", treq{method: "GET", path: "/public/changes?since=abc"}, 400, app.KindValidationFailed, "since"},
		{"bad person", treq{method: "POST", path: "/public/people", body: `{"PartyType":"Robot","ContactType":"Client","FirstName":"A"}`, ct: "application/json"}, 400, app.KindValidationFailed, "PartyType"},
		{"bad bool", treq{method: "POST", path: pathf("/public/people/%d/location", a.contact), body: `{"Street":"1 A","IsPrimary":"maybe"}`, ct: "application/json"}, 400, app.KindValidationFailed, "IsPrimary"},
		{"bad US ZIP", treq{method: "POST", path: pathf("/public/people/%d/location", a.contact), body: `{"Street":"1 A","State":"FL","PostalCode":"ABCDE"}`, ct: "application/json"}, 400, app.KindValidationFailed, "PostalCode"},
		{"bad idempotency key", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: `{"Name":"a"}`, ct: "application/json", header: map[string]string{"Idempotency-Key": strings.Repeat("k", 300)}}, 400, app.KindValidationFailed, "Idempotency-Key"},
		{"wrong content type", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: `Name: a`, ct: "text/plain"}, 415, app.KindUnsupportedMediaType, ""},
		{"multipart", treq{method: "POST", path: pathf("/public/proposals/%d", a.draft), body: "--x\r\n", ct: "multipart/form-data; boundary=x"}, 415, app.KindUnsupportedMediaType, ""},
		{"unknown path", treq{method: "GET", path: "/public/nothing"}, 404, app.KindNotFound, ""},
		{"over-long user name", treq{method: "GET", path: "/authenticate/apikeyexchange?UserName=" + strings.Repeat("a", 257) + "&Password=x"}, 400, app.KindValidationFailed, "UserName"},
		{"missing password", treq{method: "GET", path: "/authenticate/apikeyexchange?UserName=a@b.c"}, 400, app.KindValidationFailed, "Password"},
	}
	before := e.load(a, a.draft).Version
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.r
			if !strings.HasPrefix(r.path, "/authenticate") {
				r.as = u
			}
			b := wantError(t, e.do(r), c.status, c.code)
			if c.field != "" {
				if len(b.ResponseStatus.Errors) == 0 || b.ResponseStatus.Errors[0].FieldName != c.field {
					t.Fatalf("errors %+v, want field %s", b.ResponseStatus.Errors, c.field)
				}
			}
		})
	}
	if after := e.load(a, a.draft).Version; after != before {
		t.Fatalf("bad input changed the proposal: %d → %d", before, after)
	}
}

func TestOversizeBody(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxBodyBytes = 4096 })
	body := `{"Description":"` + strings.Repeat("z", 5000) + `"}`
	r := e.postJSON(e.main.admin, pathf("/public/proposals/%d/description", e.main.draft), body)
	wantError(t, r, 413, app.KindPayloadTooLarge)

	// The default cap is 1 MiB.
	e2 := newEnv(t)
	body = `{"Description":"` + strings.Repeat("z", 1<<20) + `"}`
	wantError(t, e2.postJSON(e2.main.admin, pathf("/public/proposals/%d/description", e2.main.draft), body), 413, app.KindPayloadTooLarge)
}

func TestMethodNotAllowedAndNotFoundShape(t *testing.T) {
	e := newEnv(t)
	r := e.do(treq{method: "DELETE", path: pathf("/public/proposals/%d", e.main.draft), as: e.main.admin})
	if r.status != 405 || r.header.Get("Allow") == "" {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
	r.errBody(t)
	wantError(t, e.get(e.main.admin, "/nope"), 404, app.KindNotFound)
}
