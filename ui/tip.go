package ui

import (
	"errors"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// The content controls' tooltips live in a hint line of their section
// (Fyne 2.7 has no tooltips, and a pop-up overlay would take the
// pointer's events away from the window). The line always takes one
// line of text, so neither a tip nor an error moves the layout.

// hintLine says what the control under the pointer does, or what was
// wrong with the last value typed, or else its resting text.
type hintLine struct {
	*widget.Label
	rest string
	err  error
	tip  string
	// changed, if set, runs when the line starts or stops showing a
	// refusal (the proposal's indicator counts it).
	changed func()
}

func newHintLine(rest string) *hintLine {
	h := &hintLine{Label: widget.NewLabel(""), rest: rest}
	h.Truncation = fyne.TextTruncateEllipsis
	h.show()
	return h
}

// show puts the hovered tip first, then an error, then the resting text.
func (h *hintLine) show() {
	text, imp := h.rest, widget.LowImportance
	switch {
	case h.tip != "":
		text, imp = h.tip, widget.MediumImportance
	case h.err != nil:
		text, imp = "⚠ Not saved: "+fieldSentence(h.err), widget.DangerImportance
	}
	h.Label.Importance = imp
	h.Label.SetText(text)
}

// setError shows err until a value is accepted (nil).
func (h *hintLine) setError(err error) {
	was := h.err != nil
	h.err = err
	h.show()
	if h.changed != nil && was != (err != nil) {
		h.changed()
	}
}

func (h *hintLine) hover(tip string) {
	h.tip = tip
	h.show()
}

// fieldWords are the API's field names as people say them.
var fieldWords = map[string]string{
	"Quantity": "Quantity", "SellPrice": "Sell price", "Cost": "Cost", "Name": "Name",
	"PartsDiscountPercentage": "Discount", "PartsDiscountAmount": "Discount", "ParentId": "Nesting",
	"AreaOptionId": "Option",
}

// fieldSentence is a refusal in words: "Quantity must be more than 0…"
// for a field's rule, else explain's sentence.
func fieldSentence(err error) string {
	var ae *app.Error
	if errors.As(err, &ae) && len(ae.Fields) == 1 {
		f := ae.Fields[0]
		name, ok := fieldWords[f.Field]
		if !ok {
			name = f.Field
		}
		return sentence(name + " " + f.Message)
	}
	return explain(err)
}

// tipButton is a button whose tip (what it does, its shortcut, or why
// it is disabled) shows in a hint line while the pointer is over it.
type tipButton struct {
	widget.Button
	tip  string
	line *hintLine
}

var _ desktop.Hoverable = (*tipButton)(nil)

func newTipButton(label string, icon fyne.Resource, tip string, line *hintLine, tapped func()) *tipButton {
	b := &tipButton{tip: tip, line: line}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// disable disables the button and makes why its tip.
func (b *tipButton) disable(why string) {
	b.tip = why
	b.Disable()
}

func (b *tipButton) MouseIn(ev *desktop.MouseEvent) {
	b.Button.MouseIn(ev)
	if b.line != nil {
		b.line.hover(b.tip)
	}
}

func (b *tipButton) MouseOut() {
	b.Button.MouseOut()
	if b.line != nil {
		b.line.hover("")
	}
}
