package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
)

// The proposal page hands Fyne only what is near its visible part
// (cull.go): what Fyne walks, measures and paints on every frame.

// drawn reports whether Fyne would reach o from the window's content:
// through containers and every widget's renderer, as it walks a frame.
func drawn(d *Desktop, o fyne.CanvasObject) bool {
	found := false
	var visit func(x fyne.CanvasObject)
	visit = func(x fyne.CanvasObject) {
		if found || x == nil || !x.Visible() {
			return
		}
		if x == o {
			found = true
			return
		}
		switch c := x.(type) {
		case *fyne.Container:
			for _, k := range c.Objects {
				visit(k)
			}
		case fyne.Widget:
			for _, k := range test.WidgetRenderer(c).Objects() {
				visit(k)
			}
		}
	}
	visit(d.win.Canvas().Content())
	return found
}

// longFixture is a proposal of the test's own with 60 items in its
// first option, opened in a window 780 units high.
func (h *harness) longFixture() (*proposalView, [][2]string) {
	h.t.Helper()
	d := h.signIn(app.RoleSales)
	d.win.Resize(fyne.NewSize(1200, 780))
	var items [][2]string
	for i := range 60 {
		items = append(items, [2]string{fmt.Sprintf("Part %02d", i), "10.00"})
	}
	v, _ := h.contentFixture(runName("Long"), items, nil)
	return v, items
}

func TestLongProposalDrawsOnlyRowsNearTheView(t *testing.T) {
	h := newHarness(t)
	v, items := h.longFixture()
	d := v.d
	names := make([]*field, len(items))
	for i, it := range items {
		names[i] = rowOfItem(t, v, it[0]).fields[colName]
	}
	if drawn(d, names[len(names)-1]) || !drawn(d, v.name) {
		t.Fatal("at the top of the page: the name field not drawn, or the 60th item's row drawn")
	}
	// The page is as tall as if every row were drawn; scrolled a screen
	// at a time (the wheel or the program), each row is drawn at some
	// point, never more than the screen and its margins hold.
	view := v.scroll.Size().Height
	end := v.scroll.Content.MinSize().Height - view
	if end < float32(len(items))*names[0].MinSize().Height {
		t.Fatalf("the page scrolls %.0f units, less than its %d rows", end, len(items))
	}
	most := int((1+2*cullMargin)*view/names[0].MinSize().Height) + 3
	seen := map[int]bool{}
	for off := float32(0); off < end+view; off += view / 2 {
		if int(off/view)%2 == 0 {
			v.scroll.ScrollToOffset(fyne.NewPos(0, min(off, end)))
		} else {
			// The wheel's event, unscaled (wheelScroll multiplies it).
			v.scroll.Scroll.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, v.scroll.Offset.Y-min(off, end))})
		}
		if got := v.scroll.Offset.Y; got != min(off, end) {
			t.Fatalf("scrolled to %.0f, want %.0f", got, min(off, end))
		}
		n := 0
		for i, f := range names {
			if drawn(d, f) {
				seen[i] = true
				n++
			}
		}
		if n > most {
			t.Fatalf("at %.0f: %d rows drawn, more than the %d a screen and its margins hold", v.scroll.Offset.Y, n, most)
		}
	}
	if len(seen) != len(items) {
		t.Fatalf("%d of %d rows drawn while scrolling through the page", len(seen), len(items))
	}
	if drawn(d, v.name) {
		t.Fatal("the name field is drawn with the page at its end")
	}
}

// A field off screen that the app focuses (a line added, an item moved)
// is drawn first, and Tab from the last row drawn reaches the next one.
func TestFocusReachesRowsOffScreen(t *testing.T) {
	h := newHarness(t)
	v, items := h.longFixture()
	d := v.d
	r := rowOfItem(t, v, items[50][0])
	v.focusItem(r.id, colQuantity, false)
	if d.win.Canvas().Focused() != r.fields[colQuantity] || !drawn(d, r.fields[colQuantity]) {
		t.Fatal("the 51st item's quantity is not focused and drawn")
	}
	// Tab through the rows: each next field is drawn when its turn comes.
	v.scroll.ScrollToTop()
	at := 0
	for i := range items {
		if drawn(d, rowOfItem(t, v, items[i][0]).fields[colName]) {
			at = i
		}
	}
	if at >= len(items)-2 {
		t.Fatalf("row %d of %d is drawn at the top of the page", at, len(items))
	}
	c := d.win.Canvas()
	c.Focus(rowOfItem(t, v, items[at][0]).fields[colName])
	// The row's other fields, its two buttons, then the next row.
	for range len(rowOfItem(t, v, items[at][0]).fields) + 2 {
		c.FocusNext()
	}
	if want := rowOfItem(t, v, items[at+1][0]).fields[colName]; c.Focused() != want {
		t.Fatalf("Tab from the last row drawn (%d) went to %T, not the next row's name", at, c.Focused())
	}
}

