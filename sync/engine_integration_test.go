package syncer

import (
	"slices"
	"testing"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

func strp(s string) *string { return &s }

// Offline edits of every kind, then one sync: the server ends up with
// each exactly once, and temporary IDs are replaced by the server's.
func TestEngineOfflineEditsThenSync(t *testing.T) {
	s := startReal(t)
	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	d.sync(t) // first sync: caches and proposals
	me := s.appUser(t, app.RoleSales)

	p := d.edit(t, 0, &app.CreateProposal{SalesPersonID: me.ID, Name: strp("Offline everything")})
	if p.ID >= 0 {
		t.Fatalf("offline create got ID %d, want a temporary one", p.ID)
	}
	p = d.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Kitchen"})
	area := p.Areas[0]
	p = d.edit(t, p.ID, &app.CreateOption{ID: p.ID, AreaID: area.ID, ClientDescription: "Second"})
	opt := p.Areas[0].Options[1]
	d.edit(t, p.ID, &app.SetOptionClientDescription{ID: p.ID, OptionID: opt.ID, ClientDescription: "Second, edited"})
	d.edit(t, p.ID, &app.SetOptionInstallerNotes{ID: p.ID, OptionID: area.Options[0].ID, InstallerNotes: "Mind the pipes"})
	d.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: "A kitchen"})
	d.edit(t, p.ID, &app.SetInternalNotes{ID: p.ID, InternalNotes: "Gate code 1234"})
	d.edit(t, p.ID, &app.UpdateProposal{ID: p.ID, Name: strp("Offline everything (renamed)")})
	c, err := d.eng.CreateContact(bg, app.NewContact{PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Olive", LastName: "Offline"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := d.eng.CreateLocation(bg, c.ID, app.NewLocation{Street: "1 Elm St", City: "Austin", State: "TX", Country: "US", IsPrimary: true})
	if err != nil {
		t.Fatal(err)
	}
	d.edit(t, p.ID, &app.AssignContact{ID: p.ID, ContactID: c.ID})
	d.edit(t, p.ID, &app.AssignLocation{ID: p.ID, LocationID: l.ID})
	d.edit(t, p.ID, &app.ChangeStatus{ID: p.ID, Status: app.StatusSubmitted})

	if st := d.eng.State(); st.Pending != 13 {
		t.Fatalf("state %+v, want 13 pending", st)
	}
	d.sync(t)
	st := d.eng.State()
	if st.Pending != 0 || st.Failed != 0 || st.Conflicts != 0 || st.LastSync.IsZero() || !st.Online || st.LastError != nil {
		t.Fatalf("after sync: %+v", st)
	}
	list, err := d.st.Entries()
	if err != nil || len(list) != 0 {
		t.Fatalf("outbox %v, %v", list, err)
	}
	// Find the proposal under its real ID.
	direct := s.signedIn(t, s.URL, app.RoleSales)
	rec := findByName(t, d, "Offline everything (renamed)")
	got, err := direct.GetProposal(bg, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	g := got.Proposal
	if g.Status != app.StatusSubmitted || g.ProjectDescription != "A kitchen" || g.InternalNotes != "Gate code 1234" ||
		len(g.Areas) != 1 || len(g.Areas[0].Options) != 2 || g.Areas[0].Options[1].ClientDescription != "Second, edited" ||
		g.Areas[0].Options[0].InstallerDescription != "Mind the pipes" || g.Customer == nil || g.Customer.FirstName != "Olive" ||
		g.Customer.Location == nil || g.Customer.Location.Street != "1 Elm St" {
		t.Fatalf("server copy %+v", g)
	}
	if rec.Local.Version != g.Version || rec.Server.Version != g.Version {
		t.Fatalf("local version %d, server copy %d, server %d", rec.Local.Version, rec.Server.Version, g.Version)
	}
}

// findByName finds a proposal of the local store by name.
func findByName(t *testing.T, d *desk, name string) *localstore.Record {
	t.Helper()
	items := named(t, d, name)
	if len(items) == 0 {
		t.Fatalf("no local proposal named %q", name)
	}
	rec, err := d.st.Record(items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// named are the proposals of the local store named name.
func named(t *testing.T, d *desk, name string) []localstore.ListItem {
	t.Helper()
	q := app.DefaultListQuery()
	q.SearchText, q.PageSize = name, 200
	items, _, err := d.st.ListItems(q)
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(items, func(it localstore.ListItem) bool { return it.Name != name })
}

// serverDraft creates a proposal with one area (two options) on the
// server directly and returns its detail.
func serverDraft(t *testing.T, s *realServer, name string) app.ProposalDetail {
	t.Helper()
	direct := s.signedIn(t, s.URL, app.RoleAdmin)
	p := newDraft(t, direct, s, name)
	p, err := direct.CreateOption(bg, p.ID, p.Areas[0].ID, "Opt B", "", WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// serverProposal reads a proposal from the server.
func serverProposal(t *testing.T, s *realServer, id int64) app.ProposalDetail {
	t.Helper()
	got, err := s.admin(t).GetProposal(bg, id)
	if err != nil {
		t.Fatal(err)
	}
	return got.Proposal
}

// Two desktops edit the same proposal offline, different fields: both
// edits land, in either order, without a conflict.
func TestEngineTwoClientsMergeDifferentFields(t *testing.T) {
	s := startReal(t)
	for _, aFirst := range []bool{true, false} {
		p := serverDraft(t, s, "Merge")
		a := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
		b := s.newDesk(t, s.URL, app.RoleAdmin, nil, nil)
		a.sync(t)
		b.sync(t)
		opt := p.Areas[0].Options[0].ID
		a.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: "From A"})
		a.edit(t, p.ID, &app.SetOptionClientDescription{ID: p.ID, OptionID: opt, ClientDescription: "A's option text"})
		b.edit(t, p.ID, &app.UpdateProposal{ID: p.ID, Name: strp("Renamed by B")})
		b.edit(t, p.ID, &app.SetOptionInstallerNotes{ID: p.ID, OptionID: opt, InstallerNotes: "B's notes"})
		first, second := a, b
		if !aFirst {
			first, second = b, a
		}
		first.sync(t)
		second.sync(t)
		first.sync(t)
		for _, d := range []*desk{a, b} {
			if st := d.eng.State(); st.Pending+st.Failed+st.Conflicts != 0 {
				t.Fatalf("aFirst %v: state %+v", aFirst, st)
			}
		}
		g := serverProposal(t, s, p.ID)
		o := g.Areas[0].Options[0]
		if g.ProjectDescription != "From A" || g.Name != "Renamed by B" || o.ClientDescription != "A's option text" || o.InstallerDescription != "B's notes" {
			t.Fatalf("aFirst %v: server has %q %q %q %q", aFirst, g.ProjectDescription, g.Name, o.ClientDescription, o.InstallerDescription)
		}
		for _, d := range []*desk{a, b} {
			rec, err := d.st.Record(p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Local.Version != g.Version || rec.Local.Name != g.Name || rec.Local.ProjectDescription != g.ProjectDescription {
				t.Fatalf("aFirst %v: local %d %q %q, server %d", aFirst, rec.Local.Version, rec.Local.Name, rec.Local.ProjectDescription, g.Version)
			}
		}
	}
}

// Two desktops change the same field: the second to sync gets a
// conflict it resolves; keep mine sends its value, keep theirs drops it.
func TestEngineTwoClientsConflictSameField(t *testing.T) {
	s := startReal(t)
	for _, keepMine := range []bool{true, false} {
		for _, aFirst := range []bool{true, false} {
			p := serverDraft(t, s, "Conflict")
			a := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
			b := s.newDesk(t, s.URL, app.RoleAdmin, nil, nil)
			a.sync(t)
			b.sync(t)
			a.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: "A says"})
			a.edit(t, p.ID, &app.SetInternalNotes{ID: p.ID, InternalNotes: "A's notes"})
			b.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: "B says"})
			first, second := a, b
			if !aFirst {
				first, second = b, a
			}
			first.sync(t)
			second.sync(t)
			st := second.eng.State()
			if st.Conflicts != 1 {
				t.Fatalf("keepMine %v aFirst %v: state %+v, want one conflict", keepMine, aFirst, st)
			}
			rec, err := second.st.Record(p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Conflicts) != 1 || rec.Conflicts[0].Field != "projectDescription" {
				t.Fatalf("conflicts %+v", rec.Conflicts)
			}
			mine, theirs := "B says", "A says"
			if !aFirst {
				mine, theirs = theirs, mine
			}
			if c := rec.Conflicts[0]; c.Mine != mine || c.Theirs != theirs {
				t.Fatalf("conflict %+v", c)
			}
			var seq uint64
			entries, _ := second.st.Entries()
			for _, en := range entries {
				if en.State == "conflict" {
					seq = en.Seq
				}
			}
			if err := second.eng.ResolveConflict(bg, seq, keepMine); err != nil {
				t.Fatal(err)
			}
			second.sync(t)
			first.sync(t)
			want := theirs
			if keepMine {
				want = mine
			}
			g := serverProposal(t, s, p.ID)
			if g.ProjectDescription != want || g.InternalNotes != "A's notes" {
				t.Fatalf("keepMine %v aFirst %v: server %q / %q, want %q", keepMine, aFirst, g.ProjectDescription, g.InternalNotes, want)
			}
			for _, d := range []*desk{a, b} {
				if st := d.eng.State(); st.Pending+st.Failed+st.Conflicts != 0 {
					t.Fatalf("state %+v", st)
				}
				rec, _ := d.st.Record(p.ID)
				if rec.Local.ProjectDescription != want || len(rec.Conflicts) != 0 {
					t.Fatalf("local %q, conflicts %v", rec.Local.ProjectDescription, rec.Conflicts)
				}
			}
		}
	}
}

// entryOf finds the outbox entry whose mutation has the kind.
func entriesByKind(t *testing.T, d *desk) map[app.MutationKind][]localstore.Entry {
	t.Helper()
	all, err := d.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	out := map[app.MutationKind][]localstore.Entry{}
	for _, en := range all {
		if en.Kind != localstore.EntryProposal {
			continue
		}
		m, err := en.Decode()
		if err != nil {
			t.Fatal(err)
		}
		out[m.Kind()] = append(out[m.Kind()], en)
	}
	return out
}

// Edits the server refuses (a name taken meanwhile, the option limit,
// a proposal accepted in the office) are kept as failed with the reason;
// the ones depending on them wait; the rest land.
func TestEngineRejectedEditsAreKeptAndDoNotBlockOthers(t *testing.T) {
	s := startReal(t)
	office := s.signedIn(t, s.URL, app.RoleAdmin)
	p := serverDraft(t, s, "Rejections")
	q := serverDraft(t, s, "Unrelated")
	r := serverDraft(t, s, "Accepted meanwhile")
	if _, err := office.ChangeStatus(bg, r.ID, app.StatusSubmitted, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	d.sync(t)

	// The office, meanwhile.
	if _, err := office.CreateArea(bg, p.ID, "Kitchen", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := office.CreateOption(bg, p.ID, p.Areas[0].ID, "Office's third", "", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := office.ChangeStatus(bg, r.ID, app.StatusAccepted, WriteOptions{}); err != nil {
		t.Fatal(err)
	}

	// The desktop, offline.
	lp := d.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: " kitchen"})
	area := lp.Areas[len(lp.Areas)-1]
	lp = d.edit(t, p.ID, &app.CreateOption{ID: p.ID, AreaID: area.ID, ClientDescription: "In my kitchen"})
	newOpt := lp.Areas[len(lp.Areas)-1].Options[1]
	d.edit(t, p.ID, &app.SetOptionClientDescription{ID: p.ID, OptionID: newOpt.ID, ClientDescription: "Edited"})
	d.edit(t, p.ID, &app.CreateOption{ID: p.ID, AreaID: p.Areas[0].ID, ClientDescription: "My third"})
	d.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: "Still lands"})
	d.edit(t, q.ID, &app.SetDescription{ID: q.ID, Description: "Unrelated lands"})
	d.edit(t, r.ID, &app.SetDescription{ID: r.ID, Description: "Too late"})
	d.edit(t, r.ID, &app.SetInternalNotes{ID: r.ID, InternalNotes: "Installers still get this"})
	d.sync(t)

	st := d.eng.State()
	if st.Failed != 3 || st.Pending != 2 || st.Blocked != 2 || st.Conflicts != 0 {
		t.Fatalf("state %+v: want 3 failed, 2 pending and blocked", st)
	}
	byKind := entriesByKind(t, d)
	if en := byKind[app.KindCreateArea]; len(en) != 1 || en[0].State != localstore.StateFailed || en[0].ErrorKind != app.KindAreaNameTaken || en[0].ErrorMessage == "" {
		t.Fatalf("create area: %+v", en)
	}
	opts := byKind[app.KindCreateOption]
	if len(opts) != 2 || !opts[0].Blocked || opts[1].State != localstore.StateFailed || opts[1].ErrorKind != app.KindOptionLimitReached {
		t.Fatalf("create options: %+v", opts)
	}
	if en := byKind[app.KindSetOptionClientDesc]; len(en) != 1 || !en[0].Blocked {
		t.Fatalf("option text: %+v", en)
	}
	if en := byKind[app.KindSetDescription]; len(en) != 1 || en[0].ProposalID != r.ID || en[0].ErrorKind != app.KindProposalLocked {
		t.Fatalf("descriptions: %+v", en)
	}
	gp, gq, gr := serverProposal(t, s, p.ID), serverProposal(t, s, q.ID), serverProposal(t, s, r.ID)
	if gp.ProjectDescription != "Still lands" || len(gp.Areas) != 2 || len(gp.Areas[0].Options) != 3 {
		t.Fatalf("server P: %q, %d areas", gp.ProjectDescription, len(gp.Areas))
	}
	if gq.ProjectDescription != "Unrelated lands" || gr.InternalNotes != "Installers still get this" || gr.ProjectDescription != "" {
		t.Fatalf("server Q %q, R %q / %q", gq.ProjectDescription, gr.InternalNotes, gr.ProjectDescription)
	}
	// The accepted proposal is read-only here, its refused edit visible.
	rec, err := d.st.Record(r.ID)
	if err != nil || !rec.ReadOnly || rec.Local.Status != app.StatusAccepted {
		t.Fatalf("R: %v read-only %v status %s", err, rec.ReadOnly, rec.Local.Status)
	}

	// The user renames the area: discard and redo. The dependents go
	// with the discarded create.
	if err := d.eng.Discard(bg, byKind[app.KindCreateArea][0].Seq); err != nil {
		t.Fatal(err)
	}
	d.edit(t, p.ID, &app.CreateArea{ID: p.ID, Name: "Kitchen 2"})
	if err := d.eng.Discard(bg, opts[1].Seq); err != nil {
		t.Fatal(err)
	}
	d.sync(t)
	if st := d.eng.State(); st.Failed != 1 || st.Pending != 0 {
		t.Fatalf("after discarding: %+v", st)
	}
	if gp := serverProposal(t, s, p.ID); len(gp.Areas) != 3 || gp.Areas[2].Name != "Kitchen 2" {
		t.Fatalf("server P areas %+v", gp.Areas)
	}
}
