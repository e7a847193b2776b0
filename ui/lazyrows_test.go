package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
)

// A 500-item proposal builds only the rows near the view, and a
// structural edit changes only the rows it touched (itemrows.go).

// rowsMost is how many item rows a 1280×800 window and its margins may
// have built: about 15 fit in the view.
const rowsMost = 60

// builtRows are the item rows built so far, by item ID.
func builtRows(v *proposalView) map[int64]*itemRow {
	out := map[int64]*itemRow{}
	for id, r := range v.cui().rows {
		out[id] = r
	}
	return out
}

func TestOpen500ItemsBuildsOnlyRowsNearTheView(t *testing.T) {
	d := start500(t)
	v := d.detail
	v.cui().forget()
	v.open(bench500ID)
	d.Window().Canvas().Capture() // the first frame
	o := &v.p.Areas[0].Options[0]
	ids := app.OutlineIDs(o)
	if n := len(v.cui().rows); n == 0 || n > rowsMost {
		t.Fatalf("opening a 500-item proposal built %d item rows, want 1 to %d", n, rowsMost)
	}
	d.ShowItems()
	if first := v.cui().rows[ids[0]]; first == nil || !drawn(d, first.fields[colName]) {
		t.Fatal("the first item row is not drawn once scrolled to")
	}
	// The page is as tall as 500 rows; at its end the last rows are
	// built and drawn, and still not all of them.
	v.scroll.ScrollToOffset(fyne.NewPos(0, v.scroll.Content.MinSize().Height))
	last := v.cui().rows[ids[len(ids)-1]]
	if last == nil || !drawn(d, last.fields[colName]) {
		t.Fatal("the last item row is not drawn at the end of the page")
	}
	if n := len(v.cui().rows); n > 2*rowsMost {
		t.Fatalf("after a scroll to the end %d item rows are built, want at most %d", n, 2*rowsMost)
	}
	if n := v.scroll.Content.MinSize().Height; n < 500*last.fields[colName].MinSize().Height {
		t.Fatalf("the page is %.0f high, less than its 500 rows", n)
	}
}

// A structural edit keeps the rows it did not touch (the same widgets),
// the field being typed in with its caret, and the scroll's place.
func TestStructuralEditKeepsUntouchedRows(t *testing.T) {
	d := start500(t)
	v := d.detail
	c := d.Window().Canvas()
	c.Capture()
	v.scroll.ScrollToOffset(fyne.NewPos(0, 900))
	// A row in view: the quantity typed in, the caret after the "1".
	ids := app.OutlineIDs(&v.p.Areas[0].Options[0])
	var typed *itemRow
	for _, id := range ids[10:] {
		if r := v.cui().rows[id]; r != nil && drawn(d, r.fields[colName]) {
			typed = r
			break
		}
	}
	if typed == nil {
		t.Fatal("no item row drawn at 900")
	}
	q := typed.fields[colQuantity]
	v.focus(q)
	q.CursorColumn = 1
	q.TypedRune('2') // 12, saved by the edit's flush
	before := builtRows(v)
	// Nest, then un-nest, another row in view; add a line; remove one.
	var other int64
	for i, id := range ids {
		if id != typed.id && before[id] != nil && i > 0 && v.cui().rows[ids[i-1]] != nil {
			if it, _, _ := v.p.Item(id); it.ParentID == 0 {
				other = id
				break
			}
		}
	}
	above, _ := topItemAbove(&v.p.Areas[0].Options[0], other)
	hint := v.cui().hints[v.p.Areas[0].Options[0].ID]
	zero := int64(0)
	for _, m := range []*app.ChangeItem{{ID: v.id, ItemID: other, ParentID: &above.ID}, {ID: v.id, ItemID: other, ParentID: &zero}} {
		if !v.applyEdits(hint, m) {
			t.Fatalf("%+v refused", m)
		}
		c.Capture()
		// The very field, still on screen (Fyne keeps the focus on a
		// field the screen no longer has).
		if c.Focused() != q || !drawn(d, q) || q.CursorColumn != 2 || q.Text != "12" {
			t.Fatalf("after a nesting the focus is on %T (drawn %v), caret at %d in %q; want the quantity, at 2 in 12",
				c.Focused(), drawn(d, q), q.CursorColumn, q.Text)
		}
		if y := v.scroll.Offset.Y; y != 900 {
			t.Fatalf("after a nesting the page is scrolled to %.0f, was 900", y)
		}
	}
	if it, _, _ := v.p.Item(typed.id); it.Quantity.String() != "12" {
		t.Fatalf("the quantity typed was saved as %s", it.Quantity)
	}
	// Remove a row (Undo in its place), and save the removal.
	gone := ids[len(ids)-1]
	v.removeItem(gone)
	v.commitRemoval()
	c.Capture()
	built := v.cui().built
	v.focus(q)
	v.addLine(v.p.Areas[0].Options[0].ID, app.ItemFee, "Fee", hint)
	c.Capture()
	if n := v.cui().built - built; n > rowsMost {
		t.Fatalf("adding a line built %d rows", n)
	}
	for id, r := range before {
		if id == other || id == gone {
			continue
		}
		if v.cui().rows[id] != r && v.cui().rows[id] != nil {
			t.Fatalf("item %d's row was built again by edits of other rows", id)
		}
	}
	if v.cui().rows[typed.id] != typed || typed.fields[colQuantity].Text != "12" {
		t.Fatal("the row typed in was built again")
	}
	if _, ok := c.Focused().(*field); !ok {
		t.Fatal("the added line's name has not the focus")
	}
}

