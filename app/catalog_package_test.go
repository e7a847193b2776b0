package app_test

import (
	"testing"

	"proposaldesk/app"
)

// A catalog package added to an option is one edit: the package line
// and its components nested under it, checked together.

const (
	pkgTheater   = 6001 // priced: a combined price
	pkgWiFi      = 6002 // no package price
	pkgNested    = 6003 // lists a package
	pkgMissing   = 6004 // lists an item no longer in the catalog
	pkgSelf      = 6005 // lists itself
	compSoundbar = 6101
	compSub      = 6102
	compRears    = 6103
	compAP       = 6104
	compPlan     = 6105 // a monthly service
)

func packageCatalog() fixtureCatalog {
	cost := func(s string) *app.Money { m := app.MustMoney(s); return &m }
	part := func(id int64, name, price, c string) app.CatalogItem {
		return app.CatalogItem{ID: id, ItemType: app.ItemPart, Brand: "Sonos", Name: name, SellPrice: app.MustMoney(price), MSRP: app.MustMoney(price), Cost: cost(c)}
	}
	cat := fixtureCatalog{
		compSoundbar: part(compSoundbar, "Arc soundbar", "899.00", "600.00"),
		compSub:      part(compSub, "Sub Gen 3", "749.00", "500.00"),
		compRears:    part(compRears, "Era 100 rear pair", "498.00", "330.00"),
		compAP:       part(compAP, "Access point", "199.00", "120.00"),
		compPlan:     {ID: compPlan, ItemType: app.ItemFee, Name: "Network care plan", SellPrice: app.MustMoney("19.00"), IsRecurringService: true},
	}
	theater := part(pkgTheater, "5.1 Sonos theater", "1999.00", "1430.00")
	theater.Components = []app.CatalogComponent{{CatalogItemID: compSoundbar, Quantity: app.OneUnit},
		{CatalogItemID: compSub, Quantity: app.OneUnit}, {CatalogItemID: compRears, Quantity: app.OneUnit}, {CatalogItemID: compPlan, Quantity: app.OneUnit}}
	cat[pkgTheater] = theater
	wifi := part(pkgWiFi, "Whole-home Wi-Fi", "0", "0")
	wifi.Components = []app.CatalogComponent{{CatalogItemID: compAP, Quantity: app.MustQuantity("3")}}
	cat[pkgWiFi] = wifi
	nested := part(pkgNested, "Theater plus", "0", "0")
	nested.Components = []app.CatalogComponent{{CatalogItemID: pkgTheater, Quantity: app.OneUnit}}
	cat[pkgNested] = nested
	missing := part(pkgMissing, "Old kit", "0", "0")
	missing.Components = []app.CatalogComponent{{CatalogItemID: 999999, Quantity: app.OneUnit}}
	cat[pkgMissing] = missing
	self := part(pkgSelf, "Loop", "0", "0")
	self.Components = []app.CatalogComponent{{CatalogItemID: pkgSelf, Quantity: app.OneUnit}}
	cat[pkgSelf] = self
	return cat
}

