// Package catalogindex answers app.CatalogQuery over an in-memory index
// of a catalog: entries in catalog order and posting lists of the
// two- and three-character pieces of their search text, so a search
// reads only the items that hold every piece of its words instead of
// scanning all of them. The server (per account) and the desktop (its
// offline copy) both use it; results equal app.CatalogQuery.Select
// exactly (tested against it with random catalogs and queries).
//
// An Index is immutable once built: readers share it without locks, and
// a change to the catalog builds a new one.
package catalogindex

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"proposaldesk/app"
)

// Bytes are folded into 64 classes (letters, digits, common punctuation,
// a few buckets for the rest), so the posting lists are dense arrays
// indexed by a piece's classes: 64 lists of single characters, 64² of
// pairs and 64³ of triples. Folding can only add candidates, never lose
// one. A word of at most three characters whose classes each hold one
// byte (letters, digits, the listed punctuation) is found exactly by its
// list; every other word is checked with strings.Contains.
const (
	classBits   = 6
	singles     = 1 << classBits
	pairs       = 1 << (2 * classBits)
	triples     = 1 << (3 * classBits)
	sharedClass = 51 // classes from here on hold several bytes
)

var class = func() (c [256]uint8) {
	for b := range 256 {
		switch {
		case b == '\n':
			c[b] = 0 // the field separator: pieces across it are not indexed
		case b >= 'a' && b <= 'z':
			c[b] = uint8(1 + b - 'a')
		case b >= '0' && b <= '9':
			c[b] = uint8(27 + b - '0')
		case b >= 0x80:
			c[b] = uint8(51 + b%12)
		default:
			if i := strings.IndexByte(" -.\"/&,()'+#_:", byte(b)); i >= 0 {
				c[b] = uint8(37 + i)
			} else {
				c[b] = 63
			}
		}
	}
	return c
}()

// postings is one dense family of posting lists: list k is
// ranks[start[k]:start[k+1]], ascending.
type postings struct {
	start []int32
	ranks []int32
}

func (p *postings) list(k uint32) []int32 { return p.ranks[p.start[k]:p.start[k+1]] }

// Index is a catalog's entries in catalog order (app.CompareCatalog) with
// the posting lists of their pairs and triples.
type Index struct {
	entries []app.CatalogEntry
	one     postings
	two     postings
	three   postings
}

// Build indexes entries; the slice is sorted in place and kept.
func Build(entries []app.CatalogEntry) *Index {
	slices.SortFunc(entries, func(a, b app.CatalogEntry) int { return app.CompareCatalog(&a, &b) })
	return &Index{entries: entries, one: build(entries, 1, singles), two: build(entries, 2, pairs), three: build(entries, 3, triples)}
}

// build counts each piece once per entry, then fills the lists in rank
// order (so each is ascending): two passes, no maps.
func build(entries []app.CatalogEntry, n int, slots int) postings {
	last := make([]int32, slots)
	for i := range last {
		last[i] = -1
	}
	count := make([]int32, slots+1)
	each := func(fn func(k uint32, rank int32)) {
		for rank := range entries {
			s := entries[rank].Search
			for i := 0; i+n <= len(s); i++ {
				if k, ok := piece(s[i : i+n]); ok && last[k] != int32(rank) {
					last[k] = int32(rank)
					fn(k, int32(rank))
				}
			}
		}
	}
	each(func(k uint32, _ int32) { count[k+1]++ })
	for i := 1; i <= slots; i++ {
		count[i] += count[i-1]
	}
	p := postings{start: count, ranks: make([]int32, count[slots])}
	next := slices.Clone(count[:slots])
	for i := range last {
		last[i] = -1
	}
	each(func(k uint32, rank int32) {
		p.ranks[next[k]] = rank
		next[k]++
	})
	return p
}

// piece is the slot of a two- or three-byte piece; false when it crosses
// a field separator.
func piece(s string) (uint32, bool) {
	var k uint32
	for i := 0; i < len(s); i++ {
		c := class[s[i]]
		if c == 0 {
			return 0, false
		}
		k = k<<classBits | uint32(c)
	}
	return k, true
}

// Len is the number of entries.
func (ix *Index) Len() int { return len(ix.entries) }

