package listindex

import (
	"fmt"
	"testing"

	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// BenchmarkQueryWithDelta is a searched list page over 10,000 entries
// with d of them written since the base was built: what a list page
// costs while an account is being written to.
func BenchmarkQueryWithDelta(b *testing.B) {
	g := storetest.NewGen(5)
	entry := func(id int64) app.ListEntry {
		p := &app.Proposal{}
		p.ID, p.Number = id, 1000+id
		g.Fill(p)
		return app.EntryOf(p)
	}
	entries := make([]app.ListEntry, 10000)
	for i := range entries {
		entries[i] = entry(int64(i + 1))
	}
	q := app.ListQuery{SearchText: "smith", SortBy: app.SortModifiedDate, Descending: true, PageNumber: 2, PageSize: 25}
	for _, d := range []int{0, 128, 1024} {
		sn := New(entries, 1)
		overlay := map[int64]*app.ListEntry{}
		for i := range d {
			e := entry(int64(1 + i*7%len(entries)))
			overlay[e.ID] = &e
		}
		sn = sn.With(overlay, 2, d)
		b.Run(fmt.Sprintf("delta=%d", d), func(b *testing.B) {
			for b.Loop() {
				sn.Query(&q)
			}
		})
	}
	b.Run("rebuild", func(b *testing.B) {
		sn := New(entries, 1)
		for b.Loop() {
			e := entry(3)
			sn = sn.With(map[int64]*app.ListEntry{3: &e}, sn.Version()+1, 0)
			sn.Query(&q)
		}
	})
}
