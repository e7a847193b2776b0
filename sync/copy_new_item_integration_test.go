package syncer

import (
	"fmt"
	"testing"

	"proposaldesk/app"
)

// An item added offline and copied with its proposal before either is
// sent is an item of the copy like any other: edits of it in the copy
// land on the server's copy of it. (Whether the source or the copy was
// replayed first after the item's add was acknowledged went by map
// order, so the test runs a few rounds.)
func TestOfflineCopyOfAnItemAddedOfflineTakesItsEdits(t *testing.T) {
	s := startReal(t)
	for round := range 8 {
		offlineCopyOfNewItem(t, s, fmt.Sprint("Copied with a new item ", round), fmt.Sprint("The copy ", round))
	}
}

func offlineCopyOfNewItem(t *testing.T, s *realServer, name, copyName string) {
	a := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	a.sync(t)
	me := s.appUser(t, app.RoleSales)

	p := a.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp(name)})
	p = a.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Hall"})
	opt := p.Areas[0].Options[0].ID
	p = a.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp("X"), SellPrice: money("10.00")})
	a.sync(t)

	// Offline: a new item Y, then a copy, then edits of the copy's X and Y.
	src := findByName(t, a, name).Local
	src = a.edit(t, src.ID, &app.AddItem{ID: src.ID, OptionID: src.Areas[0].Options[0].ID, ItemType: ptrTo(app.ItemPart), Name: strp("Y"), SellPrice: money("10.00")})
	cp := a.edit(t, src.ID, &app.CopyProposal{ID: src.ID, Name: &copyName})
	a.edit(t, cp.ID, &app.ChangeItem{ID: cp.ID, ItemID: itemNamed(t, cp, "X"), Quantity: qty("4")})
	a.edit(t, cp.ID, &app.ChangeItem{ID: cp.ID, ItemID: itemNamed(t, cp, "Y"), Name: strp("Y renamed")})
	a.sync(t)

	entries, err := a.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Fatalf("outbox after sync: %+v", entries)
	}
	copyRec := findByName(t, a, copyName)
	g := serverProposal(t, s, copyRec.ID)
	got := g.Areas[0].Options[0].Items
	if names := itemNames(g); len(names) != 2 || names[0] != "X" || names[1] != "Y renamed" || got[0].Quantity != app.MustQuantity("4") {
		t.Fatalf("server copy items %v (X's quantity %s), want [X ×4, Y renamed]", names, got[0].Quantity)
	}
}
