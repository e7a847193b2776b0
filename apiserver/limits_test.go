package apiserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"proposaldesk/app"
)

// The limits a client reads in /openapi.json are the limits the server
// applies: for every documented constraint of every request body and
// path ID, a value just inside is accepted and one just outside is 400
// naming the field. The test reads the document the server serves, so a
// new field or limit is walked without changing it; a new route with a
// body needs a baseline below (the test fails until it has one).

// limitFixture is a fresh proposal of the main account with an area, its
// option, an item, and the main contact assigned, so that each case
// starts from a state every edit accepts.
type limitFixture struct {
	proposal, area, option, item int64
}

func (e *tenv) limitFixture() limitFixture {
	a := e.main
	p := e.proposal(a, "Limits")
	p = e.apply(a, p, &app.CreateArea{ID: p.ID, Name: "Kitchen"})
	typ, name := app.ItemPart, "Cable"
	p = e.apply(a, p, &app.AddItem{ID: p.ID, OptionID: p.Areas[0].Options[0].ID, ItemType: &typ, Name: &name})
	p = e.apply(a, p, &app.AssignContact{ID: p.ID, ContactID: a.contact})
	o := p.Areas[0].Options[0]
	return limitFixture{proposal: p.ID, area: p.Areas[0].ID, option: o.ID, item: o.Items[0].ID}
}

// baselines are bodies each route accepts on a fresh fixture, by
// operation ID; a case changes one field of it.
func limitBaselines(e *tenv) map[string]map[string]any {
	return map[string]map[string]any{
		"createPerson":               {"PartyType": "Person", "ContactType": "Client", "FirstName": "Ann"},
		"webhookSubscribe":           {"Url": "https://93.184.216.34/hook", "Events": "proposal.updated"},
		"webhookUpdate":              {"Description": "CRM"},
		"createLocation":             {"Street": "1 Main St", "Country": "Canada"}, // not US: any PostalCode
		"createProposal":             {"SalesPersonId": e.main.admin.rec.ID},
		"updateProposal":             {"Name": "Renamed"},
		"setArchived":                {"IsArchived": true},
		"createArea":                 {"Name": "Den"},
		"setOptionClientDescription": {"ClientDescription": "d"},
		"setOptionInstallerNotes":    {"InstallerNotes": "n"},
		"addItem":                    {"ItemType": "Part", "Name": "Amp"},
		"setOptionStatus":            {"Status": "Selected"},
		"renameArea":                 {"Name": "Den"},
		"createOption":               {},
		"assignContact":              {},
		"copyProposal":               {},
		"setProjectDescription":      {"Description": "d"},
		"setInternalNotes":           {"InternalNotes": "n"},
		"changeItem":                 {"Quantity": 2},
		"assignLocation":             {},
		"setPricing":                 {"PartsDiscountType": "Percentage"},
		"changeStatus":               {"Status": "Submitted"},
		"sendProposal":               {},
		// SnapshotHash is the fixture's own (limitViewHash).
		"acceptInPerson": {"SignerName": "Ann Client", "SignatureImage": inPersonSignature,
			"SignedAt": "2019-03-01T10:00:00+01:00", "DeviceId": "laptop-7"},
	}
}

// inPersonFormed are the acceptance's fields with a form beyond their
// length (a PNG in base64, the hash of the fixture's view, a time): a
// value of the limit's length is refused for its form, so only the
// cases outside the limits are walked here; the form's cases are app's
// case table and inperson_test.go.
var inPersonFormed = map[string]bool{"SignatureImage": true, "SnapshotHash": true, "SignedAt": true}

