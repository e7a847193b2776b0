package ui

import (
	"errors"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// formDialog is a dialog with a form that keeps what was typed: a
// refusal leaves it open with the field marked and the reason shown.
// Enter in a field submits; Esc cancels.
type formDialog struct {
	d       *Desktop
	dl      dialog.Dialog
	form    *widget.Form
	msg     *widget.Label
	confirm *widget.Button
	// entries and labels by app's field name (app.FieldError.Field).
	entries map[string]*plainEntry
	labels  map[string]string
	submit  func() error
}

// formField is one row: its label, app's name for the field, and the
// widget.
type formField struct {
	label, field string
	w            fyne.CanvasObject
}

func (d *Desktop) newFormDialog(title, confirm string, size fyne.Size, rows []formField, submit func() error) *formDialog {
	f := &formDialog{d: d, entries: map[string]*plainEntry{}, labels: map[string]string{}, submit: submit}
	f.form = widget.NewForm()
	for _, r := range rows {
		f.form.Append(r.label, r.w)
		if r.field == "" {
			continue
		}
		f.labels[r.field] = r.label
		if e, ok := r.w.(*plainEntry); ok {
			e.AlwaysShowValidationError = true
			e.OnSubmitted = func(string) { f.trySubmit() }
			f.entries[r.field] = e
		}
	}
	f.msg = widget.NewLabel("")
	f.msg.Importance = widget.DangerImportance
	f.msg.Wrapping = fyne.TextWrapWord
	f.confirm = widget.NewButton(confirm, f.trySubmit)
	f.confirm.Importance = widget.HighImportance
	buttons := container.NewHBox(layout.NewSpacer(), widget.NewButton("Cancel", func() { f.dl.Hide() }), f.confirm)
	body := container.NewBorder(nil, buttons, nil, nil, container.NewVBox(f.form, f.msg))
	f.dl = dialog.NewCustomWithoutButtons(title, container.New(layout.NewGridWrapLayout(size), body), d.win)
	return f
}

func (f *formDialog) show(focus fyne.Focusable) {
	f.d.form = f
	f.d.showDialogThen(f.dl, func() {
		if f.d.form == f {
			f.d.form = nil
		}
	})
	if focus != nil {
		f.d.win.Canvas().Focus(focus)
	}
}

// trySubmit runs submit; the dialog closes only when it succeeds.
func (f *formDialog) trySubmit() {
	for _, e := range f.entries {
		e.SetValidationError(nil)
	}
	err := f.submit()
	if err == nil {
		f.msg.SetText("")
		f.dl.Hide()
		return
	}
	var ae *app.Error
	if errors.As(err, &ae) && len(ae.Fields) > 0 {
		var lines []string
		for _, fe := range ae.Fields {
			label := f.labels[fe.Field]
			if label == "" {
				label = fe.Field
			}
			if e := f.entries[fe.Field]; e != nil {
				e.SetValidationError(errors.New(fe.Message))
				f.d.win.Canvas().Unfocus() // a focused entry hides its mark
			}
			lines = append(lines, sentence(label+" "+fe.Message))
		}
		f.msg.SetText(strings.Join(lines, "\n"))
		return
	}
	f.msg.SetText(explain(err))
}

// stateSelect picks a US state from the tax table's list ("Texas
// (TX)"); abbrev is the chosen state's abbreviation, or "".
// Typing a state's first letters while it has the focus chooses it.
func stateSelect() (sel *typeAheadSelect, abbrev func() string) {
	states := app.USTaxTable().States()
	labels := make([]string, len(states))
	for i, s := range states {
		labels[i] = s.Name + " (" + s.Abbrev + ")"
	}
	sel = newTypeAheadSelect(labels, "Choose a state")
	return sel, func() string {
		if i := sel.SelectedIndex(); i >= 0 {
			return states[i].Abbrev
		}
		return ""
	}
}