// A keystroke in a row changes its totals and builds no row.
func TestKeystrokeBuildsNoRow(t *testing.T) {
	d := start500(t)
	v := d.detail
	d.Window().Canvas().Capture()
	r := v.rowFor(app.OutlineIDs(&v.p.Areas[0].Options[0])[3])
	f := r.fields[colQuantity]
	v.focus(f) // builds its neighbours, for Tab
	before, built := builtRows(v), v.cui().built
	f.CursorColumn = 1
	test.Type(f, "5")
	if r.total.Text != "$898.50" {
		t.Fatalf("the row's total is %s while typing 15", r.total.Text)
	}
	if v.cui().built > built {
		t.Fatalf("a keystroke built %d rows", v.cui().built-built)
	}
	for id, x := range before {
		if v.cui().rows[id] != x {
			t.Fatalf("item %d's row changed on a keystroke in another", id)
		}
	}
}

// Tab from the last row built reaches rows built only then, across the
// whole option.
func TestTabWalksIntoRowsNotBuilt(t *testing.T) {
	d := start500(t)
	v := d.detail
	c := d.Window().Canvas()
	c.Capture()
	ids := app.OutlineIDs(&v.p.Areas[0].Options[0])
	at := 0 // the last of the first rows built
	for at+1 < len(ids) && v.cui().rows[ids[at+1]] != nil {
		at++
	}
	if v.cui().rows[ids[at]] == nil || at > rowsMost {
		t.Fatalf("rows 1 to %d built at the top of the page", at+1)
	}
	v.focus(v.cui().rows[ids[at]].fields[colName]) // drawn first, as the app focuses
	for i := at + 1; i < at+30; i++ {
		// The row's other fields, its two buttons, then the next row.
		for range len(v.cui().rows[ids[i-1]].fields) + 2 {
			c.FocusNext()
		}
		r := v.cui().rows[ids[i]]
		if r == nil || c.Focused() != r.fields[colName] {
			where := "elsewhere"
			for id, x := range v.cui().rows {
				for col, f := range x.fields {
					if c.Focused() == f {
						where = fmt.Sprintf("item %d's column %d", id, col)
					}
				}
			}
			t.Fatalf("Tab from row %d (built from 0 to %d) went to %T (%s), not row %d's name", i-1, at, c.Focused(), where, i)
		}
	}
}
