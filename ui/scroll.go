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

// wheelLines is how many lines one mouse-wheel notch moves: the usual
// step of desktop platforms (GTK, Windows, most browsers).
const wheelLines = 3

// wheelStep turns a wheel event into the distance to scroll: Fyne's
// driver reports driverNotch units per notch, much less than the
// platform's usual wheelLines lines. Where the driver passes the OS's
// own distances (driverNotch 0, macOS), they are kept.
func wheelStep(d fyne.Delta) fyne.Delta {
	if driverNotch == 0 {
		return d
	}
	line := theme.TextSize() + 2*theme.InnerPadding() // a label's line
	k := wheelLines * line / driverNotch
	return fyne.NewDelta(d.DX*k, d.DY*k)
}

// wheelScroll is a vertical scroll that moves the platform's usual step
// per wheel notch.
type wheelScroll struct {
	container.Scroll
	// moved runs after the offset is set by the program (the scroll's
	// OnScrolled runs only for the wheel and the bars) or the size changes.
	moved func()
}

// ScrollToOffset moves the content and says so.
func (s *wheelScroll) ScrollToOffset(p fyne.Position) {
	s.Scroll.ScrollToOffset(p)
	if s.moved != nil {
		s.moved()
	}
}

// Resize says so too: a taller view shows more of the content even
// when the content keeps its size.
func (s *wheelScroll) Resize(size fyne.Size) {
	s.Scroll.Resize(size)
	if s.moved != nil {
		s.moved()
	}
}

// ScrollToTop moves the content to the top (and lays it out again, as
// Fyne's does) and says so.
func (s *wheelScroll) ScrollToTop() {
	s.Scroll.ScrollToTop()
	if s.moved != nil {
		s.moved()
	}
}

func newWheelScroll(content fyne.CanvasObject) *wheelScroll {
	s := &wheelScroll{}
	s.Content = content
	s.Direction = container.ScrollVerticalOnly
	s.ExtendBaseWidget(s)
	return s
}

// Scrolled moves by the platform's step.
func (s *wheelScroll) Scrolled(ev *fyne.ScrollEvent) {
	e := *ev
	e.Scrolled = wheelStep(ev.Scrolled)
	s.Scroll.Scrolled(&e)
}

// wheelCatcher lies on top of a text field and takes its wheel events:
// a multi-line entry's own scroller would otherwise swallow them even
// when all its text is visible. The field scrolls only while it has
// more text than it shows and is not at its end; otherwise the page
// scrolls.
type wheelCatcher struct {
	widget.BaseWidget
	inner *container.Scroll // the entry's own scroller (nil if none)
	page  func() fyne.Scrollable
}

func newWheelCatcher(inner *container.Scroll, page func() fyne.Scrollable) *wheelCatcher {
	c := &wheelCatcher{inner: inner, page: page}
	c.ExtendBaseWidget(c)
	return c
}

func (c *wheelCatcher) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

func (c *wheelCatcher) Scrolled(ev *fyne.ScrollEvent) {
	if in := c.inner; in != nil && in.Visible() && in.Content != nil && in.Content.Size().Height > in.Size().Height+1 {
		before := in.Offset
		e := *ev
		e.Scrolled = wheelStep(ev.Scrolled)
		in.Scrolled(&e)
		if in.Offset != before {
			return
		}
	}
	if c.page != nil {
		if p := c.page(); p != nil {
			p.Scrolled(ev)
		}
	}
}

// catcherRenderer is an entry's renderer with the wheel catcher on top.
type catcherRenderer struct {
	fyne.WidgetRenderer
	catcher *wheelCatcher
	objs    []fyne.CanvasObject // Objects' last answer
}

func withWheelCatcher(r fyne.WidgetRenderer, page func() fyne.Scrollable) *catcherRenderer {
	var inner *container.Scroll
	for _, o := range r.Objects() {
		if s, ok := o.(*container.Scroll); ok {
			inner = s
		}
	}
	return &catcherRenderer{WidgetRenderer: r, catcher: newWheelCatcher(inner, page)}
}

func (r *catcherRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.catcher.Move(fyne.NewPos(0, 0))
	r.catcher.Resize(size)
}

// Objects is the entry's objects and the catcher over them. Fyne asks
// for them several times a frame, for every field drawn: the list is
// made again only when the entry's own changed.
func (r *catcherRenderer) Objects() []fyne.CanvasObject {
	objs := r.WidgetRenderer.Objects()
	if len(r.objs) != len(objs)+1 || !slices.Equal(r.objs[:len(objs)], objs) {
		r.objs = append(append(r.objs[:0:0], objs...), r.catcher)
	}
	return r.objs
}
