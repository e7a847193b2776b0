package ui

import (
	"context"
	"fmt"
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// An option's items, editable in place: name, quantity, sell price and
// (for roles that see costs) cost, each saved like every field and
// previewed in the totals while typed; nested items indented under
// their parent; move up and down, nest, move to another option, remove
// with an undo.

// The columns of an item row's fields.
const (
	colName = iota
	colQuantity
	colSell
	colCost
)

// itemParams are the ChangeItem params the columns write.
var itemParams = []string{"Name", "Quantity", "SellPrice", "Cost"}

// undoFor is how long a removed item can be brought back before the
// removal is saved.
var undoFor = 8 * time.Second

// itemRow is one item's row.
type itemRow struct {
	// id is the item's ID now: a sync that gives a new line the
	// server's ID changes it (proposalView.take), and everything the
	// row does reads it at the time.
	id     int64
	fields []*field // by column; no cost for roles that do not see costs
	total  *widget.Label
	cells  *fyne.Container // the row's columns, laid out by its option's
	more   *tipButton
	remove *tipButton
	// obj is the row as laid out, and key what it was built from
	// (rowKey): a screen built again keeps the row while its key holds.
	obj fyne.CanvasObject
	key string
}

// removal is an item taken off the screen and the totals, kept from the
// store for undoFor so that Undo brings it back exactly as it was. It is
// saved when the time is up, or before any other edit, or when the
// proposal is left (proposalView.flush).
type removal struct {
	m        *app.RemoveItem
	optionID int64
	at       int // the removed item's place in its option's outline
	text     string
	undo     *tipButton
	strip    fyne.CanvasObject
}

// itemRows lays out an option's items in outline order, with the undo
// strip where a removed item was.
func (v *proposalView) itemRows(o *app.Option, locked func(app.Operation) bool, hint *hintLine) fyne.CanvasObject {
	costs := v.d.sess.user.Role.ViewOptions().ViewCosts
	weights, head := []float32{0.40, 0.13, 0.16, 0.15, 0.16}, []string{"Item", "Qty", "Sell", "Cost", "Total"}
	if !costs {
		weights, head = []float32{0.46, 0.15, 0.19, 0.20}, []string{"Item", "Qty", "Sell", "Total"}
	}
	pending := v.cui().pending
	if pending != nil && pending.optionID != o.ID {
		pending = nil
	}
	outline := app.Outline(o)
	c := v.cui()
	if len(outline) == 0 && pending == nil {
		l := widget.NewLabel("No items yet.")
		l.Importance = widget.LowImportance
		return l
	}
	// The header lines up with the rows: the same columns, and room for
	// the row's buttons.
	spacer := canvas.NewRectangle(color.Transparent)
	spacer.SetMinSize(fyne.NewSize(rowActionsWidth(), 1))
	// One layout for the header and every row of the option, so that
	// they line up: the total column as wide as the widest total needs.
	totals := lineTotals(o.Items, v.p.Currency)
	cols := &columns{weights: weights, mins: make([]float32, len(weights))}
	cols.mins[len(weights)-1] = moneyWidth(totals)
	c.cols[o.ID] = cols
	heads := container.New(cols)
	cols.head = heads
	for i, t := range head {
		align := fyne.TextAlignTrailing
		if i == 0 {
			align = fyne.TextAlignLeading
		}
		heads.Add(widget.NewLabelWithStyle(t, align, fyne.TextStyle{Bold: true}))
	}
	rows := []fyne.CanvasObject{container.NewBorder(nil, nil, nil, spacer, heads)}
	// The rows are of one size (kind 1): one measured stands for all
	// until they come into view. A row the screen before had, built
	// from the same values, is kept as it was (its fields, their focus
	// and caret); the others are built when they come near the view.
	kind := []int{0}
	ro := locked(app.OpChangeItem)
	type later struct {
		it    app.Item
		depth int
		total string
	}
	todo, at := map[int]later{}, map[int64]int{}
	for i, r := range outline {
		if pending != nil && pending.at == i {
			rows, kind = append(rows, v.undoStrip(pending, hint)), append(kind, 0)
		}
		it := o.Items[r.Index]
		key := rowKey(o.ID, &it, r.Depth, ro, costs)
		if kept := c.keep[it.ID]; kept != nil && kept.key == key {
			delete(c.keep, it.ID) // one row, one place
			c.rows[it.ID] = kept
			kept.cells.Layout = cols
			v.fields = append(v.fields, kept.fields...)
			if err := kept.refill(&it, totals[r.Index]); err != nil {
				hint.setError(err) // the refused text is still there to fix
			}
			rows, kind = append(rows, kept.obj), append(kind, 1)
			continue
		}
		todo[len(rows)], at[it.ID] = later{it, r.Depth, totals[r.Index]}, len(rows)
		rows, kind = append(rows, nil), append(kind, 1)
	}
	if pending != nil && pending.at >= len(outline) {
		rows, kind = append(rows, v.undoStrip(pending, hint)), append(kind, 0)
	}
	box := newLazyCullBox(rows, kind, func(i int) fyne.CanvasObject {
		l := todo[i]
		it, total := l.it, l.total
		// What the view holds now (a sync may have landed while the
		// user typed elsewhere), if the item is still in this option.
		if now, place, ok := v.p.Item(v.now(it.ID)); ok && place.Option.ID == v.now(o.ID) {
			it, total = *now, lineTotals(place.Option.Items, v.p.Currency)[place.Index]
		}
		return v.itemRow(&it, l.depth, total, ro, costs, cols, hint, rowKey(o.ID, &it, l.depth, ro, costs))
	})
	for id, i := range at {
		c.lazy[id] = lazyRow{box: box, at: i}
	}
	return box // shown by the page's pass
}

// lazyRow is where an item's row will be built (rowFor).
type lazyRow struct {
	box *cullBox
	at  int
}

// rowFor is item id's row, built if it was not yet (to focus it, say);
// nil when the screen has no row for it.
func (v *proposalView) rowFor(id int64) *itemRow {
	c := v.cui()
	if r := c.rows[id]; r != nil {
		return r
	}
	l, ok := c.lazy[id]
	if !ok {
		for from, to := range v.alias { // built with the ID a sync replaced
			if to == id {
				if l, ok = c.lazy[from]; ok {
					break
				}
			}
		}
	}
	if !ok || l.box == nil {
		return nil
	}
	l.box.child(l.at)
	return c.rows[id]
}

// rowKey is how an item's row is made: a row of the same key shows the
// item's values in place of the ones it had (refill); another key needs
// a row built anew (the nesting's or kind's tag, another option's hint
// line, the columns, read-only). The item's own ID is not in it: rows
// are kept by ID, which a sync may have replaced since (the row follows,
// proposalView.take).
func rowKey(optionID int64, it *app.Item, depth int, ro, costs bool) string {
	return fmt.Sprintf("%d|%d|%q|%q|%s|%t|%d|%t|%t|%t", optionID, it.ParentID, it.Brand, it.Model,
		it.ItemType, it.IsRecurringService, depth, ro, costs, it.Cost == nil)
}

// itemTexts are the texts of an item's fields, by column.
func itemTexts(it *app.Item) []string {
	texts := []string{it.Name, it.Quantity.String(), it.SellPrice.String(), ""}
	if it.Cost != nil {
		texts[colCost] = it.Cost.String()
	}
	return texts
}

// refill shows the item's values in a row kept from the screen before:
// a field shows a value saved since as follow does (focus and caret
// kept); a field with typing not saved yet keeps it, and its refusal,
// which refill returns. (A screen built anew had no refusal left but
// those of typing still there; a field typed back to its saved value
// has none.)
func (r *itemRow) refill(it *app.Item, total string) error {
	var refused error
	for col, text := range itemTexts(it)[:len(r.fields)] {
		f := r.fields[col]
		if !f.dirty() {
			f.err = nil
		} else if f.err != nil {
			refused = f.err
		}
		if text == f.saved || f.dirty() {
			continue
		}
		col := f.CursorColumn
		f.load(text)
		f.CursorRow, f.CursorColumn = 0, min(col, len([]rune(text)))
		f.Refresh()
	}
	if r.total.Text != total {
		r.total.SetText(total)
	}
	return refused
}

func rowActionsWidth() float32 {
	return widget.NewButton("⋯", nil).MinSize().Width + widget.NewButton("✕", nil).MinSize().Width + theme.Padding()
}

// itemRow is one item: a tag (nesting, kind, brand and model), its
// fields, its total and its buttons.
func (v *proposalView) itemRow(it *app.Item, depth int, total string, ro, costs bool, cols *columns, hint *hintLine, key string) fyne.CanvasObject {
	c := v.cui()
	c.built++
	row := &itemRow{id: v.now(it.ID), key: key}
	c.rows[row.id] = row
	texts := itemTexts(it)
	n := colSell + 1
	if costs {
		n = colCost + 1
	}
	for col := range n {
		param := itemParams[col]
		f := v.figureField(texts[col], ro, hint, func(text string) (app.Mutation, error) {
			m := &app.ChangeItem{ID: v.id, ItemID: row.id}
			return m, setParam(m, param, text)
		}, func(s fyne.Shortcut) bool { return v.itemKey(row.id, col, s) })
		f.cell = true
		row.fields = append(row.fields, f)
	}
	// Placeholders set before the fields are drawn (SetPlaceHolder lays
	// the text out at once, for rows that may never be drawn).
	row.fields[colName].PlaceHolder = strings.TrimSpace(it.Brand + " " + it.Model)
	if costs && it.Cost == nil {
		row.fields[colCost].PlaceHolder = "—"
	}
	nameCell := fyne.CanvasObject(row.fields[colName])
	if t := itemTag(*it, depth); t != "" {
		tag := widget.NewLabel(t)
		tag.Importance = widget.LowImportance
		// The tag takes the few letters it needs and the name the rest
		// (a fixed share left a narrow pane "Cust…").
		nameCell = container.NewBorder(nil, nil, tag, nil, row.fields[colName])
	}
	v.showNameOnFocus(row, hint)
	row.total = widget.NewLabelWithStyle(total, fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true})
	cells := container.New(cols, nameCell)
	row.cells = cells
	for _, f := range row.fields[1:] {
		cells.Add(f)
	}
	cells.Add(row.total)

	// Two buttons a row, text rather than icons (an icon's SVG is parsed
	// for every button: a quarter of the time to build 500 rows). ⋯
	// holds the moves, whose keys are Alt+↑ / Alt+↓.
	row.more = newTipButton("⋯", nil,
		"Move up or down (Alt+↑ / Alt+↓ in its fields), nest under the item above, un-nest, recurring or one-time, move to another option", hint, nil)
	row.more.OnTapped = func() { v.showItemMenu(row.id, row.more) }
	row.remove = newTipButton("✕", nil, "Remove (Ctrl+Delete in its fields; Undo or Ctrl+Z brings it back)", hint,
		func() { v.removeItem(row.id) })
	// Drawn as text until hovered, as the cells are (ui/cell.go).
	row.more.Importance, row.remove.Importance = widget.LowImportance, widget.LowImportance
	if ro {
		row.more.Disable()
		row.remove.Disable()
	}
	row.obj = ruled(container.NewBorder(nil, nil, nil, container.NewHBox(row.more, row.remove), cells))
	return row.obj
}

