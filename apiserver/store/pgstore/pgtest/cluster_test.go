package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

// Two databases of the cluster are separate, and a stopped cluster comes
// back with its data.
func TestDatabasesAndRestart(t *testing.T) {
	ctx := context.Background()
	a, b := NewDatabase(t), NewDatabase(t)
	if a == b {
		t.Fatalf("same database twice: %s", a)
	}
	exec := func(url, sql string) error {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, sql)
		return err
	}
	if err := exec(a, "CREATE TABLE x (v int); INSERT INTO x VALUES (7)"); err != nil {
		t.Fatal(err)
	}
	if err := exec(b, "SELECT v FROM x"); err == nil {
		t.Error("table of database a visible in b")
	}
	c := Shared(t)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := exec(a, "SELECT 1"); err == nil {
		t.Error("stopped cluster answered")
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if err := exec(a, "DO $$ BEGIN IF (SELECT v FROM x) <> 7 THEN RAISE 'lost'; END IF; END $$"); err != nil {
		t.Errorf("after restart: %v", err)
	}
}
