package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// flow lays buttons out in a row that wraps onto more rows when the
// width runs out, so that a narrow window (a small laptop screen, the
// proposal beside the list) never pushes a button past its edge. Its
// minimum width is its widest child's; its height is what the children
// take at the width it was last given (one row until then): the window
// lays it out again when that changes.
type flow struct {
	width float32 // of the last Layout
	// endLast puts the last child at the right edge while all fit in
	// one row (a heading's buttons).
	endLast bool
}

var _ fyne.Layout = (*flow)(nil)

func newFlow() *flow { return &flow{} }

// flowRows places objects of sizes in rows of at most width (gap
// between them): each one's position, and the rows' count and height.
func flowRows(sizes []fyne.Size, width, gap float32) (pos []fyne.Position, rows int, rowH float32) {
	for _, s := range sizes {
		rowH = max(rowH, s.Height)
	}
	x, y := float32(0), float32(0)
	for i, s := range sizes {
		if i == 0 {
			rows = 1
		} else if width > 0 && x+s.Width > width {
			x, y = 0, y+rowH+gap
			rows++
		}
		pos = append(pos, fyne.NewPos(x, y))
		x += s.Width + gap
	}
	return pos, rows, rowH
}

func visibleSizes(objs []fyne.CanvasObject) ([]fyne.CanvasObject, []fyne.Size) {
	var vis []fyne.CanvasObject
	var sizes []fyne.Size
	for _, o := range objs {
		if o.Visible() {
			vis = append(vis, o)
			sizes = append(sizes, o.MinSize())
		}
	}
	return vis, sizes
}

func (l *flow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	vis, sizes := visibleSizes(objs)
	pos, rows, rowH := flowRows(sizes, size.Width, theme.Padding())
	if n := len(vis); l.endLast && rows == 1 && n > 1 {
		pos[n-1].X = max(pos[n-1].X, size.Width-sizes[n-1].Width)
	}
	for i, o := range vis {
		o.Move(pos[i])
		o.Resize(fyne.NewSize(sizes[i].Width, rowH))
	}
}

func (l *flow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	_, sizes := visibleSizes(objs)
	w := float32(0)
	for _, s := range sizes {
		w = max(w, s.Width)
	}
	gap := theme.Padding()
	_, rows, rowH := flowRows(sizes, l.width, gap)
	if rows == 0 {
		return fyne.NewSize(0, 0)
	}
	return fyne.NewSize(w, float32(rows)*rowH+float32(rows-1)*gap)
}
