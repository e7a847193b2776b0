package storetest

import (
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// TestListEqualsSelect checks the index against the list rules on random
// proposals and 300 random queries, with the cache cold, warm and inside
// a write transaction that changed some proposals.
func testListEqualsSelect(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	g := NewGen(7)
	model := g.PutRandom(t, f.S, f.A, 300)
	g.PutRandom(t, f.S, f.B, 50) // another account's rows never show
	if err := f.S.View(ctx, f.A, func(tx store.Tx) error {
		p, err := tx.Proposal(f.ProposalA)
		model[p.ID] = p
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		q := g.Query()
		if i%3 == 0 && be.DropCaches != nil {
			be.DropCaches(f.S)
		}
		if err := f.S.View(ctx, f.A, func(tx store.Tx) error {
			CheckList(t, tx, model, q)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 {
			// Inside a write: the tx's own changes show; they are kept.
			if err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
				for range 3 {
					ids, _ := tx.ProposalIDs()
					p, err := tx.Proposal(ids[g.R.IntN(len(ids))])
					if err != nil {
						return err
					}
					g.Fill(p)
					if err := tx.PutProposal(p); err != nil {
						return err
					}
					model[p.ID] = p
				}
				p := &app.Proposal{}
				p.ID, p.Number = tx.NextID(), tx.NextNumber()
				g.Fill(p)
				model[p.ID] = p
				if err := tx.PutProposal(p); err != nil {
					return err
				}
				CheckList(t, tx, model, q)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func testListPagingEdges(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	g := NewGen(3)
	model := g.PutRandom(t, f.S, f.A, 40)
	f.S.View(ctx, f.A, func(tx store.Tx) error {
		p, _ := tx.Proposal(f.ProposalA)
		model[p.ID] = p
		for _, q := range []app.ListQuery{
			{SortBy: app.SortName, PageNumber: 0, PageSize: 10},
			{SortBy: app.SortName, PageNumber: 1, PageSize: 0},
			{SortBy: app.SortNumber, PageNumber: 5, PageSize: 10},
			{SortBy: app.SortNumber, PageNumber: 1, PageSize: 200},
			{SortBy: "", PageNumber: 2, PageSize: 2},
		} {
			CheckList(t, tx, model, q)
		}
		return nil
	})
}
