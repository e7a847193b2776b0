package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// The driver gives a key to the focused widget, and a click on a check
// or a Tab onto a button leaves that widget focused (even after it left
// the screen, as the consent box does once the client has accepted). A
// plain check or button swallows Esc, so the present mode's own take Esc
// to the salesperson's question, as the window and the name field do.

// escCheck is a check that passes Esc on.
type escCheck struct {
	widget.Check
	esc func()
}

func newEscCheck(changed func(bool), esc func()) *escCheck {
	c := &escCheck{esc: esc}
	c.OnChanged = changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey takes Esc to the question and the rest to the check.
func (c *escCheck) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		c.esc()
		return
	}
	c.Check.TypedKey(ev)
}

// escButton is a button that passes Esc on.
type escButton struct {
	widget.Button
	esc func()
}

func newEscButton(label string, icon fyne.Resource, tapped, esc func()) *escButton {
	b := &escButton{esc: esc}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey takes Esc to the question and the rest to the button.
func (b *escButton) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		b.esc()
		return
	}
	b.Button.TypedKey(ev)
}
