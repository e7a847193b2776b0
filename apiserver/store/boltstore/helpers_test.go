package boltstore

import (
	"context"
	"path/filepath"
	"testing"

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
