package storetest

import (
	"errors"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

func testSmoke(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	err := f.S.View(ctx, f.A, func(tx store.Tx) error {
		p, err := tx.Proposal(f.ProposalA)
		if err != nil {
			return err
		}
		if p.Number != 1001 {
			t.Errorf("number %d", p.Number)
		}
		if _, err := tx.Proposal(f.ProposalB); !errors.Is(err, store.ErrNotFound) || app.KindOf(err) != app.KindNotFound {
			t.Errorf("other account's proposal: %v", err)
		}
		page, n, err := tx.List(app.DefaultListQuery())
		if err != nil || n != 1 || len(page) != 1 || page[0].ID != f.ProposalA {
			t.Errorf("list: %v %d %v", page, n, err)
		}
		ids, next, err := tx.Changes("")
		if err != nil || len(ids) != 1 || next != "1" {
			t.Errorf("changes: %v %q %v", ids, next, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
