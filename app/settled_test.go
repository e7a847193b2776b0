package app_test

import (
	"testing"

	"proposaldesk/app"
)

func TestSettled(t *testing.T) {
	local := func(f func(p *app.Proposal)) *app.Proposal {
		p := fixtureProposal(app.StatusDraft)
		f(p)
		return p
	}
	submitted := func(p *app.Proposal) { p.Status = app.StatusSubmitted }
	// order puts items 801 and 802 in the kitchen's option in this order.
	order := func(ids ...int64) func(p *app.Proposal) {
		return func(p *app.Proposal) {
			o := &p.Areas[0].Options[0]
			o.Items = o.Items[:0]
			for _, id := range ids {
				o.Items = append(o.Items, app.Item{ID: id, ItemType: app.ItemPart, Name: "Speaker", Quantity: app.OneUnit})
			}
		}
	}
	moveDown := &app.ChangeItem{ID: fixtureProposalID, ItemID: 801, Position: ptr(int64(1))}
	for _, tc := range []struct {
		name         string
		m            app.Mutation
		mine, theirs *app.Proposal
		want         bool
	}{
		{"same status move made twice", &app.ChangeStatus{ID: fixtureProposalID, Status: app.StatusSubmitted},
			local(submitted), local(submitted), true},
		{"the server moved elsewhere", &app.ChangeStatus{ID: fixtureProposalID, Status: app.StatusSubmitted},
			local(submitted), local(func(p *app.Proposal) { p.Status = app.StatusAccepted }), false},
		{"same description", &app.SetDescription{ID: fixtureProposalID, Description: "x"},
			local(func(p *app.Proposal) { p.ProjectDescription = "x" }), local(func(p *app.Proposal) { p.ProjectDescription = "x" }), true},
		{"a rename only half there", &app.UpdateProposal{ID: fixtureProposalID, Name: ptr("N"), SalesPersonID: ptr(int64(9))},
			local(func(p *app.Proposal) { p.Name, p.SalesPerson.ID = "N", 9 }), local(func(p *app.Proposal) { p.Name = "N" }), false},
		{"an item removed on both", &app.RemoveItem{ID: fixtureProposalID, ItemID: 801},
			local(func(p *app.Proposal) { p.Areas[0].Options[0].Items = nil }), local(func(p *app.Proposal) { p.Areas[0].Options[0].Items = nil }), true},
		{"an item changed here, removed there", &app.ChangeItem{ID: fixtureProposalID, ItemID: 801, Quantity: ptr(app.OneUnit)},
			local(func(*app.Proposal) {}), local(func(p *app.Proposal) { p.Areas[0].Options[0].Items = nil }), false},
		{"the same reorder made twice", moveDown, local(order(802, 801)), local(order(802, 801)), true},
		{"a reorder the server does not have", moveDown, local(order(802, 801)), local(order(801, 802)), false},
		{"a create is never settled", &app.CreateArea{ID: fixtureProposalID, Name: "Kitchen", AreaID: -1, OptionID: -2},
			local(func(*app.Proposal) {}), local(func(*app.Proposal) {}), false},
		{"no server copy", &app.SetDescription{ID: fixtureProposalID}, local(func(*app.Proposal) {}), nil, false},
	} {
		if got := app.Settled(tc.m, tc.mine, tc.theirs); got != tc.want {
			t.Errorf("%s: Settled = %v, want %v", tc.name, got, tc.want)
		}
	}
}
