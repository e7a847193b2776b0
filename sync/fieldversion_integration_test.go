package syncer

import (
	"testing"

	"proposaldesk/app"
)

// An older offline move must not silently undo a newer one: the status
// went Draft → Submitted → Draft on the server (someone submitted it and
// took it back) while a laptop, offline, submitted it. Compared by value
// the server's status looks untouched; by field version it changed, so
// the laptop's edit is a conflict for its user to settle.
func TestEngineChangeThatCameBackIsAConflict(t *testing.T) {
	s := startReal(t)
	p := serverDraft(t, s, "Came back")
	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	d.sync(t)
	d.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: "Laptop text"})
	d.edit(t, p.ID, &app.ChangeStatus{ID: p.ID, Status: app.StatusSubmitted})
	if _, err := s.Update(p.ID, &app.ChangeStatus{Status: app.StatusSubmitted}, &app.ChangeStatus{Status: app.StatusDraft}); err != nil {
		t.Fatal(err)
	}
	d.sync(t)
	if st := d.eng.State(); st.Conflicts != 1 {
		t.Fatalf("state %+v, want the status move in conflict", st)
	}
	rec, _ := d.st.Record(p.ID)
	if len(rec.Conflicts) != 1 || rec.Conflicts[0].Field != app.FieldStatus || rec.Conflicts[0].Theirs != "Draft" || rec.Conflicts[0].Mine != "Submitted" {
		t.Fatalf("conflicts %+v", rec.Conflicts)
	}
	g := serverProposal(t, s, p.ID)
	if g.Status != app.StatusDraft || g.ProjectDescription != "Laptop text" {
		t.Fatalf("server: status %s, description %q; want Draft kept and the description (no conflict) sent", g.Status, g.ProjectDescription)
	}
	if g.FieldVersions[app.FieldStatus] == 0 {
		t.Fatalf("field versions %v at version %d", g.FieldVersions, g.Version)
	}
}

// Two laptops make the same move offline (both submit the proposal, both
// remove the same item): the second push finds the effect already on the
// server and settles as done, not as refused.
func TestEngineSameMoveTwiceSettles(t *testing.T) {
	s := startReal(t)
	p := serverDraft(t, s, "Same move")
	opt := p.Areas[0].Options[0].ID
	direct := s.signedIn(t, s.URL, app.RoleAdmin)
	res, err := direct.Do(bg, &app.AddItem{ID: p.ID, OptionID: opt, ItemType: ptrTo(app.ItemPart), Name: strp("Cable")}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	item := res.Proposal.Areas[0].Options[0].Items[0].ID
	a := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	b := s.newDesk(t, s.URL, app.RoleAdmin, nil, nil)
	a.sync(t)
	b.sync(t)
	for _, d := range []*desk{a, b} {
		d.edit(t, p.ID, &app.ChangeStatus{ID: p.ID, Status: app.StatusSubmitted})
		d.edit(t, p.ID, &app.RemoveItem{ID: p.ID, ItemID: item})
	}
	a.sync(t)
	b.sync(t)
	for name, d := range map[string]*desk{"a": a, "b": b} {
		if st := d.eng.State(); st.Pending+st.Failed+st.Conflicts != 0 {
			t.Fatalf("%s: state %+v, want every edit settled", name, st)
		}
	}
	g := serverProposal(t, s, p.ID)
	if g.Status != app.StatusSubmitted || len(g.Areas[0].Options[0].Items) != 0 {
		t.Fatalf("server: %s, %d items", g.Status, len(g.Areas[0].Options[0].Items))
	}
	if rec, _ := b.st.Record(p.ID); rec.Local.Version != g.Version {
		t.Fatalf("b's view is at version %d, the server's %d", rec.Local.Version, g.Version)
	}
}
