package syncer

import (
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
	q := app.DefaultListQuery()
	q.SearchText, q.PageSize = name, 200
	items, _, err := d.st.ListItems(q)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.Name == name {
			rec, err := d.st.Record(it.ID)
			if err != nil {
				t.Fatal(err)
			}
			return rec
		}
	}
	t.Fatalf("no local proposal named %q", name)
	return nil
}
