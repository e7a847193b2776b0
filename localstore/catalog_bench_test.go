package localstore

import (
	"slices"
	"testing"
	"time"

	"proposaldesk/app"
)

// pickerTyping is typed into the catalog picker a keystroke at a time.
var pickerTyping = []string{"sonos amp", "origin in-ceiling 8", "samsung 85", "cat6", "araknis switch 24",
	"lutron dimmer", "installation labor", "denon avr", "hdmi fiber"}

// BenchmarkCatalogKeystroke100k is one keystroke of the picker over a
// 100,000-item offline catalog: the search and its page of 50 read from
// the file. It reports the 95th percentile of the keystrokes (p95-ms).
func BenchmarkCatalogKeystroke100k(b *testing.B) {
	s := openStore(b, "")
	loadCatalog(b, s, "st", demoCatalog(100_000), 2000)
	catalogIDs(b, s, app.DefaultCatalogQuery()) // the index is built once after a download
	var queries []app.CatalogQuery
	for _, text := range pickerTyping {
		for n := 1; n <= len(text); n++ {
			queries = append(queries, app.CatalogQuery{SearchText: text[:n], PageNumber: 1, PageSize: 50})
		}
	}
	var lat []time.Duration
	i := 0
	for b.Loop() {
		t0 := time.Now()
		catalogIDs(b, s, queries[i%len(queries)])
		lat = append(lat, time.Since(t0))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkCatalogIndexBuild100k is the first search after a download
// or a change: the index built from the file.
func BenchmarkCatalogIndexBuild100k(b *testing.B) {
	s := openStore(b, "")
	loadCatalog(b, s, "st", demoCatalog(100_000), 2000)
	for b.Loop() {
		s.catMu.Lock()
		s.catGen++
		s.catMu.Unlock()
		catalogIDs(b, s, app.DefaultCatalogQuery())
	}
}
