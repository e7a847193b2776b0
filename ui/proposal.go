package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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
	ct  *contentUI

	fields   []*field
	name     *field
	saved    *widget.Label
	header   *fyne.Container
	errLabel *widget.Label
	summary  *fyne.Container
	body     *fyne.Container
	scroll   *container.Scroll
	content  fyne.CanvasObject
}

func newProposalView(d *Desktop) *proposalView {
	v := &proposalView{d: d}
	v.body = container.NewVBox()
	v.scroll = container.NewVScroll(v.body)
	v.content = v.scroll
	v.showEmpty()
	return v
}

func (v *proposalView) showEmpty() {
	hint := widget.NewLabel("Select a proposal in the list, or press Ctrl+N to start a new one.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	v.body.Objects = []fyne.CanvasObject{container.NewPadded(hint)}
	v.body.Refresh()
}

// open shows a proposal.
func (v *proposalView) open(id int64) {
	v.flush()
	rec, err := v.d.sess.st.Record(id)
	if err != nil {
		v.id, v.rec, v.p = 0, nil, nil
		v.showEmpty()
		return
	}
	v.id, v.rec, v.p = id, rec, rec.Local
	v.build()
	v.scroll.ScrollToTop()
	v.d.list.selectID(id)
}

// flush saves every field with unsaved typing.
func (v *proposalView) flush() {
	v.commitRemoval()
	for _, f := range v.fields {
		f.flush()
	}
}

func (v *proposalView) busyTyping() bool {
	focused := v.d.win.Canvas().Focused()
	for _, f := range v.fields {
		if f.dirty() || focused == f {
			return true
		}
	}
	return false
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
	st := v.d.sess.st
	rec, err := st.Record(v.id)
	if err != nil {
		// A proposal made offline has its server ID now: the store
		// remapped the last-open setting to it.
		if set, serr := st.Settings(); serr == nil && v.id < 0 && set.LastOpenProposal > 0 {
			v.open(set.LastOpenProposal)
			return
		}
		v.id, v.rec, v.p = 0, nil, nil
		v.showEmpty()
		return
	}
	if signature(rec) == v.sig || v.busyTyping() {
		v.showSaved()
		return
	}
	v.rec, v.p = rec, rec.Local
	v.build()
}

// edit applies a mutation through the engine; the local view and the
// outbox change together.
func (v *proposalView) edit(m app.Mutation) error {
	s := v.d.sess
	if s == nil {
		return fmt.Errorf("not signed in")
	}
	v.commitRemoval() // an edit ends the undo of a removal
	p, err := s.eng.Edit(context.Background(), v.id, m)
	if err != nil {
		return err
	}
	v.p = p
	if rec, err := s.st.Record(v.id); err == nil {
		v.rec = rec
		v.sig = signature(rec)
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

func (v *proposalView) showError(err error) {
	if err == nil {
		v.errLabel.SetText("")
		v.errLabel.Hide()
		return
	}
	v.errLabel.SetText("Not saved: " + explain(err))
	v.errLabel.Show()
}

// showSaved is the small indicator: saved locally, and how many of this
// proposal's edits are not on the server yet.
func (v *proposalView) showSaved() {
	if v.saved == nil || v.d.sess == nil {
		return
	}
	it, ok := v.d.sess.st.Item(v.id)
	switch {
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

func (v *proposalView) focusName() {
	if v.name != nil && !v.name.Disabled() {
		v.d.win.Canvas().Focus(v.name)
		v.name.TypedShortcut(&fyne.ShortcutSelectAll{}) // typing replaces the default name
	}
}

// build lays the screen out from v.p.
func (v *proposalView) build() {
	s := v.d.sess
	p := v.p
	v.fields = nil
	v.sig = signature(v.rec)
	role := s.user.Role
	canEdit := role.Can(app.PermEditProposals) && !v.rec.ReadOnly
	locked := func(op app.Operation) bool { return !canEdit || op.LockedIn(p.Status) }

	var objs []fyne.CanvasObject
	title := fmt.Sprintf("Proposal #%d", p.Number)
	if app.IsTemporaryID(p.ID) {
		title = "New proposal (not on the server yet)"
	}
	v.saved = widget.NewLabel("")
	v.errLabel = widget.NewLabel("")
	v.errLabel.Importance = widget.DangerImportance
	v.errLabel.Wrapping = fyne.TextWrapWord
	v.errLabel.Hide()
	v.header = container.NewBorder(nil, nil,
		widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), v.saved)
	objs = append(objs, v.header)
	if b := v.banner(canEdit); b != nil {
		objs = append(objs, b)
	}
	objs = append(objs, v.errLabel)

	// Name.
	v.name = v.textField(false, p.Name, locked(app.OpUpdateProposal), func(text string) error {
		return v.edit(&app.UpdateProposal{ID: p.ID, Name: &text})
	})
	form := widget.NewForm(widget.NewFormItem("Name", v.name))
	form.Append("Salesperson", v.salespersonPicker(locked(app.OpUpdateProposal)))
	form.Append("Status", v.statusPicker(canEdit))
	form.Append("Customer", v.customerPicker(locked(app.OpAssignContact)))
	form.Append("Location", v.locationPicker(locked(app.OpAssignLocation)))
	objs = append(objs, form)
	objs = append(objs, v.proposalActions(canEdit))

	desc := v.textField(true, p.ProjectDescription, locked(app.OpSetDescription), func(text string) error {
		return v.edit(&app.SetDescription{ID: p.ID, Description: text})
	})
	desc.SetMinRowsVisible(4)
	objs = append(objs, heading("Project description", "client-facing: the client sees this", widget.MediumImportance), desc)
	notes := v.textField(true, p.InternalNotes, locked(app.OpSetInternalNotes), func(text string) error {
		return v.edit(&app.SetInternalNotes{ID: p.ID, InternalNotes: text})
	})
	notes.SetMinRowsVisible(3)
	notes.SetPlaceHolder("Gate codes, wiring notes, anything the installers need. Never shown to the client.")
	objs = append(objs, heading("Installer notes", "INTERNAL: never shown to the client", widget.WarningImportance), notes)

	objs = append(objs, v.areas(locked)...)

	v.summary = container.NewVBox()
	v.refreshSummary()
	objs = append(objs, widget.NewCard("Financial summary", "", v.summary))
	if len(p.ChangeOrders) > 0 {
		objs = append(objs, v.changeOrders())
	}
	v.body.Objects = []fyne.CanvasObject{container.NewPadded(container.NewVBox(objs...))}
	v.body.Refresh()
	v.showSaved()
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
		text = fmt.Sprintf("This proposal is %s, so it is read-only. Installer notes, the customer and the location can still be changed.", p.Status)
	default:
		return nil
	}
	l := widget.NewLabel("🔒 " + text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.WarningImportance
	return widget.NewCard("", "", l)
}

func heading(title, note string, imp widget.Importance) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	n := widget.NewLabel("(" + note + ")")
	n.Importance = imp
	return container.NewHBox(t, n)
}

// textField is a field that saves through save; a refusal shows in the
// screen's error line and the text stays for the user to fix.
func (v *proposalView) textField(multi bool, text string, readOnly bool, save func(string) error) *field {
	f := newField(v.d, multi, save)
	f.load(text)
	f.onError = v.showError
	if readOnly {
		f.Disable()
	}
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
		v.editAndRebuild(&app.UpdateProposal{ID: p.ID, SalesPersonID: &id})
	}
	if readOnly {
		sel.Disable()
	}
	return sel
}

func (v *proposalView) statusPicker(canEdit bool) fyne.CanvasObject {
	p := v.p
	cur := widget.NewLabelWithStyle(string(p.Status), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	next := p.Status.NextStatuses()
	labels := make([]string, len(next))
	for i, s := range next {
		labels[i] = string(s)
	}
	move := widget.NewSelect(labels, func(s string) {
		v.editAndRebuild(&app.ChangeStatus{ID: p.ID, Status: app.Status(s)})
	})
	move.PlaceHolder = "Move to…"
	if len(next) == 0 {
		move.PlaceHolder = "No moves from " + string(p.Status)
	}
	if !canEdit || len(next) == 0 {
		move.Disable()
	}
	return container.NewHBox(cur, move)
}
