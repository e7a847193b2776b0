package app_test

import (
	"testing"

	"proposaldesk/app"
)

// The content edits' rules (contract: "Proposal content and catalog"),
// one case table per kind. fixtureProposal's kitchen option holds item
// 801 (2 × $100, cost $60); the theater area has three options.

// fixtureCatalog is a catalog of two items.
type fixtureCatalog map[int64]app.CatalogItem

func (c fixtureCatalog) CatalogItem(id int64) (app.CatalogItem, bool, error) {
	it, ok := c[id]
	return it, ok, nil
}

const catalogTV = 5001

func withCatalog(e *app.Env) {
	cost := app.MustMoney("1650.00")
	e.Catalog = fixtureCatalog{catalogTV: {ID: catalogTV, ItemType: app.ItemPart, Brand: "Sony", Model: "XR-85X90L",
		Name: "Sony 85\" TV", MSRP: app.MustMoney("2299.99"), SellPrice: app.MustMoney("2199.00"), Cost: &cost, Supplier: "ADI"}}
}

// withItems gives the kitchen option n more items (IDs from 2000).
func withItems(n int) *app.Proposal {
	p := fixtureProposal(app.StatusDraft)
	o, _ := p.Option(kitchenOptionID)
	for i := range n {
		o.Items = append(o.Items, app.Item{ID: int64(2000 + i), ItemType: app.ItemPart, Name: "Cable",
			SellPrice: app.MustMoney("1.00"), Quantity: app.OneUnit})
	}
	return p
}

// nested is fixtureProposal with item 802 nested under 801 and item 803
// alone, all in the kitchen.
func nested() *app.Proposal {
	p := fixtureProposal(app.StatusDraft)
	o, _ := p.Option(kitchenOptionID)
	o.Items = append(o.Items,
		app.Item{ID: 802, ParentID: 801, ItemType: app.ItemPart, Name: "Bracket", SellPrice: app.MustMoney("20.00"), Quantity: app.OneUnit},
		app.Item{ID: 803, ItemType: app.ItemLabor, Name: "Labor", SellPrice: app.MustMoney("90.00"), Quantity: app.OneUnit})
	return p
}

func kitchenItems(t *testing.T, p *app.Proposal) []app.Item {
	t.Helper()
	o, ok := p.Option(kitchenOptionID)
	if !ok {
		t.Fatal("no kitchen option")
	}
	return o.Items
}

