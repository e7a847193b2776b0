package listindex

import (
	"fmt"
	"testing"
	"time"

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
				sn.query(&q) // not settled: the delta is what is measured
			}
		})
	}
	// One write after another to different entries, as a burst of edits
	// (one each 100 µs, faster than a bbolt group commits): the mean and
	// the slowest With, the stall a write (bbolt) or a catching-up reader
	// (PostgreSQL) sees around a rebuild of the base.
	b.Run("writes", func(b *testing.B) {
		sn := New(entries, 1)
		var total, slowest time.Duration
		i := 0
		for b.Loop() {
			i++
			e := entry(int64(1 + i*7%len(entries)))
			start := time.Now()
			sn = sn.With(map[int64]*app.ListEntry{e.ID: &e}, sn.Version()+1, sn.DeltaMax(1024))
			d := time.Since(start)
			total += d
			slowest = max(slowest, d)
			time.Sleep(100 * time.Microsecond)
		}
		b.ReportMetric(float64(total.Microseconds())/float64(i), "with-µs")
		b.ReportMetric(float64(slowest.Microseconds())/1000, "slowest-ms")
	})
	// Building a base of 10,000 entries and its first page.
	b.Run("rebuild", func(b *testing.B) {
		for b.Loop() {
			New(entries, 1).Query(&q)
		}
	})
}
