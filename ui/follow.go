package ui

import (
	"proposaldesk/app"
	"proposaldesk/localstore"
)

// Following what the screen shows across the syncs that replace
// temporary IDs. A sync gives a proposal, area, option or line made on
// this computer the server's ID while its widgets (and the closures
// behind them) still hold the temporary one; the screen is not built
// again while the user types. The view therefore keeps, for every ID it
// was built with, the ID the store now has for the same thing, and
// every edit and lookup asks for that (proposalView.now).

// followIDs pairs each temporary ID before has that after no longer has
// with the ID after has in its place: the same kind of thing, under the
// same (followed) parent, alike in what the user sees, taken in order.
// IDs after has that before had stay as they are.
func followIDs(before, after *app.Proposal) map[int64]int64 {
	out := map[int64]int64{}
	if before == nil || after == nil {
		return out
	}
	if before.ID != after.ID && app.IsTemporaryID(before.ID) {
		out[before.ID] = after.ID
	}
	if !hasTemporaryIDs(before) {
		return out // the common case: nothing made here waits for its ID
	}
	known := map[int64]bool{}
	for _, a := range before.Areas {
		known[a.ID] = true
		for _, o := range a.Options {
			known[o.ID] = true
			for _, it := range o.Items {
				known[it.ID] = true
			}
		}
	}
	// Areas: the name is an area's identity (names are unique in a
	// proposal), so an area is followed only to one of the same name.
	areaPairs := pairUp(before.Areas, after.Areas, known, out,
		func(a *app.Area) int64 { return a.ID },
		func(x, y *app.Area) bool { return x.Name == y.Name })
	for _, ap := range areaPairs {
		optPairs := pairUp(ap[0].Options, ap[1].Options, known, out,
			func(o *app.Option) int64 { return o.ID },
			func(x, y *app.Option) bool {
				return x.Status == y.Status && x.ClientDescription == y.ClientDescription &&
					x.InstallerDescription == y.InstallerDescription
			},
			func(x, y *app.Option) bool { return true })
		for _, op := range optPairs {
			pairUp(op[0].Items, op[1].Items, known, out,
				func(it *app.Item) int64 { return it.ID },
				func(x, y *app.Item) bool {
					return x.ItemType == y.ItemType && x.Name == y.Name && x.ReferencedItemID == y.ReferencedItemID && x.Brand == y.Brand && x.Model == y.Model &&
						followed(out, x.ParentID) == y.ParentID
				},
				func(x, y *app.Item) bool { return x.ItemType == y.ItemType })
		}
	}
	return out
}

// hasTemporaryIDs reports whether p has an area, option or item made on
// this computer and not yet given the server's ID.
func hasTemporaryIDs(p *app.Proposal) bool {
	for _, a := range p.Areas {
		if app.IsTemporaryID(a.ID) {
			return true
		}
		for _, o := range a.Options {
			if app.IsTemporaryID(o.ID) {
				return true
			}
			for _, it := range o.Items {
				if app.IsTemporaryID(it.ID) {
					return true
				}
			}
		}
	}
	return false
}

// followed is id as out follows it.
func followed(out map[int64]int64, id int64) int64 {
	if to, ok := out[id]; ok {
		return to
	}
	return id
}

// pairUp pairs the things of before (one parent's children) with those
// of after: the same ID, or, for a temporary ID after lacks, the first
// new thing of after (an ID before did not know) alike by the first
// test that pairs it, strictest first. It records the new IDs in out
// and returns every pair, for their children.
func pairUp[T any](before, after []T, known map[int64]bool, out map[int64]int64, id func(*T) int64, alike ...func(x, y *T) bool) [][2]*T {
	var pairs [][2]*T
	at := map[int64]*T{}
	var fresh []*T
	for i := range after {
		y := &after[i]
		at[id(y)] = y
		if !known[id(y)] {
			fresh = append(fresh, y)
		}
	}
	var lost []*T
	for i := range before {
		x := &before[i]
		if y, ok := at[id(x)]; ok {
			pairs = append(pairs, [2]*T{x, y})
		} else if app.IsTemporaryID(id(x)) {
			lost = append(lost, x)
		}
	}
	taken := make([]bool, len(fresh))
	for _, same := range alike {
		for _, x := range lost {
			if _, done := out[id(x)]; done {
				continue
			}
			for j, y := range fresh {
				if !taken[j] && same(x, y) {
					taken[j] = true
					out[id(x)] = id(y)
					pairs = append(pairs, [2]*T{x, y})
					break
				}
			}
		}
	}
	return pairs
}

// now is the ID the store has now for what the screen was built with
// under id (the same ID when no sync replaced it).
func (v *proposalView) now(id int64) int64 {
	for range 16 { // a chain: each sync may replace it once
		to, ok := v.alias[id]
		if !ok {
			break
		}
		id = to
	}
	return id
}

// take makes rec the view's record. The IDs a sync replaced since the
// view was last taken are followed: the proposal's own, the rows', the
// options' totals and hints, the removal waiting for its undo.
func (v *proposalView) take(rec *localstore.Record) {
	moved := followIDs(v.p, rec.Local)
	v.rec, v.p = rec, rec.Local
	if len(moved) == 0 {
		return
	}
	if v.alias == nil {
		v.alias = map[int64]int64{}
	}
	c := v.cui()
	for from, to := range moved {
		v.alias[from] = to
		if v.id == from {
			v.id = to
		}
		if v.d.lastNew == from {
			v.d.lastNew = to
		}
		if r := c.rows[from]; r != nil {
			delete(c.rows, from)
			r.id = to
			c.rows[to] = r
		}
		if l := c.optTotal[from]; l != nil {
			delete(c.optTotal, from)
			c.optTotal[to] = l
		}
		if h := c.hints[from]; h != nil {
			delete(c.hints, from)
			c.hints[to] = h
		}
		if r := c.pending; r != nil {
			app.RemapID(r.m, from, to)
			if r.optionID == from {
				r.optionID = to
			}
		}
	}
}
