// Package listindex answers list queries (app.ListQuery) from memory: an
// account's list entries with a token index over their search text,
// bitsets for the archive flag and statuses and sorted orders, at one
// version, with the entries written since kept beside it. Both stores
// keep one per account (boltstore at each bbolt version, pgstore at each
// feed position), so a list page costs neither a scan nor a query plan.
package listindex

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"proposaldesk/app"
)

// baseIndex is an account's list entries at one version with a token
// index over their search text, so SearchText is answered without reading
// every entry. It is never changed once built; later writes live in a
// Snap's delta until the next rebuild.
//
// Why tokens: a search word never holds white space, so it occurs in an
// entry's Search exactly when it occurs inside one of the white-space
// separated tokens of Search (both are valid lower-cased UTF-8, so a byte
// match cannot straddle a rune). The entries holding a word are then the
// union of the postings of the tokens that contain it, and the tokens are
// found through a trigram index over the (far fewer) distinct tokens.
type baseIndex struct {
	w       uint64 // the version the base holds the entries of
	entries []app.ListEntry
	pos     map[int64]int32 // ID -> slot in entries
	tokens  []string        // distinct tokens of the entries' Search
	posting [][]int32       // token ID -> slots holding it, ascending

	gramsOnce sync.Once
	grams     map[[3]byte][]int32 // trigram -> IDs of the tokens holding it

	flagsOnce sync.Once
	flags     *flagSets

	// words remembers the slots of recent search words: people page
	// through one search and type the same few names all day, and
	// collecting a common word's slots was most of a list page's CPU.
	wordsMu sync.Mutex
	words   map[string]bitset

	// orders[f] lists the slots sorted by app.SortFields[f] ascending
	// (ties on ID), built on first use.
	orders [6]struct {
		once  sync.Once
		slots []int32
	}

	// The base that replaces this one, built in the background once the
	// deltas over it grow (rebuild.go).
	rebuilding atomic.Bool
	rebuilt    atomic.Pointer[Snap]
	// readTax sums the delta sizes the queries over this base have
	// merged; past a rebuild's worth, reads have the base rebuilt.
	readTax atomic.Int64
}

func newBase(entries []app.ListEntry, w uint64) *baseIndex {
	b := &baseIndex{w: w, entries: entries, pos: make(map[int64]int32, len(entries))}
	tokID := map[string]int32{}
	for slot := range entries {
		b.pos[entries[slot].ID] = int32(slot)
		for _, tok := range strings.Fields(entries[slot].Search) {
			id, ok := tokID[tok]
			if !ok {
				id = int32(len(b.tokens))
				tokID[tok] = id
				b.tokens = append(b.tokens, tok)
				b.posting = append(b.posting, nil)
			}
			if p := b.posting[id]; len(p) == 0 || p[len(p)-1] != int32(slot) {
				b.posting[id] = append(p, int32(slot))
			}
		}
	}
	return b
}

// trigrams indexes the tokens by their byte trigrams, once.
func (b *baseIndex) trigrams() map[[3]byte][]int32 {
	b.gramsOnce.Do(func() {
		b.grams = map[[3]byte][]int32{}
		for id, tok := range b.tokens {
			for i := 0; i+3 <= len(tok); i++ {
				g := [3]byte{tok[i], tok[i+1], tok[i+2]}
				if l := b.grams[g]; len(l) == 0 || l[len(l)-1] != int32(id) {
					b.grams[g] = append(l, int32(id))
				}
			}
		}
	})
	return b.grams
}

// tokensWith returns the IDs of the tokens that contain w.
func (b *baseIndex) tokensWith(w string) []int32 {
	var out []int32
	if len(w) < 3 {
		for id, tok := range b.tokens {
			if strings.Contains(tok, w) {
				out = append(out, int32(id))
			}
		}
		return out
	}
	// Every trigram of w is in a matching token: check the tokens of w's
	// rarest trigram.
	grams := b.trigrams()
	var cand []int32
	for i := 0; i+3 <= len(w); i++ {
		l, ok := grams[[3]byte{w[i], w[i+1], w[i+2]}]
		if !ok {
			return nil
		}
		if cand == nil || len(l) < len(cand) {
			cand = l
		}
	}
	for _, id := range cand {
		if strings.Contains(b.tokens[id], w) {
			out = append(out, id)
		}
	}
	return out
}

