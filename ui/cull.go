package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Fyne lays out, measures and paints every object of a window on every
// frame, on screen or not: a proposal of 40 items is some 3,000 objects,
// and with Mesa's software renderer each frame then took about 100 ms,
// whatever changed (a keystroke in the list's search, a caret blinking).
// cullBox is a vertical box (container.NewVBox's layout) that hands Fyne
// only its children near the visible part of the proposal's scroll; the
// others keep their place and their last measured size. The page's pass
// (proposalView.cull) tells each box what is visible after a scroll or a
// layout. The child holding the focus and its neighbours are always
// handed over, so that Tab and Shift+Tab reach the next field as before.
//
// A box can also build its children lazily (newLazyCullBox): a child
// is made only when it is first handed over (or measured, when none of
// its kind was), so a 500-item option builds the rows in view, not 500.
// A child once built stays built until the box is dropped.

// cullMargin is how far beyond the visible part children are still
// handed over, as a share of the scroll's height. A scroll tells the
// boxes at once (OnScrolled, before the frame), so a child coming into
// view is handed over in time without a margin; each child drawn beyond
// the view costs every frame its paint, clipped away (a keystroke's frame
// painted 40% more rows with 0.15).
const cullMargin = 0.03

// cullBox is a VBox that culls its children outside its view.
type cullBox struct {
	widget.BaseWidget
	objs []fyne.CanvasObject
	// kind groups children of the same size (an option's item rows): a
	// child never measured takes the size of one of its kind that was
	// (0: measured on its own).
	kind  []int
	sizes []fyne.Size
	known []bool
	ys    []float32
	// top and bottom are the part to hand over, in the box's coordinates.
	top, bottom float32
	pin         int // the child holding the focus (-1: none)
	on          []bool
	shown       []fyne.CanvasObject
	// stale children missed a refresh while culled.
	stale []bool
	// after runs when the box was laid out (the page's pass).
	after func()
	// mark is refreshed, rather than the box, when only the set of
	// children changes: refreshing the box would free the textures of
	// every child and draw their text again.
	mark *canvas.Rectangle
	// lazy makes child i when objs[i] is nil (not built yet).
	lazy func(i int) fyne.CanvasObject

	// min is the box's min size while minOK (see MinSize), for the
	// children shown as in minShown.
	min      fyne.Size
	minOK    bool
	minShown []bool
}

// noMinCache turns the min size cache off (the benchmark's comparison).
var noMinCache bool

// newCullBox is a culling VBox of objs (kind may be nil) handing over
// the part between top and bottom until the page's pass says otherwise.
func newCullBox(objs []fyne.CanvasObject, kind []int, top, bottom float32) *cullBox {
	n := len(objs)
	if kind == nil {
		kind = make([]int, n)
	}
	b := &cullBox{objs: objs, kind: kind, sizes: make([]fyne.Size, n), known: make([]bool, n),
		ys: make([]float32, n), on: make([]bool, n), stale: make([]bool, n), pin: -1,
		top: top, bottom: bottom, mark: canvas.NewRectangle(color.Transparent)}
	b.ExtendBaseWidget(b)
	return b
}

// newLazyCullBox is newCullBox whose children objs[i] left nil are made
// by mk(i) when first needed.
func newLazyCullBox(objs []fyne.CanvasObject, kind []int, mk func(i int) fyne.CanvasObject) *cullBox {
	b := newCullBox(objs, kind, 0, 0)
	b.lazy = mk
	return b
}

func (b *cullBox) CreateRenderer() fyne.WidgetRenderer { return &cullRenderer{b: b} }

// child is child i, built if it was not yet.
func (b *cullBox) child(i int) fyne.CanvasObject {
	if b.objs[i] == nil {
		b.minOK = false
		o := b.lazy(i)
		b.objs[i] = o
		o.Move(fyne.NewPos(0, b.ys[i]))
	}
	return b.objs[i]
}

// shownIf says whether child i takes room: a child not built yet does
// (it is a row like its kind).
func (b *cullBox) shownIf(i int) bool {
	return b.objs[i] == nil || b.objs[i].Visible()
}

// size is child i's min size: measured again while it is handed over
// (or never measured and of no kind measured yet), else the last one.
func (b *cullBox) size(i int) fyne.Size {
	if b.on[i] || (!b.known[i] && !b.sameKind(i)) {
		b.sizes[i], b.known[i] = b.child(i).MinSize(), true
	}
	return b.sizes[i]
}

