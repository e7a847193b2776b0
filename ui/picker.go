package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// The catalog picker (Add item… in an option): search as you type over
// the catalog kept on this computer (brand, model, name, part number),
// filters by type and brand, and a quantity. The keys stay in the search
// box: ↑/↓ choose, Enter adds, Esc closes. It stays open after an add,
// so a salesperson adds a rack's worth of parts in a row; the option's
// total behind it follows each add.

// pickerPageSize is how many matches the picker lists: enough to scroll
// through a brand's models, few enough to draw at once.
const pickerPageSize = 100

const (
	allTypes  = "All types"
	allBrands = "All brands"
)

// catalogPicker is one open picker, adding to one option.
type catalogPicker struct {
	v        *proposalView
	optionID int64
	search   *pickerEntry
	qty      *pickerEntry
	typ      *widget.Select
	brand    *widget.Select
	list     *widget.List
	status   *widget.Label
	add      *widget.Button
	dlg      dialog.Dialog
	// contents, undo, lastAdded and lastName: picker_packages.go.
	contents  *widget.Label
	undo      *widget.Button
	lastAdded int64
	lastName  string

	results []app.CatalogItem
	count   int
	sel     int // index in results; -1: none
}

// pickerEntry is a search or quantity box whose arrows, Enter and Esc
// drive the picker.
type pickerEntry struct {
	plainEntry
	keys func(fyne.KeyName) bool
	undo func() // Ctrl+Z
}

func newPickerEntry(d *Desktop, keys func(fyne.KeyName) bool) *pickerEntry {
	e := &pickerEntry{keys: keys}
	e.d = d
	e.ExtendBaseWidget(e)
	return e
}

func (e *pickerEntry) TypedKey(ev *fyne.KeyEvent) {
	if e.keys(ev.Name) {
		return
	}
	e.plainEntry.TypedKey(ev)
}

// openPicker shows the picker for an option of the open proposal.
func (v *proposalView) openPicker(optionID int64, title string) *catalogPicker {
	v.flush()
	p := &catalogPicker{v: v, optionID: optionID, sel: -1}
	v.cui().picker = p
	p.search = newPickerEntry(v.d, p.key)
	p.search.SetPlaceHolder("Brand, model, name or part number")
	p.search.OnChanged = func(string) { p.refresh() }
	p.qty = newPickerEntry(v.d, p.key)
	p.qty.SetText("1")

	types := []string{allTypes}
	for _, t := range app.ItemTypes {
		types = append(types, t.Label())
	}
	p.typ = widget.NewSelect(types, func(string) { p.refresh() })
	p.typ.SetSelected(allTypes)
	brands, err := v.d.sess.st.CatalogBrands()
	p.brand = widget.NewSelect(append([]string{allBrands}, brands...), func(string) { p.refresh() })
	p.brand.SetSelected(allBrands)

	p.list = widget.NewList(func() int { return len(p.results) }, newPickerRow,
		func(i widget.ListItemID, o fyne.CanvasObject) { showPickerRow(o, &p.results[i], v.p.Currency) })
	p.list.OnSelected = func(i widget.ListItemID) {
		p.sel = i
		p.showContents()
		v.d.win.Canvas().Focus(p.search) // a click chooses; the keys stay in the search
	}
	p.status = widget.NewLabel("")
	p.status.Truncation = fyne.TextTruncateEllipsis
	p.add = widget.NewButtonWithIcon("Add", theme.ContentAddIcon(), p.addSelected)
	p.add.Importance = widget.HighImportance
	p.newPackageWidgets()

	filters := container.NewHBox(p.typ, p.brand)
	top := container.NewBorder(nil, nil, nil, filters, p.search)
	qty := container.NewGridWrap(fyne.NewSize(90, p.qty.MinSize().Height), p.qty)
	bottom := container.NewVBox(p.contents, p.status, container.NewBorder(nil, nil,
		container.NewHBox(widget.NewLabel("Quantity"), qty), container.NewHBox(p.undo, widget.NewButton("Close", v.d.closeDialog), p.add)))
	content := container.NewBorder(top, bottom, nil, nil, p.list)

	p.dlg = dialog.NewCustomWithoutButtons(title, content, v.d.win)
	p.dlg.Resize(fyne.NewSize(860, 560))
	v.d.showDialog(p.dlg)
	if err != nil {
		p.fail(fmt.Errorf("read the catalog's brands: %w", err))
	}
	p.refresh()
	v.d.win.Canvas().Focus(p.search)
	return p
}

// key handles the picker's keys in its boxes.
func (p *catalogPicker) key(k fyne.KeyName) bool {
	switch k {
	case fyne.KeyUp:
		p.choose(p.sel - 1)
	case fyne.KeyDown:
		p.choose(p.sel + 1)
	case fyne.KeyPageUp:
		p.choose(p.sel - 10)
	case fyne.KeyPageDown:
		p.choose(p.sel + 10)
	case fyne.KeyReturn, fyne.KeyEnter:
		p.addSelected()
	default:
		return false
	}
	return true
}

// choose selects the match at i (clamped) and scrolls to it.
func (p *catalogPicker) choose(i int) {
	if len(p.results) == 0 {
		return
	}
	i = max(0, min(i, len(p.results)-1))
	p.list.Select(i)
	p.list.ScrollTo(i)
}