// bitset is a set of slots.
type bitset []uint64

func newBitset(n int) bitset      { return make(bitset, (n+63)/64) }
func (s bitset) set(i int32)      { s[i>>6] |= 1 << (i & 63) }
func (s bitset) has(i int32) bool { return s[i>>6]&(1<<(i&63)) != 0 }

// keepWords is how many search words a base remembers the slots of.
const keepWords = 64

// wordSlots is the set of slots whose Search contains w; the caller may
// change it.
func (b *baseIndex) wordSlots(w string) bitset {
	b.wordsMu.Lock()
	s, ok := b.words[w]
	b.wordsMu.Unlock()
	if ok {
		return slices.Clone(s)
	}
	s = newBitset(len(b.entries))
	for _, id := range b.tokensWith(w) {
		for _, slot := range b.posting[id] {
			s.set(slot)
		}
	}
	b.wordsMu.Lock()
	if b.words == nil || len(b.words) >= keepWords {
		b.words = make(map[string]bitset, keepWords) // start again: cheap, and old words fade
	}
	b.words[w] = s
	b.wordsMu.Unlock()
	return slices.Clone(s)
}

// match returns the slots that match m and are not in gone (superseded by
// a snapshot's delta), and how many there are. The archive flag and statuses, which nearly
// every query filters on, are answered with bitsets; only the rarer
// filters (contact, salesperson, modified date) look at entries.
func (b *baseIndex) match(m app.Matcher, q *app.ListQuery, gone bitset) (bitset, int) {
	var s bitset
	if words := m.Words(); len(words) == 0 {
		s = slices.Clone(b.flagSets().live)
	} else {
		s = b.wordSlots(words[0])
		for _, w := range words[1:] {
			s.and(b.wordSlots(w))
		}
		s.and(b.flagSets().live)
	}
	fs := b.flagSets()
	if q.Archived {
		s.and(fs.archived)
	} else {
		s.andNot(fs.archived)
	}
	if len(q.Statuses) > 0 {
		either := newBitset(len(b.entries))
		for _, st := range q.Statuses {
			if set, ok := fs.status[st]; ok {
				either.or(set)
			}
		}
		s.and(either)
	}
	if gone != nil {
		s.andNot(gone)
	}
	count := 0
	perEntry := q.ContactID != 0 || q.SalesPersonID != 0 || !q.ModifiedAfter.IsZero()
	for wi, word := range s {
		if perEntry {
			keep := word
			for word != 0 {
				slot := wi*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if !m.MatchFields(&b.entries[slot]) {
					keep &^= 1 << (slot & 63)
				}
			}
			s[wi] = keep
		}
		count += bits.OnesCount64(s[wi])
	}
	return s, count
}

func (s bitset) and(o bitset) {
	for i := range s {
		s[i] &= o[i]
	}
}

func (s bitset) andNot(o bitset) {
	for i := range s {
		s[i] &^= o[i]
	}
}

func (s bitset) or(o bitset) {
	for i := range s {
		s[i] |= o[i]
	}
}

// flagSets are the slots by archive flag and by status.
type flagSets struct {
	live     bitset // every slot
	archived bitset
	status   map[app.Status]bitset
}

func (b *baseIndex) flagSets() *flagSets {
	b.flagsOnce.Do(func() {
		n := len(b.entries)
		fs := &flagSets{live: newBitset(n), archived: newBitset(n), status: map[app.Status]bitset{}}
		for slot := range b.entries {
			e := &b.entries[slot]
			fs.live.set(int32(slot))
			if e.Archived {
				fs.archived.set(int32(slot))
			}
			set, ok := fs.status[e.Status]
			if !ok {
				set = newBitset(n)
				fs.status[e.Status] = set
			}
			set.set(int32(slot))
		}
		b.flags = fs
	})
	return b.flags
}

