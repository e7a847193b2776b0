package localstore

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"proposaldesk/app"
)

// Chained offline creates — proposal → area → option → descriptions and
// contact → location → assign both — reach the server step by step, and
// every temporary ID is replaced as each create is acknowledged.
func TestRemapChainedCreates(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	e := func(i int) app.Env { return envAt(i, sales) }

	p, err := s.Edit(ctx, 0, &app.CreateProposal{SalesPersonID: sales.ID, Name: strp("Cabin")}, e(1))
	if err != nil {
		t.Fatal(err)
	}
	tp := p.ID
	p, err = s.Edit(ctx, tp, &app.CreateArea{ID: tp, Name: "Den"}, e(2))
	if err != nil {
		t.Fatal(err)
	}
	ta, to1 := p.Areas[0].ID, p.Areas[0].Options[0].ID
	p, err = s.Edit(ctx, tp, &app.CreateOption{ID: tp, AreaID: ta, ClientDescription: "Good"}, e(3))
	if err != nil {
		t.Fatal(err)
	}
	to2 := p.Areas[0].Options[1].ID
	for i, m := range []app.Mutation{
		&app.SetOptionClientDescription{ID: tp, OptionID: to2, ClientDescription: "Better"},
		&app.SetOptionInstallerNotes{ID: tp, OptionID: to1, InstallerNotes: "basic"},
	} {
		if _, err := s.Edit(ctx, tp, m, e(4+i)); err != nil {
			t.Fatal(err)
		}
	}
	c, err := s.CreateContact(ctx, app.NewContact{PartyType: app.PartyPerson, ContactType: app.ContactClient,
		FirstName: "Cy", LastName: "Cabin"}, e(6))
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.CreateLocation(ctx, c.ID, app.NewLocation{Street: "2 Pine", State: "Texas", IsPrimary: true}, e(7))
	if err != nil {
		t.Fatal(err)
	}
	if l.StateAbbrev != "TX" || l.ContactID != c.ID || c.ID >= 0 || l.ID >= 0 {
		t.Fatalf("offline contact %+v location %+v", c, l)
	}
	for i, m := range []app.Mutation{
		&app.AssignContact{ID: tp, ContactID: c.ID},
		&app.AssignLocation{ID: tp, LocationID: l.ID},
	} {
		if p, err = s.Edit(ctx, tp, m, e(8+i)); err != nil {
			t.Fatal(err)
		}
	}
	if p.Customer == nil || p.Customer.ID != c.ID || p.Tax.Status != app.TaxOK || p.Tax.Parts.Rate != app.MustRate("8.25") {
		t.Fatalf("offline view customer %+v tax %+v", p.Customer, p.Tax)
	}

	// Dependencies as the brief describes them.
	pend, _ := s.Pending(0)
	if len(pend) != 9 {
		t.Fatalf("%d entries queued, want 9", len(pend))
	}
	want := map[int][]uint64{0: nil, 1: {1}, 2: {1, 2}, 3: {1, 3}, 4: {1, 2}, 5: nil, 6: {6}, 7: {1, 6}, 8: {1, 7}}
	for i, en := range pend {
		if !reflect.DeepEqual(en.DependsOn, want[i]) {
			t.Errorf("entry %d (%s) depends on %v, want %v", en.Seq, en.Mutation, en.DependsOn, want[i])
		}
	}

	// Step by step: each send acknowledges one entry and remaps.
	for step := 0; ; step++ {
		pend, _ := s.Pending(0)
		if len(pend) == 0 {
			break
		}
		if err := f.send(t, s, pend[0]); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		// After every step nothing refers to a temporary ID that the
		// server already made, and the local view equals what the server
		// would show with the rest applied.
		all, _ := s.Entries()
		for _, en := range all {
			if en.State != StatePending {
				t.Fatalf("step %d: entry %d is %s (%s %s)", step, en.Seq, en.State, en.ErrorKind, en.ErrorMessage)
			}
		}
	}
	var real int64
	for id := range f.props {
		real = id
	}
	rec, err := s.Record(real)
	if err != nil {
		t.Fatal(err)
	}
	// The temporary ID names the same proposal, under its real ID: a
	// screen built before the sync still reaches it.
	if r, err := s.Record(tp); err != nil || r.ID != real {
		t.Errorf("Record(%d) after the sync: %v, %v; want proposal %d", tp, r, err, real)
	}
	srv := f.props[real]
	if !reflect.DeepEqual(rec.Server, srv) || !reflect.DeepEqual(rec.Local, srv) {
		t.Errorf("after sync local %+v\nserver %+v", rec.Local.Document, srv.Document)
	}
	if srv.Areas[0].Options[1].ClientDescription != "Better" || srv.Customer.Location.Street != "2 Pine" {
		t.Errorf("server got %+v", srv.Areas)
	}
	if _, ok, _ := s.Contact(c.ID); ok {
		t.Error("temporary contact still cached")
	}
	if cc, ok, _ := s.Contact(srv.Customer.ID); !ok || cc.FirstName != "Cy" {
		t.Error("real contact not cached")
	}
	if locs, _ := s.Locations(srv.Customer.ID); len(locs) != 1 || locs[0].ID != srv.Customer.Location.ID {
		t.Errorf("locations of the real contact: %+v", locs)
	}
	if it, _ := s.Item(real); it.Pending != 0 || it.Offline() {
		t.Errorf("item %+v", it)
	}
}

