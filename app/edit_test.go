package app_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"proposaldesk/app"
)

// editExamples holds one filled-in value of every kind of edit, with the
// request it becomes. The bodies are the bytes earlier versions of the
// desktop sent: an outbox entry queued before an upgrade and sent again
// after it must carry the same body, or its Idempotency-Key would be
// refused as reused.
func editExamples() []struct {
	m    app.Mutation
	path string
	body string
} {
	name, sp := "New name", int64(5)
	return []struct {
		m    app.Mutation
		path string
		body string
	}{
		{&app.CreateProposal{SalesPersonID: 5, Name: &name, ID: -1}, "/public/proposals", `{"SalesPersonId":5,"Name":"New name"}`},
		{&app.CreateProposal{SalesPersonID: 5}, "/public/proposals", `{"SalesPersonId":5}`},
		{&app.UpdateProposal{ID: 7, Name: &name}, "/public/proposals/7", `{"Name":"New name"}`},
		{&app.UpdateProposal{ID: 7, SalesPersonID: &sp}, "/public/proposals/7", `{"SalesPersonId":5}`},
		{&app.UpdateProposal{ID: 7, Name: &name, SalesPersonID: &sp}, "/public/proposals/7", `{"Name":"New name","SalesPersonId":5}`},
		{&app.SetDescription{ID: 7, Description: "d <b> & é"}, "/public/proposals/7/description", `{"Description":"d \u003cb\u003e \u0026 é"}`},
		{&app.SetInternalNotes{ID: 7, InternalNotes: "n"}, "/public/proposals/7/internalnotes", `{"InternalNotes":"n"}`},
		{&app.CreateArea{ID: 7, Name: "Den", AreaID: -99, OptionID: -98}, "/public/proposals/7/area", `{"Name":"Den"}`},
		{&app.CreateOption{ID: 7, AreaID: 3, ClientDescription: "c", OptionID: -97}, "/public/proposals/7/area/3/option", `{"ClientDescription":"c","InternalNotes":""}`},
		{&app.SetOptionClientDescription{ID: 7, OptionID: 4, ClientDescription: ""}, "/public/proposals/7/area-options/4/clientdescription", `{"ClientDescription":""}`},
		{&app.SetOptionInstallerNotes{ID: 7, OptionID: 4, InstallerNotes: "i"}, "/public/proposals/7/area-options/4/installernotes", `{"InstallerNotes":"i"}`},
		{&app.AssignContact{ID: 7, ContactID: 8}, "/public/proposals/7/contact/8", `{"proposalId":7,"contactId":8}`},
		{&app.AssignLocation{ID: 7, LocationID: 9}, "/public/proposals/7/location/9", `{"proposalId":7,"locationId":9}`},
		{&app.ChangeStatus{ID: 7, Status: app.StatusSubmitted}, "/public/proposals/7/status", `{"Status":"Submitted"}`},
		{&app.AddItem{ID: 7, OptionID: 4, CatalogItemID: ptr(int64(55)), Quantity: ptr(app.MustQuantity("2.5")), ItemID: -90},
			"/public/proposals/7/area-options/4/items", `{"CatalogItemId":55,"Quantity":2.5}`},
		{&app.AddItem{ID: 7, OptionID: 4, ItemType: ptr(app.ItemLabor), Name: ptr("Install"), SellPrice: ptr(app.MustMoney("95")),
			Cost: ptr(app.MustMoney("40.5")), ParentID: ptr(int64(12)), IsTaxExempt: ptr(true), ClientNote: ptr("n")},
			"/public/proposals/7/area-options/4/items",
			`{"ItemType":"Labor","Name":"Install","SellPrice":95.00,"Cost":40.50,"ParentId":12,"IsTaxExempt":true,"ClientNote":"n"}`},
		{&app.ChangeItem{ID: 7, ItemID: 12, Quantity: ptr(app.MustQuantity("3")), ParentID: ptr(int64(0)), OptionID: ptr(int64(5)), Position: ptr(int64(0))},
			"/public/proposals/7/items/12", `{"Quantity":3,"ParentId":0,"AreaOptionId":5,"Position":0}`},
		{&app.RemoveItem{ID: 7, ItemID: 12}, "/public/proposals/7/items/12", `{}`},
		{&app.RenameArea{ID: 7, AreaID: 3, Name: "Den"}, "/public/proposals/7/area/3", `{"Name":"Den"}`},
		{&app.RemoveArea{ID: 7, AreaID: 3}, "/public/proposals/7/area/3", `{}`},
		{&app.RemoveOption{ID: 7, OptionID: 4}, "/public/proposals/7/area-options/4", `{}`},
		{&app.SetOptionStatus{ID: 7, OptionID: 4, Status: app.OptionSelected}, "/public/proposals/7/area-options/4/status", `{"Status":"Selected"}`},
		{&app.SetPricing{ID: 7, DiscountType: ptr(app.DiscountPercentage), DiscountPercentage: ptr(app.MustRate("12.5"))},
			"/public/proposals/7/pricing", `{"PartsDiscountType":"Percentage","PartsDiscountPercentage":12.5}`},
		{&app.SetArchived{ID: 7, IsArchived: true}, "/public/proposals/7/archive", `{"IsArchived":true}`},
		{&app.CopyProposal{ID: 7, Name: ptr("Copy"), NewIDs: []int64{-1, -2}}, "/public/proposals/7/copy", `{"Name":"Copy"}`},
		{&app.AcceptInPerson{ID: 7, SignerName: "Ann Lee", SignatureImage: "iVBORw0KGgo=", SnapshotHash: "ab12",
			SignedAt: "2026-11-26T14:05:00+01:00", DeviceID: "laptop-1", Options: []app.OptionChoice{{AreaID: 3, OptionID: 4}}},
			"/public/proposals/7/accept-in-person",
			`{"SignerName":"Ann Lee","SignatureImage":"iVBORw0KGgo=","SnapshotHash":"ab12","SignedAt":"2026-11-26T14:05:00+01:00","DeviceId":"laptop-1","Options":[{"AreaId":3,"AreaOptionId":4}]}`},
	}
}

