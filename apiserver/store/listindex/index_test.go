package listindex

import (
	"slices"
	"testing"

	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// The index answers as app.ListQuery.Select does over the same entries:
// random entries and queries, each asked twice (the second time through
// the remembered word slots), with writes now and then that go to the
// delta or, past its bound, into a rebuilt base.
func TestQueryEqualsSelect(t *testing.T) {
	g := storetest.NewGen(11)
	entries := map[int64]app.ListEntry{}
	fill := func(id int64) *app.ListEntry {
		p := &app.Proposal{}
		p.ID, p.Number = id, 1000+id
		g.Fill(p)
		e := app.EntryOf(p)
		entries[id] = e
		return &e
	}
	for id := range int64(400) {
		fill(id + 1)
	}
	all := func() []app.ListEntry {
		l := make([]app.ListEntry, 0, len(entries))
		for _, e := range entries {
			l = append(l, e)
		}
		return l
	}
	sn := New(all(), 1)
	ids := func(l []app.ListEntry) []int64 {
		out := make([]int64, len(l))
		for i, e := range l {
			out[i] = e.ID
		}
		return out
	}
	for i := range 300 {
		if i%30 == 29 {
			overlay := map[int64]*app.ListEntry{}
			for range 6 {
				id := int64(1 + g.R.IntN(len(entries)))
				overlay[id] = fill(id)
			}
			id := int64(len(entries) + 1)
			overlay[id] = fill(id)
			sn = sn.With(overlay, sn.Version()+1, 16)
		}
		q := g.Query()
		wantPage, wantCount := q.Select(all())
		for try := range 2 {
			page, count := sn.Query(&q)
			got := make([]app.ListEntry, len(page))
			for j, e := range page {
				got[j] = *e
			}
			if count != wantCount || !slices.Equal(ids(got), ids(wantPage)) {
				t.Fatalf("query %d (%+v), try %d: count %d page %v; want %d %v", i, q, try, count, ids(got), wantCount, ids(wantPage))
			}
		}
	}
}
