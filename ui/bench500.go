package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"

	"proposaldesk/app"
)

// What the desktop's own timing run (cmd/desktop, PD_BENCH_ITEMS) does
// to a big proposal: fill the open one, then keystrokes and structural
// edits, each called on the UI goroutine.

// BenchFill adds Custom item lines to the first option of the open
// proposal until the proposal has n items (each one edit, saved and sent
// as typing them would be), opens it afresh and returns its ID.
func (d *Desktop) BenchFill(n int) (int64, error) {
	v := d.detail
	if d.sess == nil || v == nil || v.p == nil || len(v.p.Areas) == 0 || len(v.p.Areas[0].Options) == 0 {
		return 0, fmt.Errorf("no proposal with an option is open")
	}
	optionID, t := v.p.Areas[0].Options[0].ID, app.ItemCustomItem
	count := 0
	for _, a := range v.p.Areas {
		for _, o := range a.Options {
			count += len(o.Items)
		}
	}
	for i := count; i < n; i++ {
		name := fmt.Sprintf("Line %d", i+1)
		if _, err := d.sess.eng.Edit(context.Background(), v.id, &app.AddItem{ID: v.id, OptionID: optionID, ItemType: &t, Name: &name}); err != nil {
			return 0, fmt.Errorf("adding line %d: %w", i+1, err)
		}
	}
	d.OpenProposal(v.id)
	return v.id, nil
}

// BenchKeystroke types into the quantity of the first item row in view
// (scrolled to the items first): a digit, then (odd i) a backspace.
func (d *Desktop) BenchKeystroke(i int) {
	v := d.detail
	if v.p == nil || v.ct == nil {
		return
	}
	if i == 0 {
		d.ShowItems()
	}
	ids := app.OutlineIDs(&v.p.Areas[0].Options[0])
	r := v.rowFor(ids[0])
	if r == nil {
		return
	}
	f := r.fields[colQuantity]
	if d.win.Canvas().Focused() != f {
		v.focus(f)
		f.CursorColumn = len([]rune(f.Text))
	}
	if i%2 == 0 {
		f.TypedRune('2')
	} else {
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	}
}

// BenchEdit is a structural edit of the open proposal's first option,
// in turn: a Fee line added, nested under the item above, un-nested,
// removed (Undo offered; saved by the next edit).
func (d *Desktop) BenchEdit(i int) {
	v := d.detail
	if v.p == nil || v.ct == nil {
		return
	}
	o := &v.p.Areas[0].Options[0]
	hint := v.cui().hints[o.ID]
	ids := app.OutlineIDs(o)
	last := ids[len(ids)-1]
	zero := int64(0)
	switch i % 4 {
	case 0:
		v.addLine(o.ID, app.ItemFee, "Fee", hint)
	case 1:
		if above, ok := topItemAbove(o, last); ok {
			v.applyEdits(hint, &app.ChangeItem{ID: v.id, ItemID: last, ParentID: &above.ID})
		}
	case 2:
		v.applyEdits(hint, &app.ChangeItem{ID: v.id, ItemID: last, ParentID: &zero})
	case 3:
		v.removeItem(last)
	}
}

// BenchSending reports whether edits wait to be sent or a sync runs.
func (d *Desktop) BenchSending() bool {
	if d.sess == nil {
		return false
	}
	st := d.sess.eng.State()
	return st.Pending > 0 || st.Syncing
}