// sameKind gives child i, never measured, the size of one of its kind.
func (b *cullBox) sameKind(i int) bool {
	if b.known[i] || b.kind[i] == 0 {
		return b.known[i]
	}
	for j, k := range b.kind {
		if k == b.kind[i] && b.known[j] {
			b.sizes[i] = b.sizes[j]
			return true
		}
	}
	return false
}

// minSize is the box's min size. Before each frame Fyne asks every
// object drawn for its min size, parents after their children, and a
// container measures its children again each time: a row 12 levels deep
// in the page was measured some 10 times a frame, half of the app's part
// of a keystroke's frame with a 500-item proposal (BenchmarkMinSizes500).
// So the box keeps its min size until it is laid out or refreshed (Fyne
// lays out the parent of a child whose min size changed, which is how a
// box learns that one of its drawn children grew) or a child is shown
// or hidden.
func (b *cullBox) minSize() fyne.Size {
	if b.minOK && !noMinCache && b.sameShown() {
		return b.min
	}
	b.min, b.minOK = b.measure(), true
	b.minShown = b.minShown[:0]
	for i := range b.objs {
		b.minShown = append(b.minShown, b.shownIf(i))
	}
	return b.min
}

// sameShown reports whether the children shown are those measured.
func (b *cullBox) sameShown() bool {
	if len(b.minShown) != len(b.objs) {
		return false
	}
	for i, was := range b.minShown {
		if b.shownIf(i) != was {
			return false
		}
	}
	return true
}

// measure adds up the children's sizes.
func (b *cullBox) measure() fyne.Size {
	var w, h float32
	n := 0
	for i := range b.objs {
		if !b.shownIf(i) {
			continue
		}
		s := b.size(i)
		w, h, n = max(w, s.Width), h+s.Height, n+1
	}
	if n > 1 {
		h += theme.Padding() * float32(n-1)
	}
	return fyne.NewSize(w, h)
}

// layout places every child and sizes those handed over.
func (b *cullBox) layout(size fyne.Size) {
	b.minOK = false
	pad, y := theme.Padding(), float32(0)
	for i, o := range b.objs {
		if !b.shownIf(i) {
			continue
		}
		b.ys[i] = y
		if o != nil {
			o.Move(fyne.NewPos(0, y))
		}
		y += b.size(i).Height + pad
	}
	b.choose()
	b.sizeShown(size.Width)
	if b.after != nil {
		b.after()
	}
}

func (b *cullBox) sizeShown(width float32) {
	for i, o := range b.objs {
		if b.on[i] && o != nil && o.Visible() {
			o.Resize(fyne.NewSize(width, b.size(i).Height))
		}
	}
}

// choose decides which children are handed over; it reports whether
// that changed.
func (b *cullBox) choose() bool {
	changed := false
	shown := make([]fyne.CanvasObject, 0, len(b.objs)+1)
	shown = append(shown, b.mark)
	for i := range b.objs {
		// Hidden children cost nothing and are handed over, so that
		// Fyne notices when they are shown.
		on := !b.shownIf(i) || (b.pin >= 0 && i >= b.pin-1 && i <= b.pin+1) ||
			(b.ys[i] < b.bottom && b.ys[i]+b.sizes[i].Height > b.top)
		if on != b.on[i] {
			changed = true
			b.on[i] = on
			if on && b.stale[i] {
				b.stale[i] = false
				b.objs[i].Refresh()
			}
		}
		if on {
			shown = append(shown, b.child(i))
		}
	}
	if changed || b.shown == nil {
		b.shown = shown
		b.minOK = false // the children handed over are measured afresh
	}
	return changed
}

// setView hands over the children between top and bottom (the box's
// coordinates) and the one at pin (-1: none), laid out at the box's
// width; it reports whether that changed.
func (b *cullBox) setView(top, bottom float32, pin int) bool {
	if b.top == top && b.bottom == bottom && b.pin == pin {
		return false
	}
	b.top, b.bottom, b.pin = top, bottom, pin
	if !b.choose() {
		return false
	}
	b.sizeShown(b.Size().Width)
	b.mark.Refresh()
	return true
}

type cullRenderer struct{ b *cullBox }

func (r *cullRenderer) Layout(size fyne.Size)        { r.b.layout(size) }
func (r *cullRenderer) MinSize() fyne.Size           { return r.b.minSize() }
func (r *cullRenderer) Objects() []fyne.CanvasObject { return r.b.shown }
func (r *cullRenderer) Destroy()                     {}