// limitViewHash is the client view hash of the fixture's proposal, as a
// laptop showing it would sign.
func limitViewHash(e *tenv, fx limitFixture) string {
	h, err := app.ClientViewHash(e.load(e.main, fx.proposal))
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

// A limitCase is one value for one field.
type limitCase struct {
	what   string
	value  any // nil with absent: the field is left out
	absent bool
	inside bool
}

// casesFor are the boundary values of one property's documented schema.
// IDs get no inside case of their own: an ID that exists is the
// baseline's.
func casesFor(s map[string]any, required bool) []limitCase {
	var out []limitCase
	num := func(k string) (*big.Rat, bool) {
		v, ok := s[k]
		if !ok {
			return nil, false
		}
		r, ok := new(big.Rat).SetString(fmt.Sprint(v))
		return r, ok
	}
	step := big.NewRat(1, 1)
	if m, ok := num("multipleOf"); ok {
		step = m
	}
	places := 0
	for d := new(big.Rat).Set(step); !d.IsInt(); d.Mul(d, big.NewRat(10, 1)) {
		places++
	}
	text := func(r *big.Rat) json.Number { return json.Number(r.FloatString(places)) }
	isID := s["type"] == "integer" && fmt.Sprint(s["minimum"]) == "1"
	if lo, ok := num("minimum"); ok {
		if !isID {
			out = append(out, limitCase{"minimum", text(lo), false, true})
		}
		out = append(out, limitCase{"below minimum", text(new(big.Rat).Sub(lo, step)), false, false})
	}
	if lo, ok := num("exclusiveMinimum"); ok {
		out = append(out, limitCase{"just above exclusiveMinimum", text(new(big.Rat).Add(lo, step)), false, true},
			limitCase{"exclusiveMinimum", text(lo), false, false})
	}
	if hi, ok := num("maximum"); ok {
		out = append(out, limitCase{"maximum", text(hi), false, true},
			limitCase{"above maximum", text(new(big.Rat).Add(hi, step)), false, false})
	}
	if _, ok := num("multipleOf"); ok {
		// Just above the lower end, with one decimal more than allowed.
		lo, _ := num("minimum")
		if lo == nil {
			lo, _ = num("exclusiveMinimum")
		}
		if lo == nil {
			lo = new(big.Rat)
		}
		finer := new(big.Rat).Add(lo, new(big.Rat).Add(step, new(big.Rat).Mul(step, big.NewRat(1, 10))))
		out = append(out, limitCase{"one decimal more than multipleOf", json.Number(finer.FloatString(places + 1)), false, false})
	}
	if n, ok := num("minLength"); ok {
		m := int(n.Num().Int64())
		out = append(out, limitCase{"minLength", strings.Repeat("m", m), false, true},
			limitCase{"below minLength", strings.Repeat("m", m-1), false, false})
	}
	if s["pattern"] == `\S` {
		out = append(out, limitCase{"only spaces", "   ", false, false})
	}
	if n, ok := num("maxLength"); ok {
		m := int(n.Num().Int64())
		// A character of two bytes: the limit counts characters.
		fill := func(n int) string { return strings.Repeat("é", n) }
		if s["format"] == "email" {
			fill = func(n int) string { return strings.Repeat("a", n-len("@x.test")) + "@x.test" }
		}
		out = append(out, limitCase{"maxLength", fill(m), false, true},
			limitCase{"above maxLength", fill(m + 1), false, false})
	}
	if vals, ok := s["enum"].([]any); ok {
		// Each value's meaning is the route's; the baseline uses one.
		_ = vals
		out = append(out, limitCase{"not in enum", "NotAValue", false, false})
	}
	if required {
		out = append(out, limitCase{"required, left out", nil, true, false})
	}
	return out
}

func TestDocumentedLimitsAreEnforced(t *testing.T) {
	e := newEnv(t)
	var doc map[string]any
	r := e.get(e.main.admin, "/openapi.json")
	wantStatus(t, r, 200)
	r.json(t, &doc)
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	resolve := func(s map[string]any) map[string]any {
		if ref, ok := s["$ref"].(string); ok {
			return schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		}
		return s
	}
	baselines := limitBaselines(e)
	paths := doc["paths"].(map[string]any)
	walked := 0
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		ops := paths[path].(map[string]any)
		for _, method := range slices.Sorted(maps.Keys(ops)) {
			op := ops[method].(map[string]any)
			id := op["operationId"].(string)
			schema := bodySchema(op)
			if schema == nil || len(schema["properties"].(map[string]any)) == 0 {
				continue
			}
			base, ok := baselines[id]
			if !ok {
				t.Errorf("%s: no baseline body in limitBaselines; add one so its limits are walked", id)
				continue
			}
			required := map[string]bool{}
			reqs, _ := schema["required"].([]any) // absent when every field is optional
			for _, n := range reqs {
				required[n.(string)] = true
			}
			props := schema["properties"].(map[string]any)
			for _, name := range slices.Sorted(maps.Keys(props)) {
				for _, c := range casesFor(resolve(props[name].(map[string]any)), required[name]) {
					if id == "acceptInPerson" && c.inside && inPersonFormed[name] {
						continue
					}
					fx := e.limitFixture()
					body := maps.Clone(base)
					if id == "acceptInPerson" {
						body["SnapshotHash"] = limitViewHash(e, fx)
					}
					if c.absent {
						delete(body, name)
					} else {
						body[name] = c.value
					}
					res := e.postJSON(e.main.admin, fillPath(e, path, fx), body)
					walked++
					checkLimitAnswer(t, id, name, c, res)
				}
			}
		}
	}
	// Query parameters of the reads, from a baseline query each accepts.
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		op, ok := paths[path].(map[string]any)["get"].(map[string]any)
		if !ok {
			continue
		}
		id := op["operationId"].(string)
		if id == "apiKeyExchange" {
			// Signed with an empty user key and answered 401 for any
			// unknown user, so "accepted" needs a real password; its
			// limits are the sign-in tests' (signin_test.go).
			continue
		}
		for _, prm := range op["parameters"].([]any) {
			q := prm.(map[string]any)
			if q["in"] != "query" {
				continue
			}
			name := q["name"].(string)
			s := resolve(q["schema"].(map[string]any))
			if s["type"] == "array" {
				s = resolve(s["items"].(map[string]any))
			}
			for _, c := range casesFor(s, false) {
				if c.inside && strings.Contains(fmt.Sprint(q["description"]), "cursor") {
					continue // only a cursor the server gave is valid
				}
				fx := e.limitFixture()
				v := url.Values{}
				for k, val := range queryBaseline(id, fx) {
					v.Set(k, val)
				}
				v.Set(name, fmt.Sprint(c.value))
				res := e.get(e.main.admin, fillPath(e, path, fx)+"?"+v.Encode())
				walked++
				checkLimitAnswer(t, id, name, c, res)
			}
			if n, ok := q["schema"].(map[string]any)["maxItems"]; ok {
				fx := e.limitFixture()
				ids := make([]string, int(n.(float64))+1) // distinct: repeats count once
				for i := range ids {
					ids[i] = strconv.Itoa(i + 1)
				}
				res := e.get(e.main.admin, fillPath(e, path, fx)+"?"+name+"="+strings.Join(ids, ","))
				walked++
				checkLimitAnswer(t, id, name, limitCase{what: "above maxItems"}, res)
			}
		}
	}
	// Path IDs: 0 is below every documented minimum of 1.
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		for _, method := range slices.Sorted(maps.Keys(paths[path].(map[string]any))) {
			for _, name := range pathParamRE.FindAllStringSubmatch(path, -1) {
				fx := e.limitFixture()
				p := fillPath(e, strings.Replace(path, name[0], "0", 1), fx)
				res := e.do(treq{method: strings.ToUpper(method), path: p, body: "{}", ct: "application/json", as: e.main.admin})
				walked++
				checkLimitAnswer(t, strings.ToUpper(method)+" "+path, name[1], limitCase{what: "path ID 0"}, res)
			}
		}
	}
	if walked < 100 {
		t.Fatalf("walked only %d cases; is the document's shape what the test expects?", walked)
	}
}

