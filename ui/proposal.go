package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// proposalView is the proposal screen. Text fields save as you go; every
// other control saves when used. What may be changed is app's answer
// (Role.Can, Operation.LockedIn, CanAddOption, Status.NextStatuses).
type proposalView struct {
	d   *Desktop
	id  int64
	rec *localstore.Record
	p   *app.Proposal
	sig string // what the screen was built from (see signature)
	// shape is what the page shows besides the items' rows (pageShape),
	// and page the page's box: a build of the same shape updates the
	// rows in place (update.go).
	shape string
	page  *cullBox
	ct    *contentUI

	fields []*field
	name   *field
	title  *widget.Label
	saved  *widget.Label // the one save indicator (see showSaved)
	// lines are the screen's hint lines, whose "Not saved" the
	// indicator counts too.
	lines   []*hintLine
	newArea *plainEntry // the name of an area to add
	header  *fyne.Container
	taxWarn *widget.Label
	summary *fyne.Container
	body    *fyne.Container
	scroll  *wheelScroll
	content fyne.CanvasObject
	// fieldErr is the last refusal of a field's save: the indicator
	// shows it until a save succeeds.
	fieldErr error
	culling  bool // in cull
	// alias maps the IDs the screen was built with to those a sync gave
	// in their place (see now).
	alias map[int64]int64
	// clientText and signedPDF are the Client card's (clientsend.go).
	clientText *widget.Label
	signedPDF  *widget.Button
	// laptopPDF is the signed PDF of an acceptance taken here (inperson.go).
	laptopPDF *widget.Button
	// reloaded is when reloadIfChanged last read the store; reloadDue
	// that a reload waits for reloadGap (a sync still running).
	reloaded  time.Time
	reloadDue bool
}

// reloadGap is the least time between two readings of what a sync
// brought while it still runs: a push acknowledges its edits one at a
// time, and reading and showing a 500-item proposal again for each of
// hundreds held the UI goroutine, and so the frames and the typing, for
// minutes. What the sync brought shows at most reloadGap late, and at
// once when it ends.
const reloadGap = 300 * time.Millisecond

func newProposalView(d *Desktop) *proposalView {
	v := &proposalView{d: d}
	v.body = container.NewVBox()
	v.scroll = newWheelScroll(v.body)
	v.scroll.OnScrolled = func(fyne.Position) { v.cull(nil) }
	v.scroll.moved = func() { v.cull(nil) }
	v.content = v.scroll
	v.showEmpty()
	return v
}