// itemTag is what the row says beside an item's name: "└" when nested,
// its kind unless a part, ↻ when recurring. (Brand and model show in
// the name's place when it has none.)
func itemTag(it app.Item, depth int) string {
	var parts []string
	if depth > 0 {
		parts = append(parts, "  └")
	}
	switch it.ItemType {
	case app.ItemLabor, app.ItemFee:
		parts = append(parts, string(it.ItemType))
	case app.ItemCustomItem:
		parts = append(parts, "Custom")
	}
	if it.IsRecurringService {
		parts = append(parts, "↻")
	}
	return strings.Join(parts, " ")
}

// itemName is how menus and the undo strip name an item.
func itemName(it *app.Item) string {
	for _, s := range []string{it.Name, strings.TrimSpace(it.Brand + " " + it.Model)} {
		if s != "" {
			return "“" + s + "”"
		}
	}
	return "the " + strings.ToLower(it.ItemType.Label()) + " line"
}

// figureField is a field whose text makes an edit (mk). It saves like
// every field (after a pause, on Enter, on leaving it); while typing, the
// totals show what the value would give (app.Apply on the local view).
// A refused value shows in hint and stays in the field to be fixed.
func (v *proposalView) figureField(text string, readOnly bool, hint *hintLine, mk func(string) (app.Mutation, error), keys func(fyne.Shortcut) bool) *field {
	f := v.textField(0, text, readOnly, func(text string) error {
		m, err := mk(text)
		if err == nil {
			err = v.edit(m)
		}
		if err == nil {
			v.showTotals(v.p)
		}
		return err
	})
	f.onError = v.lineError(hint)
	f.keys = keys
	f.tidy = func(text string) string {
		m, err := mk(text)
		if err != nil {
			return text
		}
		return figureText(m, text)
	}
	f.OnSubmitted = func(string) {
		f.flush()
		f.showTidy()
	}
	saveLater := f.OnChanged
	f.OnChanged = func(s string) {
		saveLater(s)
		if f.loading {
			return
		}
		m, err := mk(s)
		var next *app.Proposal
		if err == nil {
			next, err = app.Apply(v.p, m, v.env())
		}
		hint.setError(err)
		if err == nil {
			v.showTotals(next)
		}
	}
	return f
}

