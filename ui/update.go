package ui

import (
	"encoding/json"
	"reflect"
	"slices"

	"fyne.io/fyne/v2"

	"proposaldesk/app"
)

// Updating the screen in place. An edit of items (a line added, removed,
// moved or nested, a value a sync changed) changes an option's rows and
// the totals and nothing else the page shows. Building the whole page
// again for it made Fyne measure, lay out and draw every object of the
// page afresh: a structural edit of a 500-item proposal took 130–160 ms
// to its frame. So build first compares what the page shows besides the
// items (pageShape) with what it was built from; while that holds, only
// the options whose items changed get their rows laid out again (the
// rows kept as they were, itemRows), and the totals follow.

// itemSlot is where an option's rows are in the page.
type itemSlot struct {
	box *fyne.Container // the option card's box, holding the rows at at
	at  int
	top fyne.CanvasObject // the area card, one of the page's children
	// items and pending are what the rows were laid out from.
	items   []app.Item
	pending *removal
}

// pageShape is what the page shows besides the items' rows: the
// proposal without its items and without what no widget shows (its
// versions and modification dates), the record's lock and conflicts,
// and the user's role. A page built from another shape is built anew.
func (v *proposalView) pageShape() string {
	p := *v.p
	p.Version, p.FieldVersions = 0, nil
	p.LastModifiedDate, p.LastModifiedByUserDate, p.LastModifiedUser = app.Time{}, app.Time{}, app.PersonName{}
	p.Areas = slices.Clone(p.Areas)
	for i := range p.Areas {
		a := &p.Areas[i]
		a.Options = slices.Clone(a.Options)
		for j := range a.Options {
			a.Options[j].Items, a.Options[j].LastModifiedDate = nil, app.Time{}
		}
	}
	shape := struct {
		P         app.Proposal
		ReadOnly  bool
		Conflicts int
		Role      app.Role
	}{p, v.rec.ReadOnly, len(v.rec.Conflicts), v.d.sess.user.Role}
	b, err := json.Marshal(shape)
	if err != nil {
		return "" // never equal to a page's: built anew
	}
	return string(b)
}

// updateItems lays out again the rows of the options whose items changed
// since the page was built (or last updated) and reports whether the page
// could be updated so: false when the page has another set of options,
// to be built anew.
func (v *proposalView) updateItems(locked func(app.Operation) bool) bool {
	c := v.cui()
	if c.slots == nil || v.page == nil {
		return false
	}
	type change struct {
		o *app.Option
		s *itemSlot
	}
	var changed []change
	n := 0
	for ai := range v.p.Areas {
		for oi := range v.p.Areas[ai].Options {
			o := &v.p.Areas[ai].Options[oi]
			s := c.slots[o.ID]
			if s == nil {
				return false
			}
			n++
			if pending := c.pendingIn(o.ID); pending != s.pending || !v.sameItems(s.items, o.Items) {
				changed = append(changed, change{o, s})
			}
		}
	}
	if n != len(c.slots) {
		return false
	}
	if len(changed) == 0 {
		return true
	}
	// The rows of those options may be kept where they show the same
	// (itemRows); their fields leave the screen's list, and itemRows
	// puts back those of the rows kept.
	c.keep = map[int64]*itemRow{}
	gone := map[*field]bool{}
	for _, ch := range changed {
		for _, it := range ch.s.items {
			id := v.now(it.ID)
			if r := c.rows[id]; r != nil {
				c.keep[id] = r
				delete(c.rows, id)
				for _, f := range r.fields {
					gone[f] = true
				}
			}
			delete(c.lazy, id)
			delete(c.lazy, it.ID)
		}
	}
	v.fields = slices.DeleteFunc(v.fields, func(f *field) bool { return gone[f] })
	page := v.page
	for _, ch := range changed {
		old := ch.s.box.Objects[ch.s.at]
		rows := v.itemRows(ch.o, locked, c.hints[ch.o.ID])
		// Placed where the rows were, at once: the frame lays the card
		// out again only if its size changed.
		rows.Move(old.Position())
		rows.Resize(fyne.NewSize(old.Size().Width, rows.MinSize().Height))
		ch.s.box.Objects[ch.s.at] = rows
		ch.s.items, ch.s.pending = ch.o.Items, c.pendingIn(ch.o.ID)
		if i := slices.Index(page.objs, ch.s.top); i >= 0 {
			page.known[i] = false // measured again, even out of view
		}
	}
	c.keep = nil
	// The page places its children again (those below a grown card move)
	// and tells the boxes what is visible, which builds the rows coming
	// into view; its mark has the frame drawn.
	page.layout(page.Size())
	page.mark.Refresh()
	return true
}

// pendingIn is the removal waiting for its undo in option optionID.
func (c *contentUI) pendingIn(optionID int64) *removal {
	if c.pending != nil && c.pending.optionID == optionID {
		return c.pending
	}
	return nil
}

// sameItems reports whether now are the items was laid out from, with
// the IDs a sync replaced since followed and the dates no row shows
// left out. (Compared as values, every field: a field added to Item
// later is compared too.)
func (v *proposalView) sameItems(was, now []app.Item) bool {
	if len(was) != len(now) {
		return false
	}
	for i := range was {
		a, b := was[i], now[i]
		a.ID, a.ParentID = v.now(a.ID), v.now(a.ParentID)
		a.CreatedDate, a.LastModifiedDate, a.CostUpdateDate = app.Time{}, app.Time{}, app.Time{}
		b.CreatedDate, b.LastModifiedDate, b.CostUpdateDate = app.Time{}, app.Time{}, app.Time{}
		if !reflect.DeepEqual(a, b) {
			return false
		}
	}
	return true
}