// query is the search and filters as typed.
func (p *catalogPicker) query() app.CatalogQuery {
	q := app.CatalogQuery{SearchText: p.search.Text, PageNumber: 1, PageSize: pickerPageSize}
	if i := p.typ.SelectedIndex(); i > 0 {
		q.ItemType = app.ItemTypes[i-1]
	}
	if s := p.brand.Selected; s != "" && s != allBrands {
		q.Brands = []string{s}
	}
	return q
}

// refresh searches the offline catalog again and chooses the first match.
func (p *catalogPicker) refresh() {
	if p.list == nil || p.status == nil {
		return // still being built
	}
	st := p.v.d.sess.st
	res, count, err := st.SearchCatalog(p.query())
	if err != nil {
		p.fail(fmt.Errorf("search the catalog: %w", err))
		return
	}
	p.results, p.count, p.sel = res, count, -1
	p.list.UnselectAll()
	p.list.Refresh()
	p.list.ScrollToTop()
	if len(res) > 0 {
		p.choose(0)
		p.add.Enable()
	} else {
		p.add.Disable()
	}
	p.showContents()
	p.say(p.matches())
}

// matches says how many items match and what the keys do.
func (p *catalogPicker) matches() string {
	keys := " · ↑/↓ choose · Enter adds · Esc closes"
	switch {
	case p.count == 0:
		if n, err := p.v.d.sess.st.CatalogSize(); err == nil && n == 0 {
			return "The product catalog is not on this computer yet: it downloads with the next sync (Ctrl+R). Meanwhile use Custom item, Labor or Fee."
		}
		return "No catalog item matches: try fewer or shorter words, or another type or brand."
	case p.count > len(p.results):
		return fmt.Sprintf("%s items match; the first %d are listed: type more to narrow%s", thousands(p.count), len(p.results), keys)
	case p.count == 1:
		return "1 item matches" + keys
	}
	return fmt.Sprintf("%s items match%s", thousands(p.count), keys)
}

// addSelected adds the chosen item with the quantity typed, saved like
// every edit, and gets ready for the next.
func (p *catalogPicker) addSelected() {
	if p.sel < 0 || p.sel >= len(p.results) {
		return
	}
	it := p.results[p.sel]
	id := it.ID
	m := &app.AddItem{ID: p.v.id, OptionID: p.v.now(p.optionID), CatalogItemID: &id}
	if err := setParam(m, "Quantity", p.qty.Text); err != nil {
		p.fail(err)
		return
	}
	v := p.v
	v.flush()
	before := v.p
	if err := v.edit(m); err != nil {
		p.fail(err)
		return
	}
	v.build()
	added := p.noteAdded(before, m, &it)
	if o, ok := v.p.Option(v.now(p.optionID)); ok {
		total, _ := app.OptionTotals(o)
		added += " Option total " + app.FormatMoney(total, v.p.Currency) + "."
	}
	p.say(added + " Type to find the next.")
	p.qty.SetText("1")
	v.d.win.Canvas().Focus(p.search)
	p.search.TypedShortcut(&fyne.ShortcutSelectAll{})
}

func (p *catalogPicker) say(text string) {
	p.status.Importance = widget.MediumImportance
	p.status.SetText(text)
}

func (p *catalogPicker) fail(err error) {
	p.status.Importance = widget.DangerImportance
	p.status.SetText("⚠ " + fieldSentence(err))
}

// catalogItemName is how the picker names an item: brand and model,
// then the name without the brand it often starts with.
func catalogItemName(it *app.CatalogItem) string {
	head := strings.TrimSpace(it.Brand + " " + it.Model)
	name := it.Name
	if b := it.Brand + " "; it.Brand != "" && len(name) > len(b) && strings.EqualFold(name[:len(b)], b) {
		name = strings.TrimSpace(name[len(b):])
	}
	switch {
	case head == "" || name == it.Model:
		return strings.TrimSpace(it.Brand + " " + name)
	case name == "":
		return head
	}
	return head + " — " + name
}

// A picker row: the item's name on the left; its type, part number and
// sell price on the right.
func newPickerRow() fyne.CanvasObject {
	name := widget.NewLabel("")
	name.Truncation = fyne.TextTruncateEllipsis
	return container.NewBorder(nil, nil, nil, widget.NewLabel(""), name)
}

func showPickerRow(o fyne.CanvasObject, it *app.CatalogItem, cur app.Currency) {
	c := o.(*fyne.Container)
	name, right := c.Objects[0].(*widget.Label), c.Objects[1].(*widget.Label)
	text := catalogItemName(it)
	if it.IsDiscontinued {
		text += " (discontinued)"
	}
	name.SetText(text)
	detail := pickerKind(it)
	if it.PartNumber != "" {
		detail += " · " + it.PartNumber
	}
	price := app.FormatMoney(it.SellPrice, cur)
	if it.IsRecurringService {
		price = perMonth(it.SellPrice, cur)
	}
	if it.IsPackage() && !app.PackagePriced(it) {
		price = "priced by item"
	}
	right.SetText(detail + " · " + price)
}

// ShowPicker opens the catalog picker on the open proposal's first
// option with search typed in (the smoke run's screenshot); false when
// there is no such option or no catalog on this computer yet.
func (d *Desktop) ShowPicker(search string) bool {
	v := d.detail
	if v == nil || v.p == nil || d.sess == nil || len(v.p.Areas) == 0 || len(v.p.Areas[0].Options) == 0 {
		return false
	}
	if n, err := d.sess.st.CatalogSize(); err != nil || n == 0 {
		return false
	}
	a := &v.p.Areas[0]
	p := v.openPicker(a.Options[0].ID, "Add items to "+a.Name+" · Option 1")
	p.search.SetText(search)
	return true
}