func TestAddPackage(t *testing.T) {
	env := func(e *app.Env) { e.Catalog = packageCatalog() }
	add := func(id int64, f func(*app.AddItem)) *app.AddItem {
		m := &app.AddItem{ID: fixtureProposalID, OptionID: kitchenOptionID, CatalogItemID: ptr(id)}
		if f != nil {
			f(m)
		}
		return m
	}
	// full fills the kitchen option up to n items.
	full := func(n int) *app.Proposal {
		p := fixtureProposal(app.StatusDraft)
		o, _ := p.Option(kitchenOptionID)
		for i := len(o.Items); i < n; i++ {
			o.Items = append(o.Items, app.Item{ID: int64(100000 + i), ItemType: app.ItemPart, Name: "Cable", Quantity: app.OneUnit})
		}
		return p
	}
	runMutationCases(t, []mutationCase{
		{name: "priced package: a combined price, one-time components free", p: fixtureProposal(app.StatusDraft), env: env,
			m: add(pkgTheater, func(m *app.AddItem) { m.Quantity = ptr(app.MustQuantity("2")) }),
			check: func(t *testing.T, got *app.Proposal) {
				items := kitchenItems(t, got)
				if len(items) != 6 {
					t.Fatalf("%d items, want the speaker, the package and 4 components", len(items))
				}
				pkg := items[1]
				if !pkg.IsCombinedPrice || pkg.SellPrice != app.MustMoney("1999.00") || pkg.ReferencedItemID != pkgTheater || pkg.ParentID != 0 {
					t.Errorf("package line %+v", pkg)
				}
				for i, want := range []struct {
					ref   int64
					price string
				}{{compSoundbar, "0.00"}, {compSub, "0.00"}, {compRears, "0.00"}, {compPlan, "19.00"}} {
					c := items[2+i]
					if c.ParentID != pkg.ID || c.ReferencedItemID != want.ref || c.SellPrice != app.MustMoney(want.price) || c.Quantity != app.MustQuantity("2") {
						t.Errorf("component %d: %+v, want of %d at %s × 2 under %d", i, c, want.ref, want.price, pkg.ID)
					}
				}
				o, _ := got.Option(kitchenOptionID)
				total, recurring := app.OptionTotals(o)
				if total != app.MustMoney("4198.00") || recurring != app.MustMoney("38.00") {
					t.Errorf("totals %s and recurring %s, want 200 + 2 × 1999 and 2 × 19", total, recurring)
				}
				if amounts := app.ItemAmounts(o.Items); amounts[1] != app.MustMoney("3998.00") {
					t.Errorf("package line's total %s, want 3998.00", amounts[1])
				}
			}},
		{name: "unpriced package: the line is free, components priced", p: fixtureProposal(app.StatusDraft), env: env,
			m: add(pkgWiFi, nil),
			check: func(t *testing.T, got *app.Proposal) {
				items := kitchenItems(t, got)
				if len(items) != 3 || items[1].IsCombinedPrice || items[1].SellPrice != 0 || items[2].ParentID != items[1].ID ||
					items[2].SellPrice != app.MustMoney("199.00") || items[2].Quantity != app.MustQuantity("3") {
					t.Fatalf("items %+v", items)
				}
				o, _ := got.Option(kitchenOptionID)
				if total, _ := app.OptionTotals(o); total != app.MustMoney("797.00") {
					t.Errorf("total %s, want 200 + 3 × 199", total)
				}
			}},
		{name: "a package in a package is refused", p: fixtureProposal(app.StatusDraft), env: env,
			m: add(pkgNested, nil), want: app.KindValidationFailed, field: "CatalogItemId"},
		{name: "a missing component is refused", p: fixtureProposal(app.StatusDraft), env: env,
			m: add(pkgMissing, nil), want: app.KindValidationFailed, field: "CatalogItemId"},
		{name: "a package listing itself is refused", p: fixtureProposal(app.StatusDraft), env: env,
			m: add(pkgSelf, nil), want: app.KindValidationFailed, field: "components"},
		{name: "a package cannot be nested", p: fixtureProposal(app.StatusDraft), env: env,
			m: add(pkgWiFi, func(m *app.AddItem) { m.ParentID = ptr(int64(801)) }), want: app.KindValidationFailed, field: "ParentId"},
		{name: "the option's limit counts every line", p: full(app.MaxItemsPerOption - 4), env: env,
			m: add(pkgTheater, nil), want: app.KindValidationFailed, field: "AreaOptionId"},
		{name: "exactly at the option's limit", p: full(app.MaxItemsPerOption - 5), env: env,
			m: add(pkgTheater, nil),
			check: func(t *testing.T, got *app.Proposal) {
				if n := len(kitchenItems(t, got)); n != app.MaxItemsPerOption {
					t.Errorf("%d items, want %d", n, app.MaxItemsPerOption)
				}
			}},
		{name: "component quantities multiply exactly", p: fixtureProposal(app.StatusDraft), env: env,
			m: add(pkgWiFi, func(m *app.AddItem) { m.Quantity = ptr(app.MustQuantity("0.0001")) }),
			check: func(t *testing.T, got *app.Proposal) {
				if it := kitchenItems(t, got)[2]; it.Quantity != app.MustQuantity("0.0003") {
					t.Errorf("component quantity %s, want 0.0003", it.Quantity)
				}
			}},
	})
}

