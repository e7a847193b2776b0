package localstore

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"time"

	"proposaldesk/app"
)

var words = []string{"kitchen", "theater", "lake", "villa", "Office", "barn", "Loft", "yacht", "studio", "dock"}

// genProposal makes a varied server proposal for list tests.
func genProposal(rng *rand.Rand, id int64) *app.Proposal {
	p := &app.Proposal{Version: 1 + rng.Int63n(5), Archived: rng.Intn(10) == 0}
	p.ID, p.Number = id, 1000+id
	p.Name = words[rng.Intn(len(words))] + " " + words[rng.Intn(len(words))]
	p.Status = app.Statuses[rng.Intn(len(app.Statuses))]
	users := []app.User{sales, sales2}
	p.SalesPerson = users[rng.Intn(2)].Salesperson()
	p.CreatedDate = app.At(t0.Add(-time.Duration(rng.Intn(1000)) * time.Hour))
	p.LastModifiedDate = app.At(t0.Add(-time.Duration(rng.Intn(100)) * time.Hour)) // ties on purpose
	switch rng.Intn(3) {
	case 0:
		p.Customer = &app.Customer{Contact: acme}
	case 1:
		p.Customer = &app.Customer{Contact: bob}
	}
	p.Currency = app.USD
	p.Areas = []app.Area{{ID: id*10 + 1, Name: "Main", Options: []app.Option{{ID: id*10 + 2, Items: []app.Item{{
		ID: id*10 + 3, ItemType: app.ItemPart, SellPrice: app.Money(rng.Int63n(1e7)), Quantity: app.MustQuantity("2")}}}}}}
	return p
}

func fill(t testing.TB, s *Store, n int, rng *rand.Rand) {
	t.Helper()
	err := s.ApplyPull(ctx, func(tx *PullTx) error {
		for i := range n {
			if err := tx.PutServerCopy(genProposal(rng, int64(i+1))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func randomQuery(rng *rand.Rand) app.ListQuery {
	q := app.DefaultListQuery()
	if rng.Intn(2) == 0 {
		q.SearchText = words[rng.Intn(len(words))]
		if rng.Intn(3) == 0 {
			q.SearchText += " " + []string{"ACME", "bob", "10", "ada@", "zzz"}[rng.Intn(5)]
		}
	}
	for range rng.Intn(3) {
		q.Statuses = append(q.Statuses, app.Statuses[rng.Intn(len(app.Statuses))])
	}
	if rng.Intn(4) == 0 {
		q.ContactID = []int64{acme.ID, bob.ID, 0}[rng.Intn(3)]
	}
	if rng.Intn(4) == 0 {
		q.SalesPersonID = []int64{sales.ID, sales2.ID}[rng.Intn(2)]
	}
	if rng.Intn(4) == 0 {
		q.ModifiedAfter = app.At(t0.Add(-time.Duration(rng.Intn(100)) * time.Hour))
	}
	q.Archived = rng.Intn(6) == 0
	q.SortBy = app.SortFields[rng.Intn(len(app.SortFields))]
	q.Descending = rng.Intn(2) == 0
	q.PageSize = 1 + rng.Intn(60)
	q.PageNumber = 1 + rng.Intn(4)
	return q
}

// Search gives exactly q.Select over the list entries of every local
// view, for random queries — including after offline edits and creates.
func TestSearchMatchesSelect(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	s := openStore(t, "")
	seed(t, s)
	fill(t, s, 400, rng)
	for i := range 40 {
		id := int64(1 + rng.Intn(400))
		rec, _ := s.Record(id)
		if rec.Local.Status.Locked() {
			continue
		}
		s.Edit(ctx, id, &app.UpdateProposal{ID: id, Name: strp(fmt.Sprintf("edited %s %d", words[i%len(words)], i))}, envAt(i, sales))
	}
	for i := range 5 {
		s.Edit(ctx, 0, &app.CreateProposal{SalesPersonID: sales.ID, Name: strp("new " + words[i])}, envAt(100+i, sales))
	}
	for _, reopened := range []bool{false, true} {
		if reopened {
			s = reopen(t, s)
		}
		var all []app.ListEntry
		err := s.view(func(tx *txn) error {
			return tx.b(bucketProposals).ForEach(func(k, _ []byte) error {
				r, _, err := tx.record(keyID(k))
				if err != nil {
					return err
				}
				all = append(all, app.EntryOf(r.Local))
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 405 {
			t.Fatalf("%d records", len(all))
		}
		for range 300 {
			q := randomQuery(rng)
			got, n, err := s.Search(q)
			if err != nil {
				t.Fatal(err)
			}
			want, wn := q.Select(all)
			if n != wn || !reflect.DeepEqual(got, want) {
				t.Fatalf("query %+v: got %d %v\nwant %d %v", q, n, ids(got), wn, ids(want))
			}
			items, in, _ := s.ListItems(q)
			if in != wn || len(items) != len(want) {
				t.Fatalf("ListItems %d/%d", in, len(items))
			}
			for i := range items {
				if items[i].ID != want[i].ID {
					t.Fatalf("ListItems order differs at %d", i)
				}
			}
		}
	}
}

func ids(es []app.ListEntry) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}
