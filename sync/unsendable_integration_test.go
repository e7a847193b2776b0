package syncer

import (
	"testing"

	"proposaldesk/app"
	"proposaldesk/localstore"
	"proposaldesk/localstore/legacytest"
)

// An outbox holding edits that can never be sent (a rename of proposal
// 0 as older versions queued it; a new option in area 0, with an edit
// of that option waiting for it; an edit of an option never created)
// followed by edits of the same proposals: one sync sends the edits that do not depend on
// the bad ones, marks those failed with a reason in words, leaves the
// dependent one waiting behind its create, and returns no error.
func TestEngineUnsendableEntriesDoNotStopTheRound(t *testing.T) {
	s := startReal(t)
	p := serverDraft(t, s, "Unsendable")
	q := serverDraft(t, s, "Unsendable, other")
	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	d.sync(t)
	path, actor := d.st.Path(), s.appUser(t, app.RoleSales)
	if err := d.st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := legacytest.AddPhantom(path, "Copy of Unsendable"); err != nil {
		t.Fatal(err)
	}
	phantom, err := legacytest.AddEdit(path, 0, &app.UpdateProposal{Name: strp("Renamed copy")}, actor)
	if err != nil {
		t.Fatal(err)
	}
	badOption, err := legacytest.AddEdit(path, p.ID, &app.CreateOption{ID: p.ID, OptionID: -900, ClientDescription: "In no area"}, actor)
	if err != nil {
		t.Fatal(err)
	}
	waiting, err := legacytest.AddEdit(path, p.ID,
		&app.SetOptionClientDescription{ID: p.ID, OptionID: -900, ClientDescription: "Waits for its option"}, actor, badOption)
	if err != nil {
		t.Fatal(err)
	}
	// An edit of an option whose create is gone without its ID being
	// replaced.
	orphan, err := legacytest.AddEdit(path, q.ID,
		&app.SetOptionClientDescription{ID: q.ID, OptionID: -901, ClientDescription: "Never created"}, actor)
	if err != nil {
		t.Fatal(err)
	}
	d = s.newDesk(t, s.URL, app.RoleSales, openLocal(t, path), nil)
	d.edit(t, q.ID, &app.SetDescription{ID: q.ID, Description: "Another proposal lands"})
	d.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: "The same proposal lands"})

	if err := d.eng.SyncOnce(bg); err != nil {
		t.Fatalf("the sync stopped at an entry that cannot be sent: %v", err)
	}
	if g := serverProposal(t, s, q.ID); g.ProjectDescription != "Another proposal lands" {
		t.Errorf("server Q: %q", g.ProjectDescription)
	}
	if g := serverProposal(t, s, p.ID); g.ProjectDescription != "The same proposal lands" || len(g.Areas[0].Options) != 2 {
		t.Errorf("server P: %q, %d options", g.ProjectDescription, len(g.Areas[0].Options))
	}
	for _, c := range []struct {
		seq    uint64
		reason string
	}{{phantom, localstore.ReasonNoProposal}, {badOption, localstore.ReasonMissingID}, {orphan, localstore.ReasonNeverCreated}} {
		en, err := d.st.Entry(c.seq)
		if err != nil || en.State != localstore.StateFailed || !en.Unsendable || en.ErrorMessage != c.reason {
			t.Errorf("entry %d: %+v %v, want failed: %s", c.seq, en, err, c.reason)
		}
	}
	if en, err := d.st.Entry(waiting); err != nil || en.State != localstore.StatePending || !en.Blocked || en.BlockedBy != badOption {
		t.Errorf("dependent entry: %+v %v", en, err)
	}
	if st := d.eng.State(); st.Failed != 3 || st.Pending != 1 || st.Blocked != 1 || st.LastError != nil {
		t.Errorf("state %+v: want 3 failed, 1 pending and blocked", st)
	}
	// The next rounds go through too.
	d.sync(t)
	if err := d.eng.Discard(bg, phantom); err != nil {
		t.Fatal(err)
	}
	if _, err := d.st.Record(0); app.KindOf(err) != app.KindNotFound {
		t.Errorf("phantom proposal after discarding its edit: %v", err)
	}
	d.sync(t)
}