func TestRequestOfEveryEdit(t *testing.T) {
	for _, c := range editExamples() {
		method, path, body, err := app.Request(c.m)
		if err != nil {
			t.Errorf("%s: %v", c.m.Kind(), err)
			continue
		}
		if method != c.m.Route().Method || path != c.path || string(body) != c.body {
			t.Errorf("%s: %s %s %s, want POST %s %s", c.m.Kind(), method, path, body, c.path, c.body)
		}
	}
	if _, _, _, err := app.Request(&app.SetDescription{ID: 0}); err == nil {
		t.Error("an edit of proposal 0 was given a request")
	} else if want := "setDescription: ProposalId 0 cannot be sent"; err.Error() != want {
		// The message names the ID's value, not where it is held.
		t.Errorf("error %q, want %q", err, want)
	}
	if _, _, _, err := app.Request(&app.SetDescription{ID: -3}); err == nil {
		t.Error("an edit of a temporary proposal ID was given a request")
	}
}

// TestEveryKindDescribesItself walks the registry: each kind has an
// example, a route whose path parameters it binds, a body that encodes
// and decodes through its params, an outbox encoding that round-trips,
// conflict fields, words for people, and IDs that remap.
func TestEveryKindDescribesItself(t *testing.T) {
	examples := map[app.MutationKind]app.Mutation{}
	for _, c := range editExamples() {
		examples[c.m.Kind()] = c.m
	}
	kinds := app.MutationKinds()
	if len(kinds) < 11 {
		t.Fatalf("only %d kinds registered", len(kinds))
	}
	routes := map[string]app.MutationKind{}
	for _, k := range kinds {
		m, ok := examples[k]
		if !ok {
			t.Errorf("%s: no example in editExamples", k)
			continue
		}
		zero, _ := app.NewMutation(k)
		r := zero.Route()
		if (r.Method != "POST" && r.Method != "DELETE") || !strings.HasPrefix(r.Path, "/public/") || r.Name == "" || r.Summary == "" || r.Doc == "" {
			t.Errorf("%s: incomplete route %+v", k, r)
		}
		if other, dup := routes[r.Pattern()]; dup {
			t.Errorf("%s and %s share the route %s", k, other, r.Pattern())
		}
		routes[r.Pattern()] = k
		// Every {Param} of the path is bound, and nothing else is in the path.
		var bound []string
		for _, p := range app.PathParams(zero) {
			bound = append(bound, p.Name)
			if !strings.Contains(r.Path, "{"+p.Name+"}") {
				t.Errorf("%s: path param %s is not in %s", k, p.Name, r.Path)
			}
		}
		if n := strings.Count(r.Path, "{"); n != len(bound) {
			t.Errorf("%s: %s has %d parameters, %d bound", k, r.Path, n, len(bound))
		}
		for _, p := range zero.Params() {
			if p.Name == "" || (p.In == app.InBody && p.Doc == "") {
				t.Errorf("%s: param %+v needs a name and a description", k, p)
			}
			if p.Type == app.ParamEnum && len(p.Enum) == 0 {
				t.Errorf("%s: enum param %s lists no values", k, p.Name)
			}
		}
		if zero.Operation() == "" || zero.Operation().Permission() == "" {
			t.Errorf("%s: operation %q", k, zero.Operation())
		}

		// Outbox encoding round-trips.
		raw, err := app.EncodeMutation(m)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		back, err := app.DecodeMutation(raw)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		again, _ := app.EncodeMutation(back)
		if string(again) != string(raw) || back.Kind() != k {
			t.Errorf("%s: outbox round trip\n %s\n %s", k, raw, again)
		}

		// The request decodes back into the same mutation through Params,
		// as the server reads it.
		_, _, body, err := app.Request(m)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		fromWire := decodeLikeServer(t, k, m, body)
		for _, id := range app.CreatedIDs(fromWire) {
			if id != 0 {
				t.Errorf("%s: created ID %d came through the request", k, id)
			}
		}
		_, path0, body0, _ := app.Request(m)
		_, path1, body1, err := app.Request(fromWire)
		if err != nil || path1 != path0 || string(body1) != string(body0) {
			t.Errorf("%s: request does not decode to the edit\n sent %s %s\n got  %s %s (%v)", k, path0, body0, path1, body1, err)
		}

		if len(m.Writes()) == 0 {
			t.Errorf("%s: writes no conflict-checked field", k)
		}
		for _, f := range m.Writes() {
			if app.FieldLabel(f) == string(f) {
				t.Errorf("%s: field %q has no words for people", k, f)
			}
		}
		if d := m.Describe(); d == "" || strings.Contains(d, string(k)) {
			t.Errorf("%s: description %q", k, d)
		}

		// Every ID remaps.
		c, _ := app.Copy(m)
		ids := append(app.RefIDs(c), app.CreatedIDs(c)...)
		for _, id := range ids {
			if id == 0 {
				continue
			}
			if !app.RemapID(c, id, id+1000) {
				t.Errorf("%s: ID %d did not remap", k, id)
			}
		}
		for _, id := range append(app.RefIDs(c), app.CreatedIDs(c)...) {
			if id != 0 && !slices.Contains(ids, id-1000) {
				t.Errorf("%s: ID %d after remapping is not one of %v moved", k, id, ids)
			}
		}
	}
}

