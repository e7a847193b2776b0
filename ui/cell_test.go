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
		if f.cell && !f.hasFocus {
			// Drawn alone: its text, neither box nor border.
			if len(objs) != 1 {
				t.Fatalf("an unfocused cell draws %d objects, want its text alone", len(objs))
			}
			return color.Transparent, color.Transparent
		}
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
// edit, with the focus; a name that fits is its text alone.
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
	if cut, scrolled := shown(short); cut != nil || scrolled {
		t.Fatal("a name that fits is cut short, or drawn as the whole entry")
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
	// A long name a sync sets while the cell has not the focus is the
	// one cut short.
	name.SetText(long + " II")
	if cut, _ := shown(name); cut == nil || cut.Text != long+" II" {
		t.Fatalf("the long name set unfocused shows as %v, want %q cut short", cut, long+" II")
	}
}

// A cell without the focus draws its text alone, and exactly as the
// entry draws it: the same text (the placeholder while empty), colour,
// style and size, in the same place. Fails if a new Fyne lays out or
// colours an entry's text otherwise.
func TestCellTextIsTheEntrys(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v, _ := h.contentFixture(runName("Cell text"), [][2]string{{"Amp", "200"}, {"Speaker", "150"}}, nil)
	cnv := d.win.Canvas()
	d.ShowItems()
	cnv.Focus(rowOfItem(t, v, "Amp").fields[colName])
	cnv.Capture()
	row := rowOfItem(t, v, "Speaker")
	// entryText is the text the entry draws itself (its content, or its
	// placeholder while empty), and where, relative to the field.
	entryText := func(r *cellRenderer) (*canvas.Text, fyne.Position) {
		var found *canvas.Text
		var at fyne.Position
		var walk func(o fyne.CanvasObject, off fyne.Position)
		walk = func(o fyne.CanvasObject, off fyne.Position) {
			if !o.Visible() || found != nil {
				return
			}
			pos := off.Add(o.Position())
			switch o := o.(type) {
			case *canvas.Text:
				if o.Text != "" {
					found, at = o, pos
				}
			case *fyne.Container:
				for _, c := range o.Objects {
					walk(c, pos)
				}
			case fyne.Widget:
				for _, c := range test.WidgetRenderer(o).Objects() {
					walk(c, pos)
				}
			}
		}
		for _, o := range r.catcherRenderer.Objects() {
			walk(o, fyne.Position{})
		}
		return found, at
	}
	for _, c := range []struct {
		name string
		f    *field
		set  func(f *field)
	}{
		{"a name", row.fields[colName], func(*field) {}},
		{"a price", row.fields[colSell], func(*field) {}},
		{"an empty field, its placeholder", row.fields[colName], func(f *field) { f.PlaceHolder = "Name"; f.SetText("") }},
		{"a name a sync set", row.fields[colName], func(f *field) { f.SetText("Speaker pair") }},
		{"a read-only field", row.fields[colQuantity], func(f *field) { f.Disable() }},
	} {
		// No Refresh here: the entry's own (SetText, Disable) must do.
		c.set(c.f)
		r := test.WidgetRenderer(c.f).(*cellRenderer)
		objs := r.Objects()
		alone, ok := objs[0].(*canvas.Text)
		if len(objs) != 1 || !ok {
			t.Fatalf("%s: an unfocused cell draws %d objects (%T first), want its text alone", c.name, len(objs), objs[0])
		}
		want, at := entryText(r)
		if want == nil {
			t.Fatalf("%s: the entry draws no text", c.name)
		}
		if alone.Text != want.Text || alone.Color != want.Color || alone.TextStyle != want.TextStyle || alone.TextSize != want.TextSize {
			t.Errorf("%s: drawn alone %q %v %v %v, the entry draws %q %v %v %v", c.name,
				alone.Text, alone.Color, alone.TextStyle, alone.TextSize, want.Text, want.Color, want.TextStyle, want.TextSize)
		}
		if alone.Position() != at || alone.Size().Height != want.Size().Height {
			t.Errorf("%s: drawn alone at %v (height %v), the entry draws it at %v (height %v)", c.name,
				alone.Position(), alone.Size().Height, at, want.Size().Height)
		}
	}
}
