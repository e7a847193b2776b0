package ui

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// field is a text entry that saves as you go: a save runs SaveDelay
// after the last keystroke, and at once when the field loses focus, so
// there is no save button to forget. Esc passes to the window (it closes
// dialogs) and the app's shortcuts work while typing.
type field struct {
	widget.Entry
	d *Desktop
	// save writes the text; it returns an error to show beside the field
	// (a rule refused the value), nil when saved.
	save func(text string) error
	// onError shows or clears save's error.
	onError func(err error)
	// page is the scroll the wheel moves when the field has nothing
	// more to show (see wheelCatcher).
	page func() fyne.Scrollable

	saved   string      // the last text saved (or loaded)
	err     error       // the last save's refusal (nil: saved)
	timer   *time.Timer // the pending debounced save
	loading bool
	gen     int // invalidates timers of earlier keystrokes

	// stored reads the field's value from a proposal (nil: the field
	// shows no single stored value; false: p no longer has it). With it, a value that changes in
	// the store (a sync) shows at once while the user is not typing,
	// and is kept as theirs while they are, so that their save asks
	// instead of overwriting it (follow).
	stored func(p *app.Proposal) (string, bool)
	// theirs is the stored value that changed under unsaved typing.
	theirs    string
	hasTheirs bool
	// onConflict asks the user which to keep (see keepMine, keepTheirs).
	onConflict func(f *field)

	// keys, when set, may take a shortcut before the entry does (an
	// item row's Ctrl+Delete and Alt+arrows); it reports whether it did.
	keys func(fyne.Shortcut) bool
	// onFocus runs when the field gains the focus (the page keeps its
	// neighbours drawn, for Tab).
	onFocus func()
	// tidy, when set, is how a saved text shows once the typing is done
	// (left, or Enter): a figure as app reads it, "150" as "150.00".
	tidy func(text string) string
	// cell draws the field as a table's cell (cellRenderer); hasFocus
	// is whether it has the focus, for its border.
	cell, hasFocus bool
}

// newField is a field showing rows lines (0: a single-line field).
// The rows and the read-only state are set before the entry is extended:
// set after, each lays the entry out at once, drawn or not.
func newField(d *Desktop, rows int, readOnly bool, save func(string) error) *field {
	f := &field{d: d, save: save}
	if rows > 0 {
		f.MultiLine = true
		f.Wrapping = fyne.TextWrapWord
		f.SetMinRowsVisible(rows)
	}
	if readOnly {
		f.Disable()
	}
	f.ExtendBaseWidget(f)
	f.OnChanged = f.changed
	return f
}

// load shows a stored value without saving it.
func (f *field) load(text string) {
	f.loading = true
	f.SetText(text)
	f.loading = false
	f.saved, f.err = text, nil
	f.hasTheirs = false
}

// follow takes the value p stores under the field: shown at once (focus
// and, where it still fits, the caret kept) when the user has not typed
// since the last save; otherwise remembered as theirs, and the next save
// asks which to keep instead of overwriting a colleague's change.
func (f *field) follow(p *app.Proposal) {
	if f.stored == nil || p == nil {
		return
	}
	nv, ok := f.stored(p)
	if !ok || nv == f.saved {
		return
	}
	if f.dirty() {
		f.theirs, f.hasTheirs = nv, true
		return
	}
	// All of it selected (a new proposal's default name, which the
	// server numbers anew) stays all selected, so that typing still
	// replaces it; otherwise the caret stays where it fits.
	all := f.Text != "" && f.SelectedText() == f.Text
	row, col := f.CursorRow, f.CursorColumn
	f.load(nv)
	if all {
		f.Entry.TypedShortcut(&fyne.ShortcutSelectAll{})
		return
	}
	lines := strings.Split(nv, "\n")
	row = min(row, len(lines)-1)
	f.CursorRow, f.CursorColumn = row, min(col, len([]rune(lines[row])))
	f.Refresh()
}

// rebase is follow for a stored value nobody else changed (the server's
// answer to what this computer made): typing not saved yet is kept, to
// be saved over it, without asking.
func (f *field) rebase(p *app.Proposal) {
	if f.stored == nil || p == nil {
		return
	}
	if nv, ok := f.stored(p); ok && f.dirty() {
		f.saved, f.hasTheirs = nv, false
		return
	}
	f.follow(p)
}

// keepMine saves the typed text over the value that changed under it.
func (f *field) keepMine() {
	f.saved, f.hasTheirs = f.theirs, false
	f.flush()
}

// keepTheirs drops the typing and shows the stored value.
func (f *field) keepTheirs() { f.load(f.theirs) }

// dirty reports whether typed text is not saved yet.
func (f *field) dirty() bool { return f.Text != f.saved }

func (f *field) changed(string) {
	if f.loading {
		return
	}
	f.gen++
	gen := f.gen
	if f.timer != nil {
		f.timer.Stop()
	}
	f.timer = time.AfterFunc(f.d.opts.SaveDelay, func() {
		f.d.opts.Do(func() {
			if gen == f.gen {
				f.flush()
			}
		})
	})
}

