package listindex

import (
	"cmp"
	"container/heap"
	"slices"
	"strings"

	"proposaldesk/app"
)

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