// lineError shows a field's refusal (nil: its save went through) in its
// hint line, and in the proposal's indicator, which counts every field's.
func (v *proposalView) lineError(h *hintLine) func(error) {
	return func(err error) {
		h.setError(err)
		v.showSaved()
	}
}

// showTotals shows p's figures in the rows, the options' totals and the
// summary (p is the local view, or a preview of a value being typed).
func (v *proposalView) showTotals(p *app.Proposal) {
	c := v.cui()
	for ai := range p.Areas {
		for oi := range p.Areas[ai].Options {
			o := &p.Areas[ai].Options[oi]
			if l := c.optTotal[o.ID]; l != nil {
				showOptionTotal(l, o, p.Currency)
			}
			totals := lineTotals(o.Items, p.Currency)
			// A total grown past its column (a quantity typed) widens
			// the column for the whole option.
			grown := false
			if cols := c.cols[o.ID]; cols != nil {
				grown = cols.growMin(len(cols.weights)-1, moneyWidth(totals))
				if grown && cols.head != nil {
					cols.head.Refresh()
				}
			}
			for i, text := range totals {
				if r := c.rows[o.Items[i].ID]; r != nil {
					if r.total.Text != text {
						r.total.SetText(text) // only what changed: a refresh is not free
					}
					if grown {
						r.cells.Refresh()
					}
				}
			}
		}
	}
	v.showSummary(p)
}

