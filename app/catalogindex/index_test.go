package catalogindex_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"proposaldesk/app"
	"proposaldesk/app/catalogdemo"
	"proposaldesk/app/catalogindex"
)

// entriesOf gives the generated items IDs and returns their entries.
func entriesOf(n int) []app.CatalogEntry {
	items := catalogdemo.Generate(n)
	entries := make([]app.CatalogEntry, len(items))
	for i := range items {
		items[i].ID = int64(1000 + i*3)
		entries[i] = app.CatalogEntryOf(&items[i])
	}
	return entries
}

// randomQuery picks words from real entries (whole, cut, any case), short
// words, words that match nothing, and random filters and pages.
func randomQuery(rng *rand.Rand, entries []app.CatalogEntry) app.CatalogQuery {
	q := app.CatalogQuery{PageNumber: 1 + rng.IntN(3), PageSize: 1 + rng.IntN(50)}
	for range rng.IntN(4) {
		e := entries[rng.IntN(len(entries))]
		words := strings.Fields(e.Search)
		w := words[rng.IntN(len(words))]
		switch rng.IntN(6) {
		case 0:
			w = w[:min(len(w), 1+rng.IntN(2))]
		case 1:
			i := rng.IntN(len(w))
			w = w[i:min(len(w), i+3+rng.IntN(4))]
		case 2:
			w = strings.ToUpper(w)
		case 3:
			w = "zq" + w
		}
		q.SearchText += " " + w
	}
	if rng.IntN(4) == 0 {
		q.ItemType = app.ItemTypes[rng.IntN(len(app.ItemTypes))]
	}
	if rng.IntN(4) == 0 {
		q.Brands = []string{strings.ToUpper(entries[rng.IntN(len(entries))].Brand), "Sonos"}
	}
	if rng.IntN(5) == 0 {
		q.CategoryID = int64(1 + rng.IntN(catalogdemo.CategoryCount))
	}
	return q
}

// TestIndexEqualsReference compares the index with app's reference Select
// over a generated catalog for thousands of random queries.
func TestIndexEqualsReference(t *testing.T) {
	entries := entriesOf(2000)
	ix := catalogindex.Build(slices.Clone(entries))
	if ix.Len() != len(entries) {
		t.Fatalf("Len %d", ix.Len())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	nonEmpty := 0
	for i := range 1000 {
		q := randomQuery(rng, entries)
		page, count := q.Select(entries)
		want := []int64{}
		for _, e := range page {
			want = append(want, e.ID)
		}
		for pass := range 2 { // the second answer is the memo's
			got, gotCount := ix.Search(&q)
			if gotCount != count || !reflect.DeepEqual(got, want) {
				t.Fatalf("query %d pass %d %+v: index %v (%d), reference %v (%d)", i, pass, q, got, gotCount, want, count)
			}
			if len(got) > 0 {
				got[0] = -1 // the caller's copy: the memo keeps its own
			}
		}
		if count > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < 300 {
		t.Errorf("only %d of 1000 random queries matched anything: the test is too weak", nonEmpty)
	}
}

func TestIndexEmptyAndUnicode(t *testing.T) {
	q := app.DefaultCatalogQuery()
	if ids, n := catalogindex.Build(nil).Search(&q); n != 0 || len(ids) != 0 || ids == nil {
		t.Errorf("empty index: %v %d", ids, n)
	}
	items := []app.CatalogItem{{ID: 1, Brand: "Bang & Olufsen", Name: "Beosound Ölbaum"}, {ID: 2, Brand: "Sonos", Name: "Era"}}
	entries := []app.CatalogEntry{app.CatalogEntryOf(&items[0]), app.CatalogEntryOf(&items[1])}
	ix := catalogindex.Build(entries)
	for text, want := range map[string][]int64{"ÖLB": {1}, "& o": {1}, "era so": {2}, "olufsen beosound": {1}, "sonos ölb": {}} {
		q := app.CatalogQuery{SearchText: text, PageNumber: 1, PageSize: 10}
		if got, _ := ix.Search(&q); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

var sink int

// BenchmarkSearch100k searches 100,000 generated items with typical
// picker queries, one page of 10 and the count.
func BenchmarkSearch100k(b *testing.B) {
	ix := catalogindex.Build(entriesOf(100_000))
	for _, text := range []string{"", "so", "sonos", "sonos amp", "in-ceiling 8\" origin", "cat6", "lab-install", "zzz"} {
		b.Run(fmt.Sprintf("%q", text), func(b *testing.B) {
			q := app.CatalogQuery{SearchText: text, PageNumber: 1, PageSize: 10}
			for b.Loop() {
				_, n := ix.Search(&q)
				sink += n
			}
		})
	}
}

// BenchmarkBuild100k is the cost of (re)building the index after a
// change to a 100,000-item catalog.
func BenchmarkBuild100k(b *testing.B) {
	entries := entriesOf(100_000)
	for b.Loop() {
		sink += catalogindex.Build(slices.Clone(entries)).Len()
	}
}
