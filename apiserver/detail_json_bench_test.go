package apiserver

import (
	"encoding/json"
	"slices"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// BenchmarkDetailJSON compares json.Marshal with app's AppendJSON on the
// detail a GET or a write answers with: the demo's typical proposal (the
// median by item count) and one of 500 items made of the demo's items.
//
//	go test ./apiserver -run '^$' -bench DetailJSON -count 5
func BenchmarkDetailJSON(b *testing.B) {
	ps := demoBySize(b)
	typical := ps[len(ps)/2]
	for _, bc := range []struct {
		name string
		p    *app.Proposal
	}{
		{"typical", typical},
		{"items=500", proposalOfItems(typical, ps, 5, 100)},
	} {
		d := app.DetailView(bc.p, app.ViewOptions{ViewCosts: true})
		want, err := json.Marshal(&d)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("%s: %d items, %d bytes", bc.name, itemCount(bc.p), len(want))
		b.Run(bc.name+"/marshal", func(b *testing.B) {
			b.SetBytes(int64(len(want)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(&d); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/append", func(b *testing.B) {
			b.SetBytes(int64(len(want)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.AppendJSON(nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// demoBySize is the demo's proposals (the main account's), fewest items
// first.
func demoBySize(b *testing.B) []*app.Proposal {
	e, u := benchStore(b, 0)
	var ps []*app.Proposal
	if err := e.st.View(bg, u.rec.AccountID, func(tx store.Tx) error {
		ids, err := tx.ProposalIDs()
		for _, id := range ids {
			p, err := tx.Proposal(id)
			if err != nil {
				return err
			}
			ps = append(ps, p)
		}
		return err
	}); err != nil {
		b.Fatal(err)
	}
	slices.SortFunc(ps, func(x, y *app.Proposal) int { return itemCount(x) - itemCount(y) })
	return ps
}

func itemCount(p *app.Proposal) int {
	n := 0
	for _, a := range p.Areas {
		for _, o := range a.Options {
			n += len(o.Items)
		}
	}
	return n
}

// proposalOfItems is p with areas × items of one option each, the items
// taken in turn from every proposal of from (flat: no bundles).
func proposalOfItems(p *app.Proposal, from []*app.Proposal, areas, items int) *app.Proposal {
	var pool []app.Item
	for _, q := range from {
		for _, a := range q.Areas {
			for _, o := range a.Options {
				pool = append(pool, o.Items...)
			}
		}
	}
	big := *p
	big.Areas = make([]app.Area, areas)
	id := int64(1 << 40)
	for i := range big.Areas {
		opt := app.Option{ID: id + 1, Status: app.OptionSelected, Items: make([]app.Item, items)}
		for j := range opt.Items {
			it := pool[(i*items+j)%len(pool)]
			it.ID, it.ParentID, it.IsCombinedPrice = id+2+int64(j), 0, false
			opt.Items[j] = it
		}
		big.Areas[i] = app.Area{ID: id, Name: p.Areas[i%len(p.Areas)].Name, Options: []app.Option{opt}}
		id += int64(items) + 2
	}
	return &big
}
