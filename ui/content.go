package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// The proposal's content, editable: areas (rename, remove), options
// (select, decline, remove), their items (itemrows.go), the parts
// discount, and the proposal's own actions (duplicate, archive). Each
// control builds an app mutation and saves it through the engine like
// every other edit. What is allowed is app's answer: Operation.LockedIn
// and the role for whole kinds of edit, and a dry run of app.Apply on
// the local view for a particular one (the last option of an area, a
// nesting), whose refusal becomes the disabled control's tip.

// contentUI is the content's state across rebuilds of the screen.
type contentUI struct {
	rows     map[int64]*itemRow      // by item ID: the rows built
	optTotal map[int64]*widget.Label // by option ID
	cols     map[int64]*columns      // by option ID: its rows' layout
	hints    map[int64]*hintLine     // by option ID
	// lastMenu is the last item menu shown.
	lastMenu *fyne.Menu
	// pending is the removal that can still be undone (itemrows.go).
	pending *removal
	// picker is the catalog picker last opened (picker.go).
	picker *catalogPicker
	// keep are the rows of the screen before, which the screen being
	// built takes where it shows the same (itemRows); lazy is where the
	// rows not built yet will be (rowFor).
	keep map[int64]*itemRow
	lazy map[int64]lazyRow
	// prevHints are the hint lines of the screen before: an option's
	// line stays, as the rows kept tell it what they do (optionHint).
	prevHints map[int64]*hintLine
	// built counts the item rows made, for the tests.
	built int
	// slots are where each option's rows are, by option ID (update.go).
	slots map[int64]*itemSlot
}

// forget drops what the screen kept of the proposal shown before (a
// proposal opened is built afresh).
func (c *contentUI) forget() {
	c.rows, c.keep, c.lazy, c.hints, c.prevHints, c.slots = nil, nil, nil, nil, nil, nil
}

func (v *proposalView) cui() *contentUI {
	if v.ct == nil {
		v.ct = &contentUI{}
	}
	return v.ct
}

// env is the environment of a dry run or a preview on the local view.
func (v *proposalView) env() app.Env {
	return app.Env{Now: time.Now(), Actor: v.d.sess.user}
}

// check is app's verdict on m for the local view: nil when it would be
// accepted.
func (v *proposalView) check(m app.Mutation) error {
	_, err := app.Apply(v.p, m, v.env())
	return err
}

// setParam writes typed text into m's param of that name through app's
// own parsing, so a bad number gets the server's message. Thousands
// separators and the dollar sign are dropped first.
func setParam(m app.Mutation, name, text string) error {
	for _, p := range m.Params() {
		if p.Name != name {
			continue
		}
		if p.Type == app.ParamMoney || p.Type == app.ParamQuantity || p.Type == app.ParamPercent {
			text = strings.NewReplacer(",", "", "$", "", "%", "", " ", "").Replace(text)
		}
		return p.Set(text)
	}
	return fmt.Errorf("bug: %s has no param %s", m.Kind(), name)
}

// figureText is how the figure an edit sets shows once saved: as app
// read it ("150" → "150.00", "$1,200" → "1200.00", quantity "2.50" →
// "2.5"). Text is returned as it is when the edit sets no single figure
// (a name).
func figureText(m app.Mutation, text string) string {
	out, n := text, 0
	for _, p := range m.Params() {
		if p.Type != app.ParamMoney && p.Type != app.ParamQuantity && p.Type != app.ParamPercent {
			continue
		}
		if v, ok := p.Value(); ok {
			if s, ok := v.(fmt.Stringer); ok {
				out, n = s.String(), n+1
			}
		}
	}
	if n != 1 {
		return text
	}
	return out
}

// applyEdits saves edits in turn and builds the screen again. A refusal
// shows in hint (or the screen's error line) and stops the rest.
func (v *proposalView) applyEdits(hint *hintLine, ms ...app.Mutation) bool {
	v.flush()
	for i, m := range ms {
		if err := v.edit(m); err != nil {
			if i > 0 {
				v.build()
			}
			if hint != nil && i == 0 {
				hint.setError(err)
			} else {
				v.showError(err)
			}
			return false
		}
	}
	v.build()
	return true
}

