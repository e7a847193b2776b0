package listindex

import (
	"math"

	"proposaldesk/app"
)

// Rebuilding a base takes tens of milliseconds at 10,000 entries (tokens,
// postings, then the trigrams and flag sets of the first page). Done at
// once when the delta passes its bound, it stalled the write that crossed
// it (a bbolt group waits for it) or the reader that caught a replica up;
// left to grow, the delta made every page dearer (each page scans it).
// So once a delta passes its bound, one goroutine per base builds the
// next base from that snapshot, and the first With after it is ready
// takes it, keeping in the delta only what was written after it; only a
// delta twice the bound (the build is late) is rebuilt at once. Reads
// start a build too, once the deltas they merged cost as much as one,
// and take it themselves (settled), so a delta left by a burst of writes
// is not paid for by every page until the next write.

// Private is the version of a snapshot never published: a write's view
// of the index it began with plus its group's writes, before a commit
// that may yet roll back.
const Private = 0

// rebuildLater builds a base of sn's entries in the background, once per
// base; never from a Private snapshot, whose entries may not be kept.
func (sn *Snap) rebuildLater() {
	if sn.w == Private || !sn.base.rebuilding.CompareAndSwap(false, true) {
		return
	}
	go func() {
		r := New(sn.entries(), sn.w)
		// What the first page over it would build, built here instead.
		r.base.trigrams()
		r.base.flagSets()
		r.base.order(sortIndex(&app.ListQuery{}))
		sn.base.rebuilt.Store(r)
	}()
}

// rebasedOn is sn over r, a base rebuilt from a snapshot at a version
// between sn's base and sn: r holds every entry as of its version, so
// only the entries written after it stay in the delta.
func (sn *Snap) rebasedOn(r *Snap, deltaMax int) *Snap {
	delta := make(map[int64]written)
	var gone bitset
	for id, d := range sn.delta.All() {
		if d.w <= r.w {
			continue
		}
		delta[id] = d
		if slot, ok := r.base.pos[id]; ok {
			if gone == nil {
				gone = newBitset(len(r.base.entries))
			}
			gone.set(slot)
		}
	}
	next := &Snap{w: sn.w, base: r.base, delta: NewLayered(delta), gone: gone}
	if len(delta)/2 > deltaMax { // written so that deltaMax may be math.MaxInt
		return New(next.entries(), sn.w)
	}
	return next
}

// rebuildWeight is what rebuilding a base costs per entry, in units of
// what a query pays per delta entry it merges (BenchmarkQueryWithDelta:
// a rebuild of 10,000 entries 7.5 ms, 750 ns an entry; a page over 1,024
// delta entries 10.7 µs dearer, 10 ns an entry).
const rebuildWeight = 64

// settled is sn as a query should read it: over the newest base rebuilt
// from a version at or before sn's, so that only what was written since
// stays in the delta. Writes move their snapshots to a rebuilt base
// (With), but after a burst of writes the last snapshot kept its delta,
// up to an eighth of the entries, and every page paid for merging it
// until the next write (list pages lost a quarter of their rate). So
// queries count what their delta costs them, have the base rebuilt once
// that sum passes a rebuild's cost, and take the rebuilt base when it is
// ready; the snapshot remembers the result.
func (sn *Snap) settled() *Snap {
	for sn.delta.Len() > 0 {
		if s := sn.rebased.Load(); s != nil {
			sn = s
			continue
		}
		r := sn.base.rebuilt.Load()
		if r == nil || r.w > sn.w {
			// Not built, or built past sn (which must not see those
			// writes): read sn as it is.
			budget := rebuildWeight * int64(len(sn.base.entries)+sn.delta.Len())
			if sn.base.readTax.Add(int64(sn.delta.Len())) > budget {
				sn.rebuildLater()
			}
			return sn
		}
		sn.rebased.CompareAndSwap(nil, sn.rebasedOn(r, math.MaxInt))
	}
	return sn
}
