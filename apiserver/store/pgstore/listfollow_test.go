package pgstore

import (
	"fmt"
	"maps"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// A replica's list index follows writes made through the other replica:
// the next list (and version stamp) on it sees them.
func TestListFollowsOtherReplica(t *testing.T) {
	f, rs := replicas(t)
	q := app.DefaultListQuery()
	q.SearchText = "countme"
	var lastID int64
	count := func(s store.Store) int {
		n := -1
		err := s.View(ctx, f.A, func(tx store.Tx) error {
			var err error
			if _, n, err = tx.List(q); err != nil || lastID == 0 {
				return err
			}
			if _, err := tx.ProposalVersion(lastID); err != nil {
				t.Errorf("version of the last proposal written: %v", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i := range 4 {
		// Twice on the first replica: the second answer comes from its
		// index as it is.
		if a, again := count(rs[0]), count(rs[0]); a != i || again != i {
			t.Fatalf("after %d writes: first replica counts %d then %d", i, a, again)
		}
		writer := rs[i%2]
		err := writer.Update(ctx, f.A, func(tx store.Tx) error {
			p := storetest.NewProposal(tx, fmt.Sprint("Countme ", i), nil)
			lastID = p.ID
			return tx.PutProposal(p)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := count(rs[0]); n != 4 {
		t.Errorf("after 4 writes on both replicas: count %d, want 4", n)
	}
	// Within a write transaction the count includes its own writes.
	err := rs[0].Update(ctx, f.A, func(tx store.Tx) error {
		if err := tx.PutProposal(storetest.NewProposal(tx, "Countme 5", nil)); err != nil {
			return err
		}
		if _, n, err := tx.List(q); err != nil || n != 5 {
			t.Errorf("count inside the write = %d, %v; want 5", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A database migrated before 005 gets every proposal's modification date
// beside its document, as PutProposal writes it, and the stamps read it.
func TestMigrationFillsModifiedJSON(t *testing.T) {
	f := storetest.NewFixture(t, backend)
	s := f.S.(*Store)
	written := func() map[int64]string {
		rows, _ := s.pool.Query(ctx, "SELECT id, modified_json::text FROM proposals ORDER BY id")
		m := map[int64]string{}
		for rows.Next() {
			var id int64
			var v *string
			if err := rows.Scan(&id, &v); err != nil {
				t.Fatal(err)
			}
			m[id] = "NULL"
			if v != nil {
				m[id] = *v
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return m
	}
	want := written()
	if len(want) == 0 {
		t.Fatal("the fixture has no proposals")
	}
	for id, v := range want {
		if v == "NULL" {
			t.Fatalf("proposal %d was written without its modification date", id)
		}
	}
	for _, sql := range append(undoAfter5,
		"ALTER TABLE proposals DROP COLUMN modified_json",
		"DELETE FROM schema_migrations WHERE version = 5",
	) {
		if _, err := s.pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	s = backend.Reopen(t, s).(*Store)
	f.S = s
	if got := written(); !maps.Equal(got, want) {
		t.Errorf("after the migration: %v, want %v", got, want)
	}
	err := s.View(ctx, f.A, func(tx store.Tx) error {
		v, err := tx.ProposalVersion(f.ProposalA)
		if err != nil {
			return err
		}
		p, err := tx.Proposal(f.ProposalA)
		if err == nil && v != p.Version {
			t.Errorf("version %d, document %d", v, p.Version)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A View that read the list index and then needs the database, after a
// proposal was written in between, runs again: what it returns is one
// snapshot (the count of the list equals the proposals it then reads).
func TestLazyViewRunsAgainWhenProposalsMove(t *testing.T) {
	f := storetest.NewFixture(t, backend)
	// The index is loaded first (inside a transaction, which then holds
	// the View to its snapshot).
	if err := f.S.View(ctx, f.A, func(tx store.Tx) error { _, _, err := tx.List(app.DefaultListQuery()); return err }); err != nil {
		t.Fatal(err)
	}
	runs := 0
	var listed, read int
	err := f.S.View(ctx, f.A, func(tx store.Tx) error {
		runs++
		var err error
		if _, listed, err = tx.List(app.ListQuery{PageNumber: 1, PageSize: 1}); err != nil {
			return err
		}
		if runs == 1 {
			err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
				return tx.PutProposal(storetest.NewProposal(tx, "Written during a read", nil))
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		ids, err := tx.ProposalIDs()
		read = len(ids)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if runs != 2 || listed != read {
		t.Errorf("ran %d times; listed %d proposals, read %d; want 2 runs and one snapshot", runs, listed, read)
	}
	// Without a write in between it runs once.
	runs = 0
	err = f.S.View(ctx, f.A, func(tx store.Tx) error {
		runs++
		if _, _, err := tx.List(app.DefaultListQuery()); err != nil {
			return err
		}
		_, err := tx.ProposalIDs()
		return err
	})
	if err != nil || runs != 1 {
		t.Errorf("a quiet View ran %d times (%v), want once", runs, err)
	}
}