// order returns the slots sorted by app.SortFields[f] ascending.
func (b *baseIndex) order(f int) []int32 {
	o := &b.orders[f]
	o.once.Do(func() {
		ptrs := make([]*app.ListEntry, len(b.entries))
		for i := range b.entries {
			ptrs[i] = &b.entries[i]
		}
		sortEntries(&app.ListQuery{SortBy: app.SortFields[f]}, ptrs)
		o.slots = make([]int32, len(ptrs))
		for i, e := range ptrs {
			o.slots[i] = b.pos[e.ID]
		}
	})
	return o.slots
}

// sortIndex is the position in app.SortFields of the field q sorts by;
// q.Compare sorts anything else by modified date.
func sortIndex(q *app.ListQuery) int {
	if i := slices.Index(app.SortFields, q.SortBy); i >= 0 {
		return i
	}
	return slices.Index(app.SortFields, app.SortModifiedDate)
}

// Snap is the list index of an account at one version: a base and the
// entries written since it was built. It is never changed.
type Snap struct {
	w     uint64
	base  *baseIndex
	delta Layered[int64, written]
	// gone marks the base slots the delta supersedes, and deltaOrders[f]
	// holds the delta's entries sorted by app.SortFields[f] ascending
	// (built on first use): with a thousand entries written since the
	// base, finding them in the map and sorting the matches at every page
	// made a list page a hundred times dearer.
	gone        bitset
	deltaOrders [6]struct {
		once    sync.Once
		entries []*app.ListEntry
	}
	// rebased is this snapshot over a base rebuilt since, once a query
	// has made it (rebuild.go).
	rebased atomic.Pointer[Snap]
}

// deltaLayer bounds the recent layer of a snapshot's delta.
const deltaLayer = 64

// written is an entry of a delta with the version it was written at (or
// a later one: With labels a whole overlay with its version).
type written struct {
	e *app.ListEntry
	w uint64
}

// New is the index of entries at version w.
func New(entries []app.ListEntry, w uint64) *Snap {
	return &Snap{w: w, base: newBase(entries, w)}
}

// Version is the version the snapshot was made at.
func (sn *Snap) Version() uint64 { return sn.w }

// DeltaMax is how many changed entries a snapshot holds beside its base
// before With has the base rebuilt: an eighth of the entries (at least
// min), so rebuilding costs a constant per write.
func (sn *Snap) DeltaMax(min int) int { return max(min, len(sn.base.entries)/8) }

// With returns the snapshot at version w after the writes in overlay
// (proposals are never deleted). Past deltaMax a new base is built in the
// background and taken by the first With after it is ready (rebuild.go);
// past twice deltaMax (the build is late) the base is rebuilt at once.
func (sn *Snap) With(overlay map[int64]*app.ListEntry, w uint64, deltaMax int) *Snap {
	labeled := make(map[int64]written, len(overlay))
	for id, e := range overlay {
		labeled[id] = written{e, w}
	}
	// Layered: a write copies the recent part of the delta, not all of
	// it (a thousand entries were a write's largest cost).
	delta := sn.delta.With(labeled, deltaLayer)
	next := &Snap{w: w, base: sn.base, delta: delta}
	if r := sn.base.rebuilt.Load(); r != nil && r.w <= w {
		return next.rebasedOn(r, deltaMax)
	}
	if delta.Len()/2 > deltaMax { // written so that deltaMax may be math.MaxInt
		return New(next.entries(), w)
	}
	next.gone = slices.Clone(sn.gone)
	for id := range overlay {
		if slot, ok := sn.base.pos[id]; ok {
			if next.gone == nil {
				next.gone = newBitset(len(sn.base.entries))
			}
			next.gone.set(slot)
		}
	}
	if delta.Len() > deltaMax {
		next.rebuildLater()
	}
	return next
}

