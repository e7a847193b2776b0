package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
)

// tab presses Tab as the window does: the focused field sees the key go
// down, then the focus moves on.
func tab(c fyne.Canvas) {
	if k, ok := c.Focused().(desktop.Keyable); ok {
		k.KeyDown(&fyne.KeyEvent{Name: fyne.KeyTab})
	}
	c.FocusNext()
}

// Tab into a line's quantity or price selects it, so that what is typed
// replaces the value ("4" into a quantity of 1 is 4, not 41; "12.5" into
// a price of 0.00 is 12.5, not 12.50.00); a field focused otherwise (a
// click, the app's own focus) keeps the caret where it was put.
func TestTabSelectsTheFieldsText(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v, _ := h.contentFixture(runName("Tab selects"), nil, nil)
	c := d.win.Canvas()
	test.Tap(tipButtons(v.body, "Custom item")[0])
	row := rowOfItem(t, v, "Custom item")
	test.Type(row.fields[colName], "Cable")
	qty, sell := row.fields[colQuantity], row.fields[colSell]
	if qty.Text != "1" || sell.Text == "" {
		t.Fatalf("a new line shows quantity %q and price %q", qty.Text, sell.Text)
	}
	before := sell.Text

	tab(c)
	if c.Focused() != qty {
		t.Fatalf("Tab from the name went to %T, not the quantity", c.Focused())
	}
	test.Type(qty, "4")
	if qty.Text != "4" {
		t.Fatalf("Tab, then 4 into a quantity of 1: %q, want 4", qty.Text)
	}
	tab(c)
	if c.Focused() != sell {
		t.Fatalf("Tab from the quantity went to %T, not the price", c.Focused())
	}
	test.Type(sell, "12.5")
	if sell.Text != "12.5" {
		t.Fatalf("Tab, then 12.5 into a price of %s: %q, want 12.5", before, sell.Text)
	}

	// Focused without a Tab (as a click or the app focuses): nothing is
	// selected, typing goes in at the caret.
	c.Unfocus()
	c.Focus(qty)
	if got := qty.SelectedText(); got != "" {
		t.Fatalf("a focus without Tab selected %q", got)
	}
	// A Tab that reached no field does not make the next focus select.
	d.noteTab(&fyne.KeyEvent{Name: fyne.KeyTab})
	c.Unfocus()
	d.tabAt = d.tabAt.Add(-2 * tabMoveWindow)
	c.Focus(sell)
	if got := sell.SelectedText(); got != "" {
		t.Fatalf("a focus long after a Tab selected %q", got)
	}
}

// Tab leaves the project description (a multi-line field) for the next
// field instead of typing a tab into it.
func TestTabLeavesAMultiLineField(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	v := h.newOwnProposal("Tab leaves")
	var desc *field
	for _, f := range v.fields {
		if f.MultiLine {
			desc = f
			break
		}
	}
	if desc == nil {
		t.Fatal("no multi-line field on the proposal")
	}
	// The window moves the focus on Tab unless the focused widget takes
	// Tab as text (fyne.Tabbable).
	var tb fyne.Tabbable = desc
	if tb.AcceptsTab() {
		t.Fatal("the description takes Tab as text")
	}
}
