package app_test

import (
	"maps"
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

func TestRemapEffect(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in, want map[app.Field]string
	}{
		{"a field of the part", map[app.Field]string{"items/-7/name": "TV"}, map[app.Field]string{"items/901/name": "TV"}},
		{"a value naming the part", map[app.Field]string{"items/55/parentId": "-7"}, map[app.Field]string{"items/55/parentId": "901"}},
		{"another part's ID that shares digits", map[app.Field]string{"items/-70/name": "-70", "options/-77/status": "Draft"},
			map[app.Field]string{"items/-70/name": "-70", "options/-77/status": "Draft"}},
		{"a text that reads as the ID", map[app.Field]string{"name": "-7", "items/55/name": "-7"},
			map[app.Field]string{"name": "-7", "items/55/name": "-7"}},
		{"an item's option", map[app.Field]string{"items/55/option": "-7"}, map[app.Field]string{"items/55/option": "901"}},
		{"no effect", nil, nil},
	} {
		if got := app.RemapEffect(tc.in, -7, 901); !maps.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// An effect is read from the view the edit left, before any later edit:
// a nest judged later, against a server that refused it, is not done
// even though a later local move un-nested the item.
func TestSettledByTheEditsOwnEffect(t *testing.T) {
	p := fixtureProposal(app.StatusDraft)
	o, _ := p.Option(kitchenOptionID)
	o.Items = append(o.Items, app.Item{ID: 802, ItemType: app.ItemPart, Name: "Bracket", Quantity: app.OneUnit})
	nest := &app.ChangeItem{ID: fixtureProposalID, ItemID: 802, ParentID: ptr(int64(801))}
	nested, err := app.Apply(p, nest, fixtureEnv(fixtureSales))
	if err != nil {
		t.Fatal(err)
	}
	effect := app.Effect(nest, nested)
	if effect["items/802/parentId"] != "801" {
		t.Fatalf("effect %v", effect)
	}
	// The server refused the nest: the item is at the top there, as the
	// laptop's later view (after an un-nesting move) also has it.
	if app.SettledBy(nest, effect, p) {
		t.Fatal("a refused nest settled by its effect")
	}
	if !app.SettledBy(nest, effect, nested) {
		t.Fatal("a nest the server has is not settled")
	}
}