// RemapID on its own, before any ack: every stored reference moves.
func TestRemapID(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	p, err := s.Edit(ctx, 0, &app.CreateProposal{SalesPersonID: sales.ID}, envAt(1, sales))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Edit(ctx, p.ID, &app.SetDescription{ID: p.ID, Description: "d"}, envAt(2, sales)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateSettings(ctx, func(st *Settings) { st.LastOpenProposal = p.ID }); err != nil {
		t.Fatal(err)
	}
	if err := s.RemapID(ctx, p.ID, 4242); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	rec, err := s.Record(4242)
	if err != nil || rec.Local.ID != 4242 || rec.Local.ProjectDescription != "d" {
		t.Fatalf("record %+v, %v", rec, err)
	}
	pend, _ := s.Pending(0)
	for _, e := range pend {
		m, _ := e.Decode()
		if e.ProposalID != 4242 || (m.ProposalID() != 4242 && m.Kind() != app.KindCreateProposal) {
			t.Errorf("entry %+v", e)
		}
	}
	if m, _ := pend[0].Decode(); m.(*app.CreateProposal).ID != 4242 {
		t.Errorf("create not remapped: %s", pend[0].Mutation)
	}
	if st, _ := s.Settings(); st.LastOpenProposal != 4242 {
		t.Errorf("settings %+v", st)
	}
	if _, ok := s.Item(p.ID); ok {
		t.Error("list item under the temporary ID")
	}
	if n, _, _ := s.Search(app.DefaultListQuery()); len(n) != 1 || n[0].ID != 4242 {
		t.Errorf("search %+v", n)
	}
}

// Ack replaces the server copy and replays what is left on top of it;
// an entry that no longer applies fails with the rule's error.
func TestAckRebases(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p := pulled(t, s, f, "Office")
	for i, m := range []app.Mutation{
		&app.SetDescription{ID: p.ID, Description: "mine"},
		&app.CreateArea{ID: p.ID, Name: "Lobby"},
		&app.SetInternalNotes{ID: p.ID, InternalNotes: "after"},
	} {
		if _, err := s.Edit(ctx, p.ID, m, envAt(1+i, sales)); err != nil {
			t.Fatal(err)
		}
	}
	// Meanwhile the office adds a "Lobby" and renames the proposal.
	if _, err := f.apply(&app.CreateArea{ID: p.ID, Name: "lobby"}, t0, sales2); err != nil {
		t.Fatal(err)
	}
	if _, err := f.apply(&app.UpdateProposal{ID: p.ID, Name: strp("Office (HQ)")}, t0, sales2); err != nil {
		t.Fatal(err)
	}
	pend, _ := s.Pending(0)
	srv, err := f.apply(pend[0].decodeT(t), pend[0].Created, sales)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ack(ctx, pend[0].Seq, srv); err != nil {
		t.Fatal(err)
	}
	rec, _ := s.Record(p.ID)
	if rec.Local.Name != "Office (HQ)" || rec.Local.ProjectDescription != "mine" || rec.Local.InternalNotes != "after" {
		t.Errorf("local %+v", rec.Local.Document)
	}
	if len(rec.Local.Areas) != 1 || rec.Local.Areas[0].Name != "lobby" || rec.BaseVersion != srv.Version {
		t.Errorf("areas %+v base %d", rec.Local.Areas, rec.BaseVersion)
	}
	all, _ := s.Entries()
	if len(all) != 2 || all[0].State != StateFailed || all[0].ErrorKind != app.KindAreaNameTaken ||
		all[1].State != StatePending || all[1].BaseVersion != srv.Version {
		t.Errorf("entries %+v", all)
	}
	if it, _ := s.Item(p.ID); it.Failed != 1 || it.Pending != 1 {
		t.Errorf("badges %+v", it.Badges)
	}
	if c, _ := s.Counts(); c.Pending != 1 || c.Failed != 1 {
		t.Errorf("counts %+v", c)
	}
}

func (e Entry) decodeT(t *testing.T) app.Mutation {
	t.Helper()
	m, err := e.Decode()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A failed entry leaves the view; its dependents wait, blocked, until
// it is retried; Discard drops it with its dependents.
func TestFailBlocksDependentsAndDiscard(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p := pulled(t, s, f, "Barn")
	v, _ := s.Edit(ctx, p.ID, &app.CreateArea{ID: p.ID, Name: "Loft"}, envAt(1, sales))
	area := v.Areas[0].ID
	if _, err := s.Edit(ctx, p.ID, &app.CreateOption{ID: p.ID, AreaID: area}, envAt(2, sales)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Edit(ctx, p.ID, &app.SetDescription{ID: p.ID, Description: "independent"}, envAt(3, sales)); err != nil {
		t.Fatal(err)
	}
	pend, _ := s.Pending(0)
	if err := s.MarkSent(ctx, pend[0].Seq); err != nil {
		t.Fatal(err)
	}
	if err := s.Fail(ctx, pend[0].Seq, app.KindSubscriptionInactive, "subscription lapsed"); err != nil {
		t.Fatal(err)
	}
	if b, _ := s.Blocked(pend[1].Seq); !b {
		t.Error("option create not blocked behind the failed area create")
	}
	if b, _ := s.Blocked(pend[2].Seq); b {
		t.Error("independent edit blocked")
	}
	rec, _ := s.Record(p.ID)
	if len(rec.Local.Areas) != 0 || rec.Local.ProjectDescription != "independent" {
		t.Errorf("local after fail %+v", rec.Local.Document)
	}
	e0, _ := s.Entry(pend[0].Seq)
	if e0.State != StateFailed || e0.ErrorKind != app.KindSubscriptionInactive || e0.Attempts != 1 {
		t.Errorf("failed entry %+v", e0)
	}
	e1, _ := s.Entry(pend[1].Seq)
	if e1.State != StatePending {
		t.Errorf("blocked entry state %s", e1.State)
	}
	c, _ := s.Counts()
	if c.Failed != 1 || c.Pending != 2 || c.Blocked != 1 {
		t.Errorf("counts %+v", c)
	}

	// Retry brings both back.
	if err := s.Retry(ctx, pend[0].Seq); err != nil {
		t.Fatal(err)
	}
	if rec, _ := s.Record(p.ID); len(rec.Local.Areas) != 1 || len(rec.Local.Areas[0].Options) != 2 {
		t.Errorf("after retry %+v", rec.Local.Areas)
	}
	// Discard the area create: the option create goes with it.
	if err := s.Discard(ctx, pend[0].Seq); err != nil {
		t.Fatal(err)
	}
	all, _ := s.Entries()
	if len(all) != 1 || all[0].Seq != pend[2].Seq {
		t.Errorf("after discard %+v", all)
	}
	rec, _ = s.Record(p.ID)
	if len(rec.Local.Areas) != 0 || rec.Local.ProjectDescription != "independent" {
		t.Errorf("after discard %+v", rec.Local.Document)
	}
	f.drain(t, s)
	if rec, _ := s.Record(p.ID); rec.Local.ProjectDescription != "independent" || !reflect.DeepEqual(rec.Local, rec.Server) {
		t.Errorf("after drain %+v", rec)
	}
}

// Discarding an offline create removes what it made.
func TestDiscardOfflineCreates(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	p, _ := s.Edit(ctx, 0, &app.CreateProposal{SalesPersonID: sales.ID}, envAt(1, sales))
	c, _ := s.CreateContact(ctx, app.NewContact{PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Z"}, envAt(2, sales))
	if _, err := s.CreateLocation(ctx, c.ID, app.NewLocation{Street: "z"}, envAt(3, sales)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Edit(ctx, p.ID, &app.AssignContact{ID: p.ID, ContactID: c.ID}, envAt(4, sales)); err != nil {
		t.Fatal(err)
	}
	pend, _ := s.Pending(0)
	if err := s.Discard(ctx, pend[1].Seq); err != nil { // the contact
		t.Fatal(err)
	}
	if _, ok, _ := s.Contact(c.ID); ok {
		t.Error("offline contact kept")
	}
	if locs, _ := s.Locations(c.ID); len(locs) != 0 {
		t.Error("offline location kept")
	}
	rec, _ := s.Record(p.ID)
	if rec.Local.Customer != nil {
		t.Error("assignment of the discarded contact still shown")
	}
	if err := s.Discard(ctx, pend[0].Seq); err != nil { // the proposal
		t.Fatal(err)
	}
	if _, err := s.Record(p.ID); kindOf(err) != app.KindNotFound {
		t.Errorf("offline proposal kept: %v", err)
	}
	if all, _ := s.Entries(); len(all) != 0 {
		t.Errorf("entries left: %+v", all)
	}
	if _, n, _ := s.Search(app.DefaultListQuery()); n != 0 {
		t.Errorf("list has %d", n)
	}
}

// A proposal accepted in the office while edited offline becomes
// read-only; edits the lock refuses show as failed ProposalLocked;
// installer notes (allowed in every status) still go.
func TestLockedPullMarksReadOnly(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p := pulled(t, s, f, "Theater")
	s.Edit(ctx, p.ID, &app.SetDescription{ID: p.ID, Description: "mine"}, envAt(1, sales))
	s.Edit(ctx, p.ID, &app.SetInternalNotes{ID: p.ID, InternalNotes: "wiring"}, envAt(2, sales))
	var srv *app.Proposal
	for _, st := range []app.Status{app.StatusSubmitted, app.StatusAccepted} {
		srv, _ = f.apply(&app.ChangeStatus{ID: p.ID, Status: st}, t0, sales2)
	}
	if err := s.PutServerCopy(ctx, srv); err != nil {
		t.Fatal(err)
	}
	rec, _ := s.Record(p.ID)
	if !rec.ReadOnly || rec.Local.Status != app.StatusAccepted || rec.Local.InternalNotes != "wiring" || rec.Local.ProjectDescription != "" {
		t.Errorf("record %+v local %+v", rec.ReadOnly, rec.Local.Document)
	}
	all, _ := s.Entries()
	if all[0].State != StateFailed || all[0].ErrorKind != app.KindProposalLocked || all[1].State != StatePending {
		t.Errorf("entries %+v", all)
	}
	if it, _ := s.Item(p.ID); !it.ReadOnly || it.Failed != 1 {
		t.Errorf("item %+v", it)
	}
	// Reopened in the office: the flag clears.
	srv, _ = f.apply(&app.ChangeStatus{ID: p.ID, Status: app.StatusDraft}, t0, sales2)
	s.PutServerCopy(ctx, srv)
	if rec, _ := s.Record(p.ID); rec.ReadOnly {
		t.Error("still read-only after reopen")
	}
}

// A field changed on both sides becomes a conflict; keeping mine sends
// it again on the new base; taking theirs drops it.
func TestPullConflict(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p := pulled(t, s, f, "Yacht")
	s.Edit(ctx, p.ID, &app.SetDescription{ID: p.ID, Description: "mine"}, envAt(1, sales))
	s.Edit(ctx, p.ID, &app.UpdateProposal{ID: p.ID, Name: strp("Yacht 2")}, envAt(2, sales))
	srv, _ := f.apply(&app.SetDescription{ID: p.ID, Description: "theirs"}, t0, sales2)
	if err := s.PutServerCopy(ctx, srv); err != nil {
		t.Fatal(err)
	}
	rec, _ := s.Record(p.ID)
	want := []Conflict{{Field: app.FieldProjectDescription, Base: "", Mine: "mine", Theirs: "theirs"}}
	if !reflect.DeepEqual(rec.Conflicts, want) {
		t.Errorf("conflicts %+v", rec.Conflicts)
	}
	if rec.Local.ProjectDescription != "theirs" || rec.Local.Name != "Yacht 2" {
		t.Errorf("local %+v", rec.Local.Document)
	}
	all, _ := s.Entries()
	if all[0].State != StateConflict || all[1].State != StatePending {
		t.Fatalf("entries %+v", all)
	}
	if c, _ := s.Counts(); c.Conflicts != 1 {
		t.Errorf("counts %+v", c)
	}
	if err := s.ResolveConflict(ctx, all[0].Seq, true); err != nil {
		t.Fatal(err)
	}
	rec, _ = s.Record(p.ID)
	if rec.Local.ProjectDescription != "mine" || len(rec.Conflicts) != 0 {
		t.Errorf("after keep-mine %+v %+v", rec.Local.ProjectDescription, rec.Conflicts)
	}
	e, _ := s.Entry(all[0].Seq)
	if e.State != StatePending || e.BaseVersion != srv.Version {
		t.Errorf("entry %+v", e)
	}
}

func TestFieldConflicts(t *testing.T) {
	base := &app.Proposal{Document: app.Document{Name: "A", ProjectDescription: "d",
		Areas: []app.Area{{ID: 1, Options: []app.Option{{ID: 2, ClientDescription: "o"}}}}}}
	with := func(f func(p *app.Proposal)) *app.Proposal { c := base.Clone(); f(c); return c }
	cases := []struct {
		name         string
		mine, theirs *app.Proposal
		want         []string
	}{
		{"nothing changed", base, base, nil},
		{"only mine", with(func(p *app.Proposal) { p.Name = "B" }), base, nil},
		{"only theirs", base, with(func(p *app.Proposal) { p.Name = "C" }), nil},
		{"same change", with(func(p *app.Proposal) { p.Name = "B" }), with(func(p *app.Proposal) { p.Name = "B" }), nil},
		{"both differently", with(func(p *app.Proposal) { p.Name = "B" }), with(func(p *app.Proposal) { p.Name = "C" }), []string{"name"}},
		{"different fields", with(func(p *app.Proposal) { p.Name = "B" }), with(func(p *app.Proposal) { p.ProjectDescription = "x" }), nil},
		{"option", with(func(p *app.Proposal) { p.Areas[0].Options[0].ClientDescription = "m" }),
			with(func(p *app.Proposal) { p.Areas[0].Options[0].ClientDescription = "t" }), []string{"options/2/clientDescription"}},
		{"option gone on their side", with(func(p *app.Proposal) { p.Areas[0].Options[0].ClientDescription = "m" }),
			with(func(p *app.Proposal) { p.Areas = nil }), nil},
		{"customer", with(func(p *app.Proposal) { p.Customer = &app.Customer{Contact: acme} }),
			with(func(p *app.Proposal) { p.Customer = &app.Customer{Contact: bob} }), []string{"customer"}},
		// Theirs went A→B→A: the value is the base's, the version is not.
		{"theirs changed and came back", with(func(p *app.Proposal) { p.Name = "C" }),
			with(func(p *app.Proposal) { p.FieldVersions = map[app.Field]int64{"name": 9} }), []string{"name"}},
		{"theirs came back, mine unchanged", base, with(func(p *app.Proposal) { p.FieldVersions = map[app.Field]int64{"name": 9} }), nil},
		{"theirs came back to mine", with(func(p *app.Proposal) { p.Name = "A" }),
			with(func(p *app.Proposal) { p.FieldVersions = map[app.Field]int64{"name": 9} }), nil},
		{"another field's version moved", with(func(p *app.Proposal) { p.Name = "C" }),
			with(func(p *app.Proposal) { p.FieldVersions = map[app.Field]int64{"projectDescription": 9} }), nil},
		{"an item's quantity", with(func(p *app.Proposal) { p.Areas[0].Options[0].Items = []app.Item{{ID: 5, Quantity: 2 * app.OneUnit}} }),
			with(func(p *app.Proposal) { p.Areas[0].Options[0].Items = []app.Item{{ID: 5, Quantity: 3 * app.OneUnit}} }), nil},
	}
	for _, c := range cases {
		var got []string
		for _, x := range FieldConflicts(base, c.mine, c.theirs) {
			got = append(got, string(x.Field))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// An item's position shifts whenever another is added before it, so
	// reordering on both sides is no conflict.
	items := func(ids ...int64) *app.Proposal {
		return with(func(p *app.Proposal) {
			for _, id := range ids {
				p.Areas[0].Options[0].Items = append(p.Areas[0].Options[0].Items, app.Item{ID: id, Quantity: app.OneUnit})
			}
		})
	}
	if got := FieldConflicts(items(5, 6, 7), items(7, 5, 6), items(6, 7, 5)); len(got) != 0 {
		t.Errorf("items reordered on both sides: conflicts %v", got)
	}
}

// The cursor moves only with the data of its pull.
func TestApplyPullAtomic(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p, _ := f.apply(&app.CreateProposal{SalesPersonID: sales.ID}, t0, sales)
	boom := errors.New("network dropped mid-pull")
	err := s.ApplyPull(ctx, func(tx *PullTx) error {
		if err := tx.PutServerCopy(p); err != nil {
			return err
		}
		if err := tx.SetCursor("store-1", "c2"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if id, cur, _ := s.Cursor(); id != "store-1" || cur != "c1" {
		t.Errorf("cursor %s %s", id, cur)
	}
	if _, err := s.Record(p.ID); err == nil {
		t.Error("data of a failed pull kept")
	}
	if _, ok := s.Item(p.ID); ok {
		t.Error("memory list has a rolled-back item")
	}
	at := t0.Add(time.Hour)
	err = s.ApplyPull(ctx, func(tx *PullTx) error {
		if err := tx.PutServerCopy(p); err != nil {
			return err
		}
		if err := tx.SetLastSync(at); err != nil {
			return err
		}
		return tx.SetCursor("store-1", "c2")
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	if _, cur, _ := s.Cursor(); cur != "c2" {
		t.Errorf("cursor %s", cur)
	}
	if c, _ := s.Counts(); !c.LastSync.Equal(at) {
		t.Errorf("last sync %v", c.LastSync)
	}
}

// A new server store drops the server copies and keeps the outbox.
func TestResetForNewStore(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	a := pulled(t, s, f, "Kept")
	b := pulled(t, s, f, "Dropped")
	s.Edit(ctx, a.ID, &app.SetDescription{ID: a.ID, Description: "unsent"}, envAt(1, sales))
	off, _ := s.Edit(ctx, 0, &app.CreateProposal{SalesPersonID: sales.ID}, envAt(2, sales))
	if err := s.ResetForNewStore(ctx, "store-2"); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	if id, cur, _ := s.Cursor(); id != "store-2" || cur != "" {
		t.Errorf("cursor %q %q", id, cur)
	}
	if _, err := s.Record(b.ID); err == nil {
		t.Error("proposal without edits kept")
	}
	rec, err := s.Record(a.ID)
	if err != nil || rec.Server != nil || !rec.NeedsServerCopy || rec.Local.ProjectDescription != "unsent" {
		t.Errorf("kept record %+v %v", rec, err)
	}
	if _, err := s.Record(off.ID); err != nil {
		t.Errorf("offline proposal: %v", err)
	}
	if all, _ := s.Entries(); len(all) != 2 {
		t.Errorf("outbox %+v", all)
	}
	// The next pull brings it back and the edit is replayed on top.
	srv := f.props[a.ID]
	if err := s.PutServerCopy(ctx, srv); err != nil {
		t.Fatal(err)
	}
	if rec, _ := s.Record(a.ID); rec.NeedsServerCopy || rec.Local.ProjectDescription != "unsent" || rec.BaseVersion != srv.Version {
		t.Errorf("after pull %+v", rec)
	}
}

func TestOpenWhileLocked(t *testing.T) {
	s := openStore(t, "")
	start := time.Now()
	_, err := OpenWith(s.Path(), Options{Timeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestSettings(t *testing.T) {
	s := openStore(t, "")
	err := s.UpdateSettings(ctx, func(st *Settings) {
		st.WindowWidth, st.WindowHeight, st.ServerURL, st.UserEmail = 1280, 800, "https://pd.test", "sam@dealer.test"
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s)
	if st, _ := s.Settings(); st != (Settings{WindowWidth: 1280, WindowHeight: 800, ServerURL: "https://pd.test", UserEmail: "sam@dealer.test"}) {
		t.Errorf("%+v", st)
	}
}

// A pull that stops midway (the app killed after some chunks committed)
// downloads the same proposals again from the old cursor: installing a
// server copy the store already holds, or an older one, must change
// nothing — no conflict, entry state or record is touched twice.
func TestPutServerCopyAgainChangesNothing(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	plain := pulled(t, s, f, "Plain")   // no queued edits
	edited := pulled(t, s, f, "Edited") // queued edits, one in conflict
	locked := pulled(t, s, f, "Locked") // queued edits, locked on the server
	mustEdit := func(id int64, m app.Mutation, i int) {
		t.Helper()
		if _, err := s.Edit(ctx, id, m, envAt(i, sales)); err != nil {
			t.Fatal(err)
		}
	}
	mustEdit(edited.ID, &app.SetDescription{ID: edited.ID, Description: "mine"}, 1)
	mustEdit(edited.ID, &app.UpdateProposal{ID: edited.ID, Name: strp("Edited 2")}, 2)
	mustEdit(locked.ID, &app.SetDescription{ID: locked.ID, Description: "mine"}, 3)
	mustEdit(locked.ID, &app.SetInternalNotes{ID: locked.ID, InternalNotes: "wiring"}, 4)

	older := map[int64]*app.Proposal{plain.ID: plain.Clone(), edited.ID: edited.Clone(), locked.ID: locked.Clone()}
	var copies []*app.Proposal
	p, _ := f.apply(&app.UpdateProposal{ID: plain.ID, Name: strp("Plain 2")}, t0, sales2)
	copies = append(copies, p)
	p, _ = f.apply(&app.SetDescription{ID: edited.ID, Description: "theirs"}, t0, sales2)
	copies = append(copies, p)
	for _, st := range []app.Status{app.StatusSubmitted, app.StatusAccepted} {
		p, _ = f.apply(&app.ChangeStatus{ID: locked.ID, Status: st}, t0, sales2)
	}
	copies = append(copies, p)

	pull := func(ps []*app.Proposal) {
		t.Helper()
		err := s.ApplyPull(ctx, func(tx *PullTx) error {
			for _, p := range ps {
				if err := tx.PutServerCopy(p.Clone()); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	pull(copies)
	first := dump(t, s)
	entries, _ := s.Entries()
	var states []State
	for _, e := range entries {
		states = append(states, e.State)
	}
	if want := []State{StateConflict, StatePending, StateFailed, StatePending}; !reflect.DeepEqual(states, want) {
		t.Fatalf("after the first pull: entry states %v, want %v", states, want)
	}
	items := map[int64]ListItem{}
	for _, id := range []int64{plain.ID, edited.ID, locked.ID} {
		items[id], _ = s.Item(id)
	}

	// The same copies again (a re-pull after a crash), then older ones
	// (a stale answer): the file and the list index are as they were.
	pull(copies)
	if again := dump(t, s); !reflect.DeepEqual(again, first) {
		for k, v := range again {
			if first[k] != v {
				t.Errorf("the same copies again changed %s:\n%s\nwas\n%s", k, v, first[k])
			}
		}
	}
	pull([]*app.Proposal{older[plain.ID], older[edited.ID], older[locked.ID]})
	if again := dump(t, s); !reflect.DeepEqual(again, first) {
		t.Errorf("older copies changed the store")
	}
	for id, want := range items {
		if got, _ := s.Item(id); !reflect.DeepEqual(got, want) {
			t.Errorf("list item %d: %+v, want %+v", id, got, want)
		}
	}
	rec, _ := s.Record(edited.ID)
	if len(rec.Conflicts) != 1 || rec.Local.Name != "Edited 2" || rec.Local.ProjectDescription != "theirs" {
		t.Errorf("edited: conflicts %+v, local %q %q", rec.Conflicts, rec.Local.Name, rec.Local.ProjectDescription)
	}
	if c, _ := s.Counts(); c.Conflicts != 1 || c.Failed != 1 {
		t.Errorf("counts %+v", c)
	}
}
