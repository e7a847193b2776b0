package spec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/openapi"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
	"proposaldesk/app/signing"
)

// demoAPI is a real server over the demo data on loopback, with the
// document's validator.
type demoAPI struct {
	t      *testing.T
	srv    *httptest.Server
	creds  demo.Credentials
	schema *validator
	// checked counts the responses validated, per route.
	checked map[string]int
	st      *boltstore.Store
}

func startDemo(t *testing.T) *demoAPI {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "demo.db"), boltstore.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	creds, err := demo.Seed(context.Background(), st, demo.Options{BaseURL: "http://127.0.0.1", Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(apiserver.New(apiserver.Config{Logger: slog.New(slog.DiscardHandler)}, st))
	t.Cleanup(srv.Close)
	v, err := newValidator(openapi.JSON())
	if err != nil {
		t.Fatal(err)
	}
	return &demoAPI{t: t, srv: srv, creds: creds, schema: v, checked: map[string]int{}, st: st}
}

// A call is one signed request, named by its route so that its response
// is checked against that route's documented response.
type call struct {
	method, pattern string
	// path is the concrete path with its query; empty means pattern.
	path string
	key  string
	body any
	want int
}

// do sends c, checks the status, the documented headers and the body
// against the document, and returns the body.
func (d *demoAPI) do(c call) []byte {
	d.t.Helper()
	path := c.path
	if path == "" {
		path = c.pattern
	}
	var body io.Reader
	var b []byte
	ct := ""
	if csvBody, isCSV := c.body.(csvText); isCSV {
		body, ct = strings.NewReader(string(csvBody)), "text/csv"
	} else if c.body != nil {
		var err error
		if b, err = json.Marshal(c.body); err != nil {
			d.t.Fatal(err)
		}
		body, ct = bytes.NewReader(b), "application/json"
	}
	u := d.srv.URL + path
	req, err := http.NewRequest(c.method, u, body)
	if err != nil {
		d.t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	req.Header.Set("Accept", "application/json")
	sig := signing.Request{Method: c.method, URL: u, ContentType: ct, AppID: d.creds.AppID,
		Secret: d.creds.AppSecret, UserKey: c.key, Now: time.Now()}
	for k, v := range sig.Headers() {
		req.Header.Set(k, v)
	}
	resp, err := d.srv.Client().Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		d.t.Fatal(err)
	}
	// Messages name the path without its query, which may hold a password.
	where := c.method + " " + strings.SplitN(path, "?", 2)[0]
	if _, isCSV := c.body.(csvText); c.body != nil && !isCSV && c.want < 300 {
		d.checkRequest(where, c, b)
	}
	if resp.StatusCode != c.want {
		d.t.Fatalf("%s: status %d, want %d: %s", where, resp.StatusCode, c.want, raw)
	}
	d.checkResponse(where, c, resp.Header, raw)
	return raw
}

// csvText is a call's body sent as text/csv (the catalog import).
type csvText string

// operation is the document's operation of c's route.
func (d *demoAPI) operation(c call) map[string]any {
	d.t.Helper()
	ops, _ := d.schema.doc["paths"].(map[string]any)[c.pattern].(map[string]any)
	op, _ := ops[strings.ToLower(c.method)].(map[string]any)
	if op == nil {
		d.t.Fatalf("the document has no %s %s", c.method, c.pattern)
	}
	return op
}

// checkRequest checks the body the test sends against the route's
// documented request body, so the document's field names and types are
// the ones the server accepted.
func (d *demoAPI) checkRequest(where string, c call, body []byte) {
	d.t.Helper()
	rb, _ := d.operation(c)["requestBody"].(map[string]any)
	if rb == nil {
		d.t.Fatalf("%s: the document has no request body", where)
	}
	schema := rb["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var val any
	if err := dec.Decode(&val); err != nil {
		d.t.Fatal(err)
	}
	for _, e := range d.schema.check("request", schema, val) {
		d.t.Errorf("%s: %s", where, e)
	}
}

// checkResponse finds the route's documented response for the status and
// checks the real one against it.
func (d *demoAPI) checkResponse(where string, c call, h http.Header, raw []byte) {
	d.t.Helper()
	resp, _ := d.operation(c)["responses"].(map[string]any)[fmt.Sprint(c.want)].(map[string]any)
	if resp == nil {
		d.t.Fatalf("%s: the document has no %d response", where, c.want)
	}
	if ref, ok := resp["$ref"].(string); ok {
		var err error
		if resp, err = d.schema.resolve(ref); err != nil {
			d.t.Fatal(err)
		}
	}
	for name := range resp["headers"].(map[string]any) {
		// Idempotent-Replayed is only on a replay.
		if name != "Idempotent-Replayed" && h.Get(name) == "" {
			d.t.Errorf("%s: documented header %s is missing", where, name)
		}
	}
	content, _ := resp["content"].(map[string]any)
	if content == nil {
		if len(raw) != 0 {
			d.t.Errorf("%s: the document says no body, got %d bytes", where, len(raw))
		}
		d.checked[c.method+" "+c.pattern]++
		return
	}
	media, _ := content["application/json"].(map[string]any)
	if media == nil {
		d.t.Fatalf("%s: no application/json response documented", where)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var val any
	if err := dec.Decode(&val); err != nil {
		d.t.Fatalf("%s: body is not JSON: %v", where, err)
	}
	errs := d.schema.check("body", media["schema"].(map[string]any), val)
	for i, e := range errs {
		if i == 10 {
			d.t.Errorf("%s: … %d more", where, len(errs)-10)
			break
		}
		d.t.Errorf("%s: %s", where, e)
	}
	d.checked[c.method+" "+c.pattern]++
}

// exchange signs in as the main account's user of the role.
func (d *demoAPI) exchange(role app.Role) string {
	d.t.Helper()
	u, ok := d.creds.User(demo.MainAccountName, role, true)
	if !ok {
		d.t.Fatalf("demo has no %s", role)
	}
	raw := d.do(call{method: "GET", pattern: "/authenticate/apikeyexchange", want: 200,
		path: "/authenticate/apikeyexchange?UserName=" + url.QueryEscape(u.Email) + "&Password=" + url.QueryEscape(u.Password)})
	var r struct {
		Meta struct {
			APIKey string `json:"apiKey"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.Meta.APIKey == "" {
		d.t.Fatalf("exchange: no key in %s", raw)
	}
	return r.Meta.APIKey
}

func decode[T any](t *testing.T, raw []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestDemoResponsesMatchSchemas: real responses of a demo server, for
// every read route and the writes, have every field their schema
// requires, each of the declared type, and no field the schema does not
// list; the documented headers are there.
func TestDemoResponsesMatchSchemas(t *testing.T) {
	d := startDemo(t)
	admin, viewer := d.exchange(app.RoleAdmin), d.exchange(app.RoleViewer)

	list := decode[app.ListResponse](t, d.do(call{method: "GET", pattern: "/public/proposals", path: "/public/proposals?PageSize=200", key: admin, want: 200}))
	if len(list.Proposals) < 30 {
		t.Fatalf("demo lists %d proposals", len(list.Proposals))
	}
	for _, p := range list.Proposals {
		pp := fmt.Sprintf("/public/proposals/%d", p.ID)
		det := decode[app.ProposalDetail](t, d.do(call{method: "GET", pattern: "/public/proposals/{ProposalId}", path: pp, key: admin, want: 200}))
		d.do(call{method: "GET", pattern: "/public/proposals/{ProposalId}", path: pp, key: viewer, want: 200})
		d.do(call{method: "GET", pattern: "/public/proposals/{ProposalId}/changeorders", path: pp + "/changeorders", key: admin, want: 200})
		d.do(call{method: "GET", pattern: "/public/proposals/{ProposalId}/items", path: pp + "/items", key: viewer, want: 200})
		for _, co := range det.ChangeOrders {
			d.do(call{method: "GET", pattern: "/public/proposals/{ProposalId}/changeorders/{ChangeOrderId}",
				path: fmt.Sprintf("%s/changeorders/%d", pp, co.ID), key: admin, want: 200})
		}
	}
	people := decode[struct {
		People []app.Contact `json:"people"`
	}](t, d.do(call{method: "GET", pattern: "/public/people", path: "/public/people?PageSize=200", key: admin, want: 200}))
	var withLocation int64
	for _, c := range people.People {
		pp := fmt.Sprintf("/public/people/%d", c.ID)
		d.do(call{method: "GET", pattern: "/public/people/{PersonId}", path: pp, key: admin, want: 200})
		locs := decode[[]app.ContactLocation](t, d.do(call{method: "GET", pattern: "/public/people/{PersonId}/location", path: pp + "/location", key: admin, want: 200}))
		if len(locs) > 0 && withLocation == 0 {
			withLocation = c.ID
		}
	}
	users := decode[[]app.Salesperson](t, d.do(call{method: "GET", pattern: "/public/users", key: admin, want: 200}))
	d.do(call{method: "GET", pattern: "/public/changes", key: admin, want: 200})

	// Writes: a new proposal taken through the edits, and a new person.
	created := decode[app.ProposalDetail](t, d.do(call{method: "POST", pattern: "/public/proposals", key: admin, want: 200,
		body: map[string]any{"SalesPersonId": users[0].ID}}))
	pp := fmt.Sprintf("/public/proposals/%d", created.ID)
	withArea := decode[app.ProposalDetail](t, d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/area", path: pp + "/area", key: admin, want: 200,
		body: map[string]any{"Name": "Media room"}}))
	withOption := decode[app.ProposalDetail](t, d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/area/{AreaId}/option", key: admin, want: 200,
		path: fmt.Sprintf("%s/area/%d/option", pp, withArea.Areas[0].ID), body: map[string]any{"ClientDescription": "Premium"}}))
	// The content edits.
	opt, opt2 := withOption.Areas[0].Options[0].ID, withOption.Areas[0].Options[1].ID
	withItem := decode[app.ProposalDetail](t, d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/area-options/{AreaOptionId}/items",
		path: fmt.Sprintf("%s/area-options/%d/items", pp, opt), key: admin, want: 200,
		body: map[string]any{"ItemType": "Part", "Name": "Cable", "SellPrice": 4.99, "Quantity": 2}}))
	item := withItem.Areas[0].Options[0].Items[0].ID
	d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/items/{ItemId}", path: fmt.Sprintf("%s/items/%d", pp, item),
		key: admin, want: 200, body: map[string]any{"Quantity": 3, "ClientNote": "White"}})
	d.do(call{method: "GET", pattern: "/public/proposals/{ProposalId}/items", path: pp + "/items", key: admin, want: 200})
	d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/area-options/{AreaOptionId}/status",
		path: fmt.Sprintf("%s/area-options/%d/status", pp, opt), key: admin, want: 200, body: map[string]any{"Status": "Selected"}})
	d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/pricing", path: pp + "/pricing", key: admin, want: 200,
		body: map[string]any{"PartsDiscountType": "Percentage", "PartsDiscountPercentage": 5}})
	d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/area/{AreaId}", path: fmt.Sprintf("%s/area/%d", pp, withArea.Areas[0].ID),
		key: admin, want: 200, body: map[string]any{"Name": "Theater"}})
	d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/copy", path: pp + "/copy", key: admin, want: 200,
		body: map[string]any{"Name": "Theater, again"}})
	d.do(call{method: "DELETE", pattern: "/public/proposals/{ProposalId}/items/{ItemId}", path: fmt.Sprintf("%s/items/%d", pp, item), key: admin, want: 200})
	d.do(call{method: "DELETE", pattern: "/public/proposals/{ProposalId}/area-options/{AreaOptionId}",
		path: fmt.Sprintf("%s/area-options/%d", pp, opt2), key: admin, want: 200})
	d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/contact/{ContactId}", key: admin, want: 204,
		path: fmt.Sprintf("%s/contact/%d", pp, withLocation)})
	d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/status", path: pp + "/status", key: admin, want: 200,
		body: map[string]any{"Status": "Submitted"}})
	d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/send", path: pp + "/send", key: admin, want: 200,
		body: map[string]any{"To": "client@example.com", "Message": "Your proposal"}})
	d.do(call{method: "GET", pattern: "/public/proposals/{ProposalId}/events", path: pp + "/events", key: admin, want: 200})
	person := decode[app.Contact](t, d.do(call{method: "POST", pattern: "/public/people", key: admin, want: 200,
		body: map[string]any{"PartyType": "Person", "ContactType": "Client", "FirstName": "Ada"}}))
	d.do(call{method: "POST", pattern: "/public/people/{PersonId}/location", path: fmt.Sprintf("/public/people/%d/location", person.ID),
		key: admin, want: 200, body: map[string]any{"Street": "1 Main St", "State": "TX", "IsPrimary": true}})
	feed := decode[app.PeopleChanges](t, d.do(call{method: "GET", pattern: "/public/people/changes", path: "/public/people/changes?Limit=3", key: viewer, want: 200}))
	d.do(call{method: "GET", pattern: "/public/people/changes", path: "/public/people/changes?since=" + feed.Cursor, key: admin, want: 200})
	d.do(call{method: "GET", pattern: "/public/people/changes", path: "/public/people/changes?Limit=0", key: admin, want: 400})
	d.do(call{method: "GET", pattern: "/public/sync/proposals", path: fmt.Sprintf("/public/sync/proposals?ids=%d,999999999", created.ID), key: viewer, want: 200})
	d.do(call{method: "GET", pattern: "/public/sync/proposals", path: fmt.Sprintf("/public/sync/proposals?ids=%d", created.ID), key: admin, want: 200})
	d.do(call{method: "GET", pattern: "/public/sync/proposals", path: "/public/sync/proposals?ids=x", key: admin, want: 400})

	// The catalog: search, one item, the changes feed, an import.
	found := decode[app.CatalogResponse](t, d.do(call{method: "GET", pattern: "/public/catalog", path: "/public/catalog?SearchText=sonos%20theater&PageSize=5", key: viewer, want: 200}))
	if len(found.Items) == 0 {
		t.Fatal("the demo catalog has no Sonos items")
	}
	d.do(call{method: "GET", pattern: "/public/catalog/{ItemId}", path: fmt.Sprintf("/public/catalog/%d", found.Items[0].ID), key: admin, want: 200})
	d.do(call{method: "GET", pattern: "/public/catalog/changes", path: "/public/catalog/changes?Limit=3", key: admin, want: 200})
	d.do(call{method: "POST", pattern: "/public/catalog/import", path: "/public/catalog/import?Mode=Merge", key: admin, want: 200,
		body: csvText("ItemType,Name,SellPrice,Brand,PartNumber\r\nPart,Test speaker,199.00,Acme,ACME-1\r\n")})

	d.webhooks(admin, users[0].ID)

	// Errors, in the error body's schema.
	d.do(call{method: "GET", pattern: "/public/proposals/{ProposalId}", path: "/public/proposals/999999999", key: admin, want: 404})
	d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/area", path: pp + "/area", key: admin, want: 400,
		body: map[string]any{"Name": strings.Repeat("x", app.MaxNameLength+1)}})
	d.do(call{method: "POST", pattern: "/public/proposals/{ProposalId}/area", path: pp + "/area", key: viewer, want: 403,
		body: map[string]any{"Name": "Den"}})

	if t.Failed() {
		return
	}
	// The walk reached every schema of the document.
	var missed []string
	for name := range d.schema.doc["components"].(map[string]any)["schemas"].(map[string]any) {
		if d.schema.seen[name] == 0 {
			missed = append(missed, name)
		}
	}
	sort.Strings(missed)
	if len(missed) > 0 {
		t.Errorf("no real response was checked against %v", missed)
	}
	t.Logf("checked %v", d.checked)
}
