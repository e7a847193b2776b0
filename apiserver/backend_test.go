package apiserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/apiserver/store/pgstore"
	"proposaldesk/apiserver/store/pgstore/pgtest"
)

// PD_TEST_BACKEND=postgres runs this package's HTTP tests on PostgreSQL
// (a throwaway cluster for the test binary, a database per store);
// otherwise they run on bbolt files. scripts/test.sh runs both.
var onPostgres = os.Getenv("PD_TEST_BACKEND") == "postgres"

// runTests runs the package's tests, inside a PostgreSQL cluster when
// the tests run on PostgreSQL.
func runTests(m *testing.M) int {
	if onPostgres {
		return pgtest.Run(m)
	}
	return m.Run()
}

// openStore opens a fresh store for one test, closed when it ends.
func openStore(t testing.TB) store.Store {
	t.Helper()
	st, err := openNamedStore(t.TempDir(), t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// openNamedStore opens a fresh store outside a test: a bbolt file in dir,
// or a new database named after name.
func openNamedStore(dir, name string) (store.Store, error) {
	if !onPostgres {
		return boltstore.Open(filepath.Join(dir, "data.db"), boltstore.WithNoSync())
	}
	url, err := pgtest.NewDatabaseNamed(name)
	if err != nil {
		return nil, err
	}
	return pgstore.Open(context.Background(), url)
}
