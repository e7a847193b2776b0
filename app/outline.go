package app

// An option's items as people read them: each item that is not nested,
// followed by the items nested under it. The stored order may differ (a
// parent moved by Position leaves its children where they were); the
// desktop lists and reorders by the outline, and OrderEdits brings the
// stored order back in line with what it shows.

// OutlineRow is one item of an option's outline.
type OutlineRow struct {
	// Index is the item's place in Option.Items.
	Index int
	// Depth is 0, or 1 for an item nested under another of the option.
	Depth int
	// First and Last: no item of the same level comes before or after it
	// (the top level, or its parent's children), so MoveInOutline cannot
	// move it up or down.
	First, Last bool
}

// Outline lists an option's items in reading order. An item whose parent
// is not in the option (bad data) counts as not nested.
func Outline(o *Option) []OutlineRow {
	in := make(map[int64]bool, len(o.Items))
	for _, it := range o.Items {
		in[it.ID] = true
	}
	nested := func(it Item) bool { return it.ParentID != 0 && it.ParentID != it.ID && in[it.ParentID] }
	children := map[int64][]int{}
	for j, it := range o.Items {
		if nested(it) {
			children[it.ParentID] = append(children[it.ParentID], j)
		}
	}
	out := make([]OutlineRow, 0, len(o.Items))
	lastTop := -1
	for i, it := range o.Items {
		if nested(it) {
			continue
		}
		lastTop = len(out)
		out = append(out, OutlineRow{Index: i, First: lastTop == 0})
		kids := children[it.ID]
		for k, j := range kids {
			out = append(out, OutlineRow{Index: j, Depth: 1, First: k == 0, Last: k == len(kids)-1})
		}
	}
	if lastTop >= 0 {
		out[lastTop].Last = true
	}
	return out
}

// OutlineIDs are the item IDs of an option in outline order.
func OutlineIDs(o *Option) []int64 {
	rows := Outline(o)
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = o.Items[r.Index].ID
	}
	return ids
}

// MoveInOutline is the option's outline order after moving an item one
// step up (step < 0) or down (step > 0) past its neighbour of the same
// depth: a top-level item moves with the items nested under it past the
// previous or next top-level item and its children; a nested item moves
// among its parent's children. ok is false at the edge or when the item
// is not in the option.
func MoveInOutline(o *Option, itemID int64, step int) (order []int64, ok bool) {
	rows := Outline(o)
	// Groups of the outline at the item's level.
	type group struct{ ids []int64 }
	var groups []group
	at := -1
	parentOf := func(r OutlineRow) int64 {
		if r.Depth == 0 {
			return 0
		}
		return o.Items[r.Index].ParentID
	}
	var level int64 = -1 // the parent whose children move; 0 for top level
	for _, r := range rows {
		if o.Items[r.Index].ID == itemID {
			level = parentOf(r)
		}
	}
	if level < 0 {
		return nil, false
	}
	var prefix, suffix []int64 // what lies outside the moving level
	for _, r := range rows {
		id := o.Items[r.Index].ID
		switch {
		case level == 0 && r.Depth == 0, level != 0 && parentOf(r) == level:
			if id == itemID {
				at = len(groups)
			}
			groups = append(groups, group{ids: []int64{id}})
		case level == 0:
			// A nested item travels with its top-level parent.
			g := &groups[len(groups)-1]
			g.ids = append(g.ids, id)
		case len(groups) == 0:
			prefix = append(prefix, id)
		default:
			suffix = append(suffix, id)
		}
	}
	next := at + 1
	if step < 0 {
		next = at - 1
	}
	if next < 0 || next >= len(groups) {
		return nil, false
	}
	groups[at], groups[next] = groups[next], groups[at]
	order = append(order, prefix...)
	for _, g := range groups {
		order = append(order, g.ids...)
	}
	return append(order, suffix...), true
}

// OrderEdits are the ChangeItem edits (Position only) that put the
// option's items in the given order, fewest first-to-last: applied in
// turn to proposal proposalID, they leave o.Items in that order. IDs of
// order not in the option are skipped; items of the option not in order
// keep their relative place after those that are.
func OrderEdits(proposalID int64, o *Option, order []int64) []*ChangeItem {
	cur := make([]int64, len(o.Items))
	for i, it := range o.Items {
		cur[i] = it.ID
	}
	var out []*ChangeItem
	pos := 0
	for _, id := range order {
		i := idIndex(cur, id)
		if i < 0 {
			continue
		}
		if i != pos {
			p := int64(pos)
			out = append(out, &ChangeItem{ID: proposalID, ItemID: id, Position: &p})
			cur = append(cur[:i], cur[i+1:]...)
			cur = append(cur[:pos], append([]int64{id}, cur[pos:]...)...)
		}
		pos++
	}
	return out
}

func idIndex(ids []int64, id int64) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}
