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
		return asSchema(t, st, 1, func(btx *bolt.Tx) error {
			accts := btx.Bucket(bAccounts)
			return accts.ForEachBucket(func(k []byte) error {
				for _, name := range [][]byte{bPeopleFeed, bPeopleAt} {
					if err := accts.Bucket(k).DeleteBucket(name); err != nil {
						return err
					}
				}
				return nil
			})
		})
	})
}
