package boltstore

import (
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// A file of schema v1 (no people feed) gets one holding every contact,
// in ID order, when it is opened.
func TestMigrationFillsThePeopleFeed(t *testing.T) {
	f := storetest.NewFixture(t, backend)
	var c2 int64
	err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
		c2 = tx.NextID()
		return tx.PutContact(app.Contact{ID: c2, PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "C"})
	})
	if err != nil {
		t.Fatal(err)
	}
	s := f.S.(*Store)
	path := s.db.Path()
	s.Close()
	// Make it a v1 file: the feed buckets gone, the schema 1.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(btx *bolt.Tx) error {
		accts := btx.Bucket(bAccounts)
		err := accts.ForEachBucket(func(k []byte) error {
			for _, name := range [][]byte{bPeopleFeed, bPeopleAt} {
				if err := accts.Bucket(k).DeleteBucket(name); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		return btx.Bucket(bMeta).Put(kSchema, u64(1))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for _, tt := range []struct {
		acct int64
		want []int64
	}{{f.A, []int64{f.ContactA, c2}}, {f.B, []int64{f.ContactB}}} {
		s2.View(ctx, tt.acct, func(tx store.Tx) error {
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
	// New writes go on from there.
	s2.Update(ctx, f.A, func(tx store.Tx) error {
		c, _ := tx.Contact(f.ContactA)
		return tx.PutContact(c)
	})
	s2.View(ctx, f.A, func(tx store.Tx) error {
		if ch, _ := tx.PeopleChanges("2", 10); len(ch.People) != 1 || ch.People[0].ID != f.ContactA || ch.Cursor != "3" {
			t.Errorf("after a write: %+v", ch)
		}
		return nil
	})
}