// itemKey: Ctrl+Delete removes the item, Alt+↑ / Alt+↓ move it.
func (v *proposalView) itemKey(id int64, col int, s fyne.Shortcut) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	if !ok {
		return false
	}
	switch {
	case cs.KeyName == fyne.KeyDelete && cs.Modifier == fyne.KeyModifierShortcutDefault:
		v.removeItem(id)
	case cs.KeyName == fyne.KeyUp && cs.Modifier == fyne.KeyModifierAlt:
		v.moveItem(id, -1, col)
	case cs.KeyName == fyne.KeyDown && cs.Modifier == fyne.KeyModifierAlt:
		v.moveItem(id, 1, col)
	default:
		return false
	}
	return true
}

// focusItem puts the cursor in an item's field (col), selecting its text
// if asked.
func (v *proposalView) focusItem(id int64, col int, selectAll bool) {
	r := v.rowFor(id)
	if r == nil || col < 0 || col >= len(r.fields) || r.fields[col].Disabled() {
		return
	}
	v.focus(r.fields[col])
	if selectAll {
		r.fields[col].TypedShortcut(&fyne.ShortcutSelectAll{})
	}
}

// moveItem moves an item a step in its option's outline (with the items
// nested under it), keeping the cursor in column col.
func (v *proposalView) moveItem(id int64, step, col int) {
	v.flush()
	_, place, ok := v.p.Item(id)
	if !ok {
		return
	}
	order, ok := app.MoveInOutline(place.Option, id, step)
	if !ok {
		return
	}
	var ms []app.Mutation
	for _, m := range app.OrderEdits(v.id, place.Option, order) {
		ms = append(ms, m)
	}
	if v.applyEdits(v.cui().hints[place.Option.ID], ms...) {
		v.focusItem(id, col, false)
	}
}

