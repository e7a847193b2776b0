package pgstore

import (
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
)

// A database migrated before 004 (no people feed) gets one holding every
// contact.
func TestMigrationFillsThePeopleFeed(t *testing.T) {
	storetest.PeopleFeedMigration(t, backend, func(st store.Store) store.Store {
		for _, sql := range append(undoAfter5,
			"ALTER TABLE proposals DROP COLUMN modified_json",
			"DELETE FROM schema_migrations WHERE version = 5",
			"ALTER TABLE contacts DROP COLUMN seq",
			"ALTER TABLE accounts DROP COLUMN people_seq",
			"DELETE FROM schema_migrations WHERE version = 4",
		) {
			if _, err := st.(*Store).pool.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
		return backend.Reopen(t, st)
	})
}