// cullBox measures like a VBox; children of one kind never drawn take
// the size of one that was.
func TestCullBoxSizesLikeAVBox(t *testing.T) {
	test.NewTempApp(t)
	mk := func() []fyne.CanvasObject {
		var objs []fyne.CanvasObject
		for i := range 20 {
			r := canvas.NewRectangle(nil)
			r.SetMinSize(fyne.NewSize(float32(100+i), 30))
			objs = append(objs, r)
		}
		return objs
	}
	want := container.NewVBox(mk()...).MinSize()
	kinds := make([]int, 20)
	for i := range kinds {
		kinds[i] = 1
	}
	b := newCullBox(mk(), kinds, 0, 100)
	b.Resize(fyne.NewSize(200, 600))
	got := b.MinSize()
	if got.Height != want.Height {
		t.Fatalf("height %.0f, want %.0f (a VBox's)", got.Height, want.Height)
	}
	shown := 0
	for i, on := range b.on {
		if on {
			shown++
			if b.objs[i].Size().Width != 200 {
				t.Errorf("child %d drawn at width %.0f", i, b.objs[i].Size().Width)
			}
		}
	}
	// 0 to 100 holds the first three rows (30 high, 4 apart).
	if shown != 3 {
		t.Fatalf("%d children handed over for 100 units, want 3", shown)
	}
	if b.setView(600, 700, -1); !b.on[19] || b.on[0] {
		t.Fatal("the view at the end does not hand over the last child only")
	}
	// The child holding the focus stays, with its neighbours.
	b.setView(600, 700, 5)
	for i, want := range map[int]bool{3: false, 4: true, 5: true, 6: true, 7: false, 19: true} {
		if b.on[i] != want {
			t.Errorf("pinned 5: child %d handed over %v, want %v", i, b.on[i], want)
		}
	}
}

// ShowItems (the smoke run's screenshot) scrolls to the first item row,
// which may not be drawn until then.
func TestShowItemsScrollsToARowNotDrawnYet(t *testing.T) {
	h := newHarness(t)
	v, items := h.longFixture()
	d := v.d
	d.win.Resize(fyne.NewSize(1200, 400)) // the rows start below the fold
	v.scroll.ScrollToTop()
	first := rowOfItem(t, v, items[0][0]).fields[colName]
	if drawn(d, first) {
		t.Fatal("the first item row is drawn in a window 400 high")
	}
	d.ShowItems()
	drv := fyne.CurrentApp().Driver()
	y := drv.AbsolutePositionForObject(first).Y - drv.AbsolutePositionForObject(v.scroll).Y
	if !drawn(d, first) || y < 0 || y > v.scroll.Size().Height {
		t.Fatalf("after ShowItems the first row is drawn %v, at %.0f in a view %.0f high", drawn(d, first), y, v.scroll.Size().Height)
	}
}

// A taller window draws the rows it now shows, though the page keeps
// its size.
func TestTallerWindowDrawsMoreRows(t *testing.T) {
	h := newHarness(t)
	v, items := h.longFixture()
	d := v.d
	d.win.Resize(fyne.NewSize(1200, 400))
	v.scroll.ScrollToOffset(fyne.NewPos(0, 1000))
	count := func() int {
		n := 0
		for _, it := range items {
			if drawn(d, rowOfItem(t, v, it[0]).fields[colName]) {
				n++
			}
		}
		return n
	}
	short := count()
	d.win.Resize(fyne.NewSize(1200, 900))
	if tall := count(); tall <= short {
		t.Fatalf("%d rows drawn at 400 units high, %d at 900", short, tall)
	}
}
