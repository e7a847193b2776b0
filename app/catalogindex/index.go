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
	dense map[uint32]bitset // the long lists (denseMin) as bitsets too
}

func (p *postings) list(k uint32) []int32 { return p.ranks[p.start[k]:p.start[k+1]] }

// Index is a catalog's entries in catalog order (app.CompareCatalog) with
// the posting lists of their pairs and triples.
type Index struct {
	entries []app.CatalogEntry
	one     postings
	two     postings
	three   postings
	types   map[app.ItemType]bitset // the entries of each item type
	memo    *Cache[string, answer]
}

// Build indexes entries; the slice is sorted in place and kept.
func Build(entries []app.CatalogEntry) *Index {
	slices.SortFunc(entries, func(a, b app.CatalogEntry) int { return app.CompareCatalog(&a, &b) })
	ix := &Index{entries: entries, one: build(entries, 1, singles), two: build(entries, 2, pairs), three: build(entries, 3, triples),
		types: map[app.ItemType]bitset{}, memo: NewCache[string, answer](maxMemo)}
	for rank, e := range entries {
		b := ix.types[e.ItemType]
		if b == nil {
			b = newBitset(len(entries))
			ix.types[e.ItemType] = b
		}
		b.set(int32(rank))
	}
	return ix
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
	p.dense = map[uint32]bitset{}
	for k := range uint32(slots) {
		if l := p.list(k); len(l) >= denseMin(len(entries)) {
			p.dense[k] = bitsetOf(l, len(entries))
		}
	}
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

// search answers a query from the lists (Search remembers its answers).
func (ix *Index) search(q *app.CatalogQuery) (ids []int64, count int) {
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
	c := ix.candidates(words, q.ItemType)
	if c.all && q.ItemType == "" && len(q.Brands) == 0 && q.CategoryID == 0 {
		count = len(ix.entries) // no text, no filter: the whole catalog
		if lo >= 0 && lo < count {
			for i := lo; i < min(lo+q.PageSize, count); i++ {
				ids = append(ids, ix.entries[i].ID)
			}
		}
		return ids, count
	}
	if !c.all && len(check) == 0 && len(q.Brands) == 0 && q.CategoryID == 0 {
		// The lists (and the type's set) settle the query alone: the
		// count is their intersection's size and the page a slice of it.
		count = c.size()
		if lo >= 0 && lo < count {
			c.each(lo, func(rank int32) bool {
				ids = append(ids, ix.entries[rank].ID)
				return len(ids) < q.PageSize
			})
		}
		return ids, count
	}
	match := func(rank int32) bool {
		e := &ix.entries[rank]
		if !q.MatchesFilters(e) {
			return true
		}
		for _, w := range check {
			if !strings.Contains(e.Search, w) {
				return true
			}
		}
		if lo >= 0 && count >= lo && len(ids) < q.PageSize {
			ids = append(ids, e.ID)
		}
		count++
		return true
	}
	if c.all {
		for rank := range ix.entries {
			match(int32(rank))
		}
		return ids, count
	}
	c.each(0, match)
	return ids, count
}

// cands are the ranks that hold every piece of a query's words and its
// item type: a sorted list, a bitset, or all entries.
type cands struct {
	all  bool
	list []int32
	set  bitset // used when list is nil and all is false
}

func (c *cands) size() int {
	if c.list != nil || c.set == nil {
		return len(c.list)
	}
	return c.set.count()
}

// each calls fn with the candidates in ascending order from the skip-th.
func (c *cands) each(skip int, fn func(rank int32) bool) {
	if c.list != nil || c.set == nil {
		for _, r := range c.list[min(skip, len(c.list)):] {
			if !fn(r) {
				return
			}
		}
		return
	}
	c.set.each(skip, fn)
}

// candidates are the positions holding every piece of the words (a word
// of one or two bytes is its own piece, a longer one its triples) and of
// the item type when one is given; all when there is neither.
func (ix *Index) candidates(words []string, typ app.ItemType) cands {
	var lists [][]int32
	var sets []bitset
	if typ != "" {
		set, ok := ix.types[typ]
		if !ok {
			return cands{list: []int32{}}
		}
		sets = append(sets, set)
	}
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
			if set, ok := p.dense[k]; ok {
				sets = append(sets, set)
			} else {
				lists = append(lists, p.list(k))
			}
		}
	}
	switch {
	case len(lists) == 0 && len(sets) == 0:
		return cands{all: true}
	case len(lists) == 0:
		and := slices.Clone(sets[0])
		for _, s := range sets[1:] {
			for i := range and {
				and[i] &= s[i]
			}
		}
		return cands{set: and}
	case len(lists) == 1 && len(sets) == 0:
		return cands{list: lists[0]} // read only: never written to
	}
	slices.SortFunc(lists, func(a, b []int32) int { return len(a) - len(b) })
	out := slices.Clone(lists[0])
	for _, l := range lists[1:] {
		if len(out) == 0 {
			break
		}
		out = intersect(out, l)
	}
	if len(sets) > 0 {
		out = slices.DeleteFunc(out, func(r int32) bool {
			for _, s := range sets {
				if !s.has(r) {
					return true
				}
			}
			return false
		})
	}
	return cands{list: out}
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
