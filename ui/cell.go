package ui

import (
	"image/color"

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
// with the focus, the entry with its box never filled and its border
// as the focus ring; without it, the text alone (see text). A text longer than the cell is cut short with "…" while the cell has
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
	// text is the cell's text drawn alone while the cell has not the
	// focus (alone) and the text fits: Fyne walks every object drawn
	// two or three times a frame, and an entry is nine of them (its
	// box, border, scroller, content, text, caret, catcher…), so a
	// screen of item rows was half the window's objects.
	text  *canvas.Text
	alone bool
	objs  []fyne.CanvasObject // Objects while alone: the text or the cut text
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
	c.text = canvas.NewText("", color.Transparent)
	c.plain()
	return c
}

// Layout places the cut text where the entry's text is.
func (r *cellRenderer) Layout(size fyne.Size) {
	r.catcherRenderer.Layout(size)
	r.place()
}

// Objects are the entry's while the cell has the focus (or is not a
// cell); otherwise its text alone, or the text cut short while long.
func (r *cellRenderer) Objects() []fyne.CanvasObject {
	if !r.alone {
		return r.catcherRenderer.Objects()
	}
	return r.objs
}

// place decides how a cell without the focus is drawn: its text alone,
// in the entry's exact place and colours, or, when the text is wider
// than the cell, cut short with "…".
func (r *cellRenderer) place() {
	alone := r.f.cell && !r.f.hasFocus && r.scroll != nil
	long := false
	if alone && r.f.Text != "" {
		w := fyne.MeasureText(r.f.Text, theme.TextSize(), r.f.TextStyle).Width + 2*theme.InnerPadding()
		long = w > r.scroll.Size().Width
	}
	switch {
	case long:
		// Moved and sized as the entry's text (a new size cuts the text
		// again by itself); refreshed, which draws the text again, only
		// when it or its colour changed.
		r.cut.Move(r.scroll.Position())
		r.cut.Resize(r.scroll.Size())
		imp := widget.MediumImportance
		if r.f.Disabled() {
			imp = widget.LowImportance
		}
		if r.cut.Text != r.f.Text || r.cut.Importance != imp {
			r.cut.Text, r.cut.Importance = r.f.Text, imp
			r.cut.Refresh()
		}
	case alone:
		r.placeText()
	}
	if alone != r.alone || long != r.long || r.objs == nil {
		r.alone, r.long = alone, long
		if long {
			r.objs = []fyne.CanvasObject{r.cut}
		} else {
			r.objs = []fyne.CanvasObject{r.text}
		}
	}
}

// placeText sets the text drawn alone as the entry draws its own: the
// text, or the placeholder while empty, in the entry's colours, where
// the entry's rich text lays it out (its inner padding, less the
// input border the entry insets it by). TestCellTextIsTheEntrys holds
// it to the entry's own text object.
func (r *cellRenderer) placeText() {
	th := r.f.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	s, name := r.f.Text, theme.ColorNameForeground
	if s == "" {
		s, name = r.f.PlaceHolder, theme.ColorNamePlaceHolder
	}
	if r.f.Disabled() {
		name = theme.ColorNameDisabled
	}
	t, c, size := r.text, th.Color(name, v), th.Size(theme.SizeNameText)
	if t.Text != s || t.Color != c || t.TextStyle != r.f.TextStyle || t.TextSize != size {
		t.Text, t.Color, t.TextStyle, t.TextSize = s, c, r.f.TextStyle, size
		t.Refresh()
	}
	pad, border := th.Size(theme.SizeNameInnerPadding), th.Size(theme.SizeNameInputBorder)
	t.Move(r.scroll.Position().Add(fyne.NewPos(pad, pad-border)))
	t.Resize(fyne.NewSize(r.scroll.Size().Width-2*pad, t.MinSize().Height))
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
