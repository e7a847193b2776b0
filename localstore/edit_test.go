package localstore

import (
	"errors"
	"reflect"
	"testing"

	"proposaldesk/app"
)

// Every mutation kind applied offline is stored, queued, indexed and
// survives a reopen.
func TestEditEveryKindOffline(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	base := pulled(t, s, f, "Lake house")
	pid := base.ID
	view := base
	areaID, optionID := int64(0), int64(0)
	sp := sales2.ID

	steps := []struct {
		name string
		m    func() app.Mutation
		pid  int64
	}{
		{"update", func() app.Mutation {
			return &app.UpdateProposal{ID: pid, Name: strp("Lake house v2"), SalesPersonID: &sp}
		}, pid},
		{"description", func() app.Mutation { return &app.SetDescription{ID: pid, Description: "Whole-home audio"} }, pid},
		{"internal notes", func() app.Mutation { return &app.SetInternalNotes{ID: pid, InternalNotes: "gate code 1234"} }, pid},
		{"area", func() app.Mutation { return &app.CreateArea{ID: pid, Name: "Kitchen"} }, pid},
		{"option", func() app.Mutation { return &app.CreateOption{ID: pid, AreaID: areaID, ClientDescription: "Premium"} }, pid},
		{"option description", func() app.Mutation {
			return &app.SetOptionClientDescription{ID: pid, OptionID: optionID, ClientDescription: "Premium, ceiling speakers"}
		}, pid},
		{"option installer notes", func() app.Mutation {
			return &app.SetOptionInstallerNotes{ID: pid, OptionID: optionID, InstallerNotes: "attic access"}
		}, pid},
		{"assign contact", func() app.Mutation { return &app.AssignContact{ID: pid, ContactID: acme.ID} }, pid},
		{"assign location", func() app.Mutation { return &app.AssignLocation{ID: pid, LocationID: acmeLake.ID} }, pid},
		{"status", func() app.Mutation { return &app.ChangeStatus{ID: pid, Status: app.StatusSubmitted} }, pid},
		{"create proposal", func() app.Mutation { return &app.CreateProposal{SalesPersonID: sales.ID, Name: strp("Offline one")} }, 0},
	}
	for i, st := range steps {
		m := st.m()
		before, _ := app.EncodeMutation(m)
		got, err := s.Edit(ctx, st.pid, m, envAt(i+1, sales))
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if after, _ := app.EncodeMutation(m); string(after) != string(before) {
			t.Errorf("%s: Edit changed the caller's mutation", st.name)
		}
		switch m := m.(type) {
		case *app.CreateArea:
			a := got.Areas[len(got.Areas)-1]
			if a.ID >= 0 || a.Options[0].ID >= 0 {
				t.Fatalf("area create got IDs %d/%d, want temporary", a.ID, a.Options[0].ID)
			}
			areaID = a.ID
		case *app.CreateOption:
			a, _ := got.Area(areaID)
			optionID = a.Options[len(a.Options)-1].ID
			if optionID >= 0 {
				t.Fatalf("option got ID %d, want temporary", optionID)
			}
		case *app.CreateProposal:
			if got.ID >= 0 {
				t.Fatalf("offline proposal got ID %d", got.ID)
			}
			_ = m
		}
		if st.pid != 0 {
			view = got
		}
		// Read back after a reopen.
		s = reopen(t, s)
		rec, err := s.Record(got.ID)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if !reflect.DeepEqual(rec.Local, got) {
			t.Errorf("%s: stored local view differs from the returned one", st.name)
		}
		it, ok := s.Item(got.ID)
		if !ok || !reflect.DeepEqual(it.ListEntry, app.EntryOf(got)) {
			t.Errorf("%s: list item %+v, want %+v", st.name, it.ListEntry, app.EntryOf(got))
		}
		pend, err := s.Pending(0)
		if err != nil {
			t.Fatal(err)
		}
		last := pend[len(pend)-1]
		if last.Kind != EntryProposal || last.ProposalID != got.ID || last.State != StatePending || len(last.IdempotencyKey) != 32 {
			t.Errorf("%s: queued %+v", st.name, last)
		}
		dm, err := last.Decode()
		if err != nil || dm.Kind() != m.Kind() {
			t.Errorf("%s: queued mutation %v, %v", st.name, dm, err)
		}
		if st.pid != 0 && last.BaseVersion != base.Version {
			t.Errorf("%s: base version %d, want %d", st.name, last.BaseVersion, base.Version)
		}
	}
	if view.Name != "Lake house v2" || view.SalesPerson.ID != sales2.ID || view.ProjectDescription == "" ||
		view.Customer == nil || view.Customer.Location.ID != acmeLake.ID || view.Status != app.StatusSubmitted {
		t.Errorf("final view %+v", view.Document)
	}
	if it, _ := s.Item(pid); it.Pending != 10 {
		t.Errorf("badge pending = %d, want 10", it.Pending)
	}
	// Keys are unique.
	pend, _ := s.Pending(0)
	keys := map[string]bool{}
	for _, e := range pend {
		if keys[e.IdempotencyKey] {
			t.Errorf("duplicate idempotency key %s", e.IdempotencyKey)
		}
		keys[e.IdempotencyKey] = true
	}
}