// decodeLikeServer reads a request body into a fresh mutation of kind k
// through its params, with the path IDs of m, as the server does.
func decodeLikeServer(t *testing.T, k app.MutationKind, m app.Mutation, body []byte) app.Mutation {
	t.Helper()
	out, _ := app.NewMutation(k)
	for _, p := range app.PathParams(m) {
		v, _ := p.Value()
		for _, q := range app.PathParams(out) {
			if q.Name == p.Name {
				q.Set(v)
			}
		}
	}
	fields := decodeJSONObject(t, body)
	for _, p := range app.BodyParams(out) {
		v, ok := fields[strings.ToLower(p.Name)]
		if !ok {
			continue
		}
		if p.Type == app.ParamChoices {
			raw, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			v = json.RawMessage(raw)
		}
		if n, isNumber := v.(json.Number); isNumber {
			switch p.Type {
			case app.ParamID, app.ParamInt:
				i, err := n.Int64()
				if err != nil {
					t.Fatalf("%s: %s: %v", k, p.Name, err)
				}
				v = i
			default:
				v = n.String()
			}
		}
		if err := p.Set(v); err != nil {
			t.Errorf("%s: set %s: %v", k, p.Name, err)
		}
	}
	return out
}

// decodeJSONObject reads a body's fields by lower-cased name: numbers as
// json.Number, strings, booleans.
func decodeJSONObject(t *testing.T, body []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	out := map[string]any{}
	for k, v := range raw {
		out[strings.ToLower(k)] = v
	}
	return out
}
