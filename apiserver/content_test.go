package apiserver

import (
	"bytes"
	"maps"
	"net/http"
	"testing"

	"proposaldesk/app"
)

// The content routes of the contract's "Proposal content and catalog",
// each served from its edit's description in app, over loopback.

func TestContentRoutes(t *testing.T) {
	e := newEnv(t)
	a := e.main
	item := a.item
	theater := e.apply(a, e.load(a, a.draft), &app.CreateArea{ID: a.draft, Name: "Theater"})
	theaterArea, theaterOpt := theater.Areas[1].ID, theater.Areas[1].Options[0].ID
	otherItem := e.other.item
	p := func(format string, args ...any) string { return pathf(format, args...) }

	type row struct {
		name         string
		method, path string
		body         string
		as           *tuser
		status       int
		code         app.Kind
		field        string
		check        func(t *testing.T, d app.ProposalDetail)
	}
	rows := []row{
		{name: "add a labor line", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
			body: `{"ItemType":"labor","Name":"Install","SellPrice":95,"Quantity":"2.5","IsTaxExempt":true}`, status: 200,
			check: func(t *testing.T, d app.ProposalDetail) {
				items := d.Areas[0].Options[0].Items
				if len(items) != 2 || items[1].ItemType != app.ItemLabor || items[1].Quantity != app.MustQuantity("2.5") || !items[1].IsTaxExempt {
					t.Errorf("items %+v", items)
				}
				if d.FinancialSummary.LaborTotal != app.MustMoney("237.50") {
					t.Errorf("labor total %s, want 2.5 × 95", d.FinancialSummary.LaborTotal)
				}
			}},
		{name: "add as a form", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
			body: "ItemType=Fee&Name=Permit&SellPrice=75.50", status: 200},
		{name: "add nested", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
			body: p(`{"ItemType":"Part","Name":"Bracket","ParentId":%d}`, item), status: 200,
			check: func(t *testing.T, d app.ProposalDetail) {
				if items := d.Areas[0].Options[0].Items; items[1].ParentID != app.NullID(item) {
					t.Errorf("second item %+v, want nested under %d", items[1], item)
				}
			}},
		{name: "too many decimals", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
			body: `{"ItemType":"Part","Name":"X","SellPrice":1.005}`, status: 400, code: app.KindValidationFailed, field: "SellPrice"},
		{name: "quantity 0", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
			body: `{"ItemType":"Part","Name":"X","Quantity":0}`, status: 400, code: app.KindValidationFailed, field: "Quantity"},
		{name: "quantity with 5 decimals", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
			body: `{"ItemType":"Part","Name":"X","Quantity":1.00001}`, status: 400, code: app.KindValidationFailed, field: "Quantity"},
		{name: "price as text that is no number", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
			body: `{"ItemType":"Part","Name":"X","SellPrice":"cheap"}`, status: 400, code: app.KindValidationFailed, field: "SellPrice"},
		{name: "unknown catalog item", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
			body: `{"CatalogItemId":987654}`, status: 404, code: app.KindNotFound},
		{name: "no type, no catalog item", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
			body: `{"Name":"X"}`, status: 400, code: app.KindValidationFailed, field: "ItemType"},
		{name: "viewer adds", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, a.option),
			body: `{"ItemType":"Part","Name":"X"}`, as: a.viewer, status: 403, code: app.KindPermissionDenied},
		{name: "add to a locked proposal", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.locked, a.lockedOpt),
			body: `{"ItemType":"Part","Name":"X"}`, status: 409, code: app.KindProposalLocked},
		{name: "add to another account's option", method: "POST", path: p("/public/proposals/%d/area-options/%d/items", a.draft, e.other.option),
			body: `{"ItemType":"Part","Name":"X"}`, status: 404, code: app.KindNotFound},
		{name: "change quantity and price", method: "POST", path: p("/public/proposals/%d/items/%d", a.draft, item),
			body: `{"Quantity":3,"SellPrice":"110.00"}`, status: 200,
			check: func(t *testing.T, d app.ProposalDetail) {
				if it := d.Areas[0].Options[0].Items[0]; it.Quantity != app.MustQuantity("3") || it.SellPrice != app.MustMoney("110") {
					t.Errorf("item %+v", it)
				}
			}},
		{name: "move to another option", method: "POST", path: p("/public/proposals/%d/items/%d", a.draft, item),
			body: p(`{"AreaOptionId":%d}`, theaterOpt), status: 200,
			check: func(t *testing.T, d app.ProposalDetail) {
				if n := len(d.Areas[1].Options[0].Items); n != 2 { // the speaker and its bracket
					t.Errorf("theater has %d items", n)
				}
			}},
		{name: "change another account's item", method: "POST", path: p("/public/proposals/%d/items/%d", a.draft, otherItem),
			body: `{"Quantity":1}`, status: 404, code: app.KindNotFound},
		{name: "negative parent", method: "POST", path: p("/public/proposals/%d/items/%d", a.draft, item),
			body: `{"ParentId":-1}`, status: 400, code: app.KindValidationFailed, field: "ParentId"},
		{name: "rename area", method: "POST", path: p("/public/proposals/%d/area/%d", a.draft, theaterArea),
			body: `{"Name":"Media room"}`, status: 200},
		{name: "rename to a taken name", method: "POST", path: p("/public/proposals/%d/area/%d", a.draft, theaterArea),
			body: `{"Name":" kitchen"}`, status: 400, code: app.KindAreaNameTaken},
		{name: "select option", method: "POST", path: p("/public/proposals/%d/area-options/%d/status", a.draft, a.option),
			body: `{"Status":"selected"}`, status: 200,
			check: func(t *testing.T, d app.ProposalDetail) {
				if d.Areas[0].Options[0].Status != app.OptionSelected {
					t.Errorf("status %s", d.Areas[0].Options[0].Status)
				}
			}},
		{name: "option status missing", method: "POST", path: p("/public/proposals/%d/area-options/%d/status", a.draft, a.option),
			body: `{}`, status: 400, code: app.KindValidationFailed, field: "Status"},
		{name: "remove the last option", method: "DELETE", path: p("/public/proposals/%d/area-options/%d", a.draft, a.option),
			status: 400, code: app.KindValidationFailed, field: "AreaOptionId"},
		{name: "discount", method: "POST", path: p("/public/proposals/%d/pricing", a.draft),
			body: `{"PartsDiscountType":"Percentage","PartsDiscountPercentage":10}`, status: 200,
			check: func(t *testing.T, d app.ProposalDetail) {
				if fs := d.FinancialSummary; fs.PartsDiscountType != app.DiscountPercentage || fs.PartsDiscount == 0 {
					t.Errorf("discount %s of type %s", fs.PartsDiscount, fs.PartsDiscountType)
				}
			}},
		{name: "discount in a locked proposal", method: "POST", path: p("/public/proposals/%d/pricing", a.locked),
			body: `{"PartsDiscountAmount":5}`, status: 409, code: app.KindProposalLocked},
		{name: "archive a locked proposal", method: "POST", path: p("/public/proposals/%d/archive", a.locked),
			body: `{"IsArchived":true}`, status: 200,
			check: func(t *testing.T, d app.ProposalDetail) {
				if !d.IsArchived {
					t.Error("not archived")
				}
			}},
		{name: "archive without the flag", method: "POST", path: p("/public/proposals/%d/archive", a.locked),
			body: `{}`, status: 400, code: app.KindValidationFailed, field: "IsArchived"},
		{name: "remove item", method: "DELETE", path: p("/public/proposals/%d/items/%d", a.draft, item), status: 200,
			check: func(t *testing.T, d app.ProposalDetail) {
				if n := len(d.Areas[1].Options[0].Items); n != 0 {
					t.Errorf("theater still has %d items (the bracket goes with the speaker)", n)
				}
			}},
		{name: "remove it again", method: "DELETE", path: p("/public/proposals/%d/items/%d", a.draft, item), status: 404, code: app.KindNotFound},
		{name: "viewer removes", method: "DELETE", path: p("/public/proposals/%d/area/%d", a.draft, theaterArea), as: a.viewer,
			status: 403, code: app.KindPermissionDenied},
		{name: "remove area", method: "DELETE", path: p("/public/proposals/%d/area/%d", a.draft, theaterArea), status: 200,
			check: func(t *testing.T, d app.ProposalDetail) {
				if len(d.Areas) != 1 {
					t.Errorf("%d areas", len(d.Areas))
				}
			}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			as := r.as
			if as == nil {
				as = a.sales
			}
			ct := "application/json"
			if len(r.body) > 0 && r.body[0] != '{' {
				ct = "application/x-www-form-urlencoded"
			}
			res := e.do(treq{method: r.method, path: r.path, body: r.body, ct: ct, as: as})
			if r.code != "" {
				b := wantError(t, res, r.status, r.code)
				if r.field != "" && (len(b.ResponseStatus.Errors) == 0 || b.ResponseStatus.Errors[0].FieldName != r.field) {
					t.Errorf("error names %+v, want %s", b.ResponseStatus.Errors, r.field)
				}
				return
			}
			d := detail(t, res)
			if r.check != nil {
				r.check(t, d)
			}
		})
	}
}

