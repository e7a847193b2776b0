package pgstore

import (
	"fmt"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// A list count kept by one replica is never answered once the other
// replica has written a proposal: each page's count is the database's.
func TestListCountFollowsOtherReplica(t *testing.T) {
	f, rs := replicas(t)
	q := app.DefaultListQuery()
	q.SearchText = "countme"
	count := func(s store.Store) int {
		n := -1
		err := s.View(ctx, f.A, func(tx store.Tx) error {
			var err error
			_, n, err = tx.List(q)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i := range 4 {
		// Twice on the first replica: the second answer comes from its cache.
		if a, again := count(rs[0]), count(rs[0]); a != i || again != i {
			t.Fatalf("after %d writes: first replica counts %d then %d", i, a, again)
		}
		writer := rs[i%2]
		err := writer.Update(ctx, f.A, func(tx store.Tx) error {
			return tx.PutProposal(storetest.NewProposal(tx, fmt.Sprint("Countme ", i), nil))
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