// showItemMenu shows the item's menu under its ⋯ button; entries app
// would refuse are disabled.
func (v *proposalView) showItemMenu(id int64, at fyne.CanvasObject) {
	v.flush()
	it, place, ok := v.p.Item(id)
	if !ok {
		return
	}
	o := place.Option
	hint := v.cui().hints[o.ID]
	item := func(label string, ms ...app.Mutation) *fyne.MenuItem {
		mi := fyne.NewMenuItem(label, func() { v.applyEdits(hint, ms...) })
		mi.Disabled = len(ms) == 0 || v.check(ms[0]) != nil
		return mi
	}
	var items []*fyne.MenuItem
	for _, s := range []struct {
		label string
		step  int
	}{{"Move up (Alt+↑)", -1}, {"Move down (Alt+↓)", 1}} {
		step := s.step
		mi := fyne.NewMenuItem(s.label, func() { v.moveItem(id, step, -1) })
		_, can := app.MoveInOutline(o, id, step)
		mi.Disabled = !can
		items = append(items, mi)
	}
	zero := int64(0)
	if it.ParentID != 0 {
		items = append(items, item("Un-nest", &app.ChangeItem{ID: v.id, ItemID: id, ParentID: &zero}))
	} else if above, ok := topItemAbove(o, id); ok {
		items = append(items, item("Nest under "+itemName(above), &app.ChangeItem{ID: v.id, ItemID: id, ParentID: &above.ID}))
	} else {
		items = append(items, item("Nest under the item above"))
	}
	recurring := !it.IsRecurringService
	rec := item(recurringMenuLabel, &app.ChangeItem{ID: v.id, ItemID: id, IsRecurringService: &recurring})
	rec.Checked = it.IsRecurringService
	items = append(items, fyne.NewMenuItemSeparator(), rec, fyne.NewMenuItemSeparator())
	for _, a := range v.p.Areas {
		for oi, other := range a.Options {
			if other.ID == o.ID {
				continue
			}
			target := other.ID
			m := &app.ChangeItem{ID: v.id, ItemID: id, OptionID: &target}
			if it.ParentID != 0 {
				m.ParentID = &zero // its parent stays behind
			}
			items = append(items, item(fmt.Sprintf("Move to %s · Option %d", a.Name, oi+1), m))
		}
	}
	items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Remove (Ctrl+Delete)", func() { v.removeItem(id) }))
	menu := fyne.NewMenu("", items...)
	v.cui().lastMenu = menu
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(at)
	widget.ShowPopUpMenuAtPosition(menu, v.d.win.Canvas(), pos.Add(fyne.NewPos(0, at.Size().Height)))
}

