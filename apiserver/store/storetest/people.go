package storetest

import (
	"errors"
	"slices"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// personEntry is a people-feed entry as the test compares it: the contact
// and its locations' IDs.
type personEntry struct {
	id   int64
	locs string
}

func peopleOf(ch app.PeopleChanges) []personEntry {
	var out []personEntry
	for _, p := range ch.People {
		e := personEntry{id: p.ID}
		for _, l := range p.Locations {
			e.locs += app.FormatID(l.ID) + " "
		}
		out = append(out, e)
	}
	return out
}

// testPeopleFeed: a write of a contact or of one of its locations moves
// the contact to the feed's end; pages follow the cursor; the feed is the
// account's own.
func testPeopleFeed(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	// A's feed so far: ContactA (1), then its location moves it (2).
	var c2, c3, l2 int64
	mustUpdate(t, f.S, f.A, func(tx store.Tx) error {
		c2, c3, l2 = tx.NextID(), tx.NextID(), tx.NextID()
		for _, id := range []int64{c2, c3} { // 3, 4
			if err := tx.PutContact(app.Contact{ID: id, PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "C"}); err != nil {
				return err
			}
		}
		return tx.PutLocation(app.ContactLocation{Location: app.Location{ID: l2, Street: "2"}, ContactID: c2}) // c2: 5
	})
	locA, loc2 := app.FormatID(f.LocA)+" ", app.FormatID(l2)+" "
	all := []personEntry{{f.ContactA, locA}, {c3, ""}, {c2, loc2}}
	tests := []struct {
		cursor  string
		limit   int
		want    []personEntry
		next    string
		hasMore bool
	}{
		{"", 10, all, "5", false},
		{"0", 10, all, "5", false},
		{"", 2, all[:2], "4", true},
		{"4", 2, all[2:], "5", false},
		{"1", 10, all, "5", false}, // 1 was ContactA's old position
		{"5", 10, nil, "5", false},
		{"99", 10, nil, "99", false},
	}
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		for _, tt := range tests {
			ch, err := tx.PeopleChanges(tt.cursor, tt.limit)
			if err != nil || !slices.Equal(peopleOf(ch), tt.want) || ch.Cursor != tt.next || ch.HasMore != tt.hasMore || ch.PeopleCount != 3 {
				t.Errorf("PeopleChanges(%q, %d) = %v %q more=%v count=%d, %v; want %v %q more=%v count 3",
					tt.cursor, tt.limit, peopleOf(ch), ch.Cursor, ch.HasMore, ch.PeopleCount, err, tt.want, tt.next, tt.hasMore)
			}
		}
		for _, bad := range []string{"x", "-1", " 1", "1.5"} {
			if _, err := tx.PeopleChanges(bad, 10); app.KindOf(err) != app.KindValidationFailed {
				t.Errorf("PeopleChanges(%q): %v", bad, err)
			}
		}
		return nil
	})

	// A location moving from ContactA to c3 changes both: ContactA (6),
	// then c3 (7).
	mustUpdate(t, f.S, f.A, func(tx store.Tx) error {
		l, _, _ := tx.Location(f.LocA)
		l.ContactID = c3
		return tx.PutLocation(l)
	})
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		ch, err := tx.PeopleChanges("5", 10)
		if want := []personEntry{{f.ContactA, ""}, {c3, locA}}; err != nil || !slices.Equal(peopleOf(ch), want) || ch.Cursor != "7" {
			t.Errorf("after the move: %v %q, %v; want %v \"7\"", peopleOf(ch), ch.Cursor, err, want)
		}
		return nil
	})

	// A failed write leaves the feed as it was.
	errRollback := errors.New("rollback")
	f.S.Update(ctx, f.A, func(tx store.Tx) error {
		if err := tx.PutContact(app.Contact{ID: c2, PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Gone"}); err != nil {
			return err
		}
		return errRollback
	})
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		if ch, err := tx.PeopleChanges("7", 10); err != nil || len(ch.People) != 0 || ch.Cursor != "7" {
			t.Errorf("after a rolled-back write: %v %q, %v", peopleOf(ch), ch.Cursor, err)
		}
		return nil
	})

	// Account B's feed is its own.
	f.S.View(ctx, f.B, func(tx store.Tx) error {
		ch, err := tx.PeopleChanges("", 10)
		if want := []personEntry{{f.ContactB, app.FormatID(f.LocB) + " "}}; err != nil || !slices.Equal(peopleOf(ch), want) || ch.Cursor != "2" || ch.PeopleCount != 1 {
			t.Errorf("B's feed %v %q count %d, %v", peopleOf(ch), ch.Cursor, ch.PeopleCount, err)
		}
		return nil
	})
}

// mustUpdate runs fn in a write of account acct and fails the test on an
// error.
func mustUpdate(t *testing.T, s store.Store, acct int64, fn func(store.Tx) error) {
	t.Helper()
	if err := s.Update(ctx, acct, fn); err != nil {
		t.Fatal(err)
	}
}

// PeopleFeedMigration checks a backend's migration to the people feed:
// undo takes a store with contacts back to the schema before the feed
// and returns it opened again (migrated). Every contact is then in the
// feed, in ID order per account, and new writes go on after it.
func PeopleFeedMigration(t *testing.T, be Backend, undo func(store.Store) store.Store) {
	f := NewFixture(t, be)
	var c2 int64
	mustUpdate(t, f.S, f.A, func(tx store.Tx) error {
		c2 = tx.NextID()
		return tx.PutContact(app.Contact{ID: c2, PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "C"})
	})
	s := undo(f.S)
	for _, tt := range []struct {
		acct int64
		want []int64
	}{{f.A, []int64{f.ContactA, c2}}, {f.B, []int64{f.ContactB}}} {
		s.View(ctx, tt.acct, func(tx store.Tx) error {
			ch, err := tx.PeopleChanges("", 10)
			var got []int64
			for _, p := range ch.People {
				got = append(got, p.ID)
			}
			if err != nil || !slices.Equal(got, tt.want) || ch.Cursor != app.FormatID(int64(len(tt.want))) {
				t.Errorf("account %d after the migration: %v %q, %v; want %v", tt.acct, got, ch.Cursor, err, tt.want)
			}
			return nil
		})
	}
	mustUpdate(t, s, f.A, func(tx store.Tx) error {
		c, _, _ := tx.Contact(f.ContactA)
		return tx.PutContact(c)
	})
	s.View(ctx, f.A, func(tx store.Tx) error {
		if ch, _ := tx.PeopleChanges("2", 10); len(ch.People) != 1 || ch.People[0].ID != f.ContactA || ch.Cursor != "3" {
			t.Errorf("after a write: %+v", ch)
		}
		return nil
	})
}
