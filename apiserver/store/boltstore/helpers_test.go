package boltstore

import (
	"context"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
)

var ctx = context.Background()

// openTest opens a store in a fresh file of the test's temp dir.
func openTest(t testing.TB, opts ...Option) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.db")
	s, err := Open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// backend runs the shared storage suite on bbolt files.
var backend = backendWith()

// backendWith is backend with extra options for every store it opens.
func backendWith(extra ...Option) storetest.Backend {
	return storetest.Backend{
		Open: func(t testing.TB, o storetest.Options) store.Store {
			opts := append([]Option(nil), extra...)
			if o.Now != nil {
				opts = append(opts, WithClock(o.Now))
			}
			if o.IdempotencyTTL != 0 {
				opts = append(opts, WithIdempotencyTTL(o.IdempotencyTTL))
			}
			s, _ := openTest(t, opts...)
			return s
		},
		Reopen: func(t testing.TB, s store.Store) store.Store {
			path := s.(*Store).db.Path()
			s.Close()
			s2, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s2.Close() })
			return s2
		},
		Dump: func(t testing.TB, s store.Store) string { return dump(t, s.(*Store)) },
		DropCaches: func(s store.Store) {
			s.(*Store).snaps.Reset()
		},
	}
}

func TestStore(t *testing.T) { storetest.Run(t, backend) }

// TestListRebuiltOften runs the list's randomized index-equals-reference
// test with the list index rebuilding its base after every few changed
// entries, as well as with the default (in TestStore).
func TestListRebuiltOften(t *testing.T) { storetest.ListEqualsSelect(t, backendWith(withDeltaMin(8))) }

// withDeltaMin makes the list index rebuild its base after n changed
// entries (at least), so tests reach the rebuild with few proposals.
func withDeltaMin(n int) Option { return func(c *config) { c.deltaMin = n } }

// newFixture is the suite's fixture on a bbolt file.
func newFixture(t testing.TB, opts ...Option) *storetest.Fixture {
	return storetest.NewFixture(t, backendWith(opts...))
}

// asSchema closes st, makes its file one of an older schema (edit undoes
// what later versions added; the file is marked with version) and opens
// it again, which migrates it.
func asSchema(t testing.TB, st store.Store, version uint64, edit func(*bolt.Tx) error) *Store {
	t.Helper()
	path := st.(*Store).db.Path()
	st.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(btx *bolt.Tx) error {
		if err := edit(btx); err != nil {
			return err
		}
		return btx.Bucket(bMeta).Put(kSchema, u64(version))
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
