package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// Packages in the picker: a package's row says "Package · 6 items", the
// highlighted package lists what it holds under the matches, and adding
// it adds the package line with its items nested under it in one edit,
// which one Undo add (Ctrl+Z in the picker) removes again, items and
// all.

// maxContentsShown bounds the items the contents line names; the rest
// are counted.
const maxContentsShown = 12

// pickerKind is a picker row's kind: the item type, or a package's size.
func pickerKind(it *app.CatalogItem) string {
	if it.IsPackage() {
		return "Package · " + plural(len(it.Components), "item", "items")
	}
	return it.ItemType.Label()
}

// packageContents says what a package holds, from the catalog on this
// computer, and how it is priced; "" for an item that is no package.
func packageContents(st interface {
	CatalogItem(int64) (app.CatalogItem, bool, error)
}, it *app.CatalogItem, cur app.Currency) string {
	if !it.IsPackage() {
		return ""
	}
	var parts []string
	for i, c := range it.Components {
		if i == maxContentsShown {
			parts = append(parts, fmt.Sprintf("and %d more", len(it.Components)-i))
			break
		}
		name := fmt.Sprintf("item %d (not on this computer)", c.CatalogItemID)
		if ci, ok, err := st.CatalogItem(c.CatalogItemID); err == nil && ok {
			name = catalogItemName(&ci)
		}
		parts = append(parts, c.Quantity.String()+" × "+name)
	}
	price := "priced by its items"
	if app.PackagePriced(it) {
		price = "package price " + app.FormatMoney(it.SellPrice, cur)
	}
	return "Contains: " + strings.Join(parts, " · ") + " (" + price + ")"
}

// newPackageWidgets makes the contents line and the Undo add button.
func (p *catalogPicker) newPackageWidgets() {
	p.contents = widget.NewLabel("")
	p.contents.Wrapping = fyne.TextWrapWord
	p.contents.Hide()
	p.undo = widget.NewButtonWithIcon("Undo add", theme.ContentUndoIcon(), p.undoAdd)
	p.undo.Disable()
	p.search.undo, p.qty.undo = p.undoAdd, p.undoAdd
}

// showContents lists the highlighted package's items.
func (p *catalogPicker) showContents() {
	if p.contents == nil {
		return
	}
	text := ""
	if p.sel >= 0 && p.sel < len(p.results) {
		text = packageContents(p.v.d.sess.st, &p.results[p.sel], p.v.p.Currency)
	}
	p.contents.SetText(text)
	if text == "" {
		p.contents.Hide()
	} else {
		p.contents.Show()
	}
}

// noteAdded remembers the line m added to the view (before was the view
// before it), for Undo add, and says what the add did; a package's
// nested items are counted.
func (p *catalogPicker) noteAdded(before *app.Proposal, m *app.AddItem, it *app.CatalogItem) string {
	id, nested := addedLine(before, p.v.p, m.OptionID)
	s := fmt.Sprintf("Added %s × %s", m.Quantity, catalogItemName(it))
	if nested > 0 {
		s += " with " + plural(nested, "item", "items") + " nested under it"
	}
	if id != 0 {
		p.lastAdded, p.lastName = id, catalogItemName(it)
		p.undo.Enable()
		s += " (Ctrl+Z undoes)"
	}
	return s + "."
}

// addedLine finds the line an add put in the option: the last one not
// there before that is not nested under another new one, and how many
// lines are nested under it.
func addedLine(before, after *app.Proposal, optionID int64) (id int64, nested int) {
	o, ok := after.Option(optionID)
	if !ok {
		return 0, 0
	}
	had := map[int64]bool{}
	if b, ok := before.Option(optionID); before != nil && ok {
		for _, it := range b.Items {
			had[it.ID] = true
		}
	}
	for i := len(o.Items) - 1; i >= 0 && id == 0; i-- {
		if it := o.Items[i]; !had[it.ID] && (it.ParentID == 0 || had[it.ParentID]) {
			id = it.ID
		}
	}
	for _, it := range o.Items {
		if id != 0 && it.ParentID == id {
			nested++
		}
	}
	return id, nested
}

// undoAdd removes the line the picker added last, and what is nested
// under it (a package's items), in one edit.
func (p *catalogPicker) undoAdd() {
	if p.lastAdded == 0 {
		return
	}
	v := p.v
	id := v.now(p.lastAdded)
	p.lastAdded = 0
	p.undo.Disable()
	v.flush()
	if err := v.edit(&app.RemoveItem{ID: v.id, ItemID: id}); err != nil {
		p.fail(err)
		return
	}
	v.build()
	p.say("Removed " + p.lastName + ". Type to find the next.")
	v.d.win.Canvas().Focus(p.search)
}

// TypedShortcut: Ctrl+Z undoes the picker's last add; other shortcuts
// are the entry's.
func (e *pickerEntry) TypedShortcut(s fyne.Shortcut) {
	if _, ok := s.(*fyne.ShortcutUndo); ok && e.undo != nil {
		e.undo()
		return
	}
	e.plainEntry.TypedShortcut(s)
}

// AddPackageForShot adds the first catalog match of search (a package,
// for the smoke run's screenshot) to the open proposal's first option
// through the picker, closes the picker and scrolls to the added line;
// it returns the picker's words for the add, or "" when there is no
// open proposal, no catalog on this computer yet, or no match.
func (d *Desktop) AddPackageForShot(search string) string {
	if !d.ShowPicker(search) {
		return ""
	}
	v := d.detail
	p := v.cui().picker
	if p == nil || len(p.results) == 0 {
		return ""
	}
	p.addSelected()
	said := p.status.Text
	d.closeDialog()
	if p.lastAdded == 0 || v.ct == nil {
		return ""
	}
	if r := v.rowFor(p.lastAdded); r != nil { // built if not near the view yet
		v.cull(r.fields[colName]) // laid out, to have a place
		if y, ok := v.pageY(r.fields[colName]); ok {
			v.scroll.ScrollToOffset(fyne.NewPos(0, max(0, y-120)))
		}
	}
	return said
}
