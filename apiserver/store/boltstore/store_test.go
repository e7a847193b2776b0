package boltstore

import (
	"errors"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

func TestSmoke(t *testing.T) {
	f := newFixture(t)
	err := f.s.View(ctx, f.a, func(tx store.Tx) error {
		p, err := tx.Proposal(f.proposalA)
		if err != nil {
			return err
		}
		if p.Number != FirstNumber {
			t.Errorf("number %d", p.Number)
		}
		if _, err := tx.Proposal(f.proposalB); !errors.Is(err, store.ErrNotFound) || app.KindOf(err) != app.KindNotFound {
			t.Errorf("other account's proposal: %v", err)
		}
		page, n, err := tx.List(app.DefaultListQuery())
		if err != nil || n != 1 || len(page) != 1 || page[0].ID != f.proposalA {
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
