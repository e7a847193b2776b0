package listindex

import "proposaldesk/app"

// Rebuilding a base takes tens of milliseconds at 10,000 entries (tokens,
// postings, then the trigrams and flag sets of the first page). Done at
// once when the delta passes its bound, it stalled the write that crossed
// it (a bbolt group waits for it) or the reader that caught a replica up;
// left to grow, the delta made every page dearer (each page scans it).
// So once a delta passes its bound, one goroutine per base builds the
// next base from that snapshot, and the first With after it is ready
// takes it, keeping in the delta only what was written after it; only a
// delta twice the bound (the build is late) is rebuilt at once.

// rebuildLater builds a base of sn's entries in the background, once per
// base.
func (sn *Snap) rebuildLater() {
	if !sn.base.rebuilding.CompareAndSwap(false, true) {
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
