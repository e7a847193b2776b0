package apiserver

import (
	"bytes"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"proposaldesk/app"
)

func TestIdempotencyKey(t *testing.T) {
	e := newEnv(t)
	u, a := e.main.admin, e.main
	path := pathf("/public/proposals/%d/area", a.draft)
	send := func(key, path, body string) tres {
		return e.do(treq{method: "POST", path: path, body: body, ct: "application/json", as: u,
			header: map[string]string{"Idempotency-Key": key}})
	}
	v0 := e.load(a, a.draft).Version
	first := send("k-1", path, `{"Name":"Garage"}`)
	wantStatus(t, first, 200)
	again := send("k-1", path, `{"Name":"Garage"}`)
	if again.status != first.status || !bytes.Equal(again.body, first.body) || again.header.Get("ETag") != first.header.Get("ETag") {
		t.Fatalf("replay differs:\n%s\n%s", first.body, again.body)
	}
	if again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay not marked")
	}
	p := e.load(a, a.draft)
	if p.Version != v0+1 || len(p.Areas) != 2 {
		t.Fatalf("applied %d times, %d areas", p.Version-v0, len(p.Areas))
	}
	// Same key, different body or path: 409, nothing applied.
	wantError(t, send("k-1", path, `{"Name":"Shed"}`), 409, app.KindIdempotencyKeyReused)
	wantError(t, send("k-1", pathf("/public/proposals/%d/description", a.draft), `{"Description":"Garage"}`), 409, app.KindIdempotencyKeyReused)
	if e.load(a, a.draft).Version != v0+1 {
		t.Fatal("a reused key applied a write")
	}
	// Keys are per user: another user's same key is a new request.
	r := e.do(treq{method: "POST", path: path, body: `{"Name":"Loft"}`, ct: "application/json", as: e.main.sales,
		header: map[string]string{"Idempotency-Key": "k-1"}})
	wantStatus(t, r, 200)
	// A 204 write replays as 204 without a body.
	cpath := pathf("/public/proposals/%d/contact/%d", a.draft, a.contact)
	for i := 0; i < 2; i++ {
		r := e.do(treq{method: "POST", path: cpath, as: u, header: map[string]string{"Idempotency-Key": "k-2"}})
		if r.status != 204 || len(r.body) != 0 {
			t.Fatalf("try %d: %d %s", i, r.status, r.body)
		}
	}
	// Concurrent sends of one key apply once.
	p0 := e.proposal(a, "Concurrent")
	var wg sync.WaitGroup
	bodies := make([][]byte, 8)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := send("k-3", pathf("/public/proposals/%d/area", p0.ID), `{"Name":"Porch"}`)
			bodies[i] = r.body
		}()
	}
	wg.Wait()
	for _, b := range bodies[1:] {
		if !bytes.Equal(b, bodies[0]) {
			t.Fatalf("concurrent replays differ:\n%s\n%s", bodies[0], b)
		}
	}
	if p := e.load(a, p0.ID); p.Version != p0.Version+1 {
		t.Fatalf("applied %d times", p.Version-p0.Version)
	}
}

func TestIfMatch(t *testing.T) {
	e := newEnv(t)
	u, a := e.main.admin, e.main
	r := e.get(u, pathf("/public/proposals/%d", a.draft))
	etag := r.header.Get("ETag")
	d := detail(t, r)
	if etag != fmt.Sprintf(`"%d"`, d.Version) {
		t.Fatalf("ETag %s, version %d", etag, d.Version)
	}
	if lm := r.header.Get("Last-Modified"); lm != d.LastModifiedDate.UTC().Format(http.TimeFormat) {
		t.Fatalf("Last-Modified %q vs %v", lm, d.LastModifiedDate)
	}
	path := pathf("/public/proposals/%d/description", a.draft)
	send := func(ifMatch, text string) tres {
		return e.do(treq{method: "POST", path: path, body: `{"Description":"` + text + `"}`, ct: "application/json", as: u,
			header: map[string]string{"If-Match": ifMatch}})
	}
	ok := send(etag, "first")
	d2 := detail(t, ok)
	if ok.header.Get("ETag") != fmt.Sprintf(`"%d"`, d2.Version) || d2.Version != d.Version+1 {
		t.Fatalf("write ETag %s, version %d", ok.header.Get("ETag"), d2.Version)
	}
	wantError(t, send(etag, "second"), 412, app.KindPreconditionFailed)
	if p := e.load(a, a.draft); p.ProjectDescription != "first" || p.Version != d2.Version {
		t.Fatalf("a stale If-Match changed the proposal: %q v%d", p.ProjectDescription, p.Version)
	}
	wantStatus(t, send("*", "third"), 200)
	wantStatus(t, send(`"1", W/"`+fmt.Sprint(d2.Version+1)+`"`, "fourth"), 200)

	// Change order GET carries ETag and Last-Modified.
	r = e.get(u, pathf("/public/proposals/%d/changeorders/%d", a.locked, a.changeOrder))
	wantStatus(t, r, 200)
	if r.header.Get("ETag") == "" || r.header.Get("Last-Modified") == "" {
		t.Fatalf("change order headers %v", r.header)
	}
}