func (v *proposalView) showEmpty() {
	// The fields leave with the proposal: none may save into whatever
	// is shown next, nor keep the keys.
	v.flush()
	if f, ok := v.d.win.Canvas().Focused().(*field); ok && slices.Contains(v.fields, f) {
		v.d.win.Canvas().Unfocus()
	}
	v.id, v.rec, v.p, v.page, v.shape = 0, nil, nil, nil, ""
	v.fields, v.name, v.title, v.saved, v.header, v.lines, v.newArea = nil, nil, nil, nil, nil, nil, nil
	hint := widget.NewLabel("Select a proposal in the list, or press Ctrl+N to start a new one.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	v.body.Objects = []fyne.CanvasObject{container.NewPadded(hint)}
	v.body.Refresh()
}

// open shows a proposal.
func (v *proposalView) open(id int64) {
	v.flush()
	rec, err := v.record(id)
	if err == nil && rec.ID != id && rec.ID == v.id {
		// The setting names the proposal shown until now, not the one
		// asked for: never open it in its place.
		err = errNoProposal
	}
	if err != nil {
		v.showEmpty()
		return
	}
	if v.d.lastNew == id {
		v.d.lastNew = rec.ID
	}
	v.id, v.rec, v.p = rec.ID, rec, rec.Local
	v.alias = nil
	v.fieldErr = nil
	v.cui().forget()
	v.build()
	v.scroll.ScrollToTop()
	v.d.list.selectID(v.id)
}

var errNoProposal = errors.New("the proposal is not on this computer")

// record reads proposal id from the store; a temporary ID that a sync
// has replaced since reads as the proposal under its real ID.
func (v *proposalView) record(id int64) (*localstore.Record, error) {
	return v.d.sess.st.Record(id)
}

// flush saves every field with unsaved typing.
func (v *proposalView) flush() {
	v.commitRemoval()
	for _, f := range v.fields {
		f.flush()
	}
}

// busyTyping reports whether the user is at work in the screen: a field
// with unsaved typing, or the keys in anything of the screen (a field,
// the new area's name): building the screen again then would take the
// text, caret and selection from under their hands.
func (v *proposalView) busyTyping() bool {
	for _, f := range v.fields {
		if f.dirty() {
			return true
		}
	}
	if v.newArea != nil && v.newArea.Text != "" {
		return true
	}
	var o fyne.CanvasObject
	switch x := v.d.win.Canvas().Focused().(type) {
	case *field:
		o = x
	case *plainEntry:
		o = x
	default:
		return false
	}
	return chainTo(v.body, o) != nil
}

func signature(r *localstore.Record) string {
	if r == nil || r.Local == nil {
		return ""
	}
	p := r.Local
	return fmt.Sprint(p.ID, p.Version, p.LastModifiedDate, p.Status, r.ReadOnly, len(r.Conflicts), r.BaseVersion)
}

// reloadIfChanged shows what a sync brought, unless the user is typing
// in this screen (then the indicator changes and the rest waits).
func (v *proposalView) reloadIfChanged() {
	if v.id == 0 || v.d.sess == nil {
		return
	}
	if v.d.sess.eng.State().Syncing && time.Since(v.reloaded) < reloadGap {
		if !v.reloadDue {
			v.reloadDue = true
			time.AfterFunc(reloadGap, func() {
				v.d.opts.Do(func() {
					if v.reloadDue {
						v.reloadIfChanged()
					}
				})
			})
		}
		return
	}
	v.reloadDue, v.reloaded = false, time.Now()
	rec, err := v.record(v.id)
	if err != nil {
		v.showEmpty()
		return
	}
	renamed := rec.ID != v.id // made here, and the server's ID now
	if !renamed && signature(rec) == v.sig {
		v.refreshClient() // events arrive after the proposal
		v.showSaved()
		return
	}
	if v.busyTyping() {
		// Not under the user's hands: the screen stays as it is, so the
		// field typed in keeps its text, caret and selection, and what
		// it and every row edit follows the IDs the sync gave (take).
		// The fields take the new values in place; a field being typed
		// in keeps the typing and asks at its save. The rest follows
		// when the typing ends.
		v.take(rec)
		for _, f := range v.fields {
			if renamed {
				// Made here and just sent: a value that differs is the
				// server's own (a default name with the server's
				// number), not a colleague's change to ask about.
				f.rebase(rec.Local)
			} else {
				f.follow(rec.Local)
			}
		}
		if renamed {
			v.title.SetText(v.titleText())
			v.d.list.refresh() // the row under its new ID, to select
			v.d.list.selectID(v.id)
		}
		v.showSaved()
		return
	}
	v.take(rec)
	v.build()
	if renamed {
		v.d.list.refresh()
		v.d.list.selectID(v.id)
	}
}

// edit applies a mutation through the engine; the local view and the
// outbox change together.
func (v *proposalView) edit(m app.Mutation) error {
	s := v.d.sess
	if s == nil {
		return fmt.Errorf("not signed in")
	}
	if pid := m.ProposalID(); pid != v.id && v.id != 0 && v.now(pid) == v.id {
		app.RemapID(m, pid, v.id) // made before a sync gave the proposal its ID
	}
	if v.id == 0 || v.p == nil || m.ProposalID() != v.id {
		return errNoProposal // a widget of a screen no longer shown
	}
	v.commitRemoval() // an edit ends the undo of a removal
	// A temporary ID of m that a sync replaced since the screen was
	// built is read by the store as the real one.
	p, err := s.eng.Edit(context.Background(), v.id, m)
	if err != nil {
		return err
	}
	if rec, err := s.st.Record(v.id); err == nil {
		v.take(rec)
		v.sig = signature(rec)
	} else {
		v.p = p
	}
	// The edit's IDs as the store read them: what the caller looks up
	// next (the line it added, to put the cursor in) is under the real
	// ID when a sync replaced a temporary one before the screen took it.
	for _, id := range app.RefIDs(m) {
		if to := v.now(id); to != id {
			app.RemapID(m, id, to)
		}
	}
	v.showSaved()
	v.refreshSummary()
	v.d.list.refresh()
	return nil
}

// editAndRebuild is edit for structural changes: the screen is built
// again from the new view; a refusal is shown in the error line.
func (v *proposalView) editAndRebuild(m app.Mutation) {
	v.flush()
	if err := v.edit(m); err != nil {
		v.showError(err)
		return
	}
	v.build()
}

// showError shows a refused edit in the indicator (nil clears it).
func (v *proposalView) showError(err error) {
	v.fieldErr = err
	v.showSaved()
}

// explainField is a refused edit in words: "Name is required." for a
// field's rule, else explain's sentence.
func explainField(err error) string {
	var ae *app.Error
	if errors.As(err, &ae) && len(ae.Fields) > 0 {
		parts := make([]string, len(ae.Fields))
		for i, f := range ae.Fields {
			parts[i] = sentence(f.Field + " " + f.Message)
		}
		return strings.Join(parts, " ")
	}
	return explain(err)
}

// showSaved is the proposal's one save indicator, reporting the worst
// state: a refused field first, then conflicts, refused edits, unsent
// edits, else in sync. It sits in the header's single line, so a
// message never moves the form.
func (v *proposalView) showSaved() {
	if v.saved == nil || v.d.sess == nil {
		return
	}
	defer v.d.status.showPending()
	it, ok := v.d.sess.st.Item(v.id)
	unsaved, changedUnder := false, false
	for _, f := range v.fields {
		unsaved = unsaved || f.dirty()
		changedUnder = changedUnder || f.hasTheirs
	}
	switch refused := v.refusal(); {
	case refused != nil:
		v.saved.SetText("Not saved: " + explainField(refused))
		v.saved.Importance = widget.DangerImportance
	case changedUnder:
		v.saved.SetText("Changed on the server while you typed: you choose at the save")
		v.saved.Importance = widget.DangerImportance
	case unsaved:
		v.saved.SetText("Typing · not saved yet")
		v.saved.Importance = widget.WarningImportance
	case !ok:
		v.saved.SetText("")
	case it.Conflicts > 0:
		v.saved.SetText(fmt.Sprintf("Saved locally · %s with the server — review it in the status bar", plural(it.Conflicts, "conflict", "conflicts")))
		v.saved.Importance = widget.DangerImportance
	case it.Failed > 0:
		v.saved.SetText("Saved locally · " + plural(it.Failed, "edit was refused", "edits were refused") + " by the server")
		v.saved.Importance = widget.DangerImportance
	case it.Pending > 0:
		v.saved.SetText(fmt.Sprintf("Saved locally · %d unsent", it.Pending))
		v.saved.Importance = widget.WarningImportance
	default:
		v.saved.SetText("Saved · in sync with the server")
		v.saved.Importance = widget.SuccessImportance
	}
	v.saved.Refresh()
	v.header.Refresh()
}

// refusal is the refused value the screen shows as not saved (in the
// indicator, a field's hint line), if any.
func (v *proposalView) refusal() error {
	if v.fieldErr != nil {
		return v.fieldErr
	}
	for _, f := range v.fields {
		if f.err != nil {
			return f.err
		}
	}
	for _, h := range v.lines {
		if h.err != nil {
			return h.err
		}
	}
	return nil
}

// unsaved says what the open proposal's screen has that is not in the
// store: a refused value, or typing not saved yet.
func (v *proposalView) unsaved() (refused, typing bool) {
	if v == nil || v.p == nil {
		return false, false
	}
	for _, f := range v.fields {
		typing = typing || f.dirty()
	}
	return v.refusal() != nil, typing
}

// hint is a hint line of the screen: its "Not saved" counts in the
// indicator.
func (v *proposalView) hint(rest string) *hintLine {
	h := newHintLine(rest)
	h.changed = v.showSaved
	v.lines = append(v.lines, h)
	return h
}

// askKeep asks which value a field keeps when the store's changed while
// the user typed in it (another computer saved first): theirs is not
// overwritten without the user seeing it.
func (v *proposalView) askKeep(f *field) {
	msg := widget.NewLabel("While you typed, this was changed on another computer to:\n\n" + shownValue(f.theirs) +
		"\n\nKeep your text, or take theirs?")
	msg.Wrapping = fyne.TextWrapWord
	// Closing the question without an answer (Esc, another dialog)
	// decides nothing: the typing stays and the next save asks again.
	var dl dialog.Dialog
	choose := func(keep func()) func() {
		return func() {
			dl.Hide()
			keep()
			v.showSaved()
		}
	}
	mine := widget.NewButton("Keep mine", choose(f.keepMine))
	mine.Importance = widget.HighImportance
	theirs := widget.NewButton("Take theirs", choose(f.keepTheirs))
	dl = dialog.NewCustomWithoutButtons("Changed while you typed",
		container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), theirs, mine), nil, nil,
			container.NewGridWrap(fyne.NewSize(440, 150), msg)), v.d.win)
	v.d.showDialog(dl)
}

