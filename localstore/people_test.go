package localstore

import (
	"slices"
	"testing"

	"proposaldesk/app"
)

// contactIDs and locationIDs are what the store holds, for comparing.
func contactIDs(t *testing.T, s *Store) []int64 {
	t.Helper()
	cs, _, err := s.Contacts(app.ContactQuery{PageNumber: 1, PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	slices.Sort(ids)
	return ids
}

func locationIDs(t *testing.T, s *Store, contactID int64) []int64 {
	t.Helper()
	locs, err := s.Locations(contactID)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, l := range locs {
		ids = append(ids, l.ID)
	}
	return ids
}

// A page of the people feed replaces each contact's server locations
// (a location moved to another contact follows it; one made offline
// stays) and moves the cursor; a page from a new server store first
// drops every contact and location that came from the server.
func TestApplyPeopleChanges(t *testing.T) {
	s := openStore(t, "")
	seed(t, s) // acme (HQ, Lake) and bob, not through the feed
	page := func(storeID, cursor string, people ...app.ContactWithLocations) {
		t.Helper()
		if err := s.ApplyPeopleChanges(ctx, app.PeopleChanges{StoreID: storeID, Cursor: cursor, People: people}); err != nil {
			t.Fatal(err)
		}
		if id, cur, err := s.PeopleCursor(); err != nil || id != storeID || cur != cursor {
			t.Fatalf("people cursor %q %q, %v; want %q %q", id, cur, err, storeID, cursor)
		}
	}
	with := func(c app.Contact, locs ...app.ContactLocation) app.ContactWithLocations {
		for i := range locs {
			locs[i].ContactID = c.ID
		}
		return app.ContactWithLocations{Contact: c, Locations: locs}
	}
	offline, err := s.CreateLocation(ctx, acme.ID, app.NewLocation{Street: "3 Offline Rd", State: "Texas"}, envAt(1, sales))
	if err != nil {
		t.Fatal(err)
	}
	// The Lake location moves from acme to bob; bob's page comes first
	// (the server sends acme's first, but the laptop must not depend on
	// it).
	page("store-1", "5", with(bob, acmeLake))
	page("store-1", "6", with(acme, acmeHQ))
	if got, want := locationIDs(t, s, acme.ID), []int64{acmeHQ.ID, offline.ID}; !slices.Equal(got, want) {
		t.Errorf("acme's locations %v, want %v", got, want)
	}
	if got := locationIDs(t, s, bob.ID); !slices.Equal(got, []int64{acmeLake.ID}) {
		t.Errorf("bob's locations %v", got)
	}

	// The server's data was replaced: it has acme only, as a new record.
	offlineContact, err := s.CreateContact(ctx, app.NewContact{PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Off"}, envAt(2, sales))
	if err != nil {
		t.Fatal(err)
	}
	renamed := acme
	renamed.CompanyName = "Acme Restored"
	page("store-2", "1", with(renamed))
	if got, want := contactIDs(t, s), []int64{offlineContact.ID, acme.ID}; !slices.Equal(got, want) {
		t.Errorf("contacts after the new store %v, want %v (bob dropped, the offline one kept)", got, want)
	}
	if c, _, _ := s.Contact(acme.ID); c.CompanyName != "Acme Restored" {
		t.Errorf("acme after the new store: %+v", c)
	}
	if got := locationIDs(t, s, acme.ID); !slices.Equal(got, []int64{offline.ID}) {
		t.Errorf("acme's locations after the new store %v, want only the offline one", got)
	}
	if got := locationIDs(t, s, bob.ID); len(got) != 0 {
		t.Errorf("bob's locations after the new store %v", got)
	}
}
