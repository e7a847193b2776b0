package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// The list row's secondary line (customer · status) stays readable on
// the background and on the selection highlight, light and dark: WCAG
// contrast of at least 3:1 unselected (secondary text) and 4.5:1 on the
// selection, where the old disabled colour was about 1.2:1.
func TestRowSecondaryLineContrast(t *testing.T) {
	th := theme.DefaultTheme()
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		bg := th.Color(theme.ColorNameBackground, v)
		sel := over(th.Color(theme.ColorNameSelection, v), bg)
		if c := contrast(th.Color(subColor(false), v), bg); c < 3 {
			t.Errorf("variant %d: secondary line on the background %.2f:1", v, c)
		}
		if c := contrast(th.Color(subColor(true), v), sel); c < 4.5 {
			t.Errorf("variant %d: secondary line on the selection %.2f:1", v, c)
		}
	}
}

// The selected row shows its secondary line in the selected colour.
func TestSelectedRowSecondaryLine(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v := h.openByName("Smith home theater")
	seg := func(id int64) *widget.TextSegment { return h.rowOf(id).sub.Segments[0].(*widget.TextSegment) }
	if s := seg(v.p.ID); s.Style.ColorName != subColor(true) || s.Text != "Carla Client · "+string(v.p.Status) {
		t.Fatalf("selected row: %q in %s", s.Text, s.Style.ColorName)
	}
	for _, r := range d.list.rows {
		if r.ID != v.p.ID {
			if s := seg(r.ID); s.Style.ColorName != subColor(false) {
				t.Fatalf("unselected row in %s", s.Style.ColorName)
			}
			break
		}
	}
}

// over composites c over an opaque background.
func over(c, bg color.Color) color.Color {
	r, g, b, a := c.RGBA()
	br, bgG, bb, _ := bg.RGBA()
	mix := func(x, y uint32) uint8 { return uint8((x + y*(0xffff-a)/0xffff) >> 8) }
	return color.NRGBA{R: mix(r, br), G: mix(g, bgG), B: mix(b, bb), A: 0xff}
}

// The count keeps room for its text as it grows ("1 proposal", then
// every one), laid out again without refreshing the search box.
func TestCountKeepsRoomForItsText(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	d.Search("Smith home theater")
	if d.list.count.Text != "1 proposal" {
		t.Fatalf("count %q for one match", d.list.count.Text)
	}
	narrow := d.list.count.MinSize().Width
	d.Search("")
	c := d.list.count
	if c.MinSize().Width <= narrow {
		t.Fatalf("count %q: the text does not grow", c.Text)
	}
	if c.Size().Width < c.MinSize().Width {
		t.Fatalf("count %q is %.0f wide, its text needs %.0f", c.Text, c.Size().Width, c.MinSize().Width)
	}
}
