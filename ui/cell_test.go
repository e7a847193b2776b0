package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// An item row's fields are drawn as cells: no box, and a border only on
// the focused one; the proposal's own fields keep their boxes. Fails if
// a new Fyne stops listing an entry's box and border first.
func TestItemFieldsAreCells(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	v, _ := h.contentFixture(runName("Cells"), nil, nil)
	test.Tap(tipButtons(v.body, "Custom item")[0])
	row := rowOfItem(t, v, "Custom item")
	name, qty := row.fields[colName], row.fields[colQuantity]
	cnv := v.d.win.Canvas()
	if cnv.Focused() != name {
		t.Fatalf("the new line's name does not have the cursor")
	}
	look := func(f *field) (box, border color.Color) {
		t.Helper()
		r, ok := test.WidgetRenderer(f).(*cellRenderer)
		if !ok {
			t.Fatalf("a field's renderer is %T, want *cellRenderer", test.WidgetRenderer(f))
		}
		objs := r.Objects()
		b, ok1 := objs[0].(*canvas.Rectangle)
		s, ok2 := objs[1].(*canvas.Rectangle)
		if !ok1 || !ok2 || b != r.box || s != r.border {
			t.Fatalf("the entry's first objects are %T, %T: not its box and border", objs[0], objs[1])
		}
		return b.FillColor, s.StrokeColor
	}
	for _, step := range []struct {
		focus   *field
		focused *field
		other   *field
	}{
		{nil, name, qty},
		{qty, qty, name},
		{name, name, qty},
	} {
		if step.focus != nil {
			cnv.Focus(step.focus)
		}
		if box, border := look(step.focused); box != color.Transparent || border == color.Transparent {
			t.Errorf("the focused cell draws box %v, border %v: want no box and its ring", box, border)
		}
		if box, border := look(step.other); box != color.Transparent || border != color.Transparent {
			t.Errorf("an unfocused cell draws box %v, border %v: want neither", box, border)
		}
	}
	// A field outside the rows keeps its box.
	boxed := 0
	for _, f := range v.fields {
		if !f.cell {
			if box, _ := look(f); box != color.Transparent {
				boxed++
			}
		}
	}
	if boxed == 0 {
		t.Error("no field outside the item rows draws its box")
	}
	// Each row has its rule.
	if c, ok := row.obj.(*fyne.Container); !ok || len(c.Objects) != 2 {
		t.Fatalf("the row is %T, want its content and its rule", row.obj)
	}
}

// A name longer than its cell is cut short with "…" while the cell has
// not the focus (no scroll bar under it), and is the entry again, to
// edit, with the focus; a name that fits is the entry's text as drawn.
func TestLongNameIsCutShortInItsCell(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	d.win.Resize(fyne.NewSize(1024, 600))
	long := "Motorized 120-inch acoustically transparent projection screen, black velvet border"
	v, _ := h.contentFixture(runName("Long name"), [][2]string{{long, "1899"}, {"Amp", "200"}}, nil)
	cnv := d.win.Canvas()
	d.ShowItems()
	cnv.Capture()
	name, short := rowOfItem(t, v, long).fields[colName], rowOfItem(t, v, "Amp").fields[colName]
	shown := func(f *field) (cut *widget.Label, scrolled bool) {
		t.Helper()
		r := test.WidgetRenderer(f).(*cellRenderer)
		for _, o := range r.Objects() {
			switch o := o.(type) {
			case *widget.Label:
				cut = o
			case *container.Scroll:
				scrolled = true
			}
		}
		return cut, scrolled
	}
	if cut, scrolled := shown(name); cut == nil || scrolled || cut.Text != long || cut.Truncation != fyne.TextTruncateEllipsis {
		t.Fatalf("the long name unfocused: cut %v, scrolled %v; want it cut short, not scrolled", cut, scrolled)
	}
	if cut, scrolled := shown(short); cut != nil || !scrolled {
		t.Fatal("a name that fits is cut short, or not drawn as the entry's")
	}
	cnv.Focus(name)
	cnv.Capture()
	if cut, scrolled := shown(name); cut != nil || !scrolled {
		t.Fatal("the long name with the focus is not the entry's, to edit")
	}
	cnv.Focus(short)
	cnv.Capture()
	if cut, _ := shown(name); cut == nil {
		t.Fatal("the long name is not cut short again once left")
	}
}
