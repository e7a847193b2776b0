package storetest

import (
	"encoding/json"
	"reflect"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// testProposalsJSON: the stored JSON a laptop's pull is served from
// decodes to exactly what Proposal returns, in the order asked, after a
// change too; another account's IDs and unknown ones are skipped.
func testProposalsJSON(t *testing.T, be Backend) {
	f := NewFixture(t, be)
	var withItems int64
	put := func(rename string) {
		t.Helper()
		if err := f.S.Update(ctx, f.A, func(tx store.Tx) error {
			p := NewProposal(tx, "With items", nil)
			if rename != "" {
				old, err := tx.Proposal(withItems)
				if err != nil {
					return err
				}
				p, p.Name = old, rename
			}
			cost := app.MustMoney("12.34")
			p.Areas = []app.Area{{ID: 1, Name: "Den", Options: []app.Option{{ID: 2, Items: []app.Item{
				{ID: 3, Name: "Speaker \"cost\":1", SellPrice: app.MustMoney("99.99"), Cost: &cost, Quantity: 2},
				{ID: 4, Name: "Labor", SellPrice: app.MustMoney("50")},
			}}}}}
			withItems = p.ID
			return tx.PutProposal(p)
		}); err != nil {
			t.Fatal(err)
		}
	}
	put("")
	check := func(ask []int64, want []int64) {
		t.Helper()
		var got []int64
		err := f.S.View(ctx, f.A, func(tx store.Tx) error {
			return tx.ProposalsJSON(ask, func(id int64, doc []byte) error {
				got = append(got, id)
				var p app.Proposal
				if err := json.Unmarshal(doc, &p); err != nil {
					t.Errorf("proposal %d: %v in %s", id, err, doc)
					return nil
				}
				stored, err := tx.Proposal(id)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(&p, stored) {
					t.Errorf("proposal %d: the JSON decodes to\n%+v\nProposal returns\n%+v", id, p, *stored)
				}
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ProposalsJSON(%v) gave %v, want %v", ask, got, want)
		}
	}
	check([]int64{withItems, f.ProposalB, 987654321, f.ProposalA}, []int64{withItems, f.ProposalA})
	check([]int64{f.ProposalB}, nil)
	put("Renamed")
	check([]int64{f.ProposalA, withItems}, []int64{f.ProposalA, withItems})
}
