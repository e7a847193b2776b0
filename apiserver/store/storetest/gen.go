package storetest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

var words = []string{"Kitchen", "theater", "Lake", "house", "OFFICE", "Smith", "audio", "wiring", "Garage", "patio", "Zone", "lobby"}

// gen makes random proposals over a small set of contacts, salespeople and
// times, so that filters hit and sort keys tie.
type Gen struct {
	R        *rand.Rand
	Contacts []app.Contact
	Sales    []app.Salesperson
	Base     time.Time
}

func NewGen(seed uint64) *Gen {
	g := &Gen{R: rand.New(rand.NewPCG(seed, 1)), Base: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	first := []string{"Ann", "bob", "Cleo", "Dev", "Eve"}
	last := []string{"Smith", "lake", "Öst", "Nguyen", "Brown"}
	for i := range 8 {
		c := app.Contact{ID: int64(900000 + i), PartyType: app.PartyPerson, ContactType: app.ContactClient,
			FirstName: first[i%len(first)], LastName: last[(i*3)%len(last)], ContactEmail: fmt.Sprintf("c%d@Mail.example", i)}
		if i%3 == 0 {
			c.PartyType, c.CompanyName = app.PartyCompany, words[i]+" Inc"
		}
		g.Contacts = append(g.Contacts, c)
	}
	for i := range 3 {
		g.Sales = append(g.Sales, app.Salesperson{ID: int64(800000 + i), Email: fmt.Sprintf("s%d@x", i), FirstName: "S", LastName: fmt.Sprint(i)})
	}
	return g
}

func (g *Gen) Time() app.Time {
	// Coarse steps make equal times common.
	return app.At(g.Base.Add(time.Duration(g.R.IntN(40)) * time.Hour))
}

func (g *Gen) Name() string {
	n := 1 + g.R.IntN(3)
	var parts []string
	for range n {
		parts = append(parts, words[g.R.IntN(len(words))])
	}
	return fmt.Sprint(parts[0], " ", parts[1:])
}

// fill sets the list-relevant fields of p at random.
func (g *Gen) Fill(p *app.Proposal) {
	p.Name = g.Name()
	p.Status = app.Statuses[g.R.IntN(len(app.Statuses))]
	p.Archived = g.R.IntN(8) == 0
	p.SalesPerson = g.Sales[g.R.IntN(len(g.Sales))]
	if p.CreatedDate.IsZero() {
		p.CreatedDate = g.Time()
	}
	p.LastModifiedDate = g.Time()
	p.LastModifiedByUserDate = p.LastModifiedDate
	if g.R.IntN(5) == 0 {
		p.Customer = nil
	} else {
		p.Customer = &app.Customer{Contact: g.Contacts[g.R.IntN(len(g.Contacts))]}
	}
	p.Version++
	if g.R.IntN(3) == 0 {
		p.Areas = append(p.Areas, app.Area{ID: int64(g.R.IntN(1 << 30)), Name: g.Name(), Options: []app.Option{{
			ID: int64(g.R.IntN(1 << 30)), Status: app.OptionDraft,
			Items: []app.Item{{ID: 1, ItemType: app.ItemPart, Name: "Speaker", SellPrice: app.Money(g.R.IntN(100000)), Quantity: app.MustQuantity("2")}},
		}}})
	}
}

func (g *Gen) Query() app.ListQuery {
	r := g.R
	q := app.DefaultListQuery()
	switch r.IntN(4) {
	case 0:
	case 1:
		q.SearchText = words[r.IntN(len(words))]
	case 2:
		w := words[r.IntN(len(words))]
		q.SearchText = " " + w[:1+r.IntN(len(w))] + "  " + words[r.IntN(len(words))][:2]
	default:
		q.SearchText = []string{"smith", "LAKE", "öst", "mail.example", "100", "inc", "bob nguyen", "zzz"}[r.IntN(8)]
	}
	for range r.IntN(3) {
		q.Statuses = append(q.Statuses, app.Statuses[r.IntN(len(app.Statuses))])
	}
	if r.IntN(4) == 0 {
		q.ContactID = g.Contacts[r.IntN(len(g.Contacts))].ID
	}
	if r.IntN(4) == 0 {
		q.SalesPersonID = g.Sales[r.IntN(len(g.Sales))].ID
	}
	if r.IntN(4) == 0 {
		q.ModifiedAfter = g.Time()
	}
	q.Archived = r.IntN(5) == 0
	q.SortBy = app.SortFields[r.IntN(len(app.SortFields))]
	q.Descending = r.IntN(2) == 0
	q.PageSize = []int{1, 3, 25, 200}[r.IntN(4)]
	q.PageNumber = 1 + r.IntN(4)
	if r.IntN(10) == 0 {
		q.PageNumber = 1 + r.IntN(400)
	}
	return q
}

// putRandom stores n new random proposals in one transaction.
func (g *Gen) PutRandom(t testing.TB, s store.Store, acct int64, n int) map[int64]*app.Proposal {
	t.Helper()
	out := map[int64]*app.Proposal{}
	err := s.Update(ctx, acct, func(tx store.Tx) error {
		for range n {
			p := &app.Proposal{}
			p.ID, p.Number = tx.NextID(), tx.NextNumber()
			g.Fill(p)
			if err := tx.PutProposal(p); err != nil {
				return err
			}
			out[p.ID] = p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func entriesOf(ps map[int64]*app.Proposal) []app.ListEntry {
	var es []app.ListEntry
	for _, p := range ps {
		es = append(es, app.EntryOf(p))
	}
	slices.SortFunc(es, func(a, b app.ListEntry) int { return int(a.ID - b.ID) })
	return es
}

// CheckList compares List with Select over the model's proposals, page
// rows included.
func CheckList(t *testing.T, tx store.Tx, model map[int64]*app.Proposal, q app.ListQuery) {
	t.Helper()
	got, count, err := tx.List(q)
	if err != nil {
		t.Fatalf("List(%+v): %v", q, err)
	}
	want, wantCount := q.Select(entriesOf(model))
	if count != wantCount || len(got) != len(want) {
		t.Fatalf("List(%+v): %d rows of %d, want %d of %d", q, len(got), count, len(want), wantCount)
	}
	for i := range want {
		if got[i].ID != want[i].ID {
			t.Fatalf("List(%+v): row %d is %d, want %d", q, i, got[i].ID, want[i].ID)
		}
		if g, w := MustJSON(got[i]), MustJSON(app.ListItemView(model[want[i].ID])); g != w {
			t.Fatalf("row %d:\n got %s\nwant %s", want[i].ID, g, w)
		}
	}
	// ListJSON: the same page, each row exactly as its item encodes.
	rows, jcount, err := tx.ListJSON(q)
	if err != nil || jcount != count || len(rows) != len(got) {
		t.Fatalf("ListJSON(%+v): %d rows of %d, %v; want %d of %d", q, len(rows), jcount, err, len(got), count)
	}
	for i := range rows {
		if w := MustJSON(got[i]); string(rows[i]) != w {
			t.Fatalf("ListJSON(%+v) row %d:\n got %s\nwant %s", q, i, rows[i], w)
		}
	}
}

func MustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