// flush saves the text now if it changed.
func (f *field) flush() {
	if f.timer != nil {
		f.timer.Stop()
		f.timer = nil
	}
	f.gen++
	if !f.dirty() || f.save == nil || f.Disabled() {
		return
	}
	if f.hasTheirs && f.Text != f.theirs && f.onConflict != nil {
		f.onConflict(f) // changed in the store while the user typed
		return
	}
	text := f.Text
	err := f.save(text)
	if err == nil {
		f.saved, f.hasTheirs = text, false
	}
	f.err = err
	if f.onError != nil {
		f.onError(err)
	}
}

// CreateRenderer puts a wheel catcher over the entry so that the wheel
// scrolls the page when the field shows all its text.
func (f *field) CreateRenderer() fyne.WidgetRenderer {
	return asCell(withWheelCatcher(f.Entry.CreateRenderer(), f.page), f)
}

// FocusGained tells the page. A single-line field Tab moved to selects
// its text, as a browser's form or a spreadsheet does, so that typing
// replaces the value: with the caret at the start, "4" typed into a
// quantity of 1 made 41. A click still puts the caret where it clicks
// (Fyne's MouseDown drops the selection), and a focus the app gives (a
// new line's name, a row moved) keeps its own caret.
func (f *field) FocusGained() {
	f.hasFocus = true
	f.Entry.FocusGained()
	if !f.MultiLine && f.d.tabbed() {
		f.Entry.TypedShortcut(&fyne.ShortcutSelectAll{})
	}
	if f.onFocus != nil {
		f.onFocus()
	}
}

// AcceptsTab is false: Tab leaves a multi-line field too, as it leaves
// a browser's text area, instead of typing a tab character into a
// proposal's description or notes (Fyne's multi-line entry keeps it).
func (f *field) AcceptsTab() bool { return false }

// KeyDown notes a Tab, which Fyne turns into a focus move after this.
func (f *field) KeyDown(ev *fyne.KeyEvent) {
	f.d.noteTab(ev)
	f.Entry.KeyDown(ev)
}

// FocusLost saves at once.
func (f *field) FocusLost() {
	f.hasFocus = false
	f.Entry.FocusLost()
	f.flush()
	f.showTidy()
}

// showTidy shows a saved text as tidy says, when it was saved as typed.
func (f *field) showTidy() {
	if f.tidy == nil || f.dirty() || f.err != nil {
		return
	}
	if t := f.tidy(f.Text); t != f.Text {
		f.load(t)
	}
}

// TypedKey passes Esc on to the window.
func (f *field) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		f.d.closeDialog()
		return
	}
	f.Entry.TypedKey(ev)
}

// TypedShortcut runs the app's shortcuts before the entry's own, and
// gives Ctrl+Home / Ctrl+End their usual meaning (start / end of the
// text), which Fyne's entry lacks.
func (f *field) TypedShortcut(s fyne.Shortcut) {
	if f.keys != nil && f.keys(s) {
		return
	}
	if f.d.handleShortcut(s) {
		return
	}
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault {
		switch cs.KeyName {
		case fyne.KeyEnd:
			f.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
			return
		case fyne.KeyHome:
			f.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageUp})
			return
		}
	}
	f.Entry.TypedShortcut(s)
}

// plainEntry is an entry without saving that still passes Esc and the
// app's shortcuts on (search boxes, dialog forms).
type plainEntry struct {
	widget.Entry
	d *Desktop
}

func newPlainEntry(d *Desktop) *plainEntry {
	e := &plainEntry{d: d}
	e.ExtendBaseWidget(e)
	return e
}

// KeyDown notes a Tab (see field.FocusGained).
func (e *plainEntry) KeyDown(ev *fyne.KeyEvent) {
	e.d.noteTab(ev)
	e.Entry.KeyDown(ev)
}

func (e *plainEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		e.d.escape()
		return
	}
	e.Entry.TypedKey(ev)
}

func (e *plainEntry) TypedShortcut(s fyne.Shortcut) {
	if e.d.handleShortcut(s) {
		return
	}
	e.Entry.TypedShortcut(s)
}

// tabMoveWindow is how soon after a Tab key went down a field that gains
// the focus counts it as moved there by the Tab: Fyne moves the focus
// within the same key event, and a Tab that reached no field must not
// make a later focus select.
const tabMoveWindow = 250 * time.Millisecond

// noteTab remembers a Tab (with or without Shift) going down in a field.
func (d *Desktop) noteTab(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyTab {
		d.tabAt = time.Now()
	}
}

// tabbed reports, once, whether a Tab just moved the focus.
func (d *Desktop) tabbed() bool {
	if d.tabAt.IsZero() || time.Since(d.tabAt) > tabMoveWindow {
		return false
	}
	d.tabAt = time.Time{}
	return true
}
