package syncer

import (
	"fmt"
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

// itemNamed is the ID of the item named name in p's first option.
func itemNamed(t *testing.T, p *app.Proposal, name string) int64 {
	t.Helper()
	for _, a := range p.Areas {
		for _, o := range a.Options {
			for _, it := range o.Items {
				if it.Name == name {
					return it.ID
				}
			}
		}
	}
	t.Fatalf("no item %q in proposal %d", name, p.ID)
	return 0
}

// itemNames are the names of the items of the first option, in order.
func itemNames(d app.ProposalDetail) []string {
	var out []string
	for _, it := range d.Areas[0].Options[0].Items {
		out = append(out, it.Name)
	}
	return out
}

// A copy made offline is the copy the laptop saw: its edits land on the
// items they were made on, whatever another laptop did to the source
// meanwhile (moved an item, removed one). An edit of a copied item the
// server's source no longer had is refused in words, not left waiting.
func TestOfflineCopyEditsLandOnTheItemsTheLaptopSaw(t *testing.T) {
	s := startReal(t)
	a := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	b := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	a.sync(t)
	me := s.appUser(t, app.RoleSales)

	p := a.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp("Copied while moved")})
	p = a.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Den"})
	opt := p.Areas[0].Options[0].ID
	for _, name := range []string{"X", "Y", "Z"} {
		p = a.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp(name), SellPrice: money("10.00")})
	}
	a.sync(t)
	b.sync(t)

	// A moves Y to the top and removes Z; B does not hear of it.
	src := findByName(t, a, "Copied while moved").Local
	a.edit(t, src.ID, &app.ChangeItem{ID: src.ID, ItemID: itemNamed(t, src, "Y"), Position: ptrTo(int64(0))})
	a.edit(t, src.ID, &app.RemoveItem{ID: src.ID, ItemID: itemNamed(t, src, "Z")})
	a.sync(t)

	// B copies what it sees (X, Y, Z) offline and edits the copy at once.
	bsrc := findByName(t, b, "Copied while moved").Local
	cp := b.edit(t, bsrc.ID, &app.CopyProposal{ID: bsrc.ID, Name: strp("Copy B saw")})
	b.edit(t, cp.ID, &app.ChangeItem{ID: cp.ID, ItemID: itemNamed(t, cp, "X"), Name: strp("X renamed")})
	b.edit(t, cp.ID, &app.ChangeItem{ID: cp.ID, ItemID: itemNamed(t, cp, "Y"), Quantity: qty("3")})
	b.edit(t, cp.ID, &app.ChangeItem{ID: cp.ID, ItemID: itemNamed(t, cp, "Z"), Name: strp("Z renamed")})
	if err := b.eng.SyncOnce(bg); err != nil {
		t.Fatalf("sync: %v", err)
	}

	copyRec := findByName(t, b, "Copy B saw")
	g := serverProposal(t, s, copyRec.ID)
	if got := itemNames(g); len(got) != 2 || got[0] != "Y" || got[1] != "X renamed" {
		t.Fatalf("server copy items %v, want [Y, X renamed]", got)
	}
	if q := g.Areas[0].Options[0].Items[0].Quantity; q != app.MustQuantity("3") {
		t.Fatalf("Y's quantity on the server %s, want 3", q)
	}
	// The laptop shows what the server has, and the one edit that had
	// nothing to land on is refused with its reason.
	local := copyRec.Local.Areas[0].Options[0].Items
	if len(local) != 2 || local[0].Name != "Y" || local[1].Name != "X renamed" {
		t.Fatalf("laptop copy items %+v", local)
	}
	entries, err := b.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].State != "failed" || entries[0].ErrorMessage == "" {
		t.Fatalf("outbox after sync: %+v", entries)
	}
	t.Logf("refused: %s", entries[0].ErrorMessage)
}

