package ui

import "strings"

// showNameOnFocus: while the cursor is in an item's name, the option's
// hint line shows the whole name, which a narrow pane cuts short in the
// row; the row's other fields take it back.
func (v *proposalView) showNameOnFocus(row *itemRow, hint *hintLine) {
	if hint == nil {
		return
	}
	for col, f := range row.fields {
		before := f.onFocus
		f.onFocus = func() {
			if before != nil {
				before()
			}
			hint.hover(focusedNameTip(col, f.Text, f.PlaceHolder))
		}
	}
	// A rename saved with the cursor still in the name shows the new
	// name; a refused one shows the refusal, which the name would hide.
	f := row.fields[colName]
	saved := f.onError
	f.onError = func(err error) {
		if saved != nil {
			saved(err)
		}
		if f.d.win.Canvas().Focused() != f {
			return
		}
		tip := ""
		if err == nil {
			tip = focusedNameTip(colName, f.Text, f.PlaceHolder)
		}
		hint.hover(tip)
	}
}

// focusedNameTip is what the hint line says while column col of an item
// row has the cursor: the item's whole name in its name column (its
// brand and model, the name's placeholder, when it has none), else
// nothing.
func focusedNameTip(col int, text, placeholder string) string {
	if col != colName {
		return ""
	}
	name := strings.TrimSpace(text)
	if name == "" {
		name = strings.TrimSpace(placeholder)
	}
	if name == "" {
		return ""
	}
	return "Item: " + name
}
