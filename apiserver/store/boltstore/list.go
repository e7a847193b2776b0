package boltstore

import (
	"cmp"
	"container/heap"
	"fmt"
	"slices"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

// listCache is the decoded list index of one account as of index version
// w (the ID of the bbolt transaction that last wrote it). A snapshot is
// never changed after it is published: a commit publishes a new one, so a
// reader may iterate entries without a lock.
type listCache struct {
	w       uint64
	entries []app.ListEntry
	// pos is the position of each ID in entries; shared by successive
	// snapshots and touched only under Store.mu.
	pos map[int64]int
}

// cached returns the account's cache snapshot if it is at version w.
func (s *Store) cached(accountID int64, w uint64) *listCache {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.cache[accountID]; c != nil && c.w == w {
		return c
	}
	return nil
}

// install publishes a snapshot built from the file at version c.w, unless
// the cache already holds that version or a newer one.
func (s *Store) install(accountID int64, c *listCache) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur := s.cache[accountID]; cur == nil || cur.w < c.w {
		s.cache[accountID] = c
	}
}

// applyCommitted runs after a write transaction commits: it moves the
// account's cache from version base to w by applying the entries the
// transaction wrote. If the cache is at any other version (another commit
// raced ahead, or it was never built) it is dropped, and the next reader
// rebuilds it from the file.
func (s *Store) applyCommitted(accountID int64, base, w uint64, overlay map[int64]app.ListEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cache[accountID]
	if cur == nil || cur.w == w {
		return
	}
	if cur.w != base {
		delete(s.cache, accountID)
		return
	}
	entries := make([]app.ListEntry, len(cur.entries), len(cur.entries)+len(overlay))
	copy(entries, cur.entries)
	for id, e := range overlay {
		if i, ok := cur.pos[id]; ok {
			entries[i] = e
		} else {
			cur.pos[id] = len(entries)
			entries = append(entries, e)
		}
	}
	s.cache[accountID] = &listCache{w: w, entries: entries, pos: cur.pos}
}

// loadEntries decodes the account's whole index bucket.
func loadEntries(ab *bolt.Bucket, w uint64) (*listCache, error) {
	idx := ab.Bucket(bIndex)
	c := &listCache{w: w, pos: map[int64]int{}}
	err := idx.ForEach(func(k, v []byte) error {
		var e app.ListEntry
		if err := decode(v, &e); err != nil {
			return fmt.Errorf("list entry %d: %w", keyID(k), err)
		}
		c.pos[e.ID] = len(c.entries)
		c.entries = append(c.entries, e)
		return nil
	})
	return c, err
}

// listEntries returns every list entry of the account as this transaction
// sees it. The result is shared: callers must not change it.
func (t *tx) listEntries() ([]app.ListEntry, error) {
	if c := t.s.cached(t.id, t.baseW); c != nil {
		if len(t.overlay) == 0 {
			return c.entries, nil
		}
		// A write tx that changed proposals: the cache plus its own writes.
		entries := make([]app.ListEntry, len(c.entries), len(c.entries)+len(t.overlay))
		copy(entries, c.entries)
		seen := make(map[int64]bool, len(t.overlay))
		for i := range entries {
			if e, ok := t.overlay[entries[i].ID]; ok {
				entries[i] = e
				seen[e.ID] = true
			}
		}
		for id, e := range t.overlay {
			if !seen[id] {
				entries = append(entries, e)
			}
		}
		return entries, nil
	}
	c, err := loadEntries(t.ab, t.baseW)
	if err != nil {
		return nil, err
	}
	if len(t.overlay) == 0 {
		// What this tx reads is what was committed at baseW.
		t.s.install(t.id, c)
	}
	return c.entries, nil
}