func itemIDs(items []app.Item) []int64 {
	var out []int64
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func wantIDs(t *testing.T, what string, got []app.Item, want ...int64) {
	t.Helper()
	ids := itemIDs(got)
	if len(ids) != len(want) {
		t.Fatalf("%s: items %v, want %v", what, ids, want)
	}
	for i := range ids {
		if ids[i] != want[i] {
			t.Fatalf("%s: items %v, want %v", what, ids, want)
		}
	}
}

func TestAddItem(t *testing.T) {
	draft := func() *app.Proposal { return fixtureProposal(app.StatusDraft) }
	labor := func() *app.AddItem {
		return &app.AddItem{ID: fixtureProposalID, OptionID: kitchenOptionID, ItemType: ptr(app.ItemLabor), Name: ptr("Install")}
	}
	with := func(f func(*app.AddItem)) *app.AddItem { m := labor(); f(m); return m }
	runMutationCases(t, []mutationCase{
		{name: "custom labor line, quantity 1 by default", p: draft(), m: labor(), check: func(t *testing.T, got *app.Proposal) {
			items := kitchenItems(t, got)
			wantIDs(t, "kitchen", items, 801, firstNewID)
			it := items[1]
			if it.ItemType != app.ItemLabor || it.Name != "Install" || it.Quantity != app.OneUnit || it.SellPrice != 0 || it.Cost != nil {
				t.Errorf("added %+v", it)
			}
			if s := app.Summarize(&got.Document); s.PartsSubtotal != app.MustMoney("200.00") {
				t.Errorf("parts subtotal %s, want the speaker's 200.00", s.PartsSubtotal)
			}
		}},
		{name: "from the catalog", p: draft(), env: withCatalog,
			m: &app.AddItem{ID: fixtureProposalID, OptionID: kitchenOptionID, CatalogItemID: ptr(int64(catalogTV)), Quantity: ptr(app.MustQuantity("2"))},
			check: func(t *testing.T, got *app.Proposal) {
				it := kitchenItems(t, got)[1]
				if it.ReferencedItemID != catalogTV || it.Brand != "Sony" || it.Model != "XR-85X90L" || it.SellPrice != app.MustMoney("2199.00") ||
					it.MSRP != app.MustMoney("2299.99") || it.Cost == nil || *it.Cost != app.MustMoney("1650.00") || it.Quantity != app.MustQuantity("2") {
					t.Errorf("catalog copy %+v", it)
				}
				if s := app.Summarize(&got.Document); s.PartsSubtotal != app.MustMoney("4598.00") {
					t.Errorf("parts subtotal %s, want 200.00 + 2 × 2199.00", s.PartsSubtotal)
				}
			}},
		{name: "catalog copy with a price of its own", p: draft(), env: withCatalog,
			m: &app.AddItem{ID: fixtureProposalID, OptionID: kitchenOptionID, CatalogItemID: ptr(int64(catalogTV)), SellPrice: ptr(app.MustMoney("1999.00"))},
			check: func(t *testing.T, got *app.Proposal) {
				if it := kitchenItems(t, got)[1]; it.SellPrice != app.MustMoney("1999.00") || it.Brand != "Sony" {
					t.Errorf("got %+v", it)
				}
			}},
		{name: "nested goes after its parent's children", p: nested(), m: with(func(m *app.AddItem) { m.ParentID = ptr(int64(801)) }),
			check: func(t *testing.T, got *app.Proposal) {
				wantIDs(t, "kitchen", kitchenItems(t, got), 801, 802, firstNewID, 803)
			}},
		{name: "desktop temporary ID kept", p: draft(), m: with(func(m *app.AddItem) { m.ItemID = -9 }),
			check: func(t *testing.T, got *app.Proposal) { wantIDs(t, "kitchen", kitchenItems(t, got), 801, -9) }},
		{name: "fractional labor hours", p: draft(), m: with(func(m *app.AddItem) { m.Quantity = ptr(app.MustQuantity("1.25")) })},
		{name: "unknown catalog item", p: draft(), env: withCatalog,
			m: &app.AddItem{ID: fixtureProposalID, OptionID: kitchenOptionID, CatalogItemID: ptr(int64(missingID))}, want: app.KindNotFound},
		{name: "no catalog at all", p: draft(),
			m: &app.AddItem{ID: fixtureProposalID, OptionID: kitchenOptionID, CatalogItemID: ptr(int64(catalogTV))}, want: app.KindNotFound},
		{name: "unknown option", p: draft(), m: with(func(m *app.AddItem) { m.OptionID = missingID }), want: app.KindNotFound},
		{name: "option of another proposal", p: draft(), m: with(func(m *app.AddItem) { m.OptionID = otherOptionID }), want: app.KindNotFound},
		{name: "neither catalog item nor type", p: draft(), m: with(func(m *app.AddItem) { m.ItemType = nil }), want: app.KindValidationFailed, field: "ItemType"},
		{name: "no name", p: draft(), m: with(func(m *app.AddItem) { m.Name = nil }), want: app.KindValidationFailed, field: "Name"},
		{name: "unknown type", p: draft(), m: with(func(m *app.AddItem) { m.ItemType = ptr(app.ItemType("Gadget")) }), want: app.KindValidationFailed, field: "ItemType"},
		{name: "quantity 0", p: draft(), m: with(func(m *app.AddItem) { m.Quantity = ptr(app.Quantity(0)) }), want: app.KindValidationFailed, field: "Quantity"},
		{name: "quantity over a million", p: draft(), m: with(func(m *app.AddItem) { m.Quantity = ptr(app.MustQuantity("1000000.0001")) }), want: app.KindValidationFailed, field: "Quantity"},
		{name: "quantity of a million", p: draft(), m: with(func(m *app.AddItem) { m.Quantity = ptr(app.MustQuantity("1000000")) })},
		{name: "negative price", p: draft(), m: with(func(m *app.AddItem) { m.SellPrice = ptr(app.MustMoney("-1")) }), want: app.KindValidationFailed, field: "SellPrice"},
		{name: "price over ten million", p: draft(), m: with(func(m *app.AddItem) { m.SellPrice = ptr(app.MustMoney("10000000.01")) }), want: app.KindValidationFailed, field: "SellPrice"},
		{name: "negative cost", p: draft(), m: with(func(m *app.AddItem) { m.Cost = ptr(app.MustMoney("-0.01")) }), want: app.KindValidationFailed, field: "Cost"},
		{name: "cost without ViewCosts", p: draft(), actor: &app.User{ID: 9, Role: "Installer"}, m: labor(), want: app.KindPermissionDenied},
		{name: "parent that is itself nested", p: nested(), m: with(func(m *app.AddItem) { m.ParentID = ptr(int64(802)) }), want: app.KindValidationFailed, field: "ParentId"},
		{name: "parent in another option", p: draft(), m: with(func(m *app.AddItem) { m.OptionID = theaterOption1; m.ParentID = ptr(int64(801)) }), want: app.KindNotFound},
		{name: "option full", p: withItems(app.MaxItemsPerOption - 1), m: labor(), want: app.KindValidationFailed, field: "AreaOptionId"},
		{name: "option one short of full", p: withItems(app.MaxItemsPerOption - 2), m: labor()},
		{name: "locked", p: fixtureProposal(app.StatusAccepted), m: labor(), want: app.KindProposalLocked},
		{name: "viewer", p: draft(), actor: &fixtureViewer, m: labor(), want: app.KindPermissionDenied},
	})
}

func TestChangeItem(t *testing.T) {
	change := func(f func(*app.ChangeItem)) *app.ChangeItem {
		m := &app.ChangeItem{ID: fixtureProposalID, ItemID: 801}
		f(m)
		return m
	}
	runMutationCases(t, []mutationCase{
		{name: "quantity, totals follow", p: nested(), m: change(func(m *app.ChangeItem) { m.Quantity = ptr(app.MustQuantity("5")) }),
			check: func(t *testing.T, got *app.Proposal) {
				if s := app.Summarize(&got.Document); s.PartsSubtotal != app.MustMoney("520.00") {
					t.Errorf("parts subtotal %s, want 5 × 100 + 20", s.PartsSubtotal)
				}
			}},
		{name: "texts, flags and cost", p: nested(), m: change(func(m *app.ChangeItem) {
			m.Name, m.ClientNote, m.IsTaxExempt, m.Cost = ptr("Speaker pair"), ptr("White"), ptr(true), ptr(app.MustMoney("55.00"))
		}), check: func(t *testing.T, got *app.Proposal) {
			it := kitchenItems(t, got)[0]
			if it.Name != "Speaker pair" || it.ClientNote != "White" || !it.IsTaxExempt || *it.Cost != app.MustMoney("55.00") || it.Quantity != app.MustQuantity("2") {
				t.Errorf("changed %+v", it)
			}
		}},
		{name: "move takes its children", p: nested(), m: change(func(m *app.ChangeItem) { m.OptionID = ptr(int64(theaterOption1)) }),
			check: func(t *testing.T, got *app.Proposal) {
				wantIDs(t, "kitchen", kitchenItems(t, got), 803)
				o, _ := got.Option(theaterOption1)
				wantIDs(t, "theater", o.Items, 801, 802)
			}},
		{name: "un-nest", p: nested(), m: &app.ChangeItem{ID: fixtureProposalID, ItemID: 802, ParentID: ptr(int64(0))},
			check: func(t *testing.T, got *app.Proposal) {
				if it := kitchenItems(t, got)[1]; it.ID != 802 || it.ParentID != 0 {
					t.Errorf("got %+v", it)
				}
			}},
		{name: "nest under another", p: nested(), m: &app.ChangeItem{ID: fixtureProposalID, ItemID: 803, ParentID: ptr(int64(801))},
			check: func(t *testing.T, got *app.Proposal) { wantIDs(t, "kitchen", kitchenItems(t, got), 801, 802, 803) }},
		{name: "reorder", p: nested(), m: &app.ChangeItem{ID: fixtureProposalID, ItemID: 803, Position: ptr(int64(0))},
			check: func(t *testing.T, got *app.Proposal) { wantIDs(t, "kitchen", kitchenItems(t, got), 803, 801, 802) }},
		{name: "position past the end", p: nested(), m: &app.ChangeItem{ID: fixtureProposalID, ItemID: 801, Position: ptr(int64(99))},
			check: func(t *testing.T, got *app.Proposal) { wantIDs(t, "kitchen", kitchenItems(t, got), 802, 803, 801) }},
		{name: "move a nested item", p: nested(), m: &app.ChangeItem{ID: fixtureProposalID, ItemID: 802, OptionID: ptr(int64(theaterOption1))},
			want: app.KindValidationFailed, field: "AreaOptionId"},
		{name: "nest an item that has children", p: nested(), m: change(func(m *app.ChangeItem) { m.ParentID = ptr(int64(803)) }),
			want: app.KindValidationFailed, field: "ParentId"},
		{name: "nest under itself", p: nested(), m: &app.ChangeItem{ID: fixtureProposalID, ItemID: 803, ParentID: ptr(int64(803))},
			want: app.KindValidationFailed, field: "ParentId"},
		{name: "nest two levels", p: nested(), m: &app.ChangeItem{ID: fixtureProposalID, ItemID: 803, ParentID: ptr(int64(802))},
			want: app.KindValidationFailed, field: "ParentId"},
		{name: "unknown item", p: nested(), m: &app.ChangeItem{ID: fixtureProposalID, ItemID: missingID, Quantity: ptr(app.OneUnit)}, want: app.KindNotFound},
		{name: "move to an unknown option", p: nested(), m: change(func(m *app.ChangeItem) { m.OptionID = ptr(int64(otherOptionID)) }), want: app.KindNotFound},
		{name: "quantity 0", p: nested(), m: change(func(m *app.ChangeItem) { m.Quantity = ptr(app.Quantity(0)) }), want: app.KindValidationFailed, field: "Quantity"},
		{name: "price over ten million", p: nested(), m: change(func(m *app.ChangeItem) { m.SellPrice = ptr(app.MustMoney("10000001")) }), want: app.KindValidationFailed, field: "SellPrice"},
		{name: "empty name", p: nested(), m: change(func(m *app.ChangeItem) { m.Name = ptr("") }), want: app.KindValidationFailed, field: "Name"},
		{name: "cost without ViewCosts", p: nested(), actor: &app.User{ID: 9, Role: "Installer"}, m: change(func(m *app.ChangeItem) { m.Cost = ptr(app.Money(1)) }), want: app.KindPermissionDenied},
		{name: "locked", p: fixtureProposal(app.StatusCompleted), m: change(func(m *app.ChangeItem) { m.Quantity = ptr(app.OneUnit) }), want: app.KindProposalLocked},
	})
}

func TestRemoveItem(t *testing.T) {
	runMutationCases(t, []mutationCase{
		{name: "with its children", p: nested(), m: &app.RemoveItem{ID: fixtureProposalID, ItemID: 801},
			check: func(t *testing.T, got *app.Proposal) { wantIDs(t, "kitchen", kitchenItems(t, got), 803) }},
		{name: "a child alone", p: nested(), m: &app.RemoveItem{ID: fixtureProposalID, ItemID: 802},
			check: func(t *testing.T, got *app.Proposal) { wantIDs(t, "kitchen", kitchenItems(t, got), 801, 803) }},
		{name: "unknown", p: nested(), m: &app.RemoveItem{ID: fixtureProposalID, ItemID: missingID}, want: app.KindNotFound},
		{name: "locked", p: fixtureProposal(app.StatusDeclined), m: &app.RemoveItem{ID: fixtureProposalID, ItemID: 801}, want: app.KindProposalLocked},
	})
}

func TestAreasAndOptions(t *testing.T) {
	draft := func() *app.Proposal { return fixtureProposal(app.StatusDraft) }
	runMutationCases(t, []mutationCase{
		{name: "rename", p: draft(), m: &app.RenameArea{ID: fixtureProposalID, AreaID: kitchenAreaID, Name: "Galley"},
			check: func(t *testing.T, got *app.Proposal) {
				if a, _ := got.Area(kitchenAreaID); a.Name != "Galley" {
					t.Errorf("name %q", a.Name)
				}
			}},
		{name: "rename to its own name in other case", p: draft(), m: &app.RenameArea{ID: fixtureProposalID, AreaID: kitchenAreaID, Name: " KITCHEN"}},
		{name: "rename to another area's name", p: draft(), m: &app.RenameArea{ID: fixtureProposalID, AreaID: kitchenAreaID, Name: "theater "}, want: app.KindAreaNameTaken},
		{name: "rename to blank", p: draft(), m: &app.RenameArea{ID: fixtureProposalID, AreaID: kitchenAreaID, Name: " "}, want: app.KindValidationFailed, field: "Name"},
		{name: "rename unknown area", p: draft(), m: &app.RenameArea{ID: fixtureProposalID, AreaID: otherAreaID, Name: "X"}, want: app.KindNotFound},
		{name: "remove area with its items", p: draft(), m: &app.RemoveArea{ID: fixtureProposalID, AreaID: kitchenAreaID},
			check: func(t *testing.T, got *app.Proposal) {
				if len(got.Areas) != 1 || got.Areas[0].ID != theaterAreaID {
					t.Errorf("areas %+v", got.Areas)
				}
				if s := app.Summarize(&got.Document); s.PartsSubtotal != 0 {
					t.Errorf("parts subtotal %s after removing the only items", s.PartsSubtotal)
				}
			}},
		{name: "remove unknown area", p: draft(), m: &app.RemoveArea{ID: fixtureProposalID, AreaID: missingID}, want: app.KindNotFound},
		{name: "remove an option", p: draft(), m: &app.RemoveOption{ID: fixtureProposalID, OptionID: theaterOption1 + 1},
			check: func(t *testing.T, got *app.Proposal) {
				if a, _ := got.Area(theaterAreaID); len(a.Options) != 2 {
					t.Errorf("%d options left", len(a.Options))
				}
			}},
		{name: "remove an area's last option", p: draft(), m: &app.RemoveOption{ID: fixtureProposalID, OptionID: kitchenOptionID}, want: app.KindValidationFailed, field: "AreaOptionId"},
		{name: "remove unknown option", p: draft(), m: &app.RemoveOption{ID: fixtureProposalID, OptionID: otherOptionID}, want: app.KindNotFound},
		{name: "select deselects the other", p: func() *app.Proposal {
			p := draft()
			a, _ := p.Area(theaterAreaID)
			a.Options[0].Status = app.OptionSelected
			return p
		}(), m: &app.SetOptionStatus{ID: fixtureProposalID, OptionID: theaterOption1 + 2, Status: "selected"},
			check: func(t *testing.T, got *app.Proposal) {
				a, _ := got.Area(theaterAreaID)
				if a.Options[0].Status != app.OptionDraft || a.Options[2].Status != app.OptionSelected || app.CountedOption(a).ID != theaterOption1+2 {
					t.Errorf("statuses %s %s %s", a.Options[0].Status, a.Options[1].Status, a.Options[2].Status)
				}
			}},
		{name: "decline", p: draft(), m: &app.SetOptionStatus{ID: fixtureProposalID, OptionID: kitchenOptionID, Status: app.OptionDeclined}},
		{name: "unknown option status", p: draft(), m: &app.SetOptionStatus{ID: fixtureProposalID, OptionID: kitchenOptionID, Status: "Maybe"}, want: app.KindValidationFailed, field: "Status"},
		{name: "status of unknown option", p: draft(), m: &app.SetOptionStatus{ID: fixtureProposalID, OptionID: missingID, Status: app.OptionSelected}, want: app.KindNotFound},
		{name: "select in a locked proposal", p: fixtureProposal(app.StatusAccepted), m: &app.SetOptionStatus{ID: fixtureProposalID, OptionID: kitchenOptionID, Status: app.OptionSelected}, want: app.KindProposalLocked},
	})
}

func TestPricingArchiveCopy(t *testing.T) {
	draft := func() *app.Proposal { return nested() }
	runMutationCases(t, []mutationCase{
		{name: "percentage discount", p: draft(), m: &app.SetPricing{ID: fixtureProposalID, DiscountType: ptr(app.DiscountPercentage), DiscountPercentage: ptr(app.MustRate("10"))},
			check: func(t *testing.T, got *app.Proposal) {
				if s := app.Summarize(&got.Document); s.PartsDiscount != app.MustMoney("22.00") || s.PartsTotal != app.MustMoney("198.00") {
					t.Errorf("discount %s, parts total %s; want 22.00 and 198.00", s.PartsDiscount, s.PartsTotal)
				}
			}},
		{name: "amount discount", p: draft(), m: &app.SetPricing{ID: fixtureProposalID, DiscountType: ptr(app.DiscountType("amount")), DiscountAmount: ptr(app.MustMoney("50"))},
			check: func(t *testing.T, got *app.Proposal) {
				if got.Pricing.DiscountType != app.DiscountAmount || app.Summarize(&got.Document).PartsTotal != app.MustMoney("170.00") {
					t.Errorf("pricing %+v", got.Pricing)
				}
			}},
		{name: "percentage over 100", p: draft(), m: &app.SetPricing{ID: fixtureProposalID, DiscountPercentage: ptr(app.MustRate("100.0001"))}, want: app.KindValidationFailed, field: "PartsDiscountPercentage"},
		{name: "nothing given", p: draft(), m: &app.SetPricing{ID: fixtureProposalID}, want: app.KindValidationFailed, field: "PartsDiscountType"},
		{name: "unknown type", p: draft(), m: &app.SetPricing{ID: fixtureProposalID, DiscountType: ptr(app.DiscountType("Half"))}, want: app.KindValidationFailed, field: "PartsDiscountType"},
		{name: "discount in a locked proposal", p: fixtureProposal(app.StatusAccepted), m: &app.SetPricing{ID: fixtureProposalID, DiscountAmount: ptr(app.Money(1))}, want: app.KindProposalLocked},
		{name: "archive a completed proposal", p: fixtureProposal(app.StatusCompleted), m: &app.SetArchived{ID: fixtureProposalID, IsArchived: true},
			check: func(t *testing.T, got *app.Proposal) {
				if !got.Archived || got.Status != app.StatusCompleted {
					t.Errorf("archived %v, status %s", got.Archived, got.Status)
				}
			}},
		{name: "copy", p: func() *app.Proposal {
			p := fixtureProposalWithContact(app.StatusAccepted, contactOnePrimary, locCA)
			o, _ := p.Option(kitchenOptionID)
			o.Items = append(o.Items, app.Item{ID: 802, ParentID: 801, ItemType: app.ItemPart, Name: "Bracket", Quantity: app.OneUnit})
			p.ChangeOrders = []app.ChangeOrder{{Document: app.Document{ID: 77}}}
			p.Archived = true
			return p
		}(), m: &app.CopyProposal{ID: fixtureProposalID},
			check: func(t *testing.T, got *app.Proposal) {
				if got.ID != firstNewID || got.Number != firstNewNumber || got.Name != "Copy of Lake house" || got.Status != app.StatusDraft ||
					got.Customer == nil || got.Customer.ID != contactOnePrimary || got.Customer.Location == nil ||
					len(got.ChangeOrders) != 0 || got.Archived || got.Version != 1 {
					t.Errorf("copy: id %d number %d name %q status %s customer %v change orders %d archived %v version %d tax %s",
						got.ID, got.Number, got.Name, got.Status, got.Customer, len(got.ChangeOrders), got.Archived, got.Version, got.Tax.Status)
				}
				seen := map[int64]bool{}
				for _, id := range []int64{got.ID} {
					seen[id] = true
				}
				for _, a := range got.Areas {
					for _, o := range a.Options {
						for _, it := range o.Items {
							if it.ID < firstNewID || seen[it.ID] {
								t.Errorf("item ID %d is not new", it.ID)
							}
							seen[it.ID] = true
						}
						if len(o.Items) == 2 && o.Items[1].ParentID != o.Items[0].ID {
							t.Errorf("nested item points at %d, want its copied parent %d", o.Items[1].ParentID, o.Items[0].ID)
						}
					}
				}
				if len(got.Areas) != 2 || len(seen) != 3 {
					t.Errorf("%d areas, %d IDs", len(got.Areas), len(seen))
				}
			}},
		{name: "copy with a name and the desktop's IDs", p: fixtureProposal(app.StatusDraft),
			m: &app.CopyProposal{ID: fixtureProposalID, Name: ptr("Phase 2"), NewIDs: []int64{-1, -2, -3, -4, -5, -6, -7, -8}},
			check: func(t *testing.T, got *app.Proposal) {
				if got.ID != -1 || got.Areas[0].ID != -2 || got.Areas[0].Options[0].ID != -3 || got.Areas[0].Options[0].Items[0].ID != -4 ||
					got.Areas[1].Options[2].ID != -8 || got.Name != "Phase 2" {
					t.Errorf("copy IDs %d %d %d, name %q", got.ID, got.Areas[0].ID, got.Areas[0].Options[0].ID, got.Name)
				}
			}},
		{name: "copy without its customer", p: fixtureProposalWithContact(app.StatusDraft, contactOnePrimary, locCA),
			m: &app.CopyProposal{ID: fixtureProposalID, ContactID: ptr(int64(0))},
			check: func(t *testing.T, got *app.Proposal) {
				if got.Customer != nil || got.Tax.Status != app.TaxUndefined {
					t.Errorf("customer %v, tax %s", got.Customer, got.Tax.Status)
				}
			}},
		{name: "copy for another customer", p: fixtureProposal(app.StatusDraft),
			m: &app.CopyProposal{ID: fixtureProposalID, ContactID: ptr(int64(contactOnePrimary))},
			check: func(t *testing.T, got *app.Proposal) {
				if got.Customer == nil || got.Customer.ID != contactOnePrimary || got.Customer.Location == nil {
					t.Errorf("customer %+v", got.Customer)
				}
			}},
		{name: "copy for a contact not in the account", p: fixtureProposal(app.StatusDraft),
			m: &app.CopyProposal{ID: fixtureProposalID, ContactID: ptr(int64(999999))}, want: app.KindNotFound},
		{name: "copy with a blank name", p: fixtureProposal(app.StatusDraft), m: &app.CopyProposal{ID: fixtureProposalID, Name: ptr("")}, want: app.KindValidationFailed, field: "Name"},
	})
}

// TestParamsRefuseRounding: amounts, quantities and percentages with
// more decimals than they hold are refused, never rounded.
func TestParamsRefuseRounding(t *testing.T) {
	m := &app.ChangeItem{}
	byName := map[string]app.Param{}
	for _, p := range m.Params() {
		byName[p.Name] = p
	}
	for _, tc := range []struct {
		param, value string
		ok           bool
	}{
		{"SellPrice", "12.34", true}, {"SellPrice", "12.345", false}, {"SellPrice", "12.340", true},
		{"SellPrice", "1e3", false}, {"SellPrice", "abc", false},
		{"Quantity", "1.2345", true}, {"Quantity", "1.23456", false},
	} {
		err := byName[tc.param].Set(tc.value)
		if (err == nil) != tc.ok {
			t.Errorf("%s = %s: %v, want ok %v", tc.param, tc.value, err, tc.ok)
		}
		if err != nil && app.KindOf(err) != app.KindValidationFailed {
			t.Errorf("%s = %s: kind %s", tc.param, tc.value, app.KindOf(err))
		}
	}
	if *m.SellPrice != app.MustMoney("12.34") || *m.Quantity != app.MustQuantity("1.2345") {
		t.Errorf("set %s × %s", m.SellPrice, m.Quantity)
	}
}