func TestRacingCreateOption(t *testing.T) {
	e := newEnv(t)
	a := e.main
	p := e.proposal(a, "Race")
	p = e.apply(a, p, &app.CreateArea{ID: p.ID, Name: "Fresh"})
	path := pathf("/public/proposals/%d/area/%d/option", p.ID, p.Areas[0].ID)
	statuses := make([]tres, 10)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = e.postJSON(a.admin, path, fmt.Sprintf(`{"ClientDescription":"c%d"}`, i))
		}()
	}
	wg.Wait()
	okCount := 0
	for _, r := range statuses {
		switch r.status {
		case 200:
			okCount++
		case 400:
			wantError(t, r, 400, app.KindOptionLimitReached)
		default:
			t.Errorf("status %d: %s", r.status, r.body)
		}
	}
	got := e.load(a, p.ID)
	if n := len(got.Areas[0].Options); n != 3 || okCount != 2 {
		t.Fatalf("%d options, %d successes", n, okCount)
	}
}

func TestRacingCreateArea(t *testing.T) {
	e := newEnv(t)
	a := e.main
	p := e.proposal(a, "Areas")
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.postJSON(a.admin, pathf("/public/proposals/%d/area", p.ID), fmt.Sprintf(`{"Name":"Room %d"}`, i))
			if r.status != 200 {
				t.Errorf("%d: %s", r.status, r.body)
			}
		}()
	}
	wg.Wait()
	got := e.load(a, p.ID)
	if len(got.Areas) != 16 || got.Version != p.Version+16 {
		t.Fatalf("%d areas, version %d", len(got.Areas), got.Version)
	}
}

func TestFormAndJSONBodies(t *testing.T) {
	e := newEnv(t)
	u, a := e.main.admin, e.main
	// Create: mixed-case names, form and JSON.
	d := detail(t, e.postForm(u, "/public/proposals", pathf("salespersonID=%d&NAME=Form+job&unknown=1", a.sales.rec.ID)))
	if d.Name != "Form job" || d.Status != app.StatusDraft || d.Dealer.Salesperson.ID != a.sales.rec.ID {
		t.Fatalf("form create: %+v", d.Name)
	}
	d = detail(t, e.postJSON(u, "/public/proposals", pathf(`{"SALESPERSONID":"%d","extra":{"x":[1]}}`, a.admin.rec.ID)))
	if d.Name != app.DefaultProposalName(d.Number) {
		t.Fatalf("default name %q", d.Name)
	}
	id := d.ID
	// Update name only, then salesperson only: omitted fields keep values.
	d = detail(t, e.postJSON(u, pathf("/public/proposals/%d", id), `{"nAmE":"Renamed"}`))
	d = detail(t, e.postForm(u, pathf("/public/proposals/%d", id), pathf("SalesPersonId=%d", a.sales.rec.ID)))
	if d.Name != "Renamed" || d.Dealer.Salesperson.ID != a.sales.rec.ID {
		t.Fatalf("partial update: %q %d", d.Name, d.Dealer.Salesperson.ID)
	}
	d = detail(t, e.postForm(u, pathf("/public/proposals/%d/description", id), "description=Client+text"))
	d = detail(t, e.postJSON(u, pathf("/public/proposals/%d/internalnotes", id), `{"internalnotes":"Gate code 1234"}`))
	if d.ProjectDescription != "Client text" || d.InternalNotes != "Gate code 1234" {
		t.Fatalf("texts: %q %q", d.ProjectDescription, d.InternalNotes)
	}
	d = detail(t, e.postForm(u, pathf("/public/proposals/%d/area", id), "name=Kitchen"))
	areaID := d.Areas[0].ID
	if len(d.Areas[0].Options) != 1 || d.Areas[0].Options[0].Status != app.OptionDraft {
		t.Fatalf("default option: %+v", d.Areas[0])
	}
	d = detail(t, e.postForm(u, pathf("/public/proposals/%d/area/%d/option", id, areaID), "clientDESCRIPTION=Good&InternalNotes=Wire"))
	opt := d.Areas[0].Options[1]
	if opt.ClientDescription != "Good" || opt.InstallerDescription != "Wire" {
		t.Fatalf("option: %+v", opt)
	}
	d = detail(t, e.postJSON(u, pathf("/public/proposals/%d/area-options/%d/clientdescription", id, opt.ID), `{"CLIENTDESCRIPTION":""}`))
	d = detail(t, e.postForm(u, pathf("/public/proposals/%d/area-options/%d/installernotes", id, opt.ID), "installernotes=Ladder"))
	if o := d.Areas[0].Options[1]; o.ClientDescription != "" || o.InstallerDescription != "Ladder" {
		t.Fatalf("option edits: %+v", o)
	}
	// Assign contact with a matching JSON body; its primary location
	// comes along and taxes are set.
	r := e.postJSON(u, pathf("/public/proposals/%d/contact/%d", id, a.contact), pathf(`{"proposalId":%d,"ContactId":%d}`, id, a.contact))
	wantStatus(t, r, 204)
	d = detail(t, e.get(u, pathf("/public/proposals/%d", id)))
	if d.Customer == nil || d.Customer.Location == nil || d.Customer.Location.ID != a.loc {
		t.Fatalf("customer: %+v", d.Customer)
	}
	d = detail(t, e.postJSON(u, pathf("/public/proposals/%d/location/%d", id, a.loc2), pathf(`{"locationId":%d}`, a.loc2)))
	if d.Customer.Location.ID != a.loc2 {
		t.Fatalf("location: %+v", d.Customer.Location)
	}
	// Status change extension, form body.
	d = detail(t, e.postForm(u, pathf("/public/proposals/%d/status", id), "status=submitted"))
	if d.Status != app.StatusSubmitted {
		t.Fatalf("status %s", d.Status)
	}
	wantError(t, e.postForm(u, pathf("/public/proposals/%d/status", id), "Status=Completed"), 409, app.KindInvalidTransition)
}

