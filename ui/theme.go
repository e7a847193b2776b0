package ui

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// legibleTheme is the app's theme with read-only text people can read.
// Fyne draws a disabled entry's text, which is how a locked proposal
// shows its fields, in the Disabled colour: about 1.9:1 against the
// field in the light theme, too faint to read a name or a price. Here
// it is the foreground mixed part of the way to the background:
// greyed, at least 4.5:1 (WCAG AA for text) on the page, the
// fields and disabled buttons, light and dark (readOnlyText).
type legibleTheme struct{ fyne.Theme }

func newLegibleTheme(base fyne.Theme) fyne.Theme {
	if base == nil {
		base = theme.DefaultTheme()
	}
	return legibleTheme{base}
}

func (t legibleTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNameDisabled {
		return t.readOnlyText(v)
	}
	return t.Theme.Color(n, v)
}

// readOnlyText is the foreground moved toward the background as far as
// text stays at 4.5:1 on the page, in a field and on a disabled button
// (at most a third of the way; not at all if the foreground itself is
// no better).
func (t legibleTheme) readOnlyText(v fyne.ThemeVariant) color.Color {
	fg, bg := t.Theme.Color(theme.ColorNameForeground, v), t.Theme.Color(theme.ColorNameBackground, v)
	grounds := []color.Color{bg, t.Theme.Color(theme.ColorNameInputBackground, v), t.Theme.Color(theme.ColorNameDisabledButton, v)}
	for share := 0.33; share > 0; share -= 0.03 {
		c := mix(fg, bg, share)
		ok := true
		for _, g := range grounds {
			ok = ok && contrast(c, g) >= 4.6
		}
		if ok {
			return c
		}
	}
	return fg
}

// contrast is the WCAG contrast ratio of two colours (1 to 21).
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is a colour's WCAG relative luminance.
func luminance(c color.Color) float64 {
	r, g, b, _ := color.NRGBAModel.Convert(c).(color.NRGBA).RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// mix is a, moved the share toward b (opaque).
func mix(a, b color.Color, share float64) color.Color {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	m := func(x, y uint32) uint8 { return uint8((float64(x)*(1-share) + float64(y)*share) / 257) }
	return color.NRGBA{R: m(ar, br), G: m(ag, bg), B: m(ab, bb), A: 0xff}
}
