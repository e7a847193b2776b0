package pgstore

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/pgstore/pgtest"
	"proposaldesk/apiserver/store/storetest"
)

var ctx = context.Background()

func TestMain(m *testing.M) { pgtest.Main(m) }

// openTest opens a store on a fresh database of the test cluster.
func openTest(t testing.TB, opts ...Option) (*Store, string) {
	t.Helper()
	url := pgtest.NewDatabase(t)
	s, err := Open(ctx, url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, url
}

// dumpTables are every table but schema_migrations; the ids sequence is
// left out as bbolt's is (PostgreSQL sequences ignore rollbacks).
var dumpTables = []string{"meta", "owners", "accounts", "apps", "users", "api_keys", "proposals",
	"contacts", "locations", "changes", "idempotency", "client_snapshots", "client_events", "client_expiries"}

// dump is every row of every table, as text.
func dump(t testing.TB, s *Store) string {
	t.Helper()
	var b strings.Builder
	for _, table := range dumpTables {
		var rows string
		q := "SELECT coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '') FROM " + pgx.Identifier{table}.Sanitize() + " x"
		if err := s.pool.QueryRow(ctx, q).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		b.WriteString(table + ":\n" + rows + "\n")
	}
	return b.String()
}

// backend runs the shared storage suite on PostgreSQL.
var backend = storetest.Backend{
	Open: func(t testing.TB, o storetest.Options) store.Store {
		var opts []Option
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
		url := s.(*Store).url
		s.Close()
		s2, err := Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s2.Close() })
		return s2
	},
	Dump:       func(t testing.TB, s store.Store) string { return dump(t, s.(*Store)) },
	DropCaches: func(s store.Store) { s.(*Store).lists.Reset() },
}

func TestStore(t *testing.T) { storetest.Run(t, backend) }