// A rule error is returned as app's error and leaves the file untouched.
func TestRuleErrorsWriteNothing(t *testing.T) {
	s := openStore(t, "")
	seed(t, s)
	f := newFakeServer()
	p := pulled(t, s, f, "Base")
	if _, err := s.Edit(ctx, p.ID, &app.CreateArea{ID: p.ID, Name: "Kitchen"}, envAt(1, sales)); err != nil {
		t.Fatal(err)
	}
	view, _ := s.Proposal(p.ID)
	area := view.Areas[0]
	for i := range 2 {
		if _, err := s.Edit(ctx, p.ID, &app.CreateOption{ID: p.ID, AreaID: area.ID}, envAt(2+i, sales)); err != nil {
			t.Fatal(err)
		}
	}
	locked, err := f.apply(&app.CreateProposal{SalesPersonID: sales.ID}, t0, sales)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []app.Status{app.StatusSubmitted, app.StatusAccepted} {
		if locked, err = f.apply(&app.ChangeStatus{ID: locked.ID, Status: st}, t0, sales); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutServerCopy(ctx, locked); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name string
		pid  int64
		m    app.Mutation
		user app.User
		want app.Kind
	}{
		{"locked", locked.ID, &app.SetDescription{ID: locked.ID, Description: "x"}, sales, app.KindProposalLocked},
		{"area name taken", p.ID, &app.CreateArea{ID: p.ID, Name: " kitchen "}, sales, app.KindAreaNameTaken},
		{"fourth option", p.ID, &app.CreateOption{ID: p.ID, AreaID: area.ID}, sales, app.KindOptionLimitReached},
		{"viewer", p.ID, &app.SetDescription{ID: p.ID, Description: "x"}, viewer, app.KindPermissionDenied},
		{"empty name", p.ID, &app.UpdateProposal{ID: p.ID, Name: strp("  ")}, sales, app.KindValidationFailed},
		{"unknown proposal", 999999, &app.SetDescription{ID: 999999}, sales, app.KindNotFound},
		{"unknown contact", p.ID, &app.AssignContact{ID: p.ID, ContactID: 555}, sales, app.KindNotFound},
		{"location without contact", p.ID, &app.AssignLocation{ID: p.ID, LocationID: acmeHQ.ID}, sales, app.KindNoContactAssigned},
		{"bad transition", p.ID, &app.ChangeStatus{ID: p.ID, Status: app.StatusCompleted}, sales, app.KindInvalidTransition},
		{"unknown salesperson", 0, &app.CreateProposal{SalesPersonID: 77}, sales, app.KindNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := dump(t, s)
			_, err := s.Edit(ctx, c.pid, c.m, envAt(10, c.user))
			var ae *app.Error
			if !errors.As(err, &ae) || ae.Kind != c.want {
				t.Fatalf("err = %v, want %s", err, c.want)
			}
			if after := dump(t, s); !reflect.DeepEqual(before, after) {
				t.Errorf("the file changed")
			}
		})
	}
	if _, err := s.CreateContact(ctx, app.NewContact{PartyType: app.PartyPerson}, envAt(1, sales)); kindOf(err) != app.KindValidationFailed {
		t.Errorf("bad contact: %v", err)
	}
	if _, err := s.CreateLocation(ctx, 4242, app.NewLocation{Street: "x"}, envAt(1, sales)); kindOf(err) != app.KindNotFound {
		t.Errorf("location of unknown contact: %v", err)
	}
}
