package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// The proposal on small laptop screens: at 1024×600 and 800×600, with
// the list beside it or hidden, every control of an item row lies
// inside the window, the window can be that small at all, and the row's
// ⋯ menu opens inside it.

// smallSizes are the screens the proposal must stay usable on.
var smallSizes = []fyne.Size{{Width: 1024, Height: 600}, {Width: 800, Height: 600}}

// settle resizes the window and lets the layouts that depend on the
// width (the add buttons' rows) take their new height, as the driver
// does on its next frames.
func settle(d *Desktop, s fyne.Size) {
	d.win.Resize(s)
	for range 2 {
		d.win.Canvas().Content().Refresh()
		d.win.Resize(s)
	}
}

// insideX reports whether o, as placed in the window, lies within its
// width: a control past the right edge is cut off.
func insideX(d *Desktop, o fyne.CanvasObject) (fyne.Position, bool) {
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	w := d.win.Canvas().Size().Width
	return p, p.X >= 0 && p.X+o.Size().Width <= w+0.5
}

// showRow puts the cursor in the row's name and scrolls the row into
// the middle of the page, as a user reaching it does.
func showRow(d *Desktop, v *proposalView, r *itemRow, size fyne.Size) *itemRow {
	v.focus(r.fields[colName])
	settle(d, size)
	drv := fyne.CurrentApp().Driver()
	y := drv.AbsolutePositionForObject(r.more).Y - drv.AbsolutePositionForObject(v.body).Y
	v.scroll.ScrollToOffset(fyne.NewPos(0, max(0, y-v.scroll.Size().Height/2)))
	settle(d, size)
	return r
}

func TestSmallScreensKeepRowControlsInside(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	long := "Customer premises equipment rack, 42U, with cable management"
	v, _ := h.contentFixture(runName("Small screen"),
		[][2]string{{long, "1250.00"}, {"Cat6 drop", "85.00"}, {"Sonos Arc soundbar", "899.00"}},
		[][2]string{{"Wall mount", "120.00"}})
	for _, hidden := range []bool{false, true} {
		d.panes.setHidden(hidden, false)
		for _, size := range smallSizes {
			t.Run(fmt.Sprintf("%vx%v list hidden %v", size.Width, size.Height, hidden), func(t *testing.T) {
				settle(d, size)
				if m := d.win.Canvas().Content().MinSize(); m.Width > size.Width || m.Height > size.Height {
					t.Fatalf("the window cannot be %v: its content needs %v", size, m)
				}
				for _, name := range []string{long, "Cat6 drop", "Sonos Arc soundbar", "Wall mount"} {
					r := showRow(d, v, rowOfItem(t, v, name), size)
					if hint := v.cui().hints[v.p.Areas[0].Options[0].ID]; name == long && hint.Text != "Item: "+long {
						t.Errorf("with the cursor in the long name the hint line says %q", hint.Text)
					}
					for _, b := range []fyne.CanvasObject{r.more, r.remove, r.total, r.fields[colName]} {
						if !drawn(d, b) {
							t.Fatalf("%q: a control of its row is not drawn", name)
						}
						if p, ok := insideX(d, b); !ok || b.Size().Width < 1 {
							t.Errorf("%q: control at x %v, %v wide, in a window %v wide", name, p.X, b.Size().Width, size.Width)
						}
					}
				}
				// Every drawn button of the page: the option's remove,
				// the add buttons, Duplicate and Archive.
				walk(v.content, func(o fyne.CanvasObject) {
					var text string
					switch b := o.(type) {
					case *tipButton:
						text = b.Text
					case *widget.Button:
						text = b.Text
					default:
						return
					}
					if drawn(d, o) && o.Size().Width > 0 {
						if p, ok := insideX(d, o); !ok {
							t.Errorf("button %q at x %v, %v wide, in a window %v wide", text, p.X, o.Size().Width, size.Width)
						}
					}
				})

				// The ⋯ menu of the row at the window's bottom right
				// opens inside the window.
				r := showRow(d, v, rowOfItem(t, v, "Wall mount"), size)
				test.Tap(r.more)
				var menu *widget.PopUpMenu
				walk(d.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
					if m, ok := o.(*widget.PopUpMenu); ok && menu == nil {
						menu = m
					}
				})
				if menu == nil {
					t.Fatal("the ⋯ menu did not open")
				}
				c := d.win.Canvas().Size()
				p, s := menu.Position(), menu.Size()
				if p.X < 0 || p.Y < 0 || p.X+s.Width > c.Width+0.5 || p.Y+s.Height > c.Height+0.5 {
					t.Errorf("the ⋯ menu at %v, %v, in a window %v", p, s, c)
				}
				menu.Dismiss()
			})
		}
	}
}

// Ctrl+B hides the list and brings it back, from the window and from a
// field with the cursor; the button does the same; the choice is kept
// for the next start.
func TestListPaneCollapses(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v := h.openByName("Smith home theater")
	settle(d, fyne.NewSize(800, 600))
	width := func() float32 { return v.content.Size().Width }
	if !drawn(d, d.list.content) {
		t.Fatal("the list is not shown at start")
	}
	beside := width()

	h.shortcut(listKey)
	settle(d, fyne.NewSize(800, 600))
	if drawn(d, d.list.content) {
		t.Fatal("Ctrl+B left the list shown")
	}
	if width() <= beside+100 {
		t.Fatalf("the proposal is %v wide with the list hidden, %v beside it", width(), beside)
	}
	if d.panes.toggle.Text != showListLabel {
		t.Fatalf("button says %q", d.panes.toggle.Text)
	}

	// From a field with the cursor: the field passes the key on.
	d.win.Canvas().Focus(v.name)
	v.name.TypedShortcut(listShortcut())
	settle(d, fyne.NewSize(800, 600))
	if !drawn(d, d.list.content) {
		t.Fatal("Ctrl+B in a field did not bring the list back")
	}
	if width() != beside {
		t.Fatalf("the proposal is %v wide with the list back, was %v", width(), beside)
	}

	test.Tap(d.panes.toggle)
	if drawn(d, d.list.content) {
		t.Fatal("the button did not hide the list")
	}
	if set, _ := d.sess.st.Settings(); !set.ListHidden {
		t.Fatal("the hidden list is not in the settings")
	}

	// The next start shows the proposal alone.
	d.Close()
	d2 := New(fyne.CurrentApp(), Options{DataDir: h.dir, Keyring: h.keys, Do: h.enqueue, ManualSync: true})
	h.d = d2
	if d2.sess == nil {
		t.Fatal("no session resumed")
	}
	if drawn(d2, d2.list.content) || d2.panes.toggle.Text != showListLabel {
		t.Fatal("the list is shown again after a restart")
	}
	test.Tap(d2.panes.toggle)
	if !drawn(d2, d2.list.content) {
		t.Fatal("the button did not bring the list back")
	}
}

// The hint line names the whole item while the cursor is in its name.
func TestFocusedNameTip(t *testing.T) {
	for _, c := range []struct {
		col               int
		text, placeholder string
		want              string
	}{
		{colName, "Customer premises rack", "", "Item: Customer premises rack"},
		{colName, "  ", "Sonos Arc", "Item: Sonos Arc"},
		{colName, "", "", ""},
		{colSell, "150.00", "", ""},
	} {
		if got := focusedNameTip(c.col, c.text, c.placeholder); got != c.want {
			t.Errorf("focusedNameTip(%d, %q, %q) = %q, want %q", c.col, c.text, c.placeholder, got, c.want)
		}
	}
}
