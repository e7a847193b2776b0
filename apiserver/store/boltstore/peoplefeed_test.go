package boltstore

import (
	"testing"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
)

// A file of schema v1 (no people feed) gets one holding every contact
// when it is opened.
func TestMigrationFillsThePeopleFeed(t *testing.T) {
	storetest.PeopleFeedMigration(t, backend, func(st store.Store) store.Store {
		path := st.(*Store).db.Path()
		st.Close()
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
		if cerr := db.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		s2, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s2.Close() })
		return s2
	})
}