func TestPeopleUsersAndChanges(t *testing.T) {
	e := newEnv(t)
	u, a := e.main.admin, e.main
	var people peopleResponse
	e.get(u, "/public/people?sortby=FirstName").json(t, &people)
	if people.Count != 2 || len(people.People) != 2 {
		t.Fatalf("%+v", people)
	}
	r := e.postForm(u, "/public/people", "partytype=Person&ContactType=client&FirstName=Cy&LastName=Do&ContactEmail=cy%40do.test")
	var c app.Contact
	wantStatus(t, r, 200)
	r.json(t, &c)
	if c.ID == 0 || c.PartyType != app.PartyPerson {
		t.Fatalf("%+v", c)
	}
	var got app.Contact
	e.get(u, pathf("/public/people/%d", c.ID)).json(t, &got)
	if got != c {
		t.Fatalf("%+v != %+v", got, c)
	}
	var loc app.ContactLocation
	r = e.postJSON(u, pathf("/public/people/%d/location", a.contact), `{"street":"5 New Rd","State":"Texas","isPrimary":true}`)
	wantStatus(t, r, 200)
	r.json(t, &loc)
	var locs []app.ContactLocation
	e.get(u, pathf("/public/people/%d/location", a.contact)).json(t, &locs)
	primaries := 0
	for _, l := range locs {
		if l.IsPrimary {
			primaries++
			if l.ID != loc.ID {
				t.Errorf("old location still primary")
			}
		}
	}
	if len(locs) != 3 || primaries != 1 {
		t.Fatalf("%d locations, %d primary", len(locs), primaries)
	}
	var users []app.Salesperson
	e.get(u, "/public/users").json(t, &users)
	if len(users) < 3 {
		t.Fatalf("users %+v", users)
	}
	var ch changesResponse
	e.get(u, "/public/changes").json(t, &ch)
	if ch.StoreID == "" || ch.Cursor == "" || len(ch.ProposalIDs) < 2 {
		t.Fatalf("%+v", ch)
	}
	detail(t, e.postJSON(u, pathf("/public/proposals/%d/description", a.draft), `{"Description":"moved"}`))
	var ch2 changesResponse
	e.get(u, "/public/changes?since="+ch.Cursor).json(t, &ch2)
	if len(ch2.ProposalIDs) != 1 || ch2.ProposalIDs[0] != a.draft {
		t.Fatalf("%+v", ch2)
	}
	var cos []app.ChangeOrderSummary
	e.get(u, pathf("/public/proposals/%d/changeorders", a.draft)).json(t, &cos)
	if cos == nil || len(cos) != 0 {
		t.Fatalf("empty change orders: %v", cos)
	}
}

func TestPanicIsInternalError(t *testing.T) {
	e := newEnv(t)
	e.s.mux.HandleFunc("GET /panic", func(http.ResponseWriter, *http.Request) { panic("secret internals") })
	r := e.do(treq{method: "GET", path: "/panic", unsigned: true})
	b := wantError(t, r, 500, app.KindInternal)
	if bytes.Contains(r.body, []byte("secret internals")) || b.Message != msgInternal {
		t.Fatalf("leaks: %s", r.body)
	}
	if !bytes.Contains([]byte(e.logs.String()), []byte("secret internals")) {
		t.Fatal("panic not logged")
	}
}
