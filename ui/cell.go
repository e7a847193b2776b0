package ui

import (
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// An item row's fields are drawn as a table's cells: their text, with
// no box or border until one has the focus, and a rule under each row.
// Fyne repaints the whole window for every frame, and an entry's box
// and border are two rounded rectangles whose every pixel Mesa's
// software rasterizer (llvmpipe, on laptops without a GPU driver and
// under Xvfb) shades each frame: a screen of item rows was 100 of them.
// Measured (docs/performance.md, "Item rows drawn as cells"), twenty
// rows of five entries cost a keystroke's frame 40-43 ms of CPU against
// 12-13 ms drawn as cells, what labels cost. A spreadsheet or a quoting tool's
// line grid looks like this too: the header names the columns, the
// pointer is a text cursor over a cell, and the focused cell shows its
// ring.

// cellRenderer is a field's renderer drawing it as a cell (field.cell):
// the entry's box never filled, its border drawn only while focused.
// A text longer than the cell is cut short with "…" while the cell has
// not the focus, as a spreadsheet does: the entry would draw it scrolled
// under a thin scroll bar, which read as an underline (the whole name
// shows in the option's hint line while the cell has the focus).
type cellRenderer struct {
	*catcherRenderer
	f           *field
	box, border *canvas.Rectangle
	// scroll is the entry's scrolled text, and cut its text cut short,
	// drawn in its place while long (Refresh and Layout decide).
	scroll *container.Scroll
	cut    *widget.Label
	long   bool
	objs   []fyne.CanvasObject // Objects with cut in scroll's place
}

// asCell makes r draw f as a cell while f.cell is set. Fyne's entry renderer lists its box
// and then its border first among its objects (TestCellLook fails if a
// new Fyne changes that); without them r is returned as it is.
func asCell(r *catcherRenderer, f *field) fyne.WidgetRenderer {
	objs := r.WidgetRenderer.Objects()
	if len(objs) < 2 {
		return r
	}
	box, ok1 := objs[0].(*canvas.Rectangle)
	border, ok2 := objs[1].(*canvas.Rectangle)
	if !ok1 || !ok2 {
		return r
	}
	c := &cellRenderer{catcherRenderer: r, f: f, box: box, border: border}
	for _, o := range objs {
		if s, ok := o.(*container.Scroll); ok {
			c.scroll = s
		}
	}
	c.cut = widget.NewLabel("")
	c.cut.Truncation = fyne.TextTruncateEllipsis
	c.plain()
	return c
}

// Layout places the cut text where the entry's text is.
func (r *cellRenderer) Layout(size fyne.Size) {
	r.catcherRenderer.Layout(size)
	r.place()
}

// Objects are the entry's, with the cut text in place of the scrolled
// one while the text is long and the cell has not the focus.
func (r *cellRenderer) Objects() []fyne.CanvasObject {
	objs := r.catcherRenderer.Objects()
	if !r.long || r.scroll == nil {
		return objs
	}
	if len(r.objs) != len(objs) || (len(r.objs) > 0 && r.objs[0] != objs[0]) {
		r.objs = slices.Clone(objs)
		for i, o := range r.objs {
			if o == fyne.CanvasObject(r.scroll) {
				r.objs[i] = r.cut
			}
		}
	}
	return r.objs
}

// place decides whether the text is cut short (a cell without the focus
// whose text is wider than it) and lays the cut text out.
func (r *cellRenderer) place() {
	long := false
	if r.f.cell && !r.f.hasFocus && r.scroll != nil && r.f.Text != "" {
		w := fyne.MeasureText(r.f.Text, theme.TextSize(), r.f.TextStyle).Width + 2*theme.InnerPadding()
		long = w > r.scroll.Size().Width
	}
	if long {
		r.cut.Importance = widget.MediumImportance
		if r.f.Disabled() {
			r.cut.Importance = widget.LowImportance
		}
		if r.cut.Text != r.f.Text {
			r.cut.Text = r.f.Text
		}
		r.cut.Move(r.scroll.Position())
		r.cut.Resize(r.scroll.Size())
		r.cut.Refresh()
	}
	if long != r.long {
		r.long, r.objs = long, nil
	}
}

// Refresh lets the entry set its colours from the theme, then takes the
// box's and the unfocused border's away again.
func (r *cellRenderer) Refresh() {
	r.catcherRenderer.Refresh()
	r.plain()
	r.place()
}

// plain leaves the box unpainted and the border too unless the field
// has the focus. Only color.Transparent itself makes Fyne's painter skip
// a rectangle (it compares the colour, not its alpha).
func (r *cellRenderer) plain() {
	if !r.f.cell {
		return
	}
	r.box.FillColor = color.Transparent
	if !r.f.hasFocus {
		r.border.StrokeColor = color.Transparent
	}
}

// rowRule is a row with a rule under it, the full width: the row's own
// size, the rule drawn over its bottom edge.
type rowRule struct{}

func (rowRule) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

func (rowRule) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.Position{})
	objs[0].Resize(size)
	h := objs[1].MinSize().Height
	objs[1].Move(fyne.NewPos(0, size.Height-h))
	objs[1].Resize(fyne.NewSize(size.Width, h))
}

// ruled is row with its rule.
func ruled(row fyne.CanvasObject) *fyne.Container {
	return container.New(rowRule{}, row, widget.NewSeparator())
}