// queryBaseline is what a read needs beside the parameter a case sets.
func queryBaseline(op string, fx limitFixture) map[string]string {
	switch op {
	case "exportProposals":
		return map[string]string{"Format": "jsonl"}
	case "syncProposals":
		return map[string]string{"ids": strconv.FormatInt(fx.proposal, 10)}
	}
	return nil
}

func checkLimitAnswer(t *testing.T, op, field string, c limitCase, r tres) {
	t.Helper()
	if c.inside {
		if r.status/100 != 2 {
			t.Errorf("%s %s %s: %d, want it accepted: %.300s", op, field, c.what, r.status, r.body)
		}
		return
	}
	if r.status != 400 {
		t.Errorf("%s %s %s: %d, want 400: %.300s", op, field, c.what, r.status, r.body)
		return
	}
	var b ErrorBody
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Errorf("%s %s %s: %v", op, field, c.what, err)
		return
	}
	for _, f := range b.ResponseStatus.Errors {
		if strings.EqualFold(f.FieldName, field) {
			return
		}
	}
	t.Errorf("%s %s %s: the 400 does not name %s: %.300s", op, field, c.what, field, r.body)
}

func bodySchema(op map[string]any) map[string]any {
	rb, ok := op["requestBody"].(map[string]any)
	if !ok {
		return nil
	}
	js, ok := rb["content"].(map[string]any)["application/json"].(map[string]any)
	if !ok {
		return nil
	}
	return js["schema"].(map[string]any)
}

var pathParamRE = regexp.MustCompile(`\{(\w+)\}`)

func idFor(e *tenv, name string, fx limitFixture) string {
	ids := map[string]int64{
		"ProposalId": fx.proposal, "AreaId": fx.area, "AreaOptionId": fx.option, "ItemId": fx.item,
		"PersonId": e.main.contact, "ContactId": e.main.contact, "LocationId": e.main.loc,
		"ChangeOrderId":  e.main.changeOrder,
		"SubscriptionId": webhookFixture(e), "DeliveryId": 1,
	}
	id, ok := ids[name]
	if !ok {
		e.t.Fatalf("no fixture ID for path parameter %s", name)
	}
	return strconv.FormatInt(id, 10)
}

// fillPath puts the fixture's IDs in a path template.
func fillPath(e *tenv, path string, fx limitFixture) string {
	out := pathParamRE.ReplaceAllStringFunc(path, func(m string) string {
		return idFor(e, m[1:len(m)-1], fx)
	})
	if strings.Contains(path, "{ChangeOrderId}") {
		// Change orders live on the locked proposal.
		out = strings.Replace(out, "/proposals/"+strconv.FormatInt(fx.proposal, 10)+"/", "/proposals/"+strconv.FormatInt(e.main.locked, 10)+"/", 1)
	}
	return out
}