// createdID is the ID of what m created, found in after.
func createdID(m app.Mutation, before, after *app.Proposal) (int64, bool) {
	for _, n := range m.Creates(nil) {
		if id, ok := n.Find(before, after); ok {
			return id, true
		}
	}
	return 0, false
}

// areas lays out the areas, their options (at most three: "Add option"
// is disabled with app's reason when the rule refuses it) and items,
// then the parts discount.
func (v *proposalView) areas(locked func(app.Operation) bool) []fyne.CanvasObject {
	c := v.cui()
	c.keep, c.rows, c.lazy = c.rows, map[int64]*itemRow{}, map[int64]lazyRow{}
	c.prevHints, c.optTotal, c.hints = c.hints, map[int64]*widget.Label{}, map[int64]*hintLine{}
	c.cols, c.slots = map[int64]*columns{}, map[int64]*itemSlot{}
	v.showPending()
	// Ctrl+Z undoes a removal when no field has the keys.
	v.d.win.Canvas().AddShortcut(&fyne.ShortcutUndo{}, func(fyne.Shortcut) { v.undoRemoval() })
	p := v.p
	objs := []fyne.CanvasObject{widget.NewLabelWithStyle("Areas", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
	for ai := range p.Areas {
		objs = append(objs, v.areaCard(&p.Areas[ai], locked))
	}
	if !locked(app.OpCreateArea) {
		name := newPlainEntry(v.d)
		v.newArea = name
		name.SetPlaceHolder("New area name (e.g. Kitchen)")
		add := func() {
			n := strings.TrimSpace(name.Text)
			if n == "" {
				return
			}
			v.editAndRebuild(&app.CreateArea{ID: v.id, Name: n})
		}
		name.OnSubmitted = func(string) { add() }
		objs = append(objs, container.NewBorder(nil, nil, nil, widget.NewButton("Add area", add), name))
	}
	return append(objs, v.discountRow(locked))
}

// areaCard is an area: its name (saved as you type), Remove area, and
// its options.
func (v *proposalView) areaCard(area *app.Area, locked func(app.Operation) bool) fyne.CanvasObject {
	areaID, areaName := area.ID, area.Name
	var card *widget.Card
	hint := v.hint("")
	name := v.textField(0, area.Name, locked(app.OpRenameArea), func(text string) error {
		if err := v.edit(&app.RenameArea{ID: v.id, AreaID: v.now(areaID), Name: text}); err != nil {
			return err
		}
		card.SetTitle(text)
		return nil
	})
	name.onError = v.lineError(hint)
	remove := newTipButton("Remove area", theme.DeleteIcon(), "Removes the area with its options and items (asks first).", hint,
		func() { v.confirmRemoveArea(v.now(areaID), areaName) })
	if locked(app.OpRemoveArea) {
		remove.Disable()
	}
	inner := []fyne.CanvasObject{
		container.NewBorder(nil, nil, widget.NewLabel("Area name"), remove, name), hint,
	}
	counted := app.CountedOption(area)
	for oi := range area.Options {
		inner = append(inner, v.optionCard(area, oi, &area.Options[oi] == counted, locked))
	}
	addOpt := widget.NewButton("Add option", func() {
		v.editAndRebuild(&app.CreateOption{ID: v.id, AreaID: v.now(areaID)})
	})
	reason := widget.NewLabel("")
	reason.Importance = widget.LowImportance
	reason.Wrapping = fyne.TextWrapWord
	if err := app.CanAddOption(area); err != nil {
		addOpt.Disable()
		reason.SetText(explain(err))
	} else if locked(app.OpCreateOption) {
		addOpt.Disable()
	}
	inner = append(inner, container.NewBorder(nil, nil, addOpt, nil, reason))
	card = newCard(area.Name, "", container.NewVBox(inner...))
	for _, o := range area.Options {
		v.cui().slots[o.ID].top = card
	}
	return card
}

func (v *proposalView) confirmRemoveArea(areaID int64, name string) {
	v.confirm("Remove area “"+name+"”?", "The area, its options and their items are removed from this proposal.", "Remove area",
		func() { v.applyEdits(nil, &app.RemoveArea{ID: v.id, AreaID: areaID}) })
}

// confirm asks before a removal that cannot be undone.
func (v *proposalView) confirm(title, text, ok string, yes func()) {
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	dl := dialog.NewCustomConfirm(title, ok, "Cancel", container.NewGridWrap(fyne.NewSize(400, 60), msg), func(b bool) {
		if b {
			yes()
		}
	}, v.d.win)
	v.d.showDialog(dl)
}

// optionCard is one option: its status (draft, selected by the client,
// declined), texts, items, the buttons that add lines, and its total.
func (v *proposalView) optionCard(area *app.Area, oi int, counted bool, locked func(app.Operation) bool) fyne.CanvasObject {
	o := &area.Options[oi]
	optionID := o.ID
	c := v.cui()
	rest := "Enter saves · Alt+↑/↓ moves · Ctrl+Delete removes (Ctrl+Z undoes)"
	if locked(app.OpChangeItem) {
		rest = ""
	}
	hint := v.optionHint(optionID, rest)
	c.hints[optionID] = hint

	label := fmt.Sprintf("Option %d", oi+1)
	if counted {
		label += " · counted in the totals"
	}
	status := widget.NewRadioGroup(optionStatusWords(), nil)
	status.Horizontal, status.Required = true, true
	status.SetSelected(string(o.Status))
	status.OnChanged = func(s string) {
		if s == "" || app.OptionStatus(s) == o.Status {
			return
		}
		v.applyEdits(hint, &app.SetOptionStatus{ID: v.id, OptionID: v.now(optionID), Status: app.OptionStatus(s)})
	}
	if locked(app.OpSetOptionStatus) {
		status.Disable()
	}
	removeOpt := newTipButton("", theme.DeleteIcon(), "Removes this option and its items (asks first).", hint, func() {
		v.confirm(fmt.Sprintf("Remove option %d of “%s”?", oi+1, area.Name), "The option and its items are removed from this proposal.",
			"Remove option", func() { v.applyEdits(hint, &app.RemoveOption{ID: v.id, OptionID: v.now(optionID)}) })
	})
	if locked(app.OpRemoveOption) {
		removeOpt.Disable()
	} else if err := v.check(&app.RemoveOption{ID: v.id, OptionID: optionID}); err != nil {
		removeOpt.disable(explain(err))
	}
	head := container.New(&flow{endLast: true}, widget.NewLabelWithStyle(label, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewHBox(status, removeOpt))

	cd := v.textField(2, o.ClientDescription, locked(app.OpSetOptionClientDesc), func(text string) error {
		return v.edit(&app.SetOptionClientDescription{ID: v.id, OptionID: v.now(optionID), ClientDescription: text})
	})
	cd.stored = func(p *app.Proposal) (string, bool) { return optionText(p, v.now(optionID), false) }
	cd.PlaceHolder = "What the client reads about this option"
	in := v.textField(2, o.InstallerDescription, locked(app.OpSetOptionInstaller), func(text string) error {
		return v.edit(&app.SetOptionInstallerNotes{ID: v.id, OptionID: v.now(optionID), InstallerNotes: text})
	})
	in.stored = func(p *app.Proposal) (string, bool) { return optionText(p, v.now(optionID), true) }
	in.PlaceHolder = "Notes for the installers (internal)"

	total := widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
	c.optTotal[optionID] = total
	showOptionTotal(total, o, v.p.Currency)

	rows := v.itemRows(o, locked, hint)
	box := container.NewVBox(head,
		heading("Client description", "client-facing", widget.MediumImportance), cd,
		heading("Installer notes", "internal", widget.WarningImportance), in,
		rows,
		v.addButtons(optionID, fmt.Sprintf("%s · Option %d", area.Name, oi+1), locked(app.OpAddItem), hint),
		hint, total)
	c.slots[optionID] = &itemSlot{box: box, at: slices.Index(box.Objects, rows), items: o.Items, pending: c.pendingIn(optionID)}
	return newCard("", "", box)
}

// optionHint is the option's hint line: the one of the screen before,
// cleared, if it had the option, so that the rows kept still show their
// tips and refusals in it.
func (v *proposalView) optionHint(optionID int64, rest string) *hintLine {
	h := v.cui().prevHints[optionID]
	if h == nil {
		return v.hint(rest)
	}
	h.rest, h.tip, h.err = rest, "", nil
	h.changed = v.showSaved
	h.show()
	v.lines = append(v.lines, h)
	return h
}

func optionStatusWords() []string {
	out := make([]string, len(app.OptionStatuses))
	for i, s := range app.OptionStatuses {
		out[i] = string(s)
	}
	return out
}

func showOptionTotal(l *widget.Label, o *app.Option, cur app.Currency) {
	total, recurring := app.OptionTotals(o)
	text := "Option total " + app.FormatMoney(total, cur)
	if recurring != 0 {
		text += " · recurring services " + perMonth(recurring, cur)
	}
	if l.Text != text {
		l.SetText(text)
	}
}

// addButtons are Add item… (the catalog picker), Custom item, Labor and
// Fee.
func (v *proposalView) addButtons(optionID int64, title string, readOnly bool, hint *hintLine) fyne.CanvasObject {
	catalog := newTipButton("Add item…", theme.SearchIcon(),
		"Finds products, labor and fees in the catalog on this computer (works offline) and adds them here.", hint,
		func() { v.openPicker(v.now(optionID), "Add items to "+title) })
	if readOnly {
		catalog.Disable()
	}
	line := func(label string, t app.ItemType, tip string) *tipButton {
		b := newTipButton(label, theme.ContentAddIcon(), tip, hint, func() { v.addLine(v.now(optionID), t, label, hint) })
		if readOnly {
			b.Disable()
		}
		return b
	}
	return container.New(newFlow(), catalog,
		line("Custom item", app.ItemCustomItem, "Adds a line of your own: type its name, quantity and price."),
		line("Labor", app.ItemLabor, "Adds a labor line (counted in the labor total)."),
		line("Fee", app.ItemFee, "Adds a fee line (counted in the fees)."))
}

// addLine adds a line named after its kind and puts the cursor in its
// name, selected, so typing names it.
func (v *proposalView) addLine(optionID int64, t app.ItemType, name string, hint *hintLine) {
	v.flush()
	before := v.p
	m := &app.AddItem{ID: v.id, OptionID: optionID, ItemType: &t, Name: &name}
	if !v.applyEdits(hint, m) {
		return
	}
	if id, ok := createdID(m, before, v.p); ok {
		v.focusItem(id, colName, true)
	}
}

// discountRow is the parts discount: a percentage of the parts subtotal
// or an amount off it. The summary follows as you type.
func (v *proposalView) discountRow(locked func(app.Operation) bool) fyne.CanvasObject {
	pr := v.p.Pricing
	kind := pr.DiscountType
	if kind == "" {
		kind = app.DiscountPercentage
	}
	param, text := "PartsDiscountPercentage", pr.DiscountPercentage.String()
	if kind == app.DiscountAmount {
		param, text = "PartsDiscountAmount", pr.DiscountAmount.String()
	}
	readOnly := locked(app.OpSetPricing)
	hint := v.hint("A percentage of the parts subtotal, or an amount off it. Enter saves.")
	if readOnly {
		hint.rest = ""
		hint.show()
	}
	words := make([]string, len(app.DiscountTypes))
	for i, t := range app.DiscountTypes {
		words[i] = string(t)
	}
	sel := widget.NewSelect(words, nil)
	sel.SetSelected(string(kind))
	sel.OnChanged = func(s string) {
		if app.DiscountType(s) == kind {
			return
		}
		t := app.DiscountType(s)
		v.applyEdits(hint, &app.SetPricing{ID: v.id, DiscountType: &t})
	}
	value := v.figureField(text, readOnly, hint, func(text string) (app.Mutation, error) {
		m := &app.SetPricing{ID: v.id, DiscountType: &kind}
		return m, setParam(m, param, text)
	}, nil)
	if readOnly {
		sel.Disable()
	}
	entry := container.NewGridWrap(fyne.NewSize(120, value.MinSize().Height), value)
	return newCard("", "", container.NewVBox(
		container.NewHBox(widget.NewLabelWithStyle("Parts discount", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), sel, entry),
		hint))
}

// proposalActions are Duplicate proposal and Archive / Restore, which
// work in every status.
func (v *proposalView) proposalActions(canEdit bool) fyne.CanvasObject {
	hint := v.hint("")
	dup := newTipButton("Duplicate proposal", theme.ContentCopyIcon(),
		"Makes a Draft copy with the same customer, location, areas, options and items and opens it, ready to rename.", hint, v.duplicate)
	archived := v.p.Archived
	label, tip := "Archive", "Files the proposal away: it leaves the list unless Archived is ticked."
	if archived {
		label, tip = "Restore", "Brings the proposal back from the archive into the list."
		hint.rest = "Archived: the list shows it only with Archived ticked."
		hint.show()
	}
	arch := newTipButton(label, theme.FolderIcon(), tip, hint, func() {
		v.applyEdits(hint, &app.SetArchived{ID: v.id, IsArchived: !archived})
	})
	user := v.d.sess.user
	for _, b := range []struct {
		b  *tipButton
		op app.Operation
	}{{dup, app.OpCopyProposal}, {arch, app.OpArchive}} {
		if err := app.Require(user, b.op.Permission()); err != nil {
			b.b.disable(explain(err))
		} else if !canEdit || b.op.LockedIn(v.p.Status) {
			b.b.Disable()
		}
	}
	return container.NewBorder(nil, nil, container.NewHBox(dup, arch), nil, hint)
}

// duplicate copies the proposal (offline too) and opens the copy with
// its name selected, ready to rename.
func (v *proposalView) duplicate() {
	v.flush()
	s := v.d.sess
	ctx := context.Background()
	// The last-open setting names the copy before a sync can send it
	// (as for a new proposal): the sync's remap then carries it to the
	// server's ID, which is how the screen finds the copy if the sync
	// ran first. Written after, it would name the temporary ID no
	// longer there, or still the source.
	cp, err := s.eng.EditThen(ctx, v.id, &app.CopyProposal{ID: v.id}, func(p *app.Proposal) {
		_ = s.st.UpdateSettings(ctx, func(set *localstore.Settings) { set.LastOpenProposal = p.ID })
	})
	if err != nil {
		v.showError(err)
		return
	}
	v.d.list.refresh()
	v.open(cp.ID)
	v.focusName()
}

// ShowItems scrolls the open proposal to the first item row (the smoke
// run's screenshot of a proposal with items).
func (d *Desktop) ShowItems() {
	v := d.detail
	if v == nil || v.p == nil || v.ct == nil {
		return
	}
	for _, a := range v.p.Areas {
		for _, o := range a.Options {
			for _, it := range o.Items {
				if r := v.rowFor(it.ID); r != nil {
					v.cull(r.fields[colName]) // laid out, to have a place
					if y, ok := v.pageY(r.fields[colName]); ok {
						v.scroll.ScrollToOffset(fyne.NewPos(0, max(0, y-160)))
					}
					return
				}
			}
		}
	}
}

// optionText is an option's client description or installer notes in
// p; false when p no longer has the option.
func optionText(p *app.Proposal, optionID int64, installer bool) (string, bool) {
	o, ok := p.Option(optionID)
	switch {
	case !ok:
		return "", false
	case installer:
		return o.InstallerDescription, true
	}
	return o.ClientDescription, true
}
