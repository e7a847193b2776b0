package ui

import (
	"proposaldesk/app"
	"proposaldesk/localstore"
)

// Following what the screen shows across the syncs that replace
// temporary IDs. A sync gives a proposal, area, option or line made on
// this computer the server's ID while its widgets (and the closures
// behind them) still hold the temporary one; the screen is not built
// again while the user types. The store remembers every ID it replaced
// (localstore's alias table), so the view asks it, for the temporary
// IDs it was built with, which real ID each has now, and every edit and
// lookup asks for that (proposalView.now). Nothing is guessed from what
// the things look like.

// tempIDs are p's own ID and those of its areas, options and items made
// on this computer and not yet given the server's ID.
func tempIDs(p *app.Proposal) []int64 {
	if p == nil {
		return nil
	}
	var out []int64
	add := func(id int64) {
		if app.IsTemporaryID(id) {
			out = append(out, id)
		}
	}
	add(p.ID)
	for _, a := range p.Areas {
		add(a.ID)
		for _, o := range a.Options {
			add(o.ID)
			for _, it := range o.Items {
				add(it.ID)
			}
		}
	}
	return out
}

// followIDs are the temporary IDs of before, and of also, that the store
// has replaced since, each with its real ID.
func followIDs(st *localstore.Store, before *app.Proposal, also ...int64) map[int64]int64 {
	ids := tempIDs(before)
	for _, id := range also {
		if app.IsTemporaryID(id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil // the common case: nothing made here waits for its ID
	}
	return st.Resolved(ids)
}

// now is the ID the store has now for what the screen was built with
// under id (the same ID when no sync replaced it).
func (v *proposalView) now(id int64) int64 {
	if to, ok := v.alias[id]; ok { // temporary → real: never replaced again
		return to
	}
	return id
}

// take makes rec the view's record. The IDs a sync replaced since the
// view was last taken are followed: the proposal's own, the rows', the
// options' totals and hints, the removal waiting for its undo.
func (v *proposalView) take(rec *localstore.Record) {
	c := v.cui()
	// The removal waiting for its undo is no longer in the view: its IDs
	// are followed beside the view's.
	var waiting []int64
	if r := c.pending; r != nil {
		waiting = append(app.RefIDs(r.m), r.optionID)
	}
	moved := followIDs(v.d.sess.st, v.p, waiting...)
	v.rec, v.p = rec, rec.Local
	if len(moved) == 0 {
		return
	}
	if v.alias == nil {
		v.alias = map[int64]int64{}
	}
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
		if l := c.cols[from]; l != nil {
			delete(c.cols, from)
			c.cols[to] = l
		}
		if h := c.hints[from]; h != nil {
			delete(c.hints, from)
			c.hints[to] = h
		}
		if s := c.slots[from]; s != nil {
			delete(c.slots, from)
			c.slots[to] = s
		}
		if r := c.pending; r != nil {
			app.RemapID(r.m, from, to)
			if r.optionID == from {
				r.optionID = to
			}
		}
	}
}
