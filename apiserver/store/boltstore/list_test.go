package boltstore

import (
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// TestListEqualsSelect checks the index against the list rules on random
// proposals and 300 random queries, with the cache cold, warm and inside
// a write transaction that changed some proposals.
func TestListEqualsSelect(t *testing.T) {
	for _, c := range []struct {
		name     string
		deltaMin int
	}{{"rebuilt often", 8}, {"default", 1024}} {
		t.Run(c.name, func(t *testing.T) { testListEqualsSelect(t, withDeltaMin(c.deltaMin)) })
	}
}

func testListEqualsSelect(t *testing.T, opts ...Option) {
	f := newFixture(t, opts...)
	g := newGen(7)
	model := g.putRandom(t, f.s, f.a, 300)
	g.putRandom(t, f.s, f.b, 50) // another account's rows never show
	if err := f.s.View(ctx, f.a, func(tx store.Tx) error {
		p, err := tx.Proposal(f.proposalA)
		model[p.ID] = p
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		q := g.query()
		if i%3 == 0 {
			f.s.mu.Lock()
			clear(f.s.snaps)
			f.s.mu.Unlock()
		}
		if err := f.s.View(ctx, f.a, func(tx store.Tx) error {
			checkList(t, tx, model, q)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 {
			// Inside a write: the tx's own changes show; they are kept.
			if err := f.s.Update(ctx, f.a, func(tx store.Tx) error {
				for range 3 {
					ids, _ := tx.ProposalIDs()
					p, err := tx.Proposal(ids[g.r.IntN(len(ids))])
					if err != nil {
						return err
					}
					g.fill(p)
					if err := tx.PutProposal(p); err != nil {
						return err
					}
					model[p.ID] = p
				}
				p := &app.Proposal{}
				p.ID, p.Number = tx.NextID(), tx.NextNumber()
				g.fill(p)
				model[p.ID] = p
				if err := tx.PutProposal(p); err != nil {
					return err
				}
				checkList(t, tx, model, q)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestListPagingEdges(t *testing.T) {
	f := newFixture(t)
	g := newGen(3)
	model := g.putRandom(t, f.s, f.a, 40)
	f.s.View(ctx, f.a, func(tx store.Tx) error {
		p, _ := tx.Proposal(f.proposalA)
		model[p.ID] = p
		for _, q := range []app.ListQuery{
			{SortBy: app.SortName, PageNumber: 0, PageSize: 10},
			{SortBy: app.SortName, PageNumber: 1, PageSize: 0},
			{SortBy: app.SortNumber, PageNumber: 5, PageSize: 10},
			{SortBy: app.SortNumber, PageNumber: 1, PageSize: 200},
			{SortBy: "", PageNumber: 2, PageSize: 2},
		} {
			checkList(t, tx, model, q)
		}
		return nil
	})
}