// Refresh refreshes the children handed over (as a container's does).
func (r *cullRenderer) Refresh() {
	for i, o := range r.b.objs {
		if r.b.on[i] {
			o.Refresh()
		} else if o != nil {
			r.b.stale[i] = true
		}
	}
	r.b.layout(r.b.Size())
}

// cullPass tells every cull box under o what is visible: o's top is at
// y in the viewport, which shows lo to hi; focus is the path to the
// focused object (nil: none).
func cullPass(o fyne.CanvasObject, y, lo, hi float32, focus map[fyne.CanvasObject]bool) {
	if o == nil || !o.Visible() {
		return
	}
	switch x := o.(type) {
	case *cullBox:
		pin := -1
		for i, c := range x.objs {
			if focus[c] {
				pin = i
			}
		}
		x.setView(lo-y, hi-y, pin)
		for i, c := range x.objs {
			if x.on[i] {
				cullPass(c, y+c.Position().Y, lo, hi, focus)
			}
		}
	case *fyne.Container:
		for _, c := range x.Objects {
			cullPass(c, y+c.Position().Y, lo, hi, focus)
		}
	case *widget.Card:
		if c := x.Content; c != nil {
			cullPass(c, y+c.Position().Y, lo, hi, focus)
		}
	case *body:
		cullPass(x.content, y+x.content.Position().Y, lo, hi, focus)
	}
}

// chainTo is the objects from o down to target, culled ones included
// (nil if target is not under o).
func chainTo(o, target fyne.CanvasObject) []fyne.CanvasObject {
	if o == nil || target == nil {
		return nil
	}
	if o == target {
		return []fyne.CanvasObject{o}
	}
	var kids []fyne.CanvasObject
	switch x := o.(type) {
	case *cullBox:
		kids = x.objs
	case *fyne.Container:
		kids = x.Objects
	case *widget.Card:
		kids = []fyne.CanvasObject{x.Content}
	case *body:
		kids = []fyne.CanvasObject{x.content}
	case *widget.Form:
		for _, it := range x.Items {
			kids = append(kids, it.Widget)
		}
	}
	for _, k := range kids {
		if c := chainTo(k, target); c != nil {
			return append([]fyne.CanvasObject{o}, c...)
		}
	}
	return nil
}

// pathTo is chainTo as a set.
func pathTo(o, target fyne.CanvasObject) map[fyne.CanvasObject]bool {
	chain := chainTo(o, target)
	if chain == nil {
		return nil
	}
	path := make(map[fyne.CanvasObject]bool, len(chain))
	for _, c := range chain {
		path[c] = true
	}
	return path
}

// pageY is where o is in the page (the scroll's content), once drawn:
// Fyne's driver knows the place only of what it has walked.
func (v *proposalView) pageY(o fyne.CanvasObject) (float32, bool) {
	chain := chainTo(v.scroll.Content, o)
	if chain == nil {
		return 0, false
	}
	y := float32(0)
	for _, c := range chain[1:] {
		y += c.Position().Y
	}
	return y, true
}

// viewport is the part of the page to hand over, in the page's
// coordinates: what the scroll shows and a margin.
func (v *proposalView) viewport() (top, bottom float32) {
	off, h := v.scroll.Offset.Y, v.scroll.Size().Height
	return off - h*cullMargin, off + h*(1+cullMargin)
}

// cull tells the page's boxes what is visible; the child holding the
// focus (or pin, about to get it) stays drawn.
func (v *proposalView) cull(pin fyne.CanvasObject) {
	s := v.scroll
	if v.culling || s.Content == nil {
		return
	}
	v.culling = true
	defer func() { v.culling = false }()
	if pin == nil {
		if f, ok := v.d.win.Canvas().Focused().(fyne.CanvasObject); ok {
			pin = f
		}
	}
	top, bottom := v.viewport()
	off := s.Offset.Y
	cullPass(s.Content, -off, top-off, bottom-off, pathTo(s.Content, pin))
}

// focus gives f the focus, drawing it first if it was culled (Fyne
// focuses only what is drawn).
func (v *proposalView) focus(f fyne.Focusable) {
	if o, ok := f.(fyne.CanvasObject); ok {
		v.cull(o)
	}
	v.d.win.Canvas().Focus(f)
}