// Settling judges each edit by its own effect: two edits that the server
// refuses are both shown as refused, even when the second undoes on the
// laptop what made the first differ from the server.
func TestEachRefusedEditIsShown(t *testing.T) {
	s := startReal(t)
	a := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	b := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	a.sync(t)
	me := s.appUser(t, app.RoleSales)

	p := a.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp("Nest then move")})
	p = a.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Patio"})
	p = a.edit(t, p.ID, &app.CreateOption{ID: p.ID, AreaID: p.Areas[0].ID, ClientDescription: "Better"})
	opt := p.Areas[0].Options[0].ID
	for _, name := range []string{"P", "X"} {
		p = a.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp(name), SellPrice: money("10.00")})
	}
	a.sync(t)
	b.sync(t)

	// B removes P and the second option, and syncs.
	bp := findByName(t, b, "Nest then move").Local
	b.edit(t, bp.ID, &app.RemoveItem{ID: bp.ID, ItemID: itemNamed(t, bp, "P")})
	b.edit(t, bp.ID, &app.RemoveOption{ID: bp.ID, OptionID: bp.Areas[0].Options[1].ID})
	b.sync(t)

	// A, not synced, nests X under P, then moves X to the second option.
	ap := findByName(t, a, "Nest then move").Local
	x, pid, o2 := itemNamed(t, ap, "X"), itemNamed(t, ap, "P"), ap.Areas[0].Options[1].ID
	a.edit(t, ap.ID, &app.ChangeItem{ID: ap.ID, ItemID: x, ParentID: &pid})
	a.edit(t, ap.ID, &app.ChangeItem{ID: ap.ID, ItemID: x, ParentID: ptrTo(int64(0)), OptionID: &o2})
	if err := a.eng.SyncOnce(bg); err != nil {
		t.Fatalf("sync: %v", err)
	}
	entries, err := a.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("outbox after sync has %d entries, want the nest and the move shown as refused: %+v", len(entries), entries)
	}
	for _, e := range entries {
		if e.State != "failed" || e.ErrorMessage == "" {
			t.Errorf("entry %d: %s %q", e.Seq, e.State, e.ErrorMessage)
		}
	}
}

// Content added offline to a proposal, copied at once, and the copy's
// copy of it edited: the sync that gives the original's new parts their
// IDs rebuilds the copy after its original, so the copy keeps them and
// the edit lands. (Views were rebuilt in map order: half the time the
// copy was replayed on its original's view from before the remap, lost
// the new parts, and the edit failed.) Several pairs, so that an order
// left to chance fails.
func TestOfflineCopyOfOfflineContent(t *testing.T) {
	s := startReal(t)
	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	d.sync(t)
	me := s.appUser(t, app.RoleSales)
	const pairs = 6
	var names []string
	for i := range pairs {
		name := fmt.Sprintf("Copied before sent %d", i)
		d.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp(name)})
		names = append(names, name)
	}
	d.sync(t)
	for i, name := range names {
		p := findByName(t, d, name).Local
		p = d.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Room"})
		p = d.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: p.Areas[0].Options[0].ID, ItemType: ptrTo(app.ItemLabor), Name: strp("Labor")})
		cp := d.edit(t, p.ID, &app.CopyProposal{ID: p.ID, Name: strp(fmt.Sprintf("Copy %d", i))})
		d.edit(t, cp.ID, &app.ChangeItem{ID: cp.ID, ItemID: itemNamed(t, cp, "Labor"), Name: strp("Wiring"), Quantity: qty("6")})
	}
	d.sync(t)
	if st := d.eng.State(); st.Pending+st.Failed+st.Conflicts != 0 || st.LastError != nil {
		entries, _ := d.st.Entries()
		t.Fatalf("after sync: %+v; outbox %+v", st, entries)
	}
	for i := range pairs {
		g := serverProposal(t, s, findByName(t, d, fmt.Sprintf("Copy %d", i)).ID)
		if got := itemNames(g); len(got) != 1 || got[0] != "Wiring" || g.Areas[0].Options[0].Items[0].Quantity != app.MustQuantity("6") {
			t.Fatalf("copy %d on the server: %v", i, got)
		}
	}
}
