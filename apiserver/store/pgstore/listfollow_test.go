package pgstore

import (
	"fmt"
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
			if _, _, err := tx.ProposalStamp(lastID); err != nil {
				t.Errorf("stamp of the last proposal written: %v", err)
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