// topItemAbove is the nearest item above id in the outline that is not
// nested.
func topItemAbove(o *app.Option, id int64) (*app.Item, bool) {
	var above *app.Item
	for _, r := range app.Outline(o) {
		it := &o.Items[r.Index]
		if it.ID == id {
			return above, above != nil
		}
		if r.Depth == 0 {
			above = it
		}
	}
	return nil, false
}

// removeItem takes an item (and those nested under it) off the screen
// and the totals at once, with Undo in its place; the removal is saved
// when Undo is no longer offered.
func (v *proposalView) removeItem(id int64) {
	v.flush() // saves typing, and an earlier removal
	it, place, ok := v.p.Item(id)
	if !ok {
		return
	}
	c := v.cui()
	m := &app.RemoveItem{ID: v.id, ItemID: id}
	next, err := app.Apply(v.p, m, v.env())
	if err != nil {
		if h := c.hints[place.Option.ID]; h != nil {
			h.setError(err)
		}
		return
	}
	at := 0
	nested := 0
	for i, x := range app.OutlineIDs(place.Option) {
		if x == id {
			at = i
		}
	}
	for _, x := range place.Option.Items {
		if x.ParentID == id {
			nested++
		}
	}
	text := "Removed " + itemName(it)
	if nested > 0 {
		text += " and " + plural(nested, "item nested under it", "items nested under it")
	}
	r := &removal{m: m, optionID: place.Option.ID, at: at, text: text + "."}
	c.pending = r
	v.p = next
	v.build()
	if r.undo != nil {
		v.focus(r.undo)
	}
	time.AfterFunc(undoFor, func() {
		v.d.opts.Do(func() {
			if c.pending == r {
				v.commitRemoval()
			}
		})
	})
}

func (v *proposalView) undoStrip(r *removal, hint *hintLine) fyne.CanvasObject {
	r.undo = newTipButton("Undo", theme.ContentUndoIcon(), "Brings it back (Ctrl+Z)", hint, v.undoRemoval)
	l := widget.NewLabel(r.text)
	l.Truncation = fyne.TextTruncateEllipsis
	r.strip = container.NewBorder(nil, nil, nil, r.undo, l)
	return r.strip
}

// showPending keeps a removal that can still be undone off the screen
// when the view was read again (a sync): it is applied to the view
// again, or dropped if app no longer accepts it.
func (v *proposalView) showPending() {
	c := v.cui()
	r := c.pending
	if r == nil {
		return
	}
	if r.m.ID != v.id {
		c.pending = nil
		return
	}
	if _, _, there := v.p.Item(r.m.ItemID); !there {
		return
	}
	next, err := app.Apply(v.p, r.m, v.env())
	if err != nil {
		c.pending = nil
		return
	}
	v.p = next
}

// commitRemoval saves the removal that could be undone, if any.
func (v *proposalView) commitRemoval() {
	c := v.cui()
	r := c.pending
	if r == nil || v.d.sess == nil {
		return
	}
	c.pending = nil
	if r.strip != nil {
		r.strip.Hide()
	}
	s := v.d.sess
	p, err := s.eng.Edit(context.Background(), r.m.ID, r.m)
	if err != nil {
		v.showError(err)
		if rec, rerr := s.st.Record(v.id); rerr == nil {
			v.take(rec)
			v.build()
		}
		return
	}
	if r.m.ID == v.id {
		if rec, err := s.st.Record(v.id); err == nil {
			v.take(rec)
			v.sig = signature(rec)
		} else {
			v.p = p
		}
	}
	v.showSaved()
	v.d.list.refresh()
}

// undoRemoval brings the removed item back: nothing was saved, so the
// view is the store's again.
func (v *proposalView) undoRemoval() {
	c := v.cui()
	r := c.pending
	if r == nil || v.d.sess == nil {
		return
	}
	c.pending = nil
	rec, err := v.d.sess.st.Record(v.id)
	if err != nil {
		return
	}
	v.take(rec)
	v.build()
	v.focusItem(r.m.ItemID, colName, false)
}
