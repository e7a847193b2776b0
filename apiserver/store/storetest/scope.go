package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// TestAccountScoping calls every Tx method of account A with account B's
// IDs: each answers not found (or nothing), and the file is unchanged.
func testAccountScoping(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	// B has an idempotency record and a change A must not see.
	if err := f.S.Update(ctx, f.B, func(tx store.Tx) error {
		return tx.PutIdempotency(store.IdempotencyRecord{UserID: f.UserB, Key: "k", Status: 200, CreatedAt: time.Now()})
	}); err != nil {
		t.Fatal(err)
	}
	isNotFound := func(err error) bool { return errors.Is(err, store.ErrNotFound) && app.KindOf(err) == app.KindNotFound }
	tests := []struct {
		name string
		fn   func(tx store.Tx) bool // true: scoped correctly
	}{
		{"Proposal", func(tx store.Tx) bool { _, err := tx.Proposal(f.ProposalB); return isNotFound(err) }},
		{"ProposalVersion", func(tx store.Tx) bool {
			_, errB := tx.ProposalVersion(f.ProposalB)
			_, errNone := tx.ProposalVersion(987654321)
			a, err := tx.Proposal(f.ProposalA)
			v, errA := tx.ProposalVersion(f.ProposalA)
			return isNotFound(errB) && isNotFound(errNone) && err == nil && errA == nil && v == a.Version
		}},
		{"PutProposal", func(tx store.Tx) bool {
			p := &app.Proposal{}
			p.ID, p.Name = f.ProposalB, "stolen"
			return isNotFound(tx.PutProposal(p))
		}},
		{"PutProposal with B's contact ID", func(tx store.Tx) bool {
			p := &app.Proposal{}
			p.ID, p.Name = f.ContactB, "stolen"
			return isNotFound(tx.PutProposal(p))
		}},
		{"List", func(tx store.Tx) bool {
			q := app.DefaultListQuery()
			q.ContactID = f.ContactB
			page, n, err := tx.List(q)
			return err == nil && n == 0 && len(page) == 0
		}},
		{"List all", func(tx store.Tx) bool {
			page, n, err := tx.List(app.DefaultListQuery())
			return err == nil && n == 1 && page[0].ID == f.ProposalA
		}},
		{"ProposalsJSON", func(tx store.Tx) bool {
			var got []int64
			err := tx.ProposalsJSON([]int64{f.ProposalB, f.ProposalA}, func(id int64, _ []byte) error { got = append(got, id); return nil })
			return err == nil && len(got) == 1 && got[0] == f.ProposalA
		}},
		{"ProposalIDs", func(tx store.Tx) bool {
			ids, err := tx.ProposalIDs()
			return err == nil && len(ids) == 1 && ids[0] == f.ProposalA
		}},
		{"User", func(tx store.Tx) bool { _, ok, err := tx.User(f.UserB); return err == nil && !ok }},
		{"Users", func(tx store.Tx) bool {
			us, err := tx.Users()
			return err == nil && len(us) == 1 && us[0].ID == f.UserA
		}},
		{"Contact", func(tx store.Tx) bool { _, ok, err := tx.Contact(f.ContactB); return err == nil && !ok }},
		{"Contacts", func(tx store.Tx) bool {
			cs, n, err := tx.Contacts(app.ContactQuery{PageNumber: 1, PageSize: 25})
			return err == nil && n == 1 && cs[0].ID == f.ContactA
		}},
		{"PutContact", func(tx store.Tx) bool {
			return isNotFound(tx.PutContact(app.Contact{ID: f.ContactB, FirstName: "x"}))
		}},
		{"Location", func(tx store.Tx) bool { _, ok, err := tx.Location(f.LocB); return err == nil && !ok }},
		{"ContactLocations", func(tx store.Tx) bool {
			locs, err := tx.ContactLocations(f.ContactB)
			return err == nil && len(locs) == 0
		}},
		{"Locations", func(tx store.Tx) bool { _, err := tx.Locations(f.ContactB); return isNotFound(err) }},
		{"PutLocation on B's contact", func(tx store.Tx) bool {
			return isNotFound(tx.PutLocation(app.ContactLocation{Location: app.Location{ID: 777777}, ContactID: f.ContactB, IsPrimary: true}))
		}},
		{"PutLocation with B's location ID", func(tx store.Tx) bool {
			return isNotFound(tx.PutLocation(app.ContactLocation{Location: app.Location{ID: f.LocB}, ContactID: f.ContactA, IsPrimary: true}))
		}},
		{"Idempotency", func(tx store.Tx) bool {
			_, ok, err := tx.Idempotency(f.UserB, "k", time.Time{})
			return err == nil && !ok
		}},
		{"PutIdempotency", func(tx store.Tx) bool {
			return isNotFound(tx.PutIdempotency(store.IdempotencyRecord{UserID: f.UserB, Key: "k2"}))
		}},
		{"Changes", func(tx store.Tx) bool {
			ids, _, err := tx.Changes("")
			return err == nil && len(ids) == 1 && ids[0] == f.ProposalA
		}},
		{"Account", func(tx store.Tx) bool { return tx.AccountID() == f.A && tx.Account().ID == f.A }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := be.Dump(t, f.S)
			for _, write := range []bool{false, true} {
				run := f.S.View
				if write {
					run = f.S.Update
				}
				err := run(ctx, f.A, func(tx store.Tx) error {
					if !tt.fn(tx) {
						t.Errorf("%s (write=%v) reached account B's data", tt.name, write)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			if after := be.Dump(t, f.S); after != before {
				t.Errorf("%s changed the file", tt.name)
			}
		})
	}
	if err := f.S.View(ctx, 999999, func(store.Tx) error { return nil }); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown account: %v", err)
	}
}

// TestRollback: an Update whose fn fails (or panics) keeps nothing, in the
// file or in the list cache.
func testRollback(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	boom := errors.New("boom")
	listed := func() (int, []int64) {
		var n int
		var ids []int64
		f.S.View(ctx, f.A, func(tx store.Tx) error {
			_, n, _ = tx.List(app.DefaultListQuery())
			ids, _, _ = tx.Changes("")
			return nil
		})
		return n, ids
	}
	n0, changes0 := listed() // warms the cache
	before := be.Dump(t, f.S)
	for _, panics := range []bool{false, true} {
		func() {
			defer func() { recover() }()
			err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
				p := NewProposal(tx, "doomed", nil)
				if err := tx.PutProposal(p); err != nil {
					return err
				}
				old, _ := tx.Proposal(f.ProposalA)
				old.Name = "renamed"
				old.Archived = true
				if err := tx.PutProposal(old); err != nil {
					return err
				}
				if _, n, _ := tx.List(app.DefaultListQuery()); n != 1 { // p only; old is archived
					t.Errorf("inside the tx: %d listed", n)
				}
				c := app.Contact{ID: tx.NextID(), FirstName: "x"}
				if err := tx.PutContact(c); err != nil {
					return err
				}
				if err := tx.PutLocation(app.ContactLocation{Location: app.Location{ID: tx.NextID()}, ContactID: f.ContactA, IsPrimary: true}); err != nil {
					return err
				}
				if err := tx.PutIdempotency(store.IdempotencyRecord{UserID: f.UserA, Key: "k"}); err != nil {
					return err
				}
				if panics {
					panic(boom)
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Errorf("Update returned %v", err)
			}
		}()
		if n, changes := listed(); n != n0 || fmt.Sprint(changes) != fmt.Sprint(changes0) {
			t.Errorf("after rollback: %d listed, changes %v; want %d, %v", n, changes, n0, changes0)
		}
		if after := be.Dump(t, f.S); after != before {
			t.Errorf("rollback (panic=%v) left changes in the file", panics)
		}
	}
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		p, _ := tx.Proposal(f.ProposalA)
		if p.Name != "First" || p.Archived {
			t.Errorf("proposal changed: %q", p.Name)
		}
		if l, _, _ := tx.Location(f.LocA); !l.IsPrimary {
			t.Errorf("primary flag lost")
		}
		return nil
	})
	// A canceled context starts nothing.
	cctx, cancel := contextWithCancel()
	cancel()
	if err := f.S.Update(cctx, f.A, func(store.Tx) error { t.Error("ran"); return nil }); err == nil {
		t.Error("canceled Update ran")
	}
}

// TestConcurrentReadModifyWrite: 16 writers each append an area to the
// same proposal in their own Update; none is lost.
func testConcurrentReadModifyWrite(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	const n = 16
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
				p, err := tx.Proposal(f.ProposalA)
				if err != nil {
					return err
				}
				p.Areas = append(p.Areas, app.Area{ID: tx.NextID(), Name: fmt.Sprint("area ", i)})
				p.Version++
				return tx.PutProposal(p)
			})
			if err != nil {
				t.Error(err)
			}
		})
		// Readers race with the writers.
		wg.Go(func() {
			f.S.View(ctx, f.A, func(tx store.Tx) error {
				if _, n, err := tx.List(app.DefaultListQuery()); err != nil || n != 1 {
					t.Errorf("list during writes: %d, %v", n, err)
				}
				return nil
			})
		})
	}
	wg.Wait()
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		p, _ := tx.Proposal(f.ProposalA)
		if len(p.Areas) != n || p.Version != n {
			t.Errorf("%d areas, version %d; want %d", len(p.Areas), p.Version, n)
		}
		ids, next, _ := tx.Changes("")
		if len(ids) != 1 || next != fmt.Sprint(n+1) {
			t.Errorf("changes %v %s", ids, next)
		}
		return nil
	})
}