func TestAddItemIdempotentReplay(t *testing.T) {
	e := newEnv(t)
	a := e.main
	path := pathf("/public/proposals/%d/area-options/%d/items", a.draft, a.option)
	send := func() tres {
		return e.do(treq{method: "POST", path: path, body: `{"ItemType":"Part","Name":"Cable","SellPrice":4.99}`,
			ct: "application/json", as: a.sales, header: map[string]string{"Idempotency-Key": "add-cable-1"}})
	}
	first, again := send(), send()
	wantStatus(t, first, 200)
	if !bytes.Equal(first.body, again.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay differs or is not marked")
	}
	if n := len(e.load(a, a.draft).Areas[0].Options[0].Items); n != 2 {
		t.Fatalf("%d items after two sends of one add, want 2 (the speaker and one cable)", n)
	}
}

func TestCopyAndListItems(t *testing.T) {
	e := newEnv(t)
	a := e.main
	r := e.postJSON(a.sales, pathf("/public/proposals/%d/copy", a.locked), map[string]string{"Name": "Den, again"})
	d := detail(t, r)
	src := e.load(a, a.locked)
	if d.ID == a.locked || d.Status != app.StatusDraft || d.Name != "Den, again" || len(d.Areas) != 1 ||
		d.Customer == nil || src.Customer == nil || d.Customer.ID != src.Customer.ID {
		t.Fatalf("copy: id %d status %s name %q customer %v (source's %v) areas %d", d.ID, d.Status, d.Name, d.Customer, src.Customer, len(d.Areas))
	}
	if src.Status != app.StatusAccepted || len(src.ChangeOrders) != 2 {
		t.Fatalf("source changed: %s, %d change orders", src.Status, len(src.ChangeOrders))
	}
	// The answer says which source part each new ID copies: every part,
	// each onto its own kind of part.
	want := map[int64]int64{d.ID: src.ID}
	for i, area := range d.Areas {
		want[area.ID] = src.Areas[i].ID
		for j, o := range area.Options {
			want[o.ID] = src.Areas[i].Options[j].ID
			for k, it := range o.Items {
				want[it.ID] = src.Areas[i].Options[j].Items[k].ID
			}
		}
	}
	if !maps.Equal(d.CopiedFrom, want) {
		t.Fatalf("copiedFrom %v, want %v", d.CopiedFrom, want)
	}
	// The copy is a proposal of the account like any other, and only
	// the copy's answer says what it copied.
	got := e.get(a.viewer, pathf("/public/proposals/%d", d.ID))
	if got.status != http.StatusOK || bytes.Contains(got.body, []byte("copiedFrom")) {
		t.Fatalf("copy read back: %d %s", got.status, got.body)
	}
	// ContactId: 0 for none; another account's contact is not found.
	bare := detail(t, e.postJSON(a.sales, pathf("/public/proposals/%d/copy", a.locked), map[string]any{"ContactId": 0}))
	if bare.Customer != nil {
		t.Fatalf("copy with ContactId 0 has customer %v", bare.Customer)
	}
	wantError(t, e.postJSON(a.sales, pathf("/public/proposals/%d/copy", a.locked), map[string]any{"ContactId": 999999}), 404, app.KindNotFound)
	wantError(t, e.postJSON(a.viewer, pathf("/public/proposals/%d/copy", a.draft), nil), 403, app.KindPermissionDenied)
	wantError(t, e.postJSON(a.sales, pathf("/public/proposals/%d/copy", e.other.draft), nil), 404, app.KindNotFound)

	// GET items: a bare array, with area and option, costs hidden from a viewer.
	for _, tc := range []struct {
		u         *tuser
		wantCosts bool
	}{{a.sales, true}, {a.viewer, false}} {
		res := e.get(tc.u, pathf("/public/proposals/%d/items", a.draft))
		wantStatus(t, res, 200)
		var items []map[string]any
		res.json(t, &items)
		if len(items) != 1 {
			t.Fatalf("%d items", len(items))
		}
		it := items[0]
		if it["areaId"] != float64(a.area) || it["areaOptionId"] != float64(a.option) || it["name"] != "Speaker" {
			t.Errorf("item %v", it)
		}
		if hasCost := it["cost"] != nil; hasCost != tc.wantCosts {
			t.Errorf("%s sees cost %v", tc.u.rec.Role, it["cost"])
		}
	}
	wantError(t, e.get(a.sales, pathf("/public/proposals/%d/items", e.other.draft)), 404, app.KindNotFound)
}