func TestComponentQuantity(t *testing.T) {
	for _, tc := range []struct {
		per, n, want string
		ok           bool
	}{
		{"1", "1", "1", true}, {"3", "2", "6", true}, {"0.5", "0.5", "0.25", true},
		{"0.3333", "1.5", "", false}, // 0.49995
		{"1000", "1001", "", false},  // over 1,000,000
		{"1000", "1000", "1000000", true},
	} {
		got, err := app.ComponentQuantity(app.MustQuantity(tc.per), app.MustQuantity(tc.n))
		if (err == nil) != tc.ok || tc.ok && got != app.MustQuantity(tc.want) {
			t.Errorf("%s × %s = %s, %v; want %s ok=%v", tc.per, tc.n, got, err, tc.want, tc.ok)
		}
	}
}

func TestCheckComponentList(t *testing.T) {
	one := app.OneUnit
	many := make([]app.CatalogComponent, app.MaxPackageComponents+1)
	for i := range many {
		many[i] = app.CatalogComponent{CatalogItemID: int64(i + 1), Quantity: one}
	}
	for _, tc := range []struct {
		name  string
		comps []app.CatalogComponent
		ok    bool
	}{
		{"two items", []app.CatalogComponent{{1, one}, {2, one}}, true},
		{"the limit", many[:app.MaxPackageComponents], true},
		{"over the limit", many, false},
		{"itself", []app.CatalogComponent{{700, one}}, false},
		{"twice", []app.CatalogComponent{{1, one}, {1, one}}, false},
		{"zero quantity", []app.CatalogComponent{{1, 0}}, false},
		{"too many units", []app.CatalogComponent{{1, app.MaxItemQuantity + 1}}, false},
	} {
		if err := app.CheckComponentList(700, tc.comps); (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// The desktop's temporary IDs of a package's lines are kept with the
// edit: a replay gives the same ones, and each maps to the server's.
func TestAddPackageIDsReplayAndMap(t *testing.T) {
	e := fixtureEnv(fixtureSales)
	e.Catalog = packageCatalog()
	next := int64(-1)
	e.NewID = func() int64 { next--; return next }
	m := &app.AddItem{ID: fixtureProposalID, OptionID: kitchenOptionID, CatalogItemID: ptr(int64(pkgTheater)), ItemID: -1}
	local, err := app.Apply(fixtureProposal(app.StatusDraft), m, e)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ComponentItemIDs) != 4 || len(app.CreatedIDs(m)) != 5 {
		t.Fatalf("component IDs %v, created %v", m.ComponentItemIDs, app.CreatedIDs(m))
	}
	raw, err := app.EncodeMutation(m)
	if err != nil {
		t.Fatal(err)
	}
	again, err := app.DecodeMutation(raw)
	if err != nil {
		t.Fatal(err)
	}
	replayed, err := app.Apply(fixtureProposal(app.StatusDraft), again, e)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := itemIDs(kitchenItems(t, local)), itemIDs(kitchenItems(t, replayed)); len(a) != 6 || !equalIDs(a, b) {
		t.Errorf("replay gave IDs %v, first %v", b, a)
	}
	// The server's copy: its own IDs.
	server := fixtureEnv(fixtureSales)
	server.Catalog = packageCatalog()
	sent := &app.AddItem{ID: fixtureProposalID, OptionID: kitchenOptionID, CatalogItemID: ptr(int64(pkgTheater))}
	before := fixtureProposal(app.StatusDraft)
	after, err := app.Apply(before, sent, server)
	if err != nil {
		t.Fatal(err)
	}
	found := app.FoundIDs(again, before, after)
	serverItems := kitchenItems(t, after)
	for i, tmp := range append([]int64{-1}, again.(*app.AddItem).ComponentItemIDs...) {
		if found[tmp] != serverItems[1+i].ID {
			t.Errorf("temporary %d maps to %d, want %d", tmp, found[tmp], serverItems[1+i].ID)
		}
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
