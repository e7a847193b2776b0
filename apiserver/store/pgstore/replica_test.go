package pgstore

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// replicas opens the fixture's database a second time: two stores with
// their own pools, as two server processes would have.
func replicas(t *testing.T) (*storetest.Fixture, [2]store.Store) {
	f, rs := replicasTB(t)
	second := rs[1]
	if second.StoreID() != f.S.StoreID() {
		t.Fatalf("store IDs differ: %s, %s", second.StoreID(), f.S.StoreID())
	}
	return f, [2]store.Store{f.S, second}
}

// TestReplicaFeedNeverSkips: writers on both replicas create and edit
// proposals while a reader on each follows the changes feed by cursor.
// Every committed proposal is seen by both followers at its final
// version: no commit that lands late is skipped.
func TestReplicaFeedNeverSkips(t *testing.T) {
	f, rs := replicas(t)
	const writers, writes = 4, 30
	var wg sync.WaitGroup
	var done atomic.Int32
	committed := sync.Map{} // proposal ID -> true
	for w := range writers {
		wg.Go(func() {
			defer done.Add(1)
			s := rs[w%2]
			for i := range writes {
				var id int64
				err := s.Update(ctx, f.A, func(tx store.Tx) error {
					p := storetest.NewProposal(tx, fmt.Sprint("w", w, " ", i), nil)
					id = p.ID
					return tx.PutProposal(p)
				})
				if err != nil {
					t.Error(err)
					return
				}
				committed.Store(id, true)
			}
		})
	}
	follow := func(s store.Store) map[int64]bool {
		seen := map[int64]bool{f.ProposalA: true}
		cursor := ""
		for {
			finished := done.Load() == writers
			err := s.View(ctx, f.A, func(tx store.Tx) error {
				ids, next, err := tx.Changes(cursor)
				for _, id := range ids {
					seen[id] = true
				}
				cursor = next
				return err
			})
			if err != nil {
				t.Error(err)
				return seen
			}
			if finished {
				return seen // a read after every writer returned
			}
		}
	}
	var seen [2]map[int64]bool
	var fw sync.WaitGroup
	for i := range rs {
		fw.Go(func() { seen[i] = follow(rs[i]) })
	}
	wg.Wait()
	fw.Wait()
	n := 0
	committed.Range(func(k, _ any) bool {
		n++
		for i := range seen {
			if !seen[i][k.(int64)] {
				t.Errorf("follower %d skipped proposal %d", i, k)
			}
		}
		return true
	})
	if n != writers*writes {
		t.Errorf("%d proposals committed, want %d", n, writers*writes)
	}
}

// TestReplicaReadModifyWrite: 16 read-modify-writes of one proposal split
// over two replicas lose none, and a write on one is read on the other at
// once.
func TestReplicaReadModifyWrite(t *testing.T) {
	f, rs := replicas(t)
	const n = 16
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			err := rs[i%2].Update(ctx, f.A, func(tx store.Tx) error {
				p, err := tx.Proposal(f.ProposalA)
				if err != nil {
					return err
				}
				p.Areas = append(p.Areas, app.Area{ID: tx.NextID(), Name: fmt.Sprint("area ", i)})
				return tx.PutProposal(p)
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, s := range rs {
		s.View(ctx, f.A, func(tx store.Tx) error {
			p, err := tx.Proposal(f.ProposalA)
			if err != nil || len(p.Areas) != n || p.Version != n {
				t.Errorf("replica %d: %v areas, version %d, %v; want %d", i, len(p.Areas), p.Version, err, n)
			}
			return nil
		})
	}
}

// TestReplicaIdempotency: the same key checked and recorded on two
// replicas at once (as the server's writes do, in the write's
// transaction) applies once.
func TestReplicaIdempotency(t *testing.T) {
	f, rs := replicas(t)
	var applied atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			err := rs[i%2].Update(ctx, f.A, func(tx store.Tx) error {
				if _, found, err := tx.Idempotency(f.UserA, "key-1", time.Time{}); err != nil || found {
					return err
				}
				applied.Add(1)
				p, err := tx.Proposal(f.ProposalA)
				if err != nil {
					return err
				}
				p.Name += "!"
				if err := tx.PutProposal(p); err != nil {
					return err
				}
				return tx.PutIdempotency(store.IdempotencyRecord{UserID: f.UserA, Key: "key-1", Status: 200})
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	rs[1].View(ctx, f.A, func(tx store.Tx) error {
		p, _ := tx.Proposal(f.ProposalA)
		if applied.Load() != 1 || p.Name != "First!" {
			t.Errorf("applied %d times, name %q", applied.Load(), p.Name)
		}
		ids, _, _ := tx.Changes("")
		if !slices.Equal(ids, []int64{f.ProposalA}) {
			t.Errorf("changes %v", ids)
		}
		return nil
	})
}
