package catalogindex_test

import (
	"slices"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/app/catalogindex"
)

// typed are texts a salesperson types into the catalog picker (the
// load command's catalog scenario types the same); each prefix of two or
// more characters is one keystroke's search.
var typed = []string{
	"sonos amp", "origin in-ceiling 8", "samsung 85", "cat6 1000", "araknis switch 24",
	"lutron dimmer", "installation labor", "trip charge", "u7 pro", "denon avr", "hdmi fiber 50",
	"control4 core", "wattbox ups", "sony projector", "luma camera",
}

// BenchmarkTypingPrefixes100k searches every keystroke of the typed
// texts (first page of 10, with and without the Part filter) over
// 100,000 demo items, without the memo, and reports the median, 99th
// percentile and slowest keystroke.
func BenchmarkTypingPrefixes100k(b *testing.B) {
	ix := catalogindex.Build(entriesOf(100_000))
	var qs []app.CatalogQuery
	for _, t := range typed {
		for n := 2; n <= len(t); n++ {
			qs = append(qs, app.CatalogQuery{SearchText: t[:n], PageNumber: 1, PageSize: 10},
				app.CatalogQuery{SearchText: t[:n], ItemType: app.ItemPart, PageNumber: 1, PageSize: 10})
		}
	}
	times := make([][]time.Duration, len(qs))
	for b.Loop() {
		for i := range qs {
			start := time.Now()
			ix.SearchUncached(&qs[i])
			times[i] = append(times[i], time.Since(start))
		}
	}
	// Each keystroke's median time, then their distribution.
	med := make([]time.Duration, len(qs))
	for i, ts := range times {
		slices.Sort(ts)
		med[i] = ts[len(ts)/2]
	}
	all := slices.Clone(med)
	slices.Sort(all)
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(all[len(all)-1].Microseconds()), "max-µs")
	slowest := slices.Index(med, all[len(all)-1])
	_, n := ix.Search(&qs[slowest])
	b.Logf("slowest: %q type %q, %d matches, %v", qs[slowest].SearchText, qs[slowest].ItemType, n, med[slowest])
}