func shownValue(s string) string {
	if s == "" {
		return "(empty)"
	}
	if r := []rune(s); len(r) > 300 {
		return string(r[:300]) + "…"
	}
	return s
}

func (v *proposalView) focusName() {
	if v.name != nil && !v.name.Disabled() {
		v.focus(v.name)
		v.name.TypedShortcut(&fyne.ShortcutSelectAll{}) // typing replaces the default name
	}
}

// build lays the screen out from v.p: anew, or, when only items changed
// since it was laid out, by laying out again the rows of their options
// (updateItems).
func (v *proposalView) build() {
	v.showPending() // a removal waiting for its undo stays off the view read again
	s := v.d.sess
	p := v.p
	v.sig = signature(v.rec)
	role := s.user.Role
	canEdit := role.Can(app.PermEditProposals) && !v.rec.ReadOnly
	locked := func(op app.Operation) bool { return !canEdit || op.LockedIn(p.Status) }
	shape := v.pageShape()
	if shape == v.shape && v.updateItems(locked) {
		v.showTotals(v.p)
		v.showSaved()
		return
	}
	v.shape = shape
	v.fields, v.lines, v.newArea = nil, nil, nil

	var objs []fyne.CanvasObject
	v.saved = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{})
	v.saved.Truncation = fyne.TextTruncateEllipsis
	v.title = widget.NewLabelWithStyle(v.titleText(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.header = container.NewBorder(nil, nil, v.title, nil, v.saved)
	objs = append(objs, v.header)
	if b := v.banner(canEdit); b != nil {
		objs = append(objs, b)
	}
	v.taxWarn = widget.NewLabel("")
	v.taxWarn.Importance = widget.WarningImportance
	v.taxWarn.Wrapping = fyne.TextWrapWord
	objs = append(objs, v.taxWarn)

	// Name.
	v.name = v.textField(0, p.Name, locked(app.OpUpdateProposal), func(text string) error {
		return v.edit(&app.UpdateProposal{ID: v.id, Name: &text})
	})
	v.name.stored = func(p *app.Proposal) (string, bool) { return p.Name, true }
	form := widget.NewForm(widget.NewFormItem("Name", v.name))
	form.Append("Salesperson", v.salespersonPicker(locked(app.OpUpdateProposal)))
	form.Append("Status", v.statusPicker(canEdit))
	form.Append("Customer", v.customerPicker(locked(app.OpAssignContact)))
	form.Append("Location", v.locationPicker(locked(app.OpAssignLocation)))
	objs = append(objs, form)
	objs = append(objs, v.proposalActions(canEdit))

	desc := v.textField(4, p.ProjectDescription, locked(app.OpSetDescription), func(text string) error {
		return v.edit(&app.SetDescription{ID: v.id, Description: text})
	})
	desc.stored = func(p *app.Proposal) (string, bool) { return p.ProjectDescription, true }
	objs = append(objs, heading("Project description", "client-facing: the client sees this", widget.MediumImportance), desc)
	notes := v.textField(3, p.InternalNotes, locked(app.OpSetInternalNotes), func(text string) error {
		return v.edit(&app.SetInternalNotes{ID: v.id, InternalNotes: text})
	})
	notes.stored = func(p *app.Proposal) (string, bool) { return p.InternalNotes, true }
	notes.PlaceHolder = ("Gate codes, wiring notes, anything the installers need. Never shown to the client.")
	objs = append(objs, heading("Installer notes", "INTERNAL: never shown to the client", widget.WarningImportance), notes)
	// What the client has seen and decided, under the fields being
	// written, above the content.
	objs = append(objs, v.clientCard())

	objs = append(objs, v.areas(locked)...)

	v.summary = container.NewVBox()
	v.refreshSummary()
	objs = append(objs, newCard("Financial summary", "", v.summary))
	if len(p.ChangeOrders) > 0 {
		objs = append(objs, v.changeOrders())
	}
	top, bottom := v.viewport()
	page := newCullBox(objs, nil, top, bottom)
	page.after = func() { v.cull(nil) }
	v.page = page
	v.body.Objects = []fyne.CanvasObject{newBody(container.NewPadded(page))}
	v.body.Refresh()
	v.showSaved()
}

func (v *proposalView) titleText() string {
	if app.IsTemporaryID(v.p.ID) {
		return "New proposal (not on the server yet)"
	}
	return fmt.Sprintf("Proposal #%d", v.p.Number)
}

// showTaxProblem warns, near the top, when sales tax cannot be computed
// (the location's state is not in the tax table, or there is no
// location yet): the total would silently lack the tax otherwise.
func (v *proposalView) showTaxProblem(st app.TaxStatus) {
	if v.taxWarn == nil {
		return
	}
	text := st.Problem()
	if text == "" {
		v.taxWarn.Hide()
		return
	}
	v.taxWarn.SetText("⚠ " + text + ". The total has no sales tax.")
	v.taxWarn.Importance = widget.WarningImportance
	if st == app.TaxUndefined {
		v.taxWarn.Importance = widget.LowImportance
	}
	v.taxWarn.Show()
	v.taxWarn.Refresh()
}

// banner explains why the screen is read-only, if it is.
func (v *proposalView) banner(canEdit bool) fyne.CanvasObject {
	p := v.p
	var text string
	switch {
	case v.rec.ReadOnly:
		text = "The server locked this proposal while you had unsent edits. Those edits are listed as failed; the proposal is read-only."
	case !v.d.sess.user.Role.Can(app.PermEditProposals):
		text = fmt.Sprintf("Your role (%s) can view proposals but not change them.", v.d.sess.user.Role)
	case p.Status.Locked():
		text = fmt.Sprintf("This proposal is %s, so it is read-only. %s", p.Status.Label(), lockedStillEditable)
	default:
		return nil
	}
	l := widget.NewLabel("🔒 " + text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.WarningImportance
	return newCard("", "", l)
}

func heading(title, note string, imp widget.Importance) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	n := widget.NewLabel("(" + note + ")")
	n.Importance = imp
	return container.NewHBox(t, n)
}

// textField is a field that saves through save (rows: the lines a
// multi-line field shows; 0 for one line); a refusal shows in the
// screen's error line and the text stays for the user to fix.
func (v *proposalView) textField(rows int, text string, readOnly bool, save func(string) error) *field {
	f := newField(v.d, rows, readOnly, save)
	f.page = func() fyne.Scrollable { return v.scroll }
	// Set before the field is drawn, not with SetText, which would lay
	// the text out at once and again when the screen is placed (a
	// 500-item proposal has 2,000 fields).
	f.Text, f.saved = text, text
	f.onError = v.showError
	if rows == 0 {
		f.OnSubmitted = func(string) { f.flush() } // Enter saves
	}
	f.onConflict = v.askKeep
	f.onFocus = func() { v.cull(nil) }
	v.fields = append(v.fields, f)
	return f
}

func (v *proposalView) salespersonPicker(readOnly bool) fyne.CanvasObject {
	users, _ := v.d.sess.st.Users()
	p := v.p
	labels := make([]string, 0, len(users)+1)
	ids := map[string]int64{}
	current := ""
	for _, u := range users {
		l := strings.TrimSpace(u.FirstName+" "+u.LastName) + " <" + u.Email + ">"
		labels = append(labels, l)
		ids[l] = u.ID
		if u.ID == p.SalesPerson.ID {
			current = l
		}
	}
	if current == "" {
		sp := p.SalesPerson
		current = strings.TrimSpace(sp.FirstName+" "+sp.LastName) + " <" + sp.Email + ">"
		labels = append(labels, current)
		ids[current] = sp.ID
	}
	sel := widget.NewSelect(labels, nil)
	sel.SetSelected(current)
	sel.OnChanged = func(l string) {
		id := ids[l]
		if id == v.p.SalesPerson.ID {
			return
		}
		v.editAndRebuild(&app.UpdateProposal{ID: v.id, SalesPersonID: &id})
	}
	if readOnly {
		sel.Disable()
	}
	return sel
}

func (v *proposalView) statusPicker(canEdit bool) fyne.CanvasObject {
	p := v.p
	cur := widget.NewLabelWithStyle(p.Status.Label(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	next := p.Status.NextStatuses()
	labels := make([]string, len(next))
	for i, s := range next {
		labels[i] = s.Label()
	}
	var move *widget.Select
	move = widget.NewSelect(labels, func(string) {
		i := move.SelectedIndex()
		if i < 0 {
			return
		}
		v.moveStatus(next[i], func() { move.ClearSelected() })
	})
	move.PlaceHolder = "Move to…"
	if len(next) == 0 {
		move.PlaceHolder = "No moves from " + p.Status.Label()
	}
	if !canEdit || len(next) == 0 {
		move.Disable()
	}
	return container.NewHBox(cur, move)
}
