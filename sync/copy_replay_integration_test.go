package syncer

import (
	"slices"
	"strings"
	"testing"

	"proposaldesk/app"
)

// copyFixture is a proposal "name" with one area and items X and Y, on
// the server and on both laptops.
func copyFixture(t *testing.T, s *realServer, name string) (a, b *desk) {
	t.Helper()
	a = s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	b = s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	a.sync(t)
	me := s.appUser(t, app.RoleSales)
	p := a.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: &name})
	p = a.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Hall"})
	opt := p.Areas[0].Options[0].ID
	for _, n := range []string{"X", "Y"} {
		p = a.edit(t, p.ID, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp(n), SellPrice: money("10.00")})
	}
	a.sync(t)
	b.sync(t)
	return a, b
}

// removeAndSync removes item from the laptop's proposal name and syncs.
func removeAndSync(t *testing.T, d *desk, name, item string) {
	t.Helper()
	p := findByName(t, d, name).Local
	d.edit(t, p.ID, &app.RemoveItem{ID: p.ID, ItemID: itemNamed(t, p, item)})
	d.sync(t)
}

// copyWithNewItem adds item N to the laptop's proposal name, offline,
// and copies the proposal as copyName: when N's add is acknowledged the
// copy, not sent yet, is replayed on the source.
func copyWithNewItem(t *testing.T, d *desk, name, copyName string) *app.Proposal {
	t.Helper()
	src := findByName(t, d, name).Local
	src = d.edit(t, src.ID, &app.AddItem{ID: src.ID, OptionID: src.Areas[0].Options[0].ID, ItemType: ptrTo(app.ItemPart), Name: strp("N"), SellPrice: money("10.00")})
	return d.edit(t, src.ID, &app.CopyProposal{ID: src.ID, Name: &copyName})
}

// wantCopy checks that the laptop's outbox is empty and that the
// server's copy copyName has the items want (names, in any option).
func wantCopy(t *testing.T, s *realServer, d *desk, copyName string, want ...string) {
	t.Helper()
	entries, err := d.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("outbox after sync: entry %d %s %q", e.Seq, e.State, e.ErrorMessage)
	}
	g := serverProposal(t, s, findByName(t, d, copyName).ID)
	var got []string
	for _, a := range g.Areas {
		for _, o := range a.Options {
			for _, it := range o.Items {
				got = append(got, it.Name)
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("server copy items %v, want %v", got, want)
	}
}

// An item the other laptop moved into an option this laptop never saw
// is still in the copy: the server copies it with that option, so an
// edit of it in the copy lands.
func TestOfflineCopyKeepsAnItemMovedToAnUnseenOption(t *testing.T) {
	s := startReal(t)
	a, b := copyFixture(t, s, "Moved to an unseen option")
	bp := findByName(t, b, "Moved to an unseen option").Local
	bp = b.edit(t, bp.ID, &app.CreateOption{ID: bp.ID, AreaID: bp.Areas[0].ID, ClientDescription: "Other"})
	b.edit(t, bp.ID, &app.ChangeItem{ID: bp.ID, ItemID: itemNamed(t, bp, "X"), OptionID: &bp.Areas[0].Options[1].ID})
	b.sync(t)

	cp := copyWithNewItem(t, a, "Moved to an unseen option", "Copy with X moved")
	a.edit(t, cp.ID, &app.ChangeItem{ID: cp.ID, ItemID: itemNamed(t, cp, "X"), Name: strp("X in the copy")})
	a.sync(t)
	wantCopy(t, s, a, "Copy with X moved", "X in the copy", "Y", "N")
}

// Removing an item from the source after copying it leaves the copy's
// item alone: removing it from the copy too is sent, not settled as
// done because the source has it no longer.
func TestOfflineCopyKeepsAnItemRemovedFromTheSourceAfterwards(t *testing.T) {
	s := startReal(t)
	a, _ := copyFixture(t, s, "Removed after the copy")
	cp := copyWithNewItem(t, a, "Removed after the copy", "Copy without X")
	src := findByName(t, a, "Removed after the copy").Local
	a.edit(t, src.ID, &app.RemoveItem{ID: src.ID, ItemID: itemNamed(t, src, "X")})
	a.edit(t, cp.ID, &app.RemoveItem{ID: cp.ID, ItemID: itemNamed(t, cp, "X")})
	a.sync(t)
	wantCopy(t, s, a, "Copy without X", "Y", "N")
}

// A copy of a copy, both made offline: an edit of an item the server's
// source had lost is refused with the same words as in the first copy,
// not with the temporary IDs it was made on.
func TestOfflineCopyOfACopyRefusesAnOrphanInWords(t *testing.T) {
	s := startReal(t)
	a, b := copyFixture(t, s, "Copy of a copy")
	removeAndSync(t, b, "Copy of a copy", "X")

	src := findByName(t, a, "Copy of a copy").Local
	c1 := a.edit(t, src.ID, &app.CopyProposal{ID: src.ID, Name: strp("First copy")})
	c2 := a.edit(t, c1.ID, &app.CopyProposal{ID: c1.ID, Name: strp("Second copy")})
	a.edit(t, c1.ID, &app.ChangeItem{ID: c1.ID, ItemID: itemNamed(t, c1, "X"), Name: strp("X in the first")})
	a.edit(t, c2.ID, &app.ChangeItem{ID: c2.ID, ItemID: itemNamed(t, c2, "X"), Name: strp("X in the second")})
	a.sync(t)

	entries, err := a.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("outbox after sync: %d entries, want the two renames refused: %+v", len(entries), entries)
	}
	for _, e := range entries {
		if e.State != "failed" || e.ErrorMessage != entries[0].ErrorMessage || strings.Contains(e.ErrorMessage, "not found in proposal") {
			t.Errorf("entry %d: %s %q", e.Seq, e.State, e.ErrorMessage)
		}
	}
	if got := itemNames(serverProposal(t, s, findByName(t, a, "Second copy").ID)); !slices.Equal(got, []string{"Y"}) {
		t.Fatalf("server's second copy has %v, want [Y]", got)
	}
}

// An edit of a copied item that the other laptop removed from the source
// is refused in words also when the copy is replayed on the source
// before it is sent (an item added offline to the source, acknowledged
// first, names the copy's source parts).
func TestOfflineCopyRefusesAnEditOfARemovedItemInWords(t *testing.T) {
	s := startReal(t)
	a, b := copyFixture(t, s, "Removed by the other laptop")
	removeAndSync(t, b, "Removed by the other laptop", "X")

	cp := copyWithNewItem(t, a, "Removed by the other laptop", "Copy without the removed X")
	a.edit(t, cp.ID, &app.ChangeItem{ID: cp.ID, ItemID: itemNamed(t, cp, "X"), Name: strp("X renamed")})
	a.sync(t)
	entries, err := a.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Logf("outbox: entry %d %s %q", e.Seq, e.State, e.ErrorMessage)
	}
	if len(entries) != 1 || entries[0].State != "failed" || !strings.Contains(entries[0].ErrorMessage, "before the copy reached it") {
		t.Fatalf("outbox after sync: want the rename refused in words")
	}
	if got := itemNames(serverProposal(t, s, findByName(t, a, "Copy without the removed X").ID)); !slices.Equal(got, []string{"Y", "N"}) {
		t.Fatalf("server's copy has %v, want [Y N]", got)
	}
}
