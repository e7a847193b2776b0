package localstore

import (
	"context"
	"encoding/json"
	"fmt"

	"proposaldesk/app"
)

// The account's contacts and locations as the server has them, kept by
// the sync engine from the server's people changes feed. Where the feed
// stopped is in meta (no new bucket, so no schema change; a file without
// these keys downloads the whole feed once):
//
//	meta  peopleStoreId, peopleCursor

var (
	keyPeopleStoreID = []byte("peopleStoreId")
	keyPeopleCursor  = []byte("peopleCursor")
)

// PeopleCursor is where the people feed stopped: the server's store ID
// and the cursor ("" and "": never downloaded).
func (s *Store) PeopleCursor() (storeID, cursor string, err error) {
	err = s.view(func(t *txn) error {
		m := t.b(bucketMeta)
		storeID, cursor = string(m.Get(keyPeopleStoreID)), string(m.Get(keyPeopleCursor))
		return nil
	})
	return storeID, cursor, err
}

// ApplyPeopleChanges stores a page of the feed in one transaction: each
// contact, its locations (replacing the server's earlier ones; those made
// offline and not yet sent stay), and the cursor, so a download stopped
// midway goes on from the last page stored. A page from another server
// store (ch.StoreID differs: the server's data was replaced) first drops
// every contact and location that came from the server; the caller then
// pages from the beginning.
func (s *Store) ApplyPeopleChanges(ctx context.Context, ch app.PeopleChanges) error {
	err := s.update(ctx, func(t *txn) error {
		m := t.b(bucketMeta)
		if old := m.Get(keyPeopleStoreID); old != nil && string(old) != ch.StoreID {
			if err := t.dropServerPeople(); err != nil {
				return err
			}
		}
		p := &PullTx{t: t}
		for _, c := range ch.People {
			if err := p.PutContact(c.Contact); err != nil {
				return fmt.Errorf("contact %d: %w", c.ID, err)
			}
			if err := p.PutLocations(c.ID, c.Locations); err != nil {
				return fmt.Errorf("locations of contact %d: %w", c.ID, err)
			}
		}
		if err := m.Put(keyPeopleStoreID, []byte(ch.StoreID)); err != nil {
			return err
		}
		return m.Put(keyPeopleCursor, []byte(ch.Cursor))
	})
	if err != nil {
		return fmt.Errorf("store people changes: %w", err)
	}
	return nil
}

// dropServerPeople deletes the contacts and locations that came from the
// server (positive IDs); those made offline (temporary, negative IDs)
// stay with their outbox entries.
func (t *txn) dropServerPeople() error {
	var contacts []int64
	var locs []app.ContactLocation
	err := t.b(bucketContacts).ForEach(func(k, _ []byte) error {
		if id := keyID(k); id > 0 {
			contacts = append(contacts, id)
		}
		return nil
	})
	if err == nil {
		err = t.b(bucketLocations).ForEach(func(k, v []byte) error {
			if keyID(k) <= 0 {
				return nil
			}
			var l app.ContactLocation
			if err := json.Unmarshal(v, &l); err != nil {
				return fmt.Errorf("location %d: %w", keyID(k), err)
			}
			locs = append(locs, l)
			return nil
		})
	}
	if err != nil {
		return err
	}
	for _, id := range contacts {
		if err := t.b(bucketContacts).Delete(idKey(id)); err != nil {
			return err
		}
	}
	for _, l := range locs {
		if err := t.deleteLocation(l); err != nil {
			return err
		}
	}
	return nil
}
