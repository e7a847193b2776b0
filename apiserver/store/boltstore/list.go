package boltstore

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store/decodecache"
	"proposaldesk/app"
)

// keepSnaps is how many recent versions of an account's list index are
// kept, so a reader whose transaction began just before a commit still
// finds the version it sees.
const keepSnaps = 8

// snapAt returns the account's list index at version w, if held.
func (s *Store) snapAt(accountID int64, w uint64) *listSnap {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sn := range s.snaps[accountID] {
		if sn.w == w {
			return sn
		}
	}
	return nil
}

// addSnap publishes a version of the account's list index; versions older
// than the newest held are not kept.
func (s *Store) addSnap(accountID int64, sn *listSnap) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.snaps[accountID]
	if n := len(l); n > 0 && l[n-1].w >= sn.w {
		return
	}
	l = append(l, sn)
	if len(l) > keepSnaps {
		l = slices.Delete(l, 0, len(l)-keepSnaps)
	}
	s.snaps[accountID] = l
}

// dropSnap forgets version w of the account's index: its commit failed,
// and bbolt gives the next write transaction the same ID.
func (s *Store) dropSnap(accountID int64, w uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snaps[accountID] = slices.DeleteFunc(s.snaps[accountID], func(sn *listSnap) bool { return sn.w == w })
}

// deltaMax is how many changed entries a snapshot holds beside its base
// before the base is rebuilt: an eighth of the entries, so rebuilding
// costs a constant per write.
func (s *Store) deltaMax(sn *listSnap) int {
	return max(s.cfg.deltaMin, len(sn.base.entries)/8)
}

// loadBase decodes the account's whole index bucket.
func loadBase(ab *bolt.Bucket) (*baseIndex, error) {
	var entries []app.ListEntry
	err := ab.Bucket(bIndex).ForEach(func(k, v []byte) error {
		var e app.ListEntry
		if err := decode(v, &e); err != nil {
			return fmt.Errorf("list entry %d: %w", keyID(k), err)
		}
		entries = append(entries, e)
		return nil
	})
	return newBase(entries), err
}

// listSnap returns the account's list index as this transaction sees it.
func (t *tx) listSnap() (*listSnap, error) {
	if ov := t.g.overlayOf(t.id); ov != nil {
		// A write that changed proposals: the index it began with plus
		// the group's writes; never published.
		if sn := t.s.snapAt(t.id, ov.base); sn != nil {
			return sn.with(ov.entries, 0, math.MaxInt), nil
		}
		base, err := loadBase(t.ab)
		return &listSnap{base: base}, err
	}
	if sn := t.s.snapAt(t.id, t.baseW); sn != nil {
		return sn, nil
	}
	if t.btx.Writable() {
		base, err := loadBase(t.ab)
		return &listSnap{w: t.baseW, base: base}, err
	}
	return t.s.loadSnap(t.id, t.baseW, t.ab)
}

// loadSnap builds and publishes the account's index at version w from
// ab. Concurrent readers of one version wait for one build instead of
// each decoding every entry (32 clients at a cold start took seconds).
func (s *Store) loadSnap(accountID int64, w uint64, ab *bolt.Bucket) (*listSnap, error) {
	key := snapKey{accountID, w}
	s.mu.Lock()
	l, ok := s.loading[key]
	if !ok {
		l = &snapLoad{done: make(chan struct{})}
		s.loading[key] = l
	}
	s.mu.Unlock()
	if ok {
		<-l.done
		return l.sn, l.err
	}
	defer func() {
		if l.sn == nil && l.err == nil { // loadBase panicked
			l.err = fmt.Errorf("list index of account %d: build failed", accountID)
		}
		s.mu.Lock()
		delete(s.loading, key)
		s.mu.Unlock()
		close(l.done)
	}()
	base, err := loadBase(ab)
	if err != nil {
		l.err = err
		return nil, err
	}
	l.sn = &listSnap{w: w, base: base}
	s.addSnap(accountID, l.sn)
	return l.sn, nil
}

// snapKey names one version of an account's index.
type snapKey struct {
	account int64
	w       uint64
}

// snapLoad is a build of one version in progress.
type snapLoad struct {
	done chan struct{}
	sn   *listSnap
	err  error
}

// List answers a list query with app.ListQuery.Select's semantics from the
// list index (never decoding proposals), then reads only the page's rows.
func (t *tx) List(q app.ListQuery) ([]app.ListItem, int, error) {
	return listRows(t, q, t.s.decoded.rows)
}

// ListJSON is List with the rows encoded, each encoded once per version.
func (t *tx) ListJSON(q app.ListQuery) ([][]byte, int, error) {
	rows, count, err := listRows(t, q, t.s.decoded.rowJSON)
	out := make([][]byte, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out, count, err
}

// listRows answers q and reads the page's rows through cache.
func listRows[T any](t *tx, q app.ListQuery, cache *decodecache.Cache[T]) ([]T, int, error) {
	sn, err := t.listSnap()
	if err != nil {
		return nil, 0, err
	}
	page, count := sn.query(&q)
	items := make([]T, 0, len(page))
	rows := t.b(bRows)
	for _, e := range page {
		item, err := cache.Decode(strconv.FormatInt(e.ID, 10), rows.Get(idKey(e.ID)))
		if err != nil {
			return nil, 0, fmt.Errorf("list row %d: %w", e.ID, err)
		}
		items = append(items, item)
	}
	return items, count, nil
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
