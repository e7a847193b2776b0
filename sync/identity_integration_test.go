package syncer

import (
	"testing"

	"proposaldesk/app"
)

// A screen keeps the IDs it was built with. Whatever it names by a
// temporary ID that a sync has since replaced, an edit it makes lands on
// the same thing, on the laptop and on the server.

// A new Labor line, online: a sync replaces its temporary ID (and those
// of its proposal, area and option) while the row still holds them; what
// is typed into the row afterwards is saved and sent.
func TestEditThroughAReplacedTemporaryIDLands(t *testing.T) {
	s := startReal(t)
	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	d.sync(t)
	me := s.appUser(t, app.RoleSales)

	p := d.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp("Typed after a sync")})
	p = d.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Kitchen"})
	tmpProposal, tmpArea, tmpOption := p.ID, p.Areas[0].ID, p.Areas[0].Options[0].ID
	p = d.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: tmpOption, ItemType: ptrTo(app.ItemLabor), Name: strp("Labor")})
	tmpItem := p.Areas[0].Options[0].Items[0].ID
	d.sync(t)

	real := findByName(t, d, "Typed after a sync")
	if real.ID == tmpProposal || real.ID <= 0 {
		t.Fatalf("after sync the proposal is %d (was %d)", real.ID, tmpProposal)
	}
	// The row's fields, built before the sync, still say tmpItem.
	d.edit(t, tmpProposal, &app.ChangeItem{ID: tmpProposal, ItemID: tmpItem, Name: strp("Install and program")})
	d.edit(t, tmpProposal, &app.ChangeItem{ID: tmpProposal, ItemID: tmpItem, Quantity: qty("6"), SellPrice: money("95.00")})
	// So do the area's buttons.
	d.edit(t, tmpProposal, &app.AddItem{ID: tmpProposal, OptionID: tmpOption, ItemType: ptrTo(app.ItemFee), Name: strp("Permit"), SellPrice: money("40.00")})
	d.edit(t, tmpProposal, &app.RenameArea{ID: tmpProposal, AreaID: tmpArea, Name: "Kitchen and dining"})

	rec, err := d.st.Record(tmpProposal)
	if err != nil || rec.ID != real.ID {
		t.Fatalf("Record(%d) = %v, %v; want the proposal under %d", tmpProposal, rec, err, real.ID)
	}
	items := rec.Local.Areas[0].Options[0].Items
	if len(items) != 2 || items[0].Name != "Install and program" || items[0].Quantity != app.MustQuantity("6") {
		t.Fatalf("local items %+v", items)
	}
	d.sync(t)
	if st := d.eng.State(); st.Pending+st.Failed+st.Conflicts != 0 || st.LastError != nil {
		t.Fatalf("after sync: %+v", st)
	}
	g := serverProposal(t, s, real.ID)
	got := g.Areas[0].Options[0].Items
	if g.Areas[0].Name != "Kitchen and dining" || len(got) != 2 || got[0].Name != "Install and program" ||
		got[0].Quantity != app.MustQuantity("6") || got[0].SellPrice != app.MustMoney("95.00") || got[1].Name != "Permit" {
		t.Fatalf("server area %q items %+v", g.Areas[0].Name, got)
	}
}

// An edit of proposal 0 (a screen that lost track of what it shows) is
// refused when it is made: no phantom proposal, nothing queued.
func TestEditOfProposalZeroIsRefused(t *testing.T) {
	s := startReal(t)
	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	d.sync(t)
	before, err := d.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.eng.Edit(bg, 0, &app.UpdateProposal{ID: 0, Name: strp("Lost")})
	if app.KindOf(err) != app.KindNotFound {
		t.Fatalf("edit of proposal 0: %v, want NotFound", err)
	}
	after, err := d.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf("outbox %d → %d entries", len(before), len(after))
	}
	if _, err := d.st.Record(0); err == nil {
		t.Fatal("a proposal 0 was stored")
	}
}