// Search returns the IDs of the query's page, in catalog order, and the
// count of all matches.
func (ix *Index) Search(q *app.CatalogQuery) (ids []int64, count int) {
	words := q.SearchWords()
	lo := -1 // no page: count only
	if q.PageNumber > 0 && q.PageSize > 0 {
		if l := (q.PageNumber - 1) * q.PageSize; l/q.PageSize == q.PageNumber-1 {
			lo = l
		}
	}
	ids = []int64{}
	var check []string // the words the lists do not settle
	for _, w := range words {
		if !exact(w) {
			check = append(check, w)
		}
	}
	match := func(rank int32) {
		e := &ix.entries[rank]
		if !q.MatchesFilters(e) {
			return
		}
		for _, w := range check {
			if !strings.Contains(e.Search, w) {
				return
			}
		}
		if lo >= 0 && count >= lo && len(ids) < q.PageSize {
			ids = append(ids, e.ID)
		}
		count++
	}
	cands, all := ix.candidates(words)
	if all && q.ItemType == "" && len(q.Brands) == 0 && q.CategoryID == 0 {
		count = len(ix.entries) // no text, no filter: the whole catalog
		if lo >= 0 && lo < count {
			for i := lo; i < min(lo+q.PageSize, count); i++ {
				ids = append(ids, ix.entries[i].ID)
			}
		}
		return ids, count
	}
	if !all && len(check) == 0 && q.ItemType == "" && len(q.Brands) == 0 && q.CategoryID == 0 {
		// The lists settle the query alone: the count is their
		// intersection's length and the page a slice of it.
		count = len(cands)
		if lo >= 0 && lo < count {
			for _, rank := range cands[lo:min(lo+q.PageSize, count)] {
				ids = append(ids, ix.entries[rank].ID)
			}
		}
		return ids, count
	}
	if all {
		for rank := range ix.entries {
			match(int32(rank))
		}
		return ids, count
	}
	for _, rank := range cands {
		match(rank)
	}
	return ids, count
}

// exact reports whether w's posting list holds exactly the entries that
// contain it.
func exact(w string) bool {
	if len(w) > 3 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if class[w[i]] >= sharedClass {
			return false
		}
	}
	return true
}

// candidates are the positions holding every piece of the words (a word
// of one or two bytes is its own piece, a longer one its triples); all
// is true when there are no words (every entry is then a candidate).
func (ix *Index) candidates(words []string) (cands []int32, all bool) {
	var lists [][]int32
	for _, w := range words {
		p, n := &ix.three, 3
		switch len(w) {
		case 1:
			p, n = &ix.one, 1
		case 2:
			p, n = &ix.two, 2
		}
		for i := 0; i+n <= len(w); i++ {
			k, _ := piece(w[i : i+n])
			lists = append(lists, p.list(k))
		}
	}
	if len(lists) == 0 {
		return nil, true
	}
	slices.SortFunc(lists, func(a, b []int32) int { return len(a) - len(b) })
	if len(lists) == 1 {
		return lists[0], false // read only: never written to
	}
	cands = slices.Clone(lists[0])
	for _, l := range lists[1:] {
		if len(cands) == 0 {
			break
		}
		cands = intersect(cands, l)
	}
	return cands, false
}

// intersect keeps the elements of small (ascending) that big (ascending)
// holds, searching big by halves from where the last one was found.
func intersect(small, big []int32) []int32 {
	out := small[:0]
	for _, v := range small {
		i, found := slices.BinarySearch(big, v)
		if found {
			out = append(out, v)
		}
		big = big[i:]
		if len(big) == 0 {
			break
		}
	}
	return out
}

// FromJSON builds the index of the items a bbolt bucket's ForEach (or
// any such walk) gives as JSON-encoded app.CatalogItem values: the
// server's and the desktop's stores keep their items that way.
func FromJSON(forEach func(fn func(k, v []byte) error) error) (*Index, error) {
	var entries []app.CatalogEntry
	err := forEach(func(k, v []byte) error {
		var it app.CatalogItem
		if err := json.Unmarshal(v, &it); err != nil {
			return fmt.Errorf("catalog item %x: %w", k, err)
		}
		entries = append(entries, app.CatalogEntryOf(&it))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return Build(entries), nil
}