// List answers a list query with app.ListQuery.Select's semantics, from
// the list entries (never decoding proposals), then reads only the page's
// rows.
func (t *tx) List(q app.ListQuery) ([]app.ListItem, int, error) {
	entries, err := t.listEntries()
	if err != nil {
		return nil, 0, err
	}
	var matched []*app.ListEntry
	m := q.Matcher()
	for i := range entries {
		if m.Match(&entries[i]) {
			matched = append(matched, &entries[i])
		}
	}
	page := selectPage(&q, matched)
	items := make([]app.ListItem, 0, len(page))
	rows := t.b(bRows)
	for _, e := range page {
		item, err := t.s.decoded.rows.decode(strconv.FormatInt(e.ID, 10), rows.Get(idKey(e.ID)))
		if err != nil {
			return nil, 0, fmt.Errorf("list row %d: %w", e.ID, err)
		}
		items = append(items, item)
	}
	return items, len(matched), nil
}

// selectPage sorts matched by q.Compare and cuts q's page out of it, as
// q.Page does. When the page is near the front of many matches it keeps
// only the first start+size in a heap instead of sorting them all.
func selectPage(q *app.ListQuery, matched []*app.ListEntry) []*app.ListEntry {
	start := (q.PageNumber - 1) * q.PageSize
	if q.PageSize <= 0 || start < 0 || start >= len(matched) {
		return nil
	}
	k := min(start+q.PageSize, len(matched))
	var sorted []*app.ListEntry
	// Name sorts lower-case each key once in sortEntries, which beats the
	// heap's lower-casing at every comparison.
	byName := q.SortBy == app.SortName || q.SortBy == app.SortClientName
	if k*4 < len(matched) && !byName {
		h := &topK{q: q}
		for _, e := range matched {
			if h.Len() < k {
				heap.Push(h, e)
			} else if q.Compare(e, h.s[0]) < 0 {
				h.s[0] = e
				heap.Fix(h, 0)
			}
		}
		sorted = make([]*app.ListEntry, h.Len())
		for i := len(sorted) - 1; i >= 0; i-- {
			sorted[i] = heap.Pop(h).(*app.ListEntry)
		}
	} else {
		sorted = matched
		sortEntries(q, sorted)
	}
	return sorted[start:k]
}

// topK is a max-heap by q.Compare: its root is the last of the k first.
type topK struct {
	q *app.ListQuery
	s []*app.ListEntry
}

func (h *topK) Len() int           { return len(h.s) }
func (h *topK) Less(i, j int) bool { return h.q.Compare(h.s[i], h.s[j]) > 0 }
func (h *topK) Swap(i, j int)      { h.s[i], h.s[j] = h.s[j], h.s[i] }
func (h *topK) Push(x any)         { h.s = append(h.s, x.(*app.ListEntry)) }
func (h *topK) Pop() any {
	x := h.s[len(h.s)-1]
	h.s = h.s[:len(h.s)-1]
	return x
}

// sortEntries sorts by q.Compare. Name sorts lower-case each name once
// instead of at every comparison, with q.Compare's order: the lower-cased
// name, then the ID, both reversed when descending. TestListEqualsSelect
// holds it to q.Compare.
func sortEntries(q *app.ListQuery, s []*app.ListEntry) {
	var key func(*app.ListEntry) string
	switch q.SortBy {
	case app.SortName:
		key = func(e *app.ListEntry) string { return e.Name }
	case app.SortClientName:
		key = func(e *app.ListEntry) string { return e.ClientName }
	default:
		slices.SortFunc(s, func(a, b *app.ListEntry) int { return q.Compare(a, b) })
		return
	}
	type keyed struct {
		k string
		e *app.ListEntry
	}
	ks := make([]keyed, len(s))
	for i, e := range s {
		ks[i] = keyed{strings.ToLower(key(e)), e}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		// Equal keys tie-break on ID, as q.Compare does.
		c := cmp.Or(strings.Compare(a.k, b.k), cmp.Compare(a.e.ID, b.e.ID))
		if q.Descending {
			return -c
		}
		return c
	})
	for i := range ks {
		s[i] = ks[i].e
	}
}