// entries is every entry of the snapshot: the base's with the delta's
// over them.
func (sn *Snap) entries() []app.ListEntry {
	entries := make([]app.ListEntry, len(sn.base.entries), len(sn.base.entries)+sn.delta.Len())
	copy(entries, sn.base.entries)
	for id, d := range sn.delta.All() {
		if slot, ok := sn.base.pos[id]; ok {
			entries[slot] = *d.e
		} else {
			entries = append(entries, *d.e)
		}
	}
	return entries
}

// deltaOrder returns the delta's entries sorted by app.SortFields[f]
// ascending.
func (sn *Snap) deltaOrder(f int) []*app.ListEntry {
	o := &sn.deltaOrders[f]
	o.once.Do(func() {
		o.entries = make([]*app.ListEntry, 0, sn.delta.Len())
		for _, d := range sn.delta.All() {
			o.entries = append(o.entries, d.e)
		}
		sortEntries(&app.ListQuery{SortBy: app.SortFields[f]}, o.entries)
	})
	return o.entries
}

// freshMatches returns the delta's entries that match m, in q's order
// (descending is ascending reversed: q.Compare ties on the ID).
func (sn *Snap) freshMatches(m app.Matcher, q *app.ListQuery) []*app.ListEntry {
	if sn.delta.Len() == 0 {
		return nil
	}
	order := sn.deltaOrder(sortIndex(q))
	var out []*app.ListEntry
	for i := range order {
		e := order[i]
		if q.Descending {
			e = order[len(order)-1-i]
		}
		if m.Match(e) {
			out = append(out, e)
		}
	}
	return out
}

// Query answers q with app.ListQuery.Select's semantics: the page's
// entries and the number of all matches.
func (sn *Snap) Query(q *app.ListQuery) ([]*app.ListEntry, int) {
	return sn.settled().query(q)
}

// query is Query over sn's own base and delta.
func (sn *Snap) query(q *app.ListQuery) ([]*app.ListEntry, int) {
	m := q.Matcher()
	slots, count := sn.base.match(m, q, sn.gone)
	fresh := sn.freshMatches(m, q)
	count += len(fresh)
	// Compare page numbers, not offsets, as app.ListQuery.Page does.
	if count == 0 || q.PageSize < 1 || q.PageNumber < 1 || q.PageNumber-1 > (count-1)/q.PageSize {
		return nil, count
	}
	start := (q.PageNumber - 1) * q.PageSize
	k := min(start+q.PageSize, count)
	if count*16 <= len(sn.base.entries) {
		// Few matches: sorting them beats walking the whole order.
		for wi, word := range slots {
			for word != 0 {
				fresh = append(fresh, &sn.base.entries[wi*64+bits.TrailingZeros64(word)])
				word &= word - 1
			}
		}
		return selectPage(q, fresh), count
	}
	// Many matches: walk the base's sorted order, merged with the sorted
	// matches of the delta, until the page is complete.
	order := sn.base.order(sortIndex(q))
	i, step := 0, 1
	if q.Descending {
		i, step = len(order)-1, -1
	}
	nextBase := func() *app.ListEntry {
		for ; i >= 0 && i < len(order); i += step {
			if slot := order[i]; slots.has(slot) {
				i += step
				return &sn.base.entries[slot]
			}
		}
		return nil
	}
	page := make([]*app.ListEntry, 0, k-start)
	b := nextBase()
	for n := 0; n < k; n++ {
		var e *app.ListEntry
		if b != nil && (len(fresh) == 0 || q.Compare(b, fresh[0]) < 0) {
			e, b = b, nextBase()
		} else {
			e, fresh = fresh[0], fresh[1:]
		}
		if n >= start {
			page = append(page, e)
		}
	}
	return page, count
}
