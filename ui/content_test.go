package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// The proposal's content edited on the desktop: items, options, areas,
// discount, duplicate and archive, against the real server on loopback
// and a real local store.

// contentFixture is a Draft proposal of the test's own on the server:
// area "Den" with two options, and items (name, sell price) in the
// first option, then the second. It is synced and opened.
func (h *harness) contentFixture(name string, first, second [][2]string) (*proposalView, int64) {
	h.t.Helper()
	s := h.srv
	id, err := createOnServer(s, s.Users[app.RoleSales].ID, name)
	if err != nil {
		h.t.Fatal(err)
	}
	p, err := s.Update(id, &app.CreateArea{Name: "Den"})
	if err != nil {
		h.t.Fatal(err)
	}
	p, err = s.Update(id, &app.CreateOption{AreaID: p.Areas[0].ID})
	if err != nil {
		h.t.Fatal(err)
	}
	for oi, items := range [][][2]string{first, second} {
		for _, it := range items {
			part, n, sell := app.ItemPart, it[0], app.MustMoney(it[1])
			if _, err := s.Update(id, &app.AddItem{OptionID: p.Areas[0].Options[oi].ID, ItemType: &part, Name: &n, SellPrice: &sell}); err != nil {
				h.t.Fatal(err)
			}
		}
	}
	h.sync()
	return h.openByName(name), id
}

// runName makes names unique across -count runs (the server is shared).
func runName(s string) string { return s + " " + time.Now().Format("150405.000") }

// tipButtons are the content buttons with this text under o, in order.
func tipButtons(o fyne.CanvasObject, text string) []*tipButton {
	var out []*tipButton
	walk(o, func(x fyne.CanvasObject) {
		if b, ok := x.(*tipButton); ok && b.Text == text {
			out = append(out, b)
		}
	})
	return out
}

func radioGroups(o fyne.CanvasObject) []*widget.RadioGroup {
	var out []*widget.RadioGroup
	walk(o, func(x fyne.CanvasObject) {
		if r, ok := x.(*widget.RadioGroup); ok {
			out = append(out, r)
		}
	})
	return out
}

// rowOfItem is the row of the option's item with this name.
func rowOfItem(t *testing.T, v *proposalView, name string) *itemRow {
	t.Helper()
	for _, a := range v.p.Areas {
		for _, o := range a.Options {
			for _, it := range o.Items {
				if it.Name == name {
					if r := v.rowFor(it.ID); r != nil {
						return r
					}
					t.Fatalf("item %q has no row", name)
				}
			}
		}
	}
	t.Fatalf("no item %q in %+v", name, v.p.Areas)
	return nil
}

// retype replaces a field's text as a user does: click in it (the
// field left saves), select all, type.
func retype(f *field, text string) {
	f.d.win.Canvas().Focus(f)
	f.TypedShortcut(&fyne.ShortcutSelectAll{})
	f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	test.Type(f, text)
}

func enter(f *field) { f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }

func shortcut(f *field, k fyne.KeyName, mod fyne.KeyModifier) {
	f.TypedShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: mod})
}

// optionItems are the names of an option's items in outline order, a
// nested one prefixed with "-".
func optionItems(p *app.Proposal, area, option int) []string {
	o := &p.Areas[area].Options[option]
	var out []string
	for _, r := range app.Outline(o) {
		out = append(out, strings.Repeat("-", r.Depth)+o.Items[r.Index].Name)
	}
	return out
}

func summaryText(v *proposalView) string { return texts(v.summary) }

// Add a custom line and type its name, quantity and price: the totals
// follow each keystroke before anything is saved; Enter saves; a bad
// quantity is refused in the hint line without moving the layout; labor
// and fee lines add; the server has it all after a sync.
func TestItemsAddEditTotals(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := runName("Items typed")
	v, id := h.contentFixture(name, nil, nil)

	catalog := tipButtons(v.body, "Add item…")
	if len(catalog) != 2 || catalog[0].Disabled() {
		t.Fatalf("Add item… buttons %d, want two enabled", len(catalog))
	}
	catalog[0].MouseIn(nil)
	if hint := v.cui().hints[v.p.Areas[0].Options[0].ID]; !strings.Contains(hint.Text, "catalog on this computer") {
		t.Fatalf("hovering Add item… shows %q", hint.Text)
	}
	catalog[0].MouseOut()

	test.Tap(tipButtons(v.body, "Custom item")[0])
	row := rowOfItem(t, v, "Custom item")
	if d.win.Canvas().Focused() != row.fields[colName] {
		t.Fatal("the new line's name does not have the cursor")
	}
	test.Type(row.fields[colName], "Equipment rack") // replaces the selected default name
	retype(row.fields[colQuantity], "3")
	retype(row.fields[colSell], "12.50")
	// Nothing saved the price yet (no UI work ran), yet the totals show it.
	if got := row.total.Text; got != "$37.50" {
		t.Fatalf("row total while typing %q", got)
	}
	if got := summaryText(v); !strings.Contains(got, "$37.50") {
		t.Fatalf("summary while typing:\n%s", got)
	}
	if it, _, _ := v.rec.Local.Item(row.id); it.SellPrice != 0 {
		t.Fatalf("stored sell price %s before Enter", it.SellPrice)
	}
	enter(row.fields[colSell])
	h.drain()
	it, _, _ := v.p.Item(row.id)
	if it.Name != "Equipment rack" || it.Quantity != app.MustQuantity("3") || it.SellPrice != app.MustMoney("12.50") {
		t.Fatalf("saved item %+v", it)
	}
	if it, _, _ := v.rec.Local.Item(row.id); it == nil || it.SellPrice != app.MustMoney("12.50") {
		t.Fatal("the store does not have the price after Enter")
	}

	// A bad quantity: refused in the hint line, the layout keeps its size.
	card := findCard(v.body, "Den")
	before := card.MinSize()
	hint := v.cui().hints[v.p.Areas[0].Options[0].ID]
	retype(row.fields[colQuantity], "0")
	enter(row.fields[colQuantity])
	if !strings.Contains(hint.Text, "Quantity must be more than 0") || hint.Importance != widget.DangerImportance {
		t.Fatalf("hint %q", hint.Text)
	}
	if after := card.MinSize(); after != before {
		t.Fatalf("the area card changed size with the error: %v → %v", before, after)
	}
	retype(row.fields[colQuantity], "2")
	enter(row.fields[colQuantity])
	if strings.Contains(hint.Text, "Not saved") || row.total.Text != "$25.00" {
		t.Fatalf("after fixing: hint %q, total %q", hint.Text, row.total.Text)
	}

	test.Tap(tipButtons(v.body, "Labor")[0])
	retype(rowOfItem(t, v, "Labor").fields[colSell], "95")
	test.Tap(tipButtons(v.body, "Fee")[0])
	h.drain()
	if got := optionItems(v.p, 0, 0); strings.Join(got, ",") != "Equipment rack,Labor,Fee" {
		t.Fatalf("items %v", got)
	}
	if got := summaryText(v); !strings.Contains(got, "$95.00") {
		t.Fatalf("labor not in the summary:\n%s", got)
	}

	if st := h.sync(); st.Pending+st.Failed+st.Conflicts != 0 {
		t.Fatalf("after sync %+v", st)
	}
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	items := sp.Areas[0].Options[0].Items
	if len(items) != 3 || items[0].Name != "Equipment rack" || items[0].Quantity != app.MustQuantity("2") ||
		items[1].ItemType != app.ItemLabor || items[1].SellPrice != app.MustMoney("95.00") || items[2].ItemType != app.ItemFee {
		t.Fatalf("server items %+v", items)
	}
	if got := app.Summarize(&sp.Document).Total; !strings.Contains(summaryText(v), app.FormatMoney(got, app.USD)) {
		t.Fatalf("server total %s not on screen:\n%s", got, summaryText(v))
	}
}

// Nest, move (keys and menu), move to another option, remove and undo,
// remove and let it be saved.
func TestItemsNestMoveRemoveUndo(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := runName("Items moved")
	v, id := h.contentFixture(name, [][2]string{{"Amp", "500.00"}, {"Cable", "20.00"}, {"Remote", "80.00"}}, nil)

	menu := func(item, entry string) {
		t.Helper()
		chooseMenu(t, d, v, item, entry)
	}
	menu("Cable", "Nest under “Amp”")
	if got := strings.Join(optionItems(v.p, 0, 0), ","); got != "Amp,-Cable,Remote" {
		t.Fatalf("after nesting %s", got)
	}
	if !strings.Contains(texts(v.body), "└") {
		t.Fatal("the nested item is not marked")
	}
	// Alt+↓ in Amp's quantity moves it, with Cable, below Remote; the
	// cursor stays in Amp's quantity.
	amp := rowOfItem(t, v, "Amp")
	d.win.Canvas().Focus(amp.fields[colQuantity])
	shortcut(amp.fields[colQuantity], fyne.KeyDown, fyne.KeyModifierAlt)
	if got := strings.Join(optionItems(v.p, 0, 0), ","); got != "Remote,Amp,-Cable" {
		t.Fatalf("after Alt+↓ %s", got)
	}
	if d.win.Canvas().Focused() != rowOfItem(t, v, "Amp").fields[colQuantity] {
		t.Fatal("the cursor left Amp's quantity")
	}
	menu("Remote", "Move to Den · Option 2")
	if got := strings.Join(optionItems(v.p, 0, 1), ","); got != "Remote" {
		t.Fatalf("option 2 after the move: %s", got)
	}

	// Remove Amp with Ctrl+Delete: it and Cable leave the screen and the
	// totals; nothing is queued; Undo brings both back as they were.
	pending := d.sess.eng.State().Pending
	amp = rowOfItem(t, v, "Amp")
	shortcut(amp.fields[colName], fyne.KeyDelete, fyne.KeyModifierShortcutDefault)
	if got := optionItems(v.p, 0, 0); len(got) != 0 {
		t.Fatalf("still shown after removal: %v", got)
	}
	if got := texts(v.body); !strings.Contains(got, "Removed “Amp” and 1 item nested under it.") {
		t.Fatalf("no undo strip:\n%s", got)
	}
	if got := summaryText(v); !strings.Contains(got, "$0.00") || strings.Contains(got, "$520.00") {
		t.Fatalf("summary after removal:\n%s", got)
	}
	if d.sess.eng.State().Pending != pending {
		t.Fatal("the removal was queued before its undo ran out")
	}
	// Ctrl+Z (the Undo button has the focus).
	d.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(&fyne.ShortcutUndo{})
	if got := strings.Join(optionItems(v.p, 0, 0), ","); got != "Amp,-Cable" {
		t.Fatalf("after undo %s", got)
	}
	if d.sess.eng.State().Pending != pending || strings.Contains(texts(v.body), "Removed") {
		t.Fatal("undo left a trace")
	}

	// Remove again with the button and let the undo run out: saved.
	old := undoFor
	undoFor = 20 * time.Millisecond
	defer func() { undoFor = old }()
	test.Tap(rowOfItem(t, v, "Amp").remove)
	h.waitFor("the removal saved", func() bool {
		rec, err := d.sess.st.Record(v.id)
		return err == nil && len(rec.Local.Areas[0].Options[0].Items) == 0
	})
	h.sync()
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	if n0, n1 := len(sp.Areas[0].Options[0].Items), len(sp.Areas[0].Options[1].Items); n0 != 0 || n1 != 1 {
		t.Fatalf("server options hold %d and %d items, want 0 and 1", n0, n1)
	}
}

// Selecting an option makes the totals follow it; declining another;
// the parts discount as a percentage then an amount, previewed while
// typed.
func TestOptionSelectAndDiscount(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	name := runName("Options chosen")
	v, id := h.contentFixture(name, [][2]string{{"Basic TV", "100.00"}}, [][2]string{{"Big TV", "300.00"}})
	total := func() app.Money { return app.Summarize(&v.p.Document).Total }
	if total() != app.MustMoney("100.00") || !strings.Contains(summaryText(v), "$100.00") {
		t.Fatalf("the first option should count: %s", total())
	}
	rg := radioGroups(v.body)
	if len(rg) != 2 {
		t.Fatalf("%d status choices", len(rg))
	}
	rg[1].SetSelected(string(app.OptionSelected))
	if total() != app.MustMoney("300.00") || !strings.Contains(summaryText(v), "$300.00") {
		t.Fatalf("after selecting option 2: %s\n%s", total(), summaryText(v))
	}
	if got := texts(v.body); !strings.Contains(got, "Option 2 · counted in the totals") {
		t.Fatalf("option 2 not marked as counted:\n%s", got)
	}
	radioGroups(v.body)[0].SetSelected(string(app.OptionDeclined))
	if s := v.p.Areas[0].Options[0].Status; s != app.OptionDeclined {
		t.Fatalf("option 1 is %s", s)
	}

	// 10 % off the parts: previewed, then saved with Enter.
	value := discountField(t, v)
	retype(value, "10")
	if got := summaryText(v); !strings.Contains(got, app.FormatMoney(-app.MustMoney("30.00"), app.USD)) || !strings.Contains(got, "$270.00") {
		t.Fatalf("summary while typing the discount:\n%s", got)
	}
	enter(value)
	if v.p.Pricing.DiscountPercentage != app.MustRate("10") {
		t.Fatalf("pricing %+v", v.p.Pricing)
	}
	// An amount instead.
	discountSelect(t, v).SetSelected(string(app.DiscountAmount))
	value = discountField(t, v)
	retype(value, "25")
	enter(value)
	if total() != app.MustMoney("275.00") || !strings.Contains(summaryText(v), "$275.00") {
		t.Fatalf("with $25 off: %s", total())
	}
	h.sync()
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Areas[0].Options[1].Status != app.OptionSelected || sp.Areas[0].Options[0].Status != app.OptionDeclined ||
		sp.Pricing.DiscountType != app.DiscountAmount || sp.Pricing.DiscountAmount != app.MustMoney("25.00") {
		t.Fatalf("server options %s/%s, pricing %+v", sp.Areas[0].Options[0].Status, sp.Areas[0].Options[1].Status, sp.Pricing)
	}
}

func discountSelect(t *testing.T, v *proposalView) *widget.Select {
	var found *widget.Select
	walk(v.body, func(o fyne.CanvasObject) {
		if s, ok := o.(*widget.Select); ok && (s.Selected == string(app.DiscountPercentage) || s.Selected == string(app.DiscountAmount)) {
			found = s
		}
	})
	if found == nil {
		t.Fatal("no discount type choice")
	}
	return found
}

// discountField is the field after the discount type choice: the last
// field of the screen.
func discountField(t *testing.T, v *proposalView) *field {
	discountSelect(t, v)
	return v.fields[len(v.fields)-1]
}

// Duplicate opens the copy (made offline-first, sent at the next sync);
// archive takes it off the list, restore brings it back.
func TestDuplicateAndArchive(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := runName("To copy")
	v, _ := h.contentFixture(name, [][2]string{{"Speaker", "250.00"}}, nil)
	test.Tap(tipButtons(v.body, "Duplicate proposal")[0])
	cp := d.detail.p
	if cp.Name != "Copy of "+name || !app.IsTemporaryID(cp.ID) || len(cp.Areas) != 1 || optionItems(cp, 0, 0)[0] != "Speaker" {
		t.Fatalf("copy %q (%d): %v", cp.Name, cp.ID, cp.Areas)
	}
	if d.win.Canvas().Focused() != d.detail.name {
		t.Fatal("the copy's name does not have the cursor")
	}
	test.Tap(tipButtons(d.detail.body, "Archive")[0])
	if !d.detail.p.Archived {
		t.Fatal("not archived")
	}
	for _, r := range d.list.rows {
		if r.ID == d.detail.p.ID {
			t.Fatal("an archived proposal is still listed")
		}
	}
	test.Tap(tipButtons(d.detail.body, "Restore")[0])
	if d.detail.p.Archived {
		t.Fatal("not restored")
	}
	h.sync()
	h.d.list.search.SetText("Copy of " + name)
	if len(d.list.rows) != 1 || d.list.rows[0].ID <= 0 {
		t.Fatalf("the copy after sync: %+v", d.list.rows)
	}
	h.d.list.search.SetText("")
}

// An accepted proposal shows its content read-only; a Viewer sees no
// costs and may not duplicate.
func TestContentReadOnly(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	name := runName("Accepted content")
	_, id := h.contentFixture(name, [][2]string{{"Projector", "1999.00"}}, nil)
	if _, err := h.srv.Update(id, &app.ChangeStatus{Status: app.StatusSubmitted}, &app.ChangeStatus{Status: app.StatusAccepted}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	v := h.openByName(name)
	row := rowOfItem(t, v, "Projector")
	for col, f := range row.fields {
		if !f.Disabled() {
			t.Fatalf("item field %d editable on an accepted proposal", col)
		}
	}
	for _, b := range []*tipButton{row.more, row.remove} {
		if !b.Disabled() {
			t.Fatal("an item button is enabled on an accepted proposal")
		}
	}
	for _, label := range []string{"Custom item", "Labor", "Fee", "Remove area"} {
		if bs := tipButtons(v.body, label); len(bs) == 0 || !bs[0].Disabled() {
			t.Fatalf("%q enabled on an accepted proposal", label)
		}
	}
	for _, rg := range radioGroups(v.body) {
		if !rg.Disabled() {
			t.Fatal("option status can be changed on an accepted proposal")
		}
	}
	if !discountSelect(t, v).Disabled() {
		t.Fatal("the discount can be changed on an accepted proposal")
	}
	// Duplicate and archive work in every status.
	if tipButtons(v.body, "Duplicate proposal")[0].Disabled() || tipButtons(v.body, "Archive")[0].Disabled() {
		t.Fatal("duplicate or archive disabled on an accepted proposal")
	}

	viewer := newHarness(t)
	viewer.signIn(app.RoleViewer)
	vv := viewer.openByName(name)
	vrow := rowOfItem(t, vv, "Projector")
	if len(vrow.fields) != colSell+1 || strings.Contains(texts(vv.body), "Cost") {
		t.Fatalf("a Viewer sees %d item fields (costs shown?)", len(vrow.fields))
	}
	dup := tipButtons(vv.body, "Duplicate proposal")[0]
	if !dup.Disabled() || !strings.Contains(dup.tip, "does not allow") {
		t.Fatalf("Viewer's duplicate: disabled %v, tip %q", dup.Disabled(), dup.tip)
	}
}

// Rename an area (saved as you type) and remove one after confirming.
func TestAreaRenameAndRemove(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := runName("Areas edited")
	v, id := h.contentFixture(name, nil, nil)
	var areaName *field
	for _, f := range v.fields {
		if f.Text == "Den" {
			areaName = f
		}
	}
	if areaName == nil {
		t.Fatal("no area name field")
	}
	retype(areaName, "Family room")
	areaName.FocusLost()
	if v.p.Areas[0].Name != "Family room" || findCard(v.body, "Family room") == nil {
		t.Fatalf("area %q", v.p.Areas[0].Name)
	}
	test.Tap(tipButtons(v.body, "Remove area")[0])
	test.Tap(findButton(d.win.Canvas().Overlays().Top(), "Remove area"))
	if len(v.p.Areas) != 0 {
		t.Fatalf("%d areas after removal", len(v.p.Areas))
	}
	h.sync()
	if sp, err := h.srv.Proposal(id); err != nil || len(sp.Areas) != 0 {
		t.Fatalf("server areas %v, %v", sp, err)
	}
}

// Two desktops change the same item: the same field is a conflict shown
// in the panel (mine and theirs), different fields merge.
func TestItemConflictInPanel(t *testing.T) {
	a := newHarness(t)
	a.signIn(app.RoleSales)
	name := runName("Item conflict")
	va, id := a.contentFixture(name, [][2]string{{"Subwoofer", "800.00"}}, nil)
	b := newHarness(t)
	b.signIn(app.RoleAdmin)
	vb := b.openByName(name)

	a.gate.down.Store(true)
	ra := rowOfItem(t, va, "Subwoofer")
	retype(ra.fields[colQuantity], "4")
	enter(ra.fields[colQuantity])
	retype(ra.fields[colSell], "850")
	enter(ra.fields[colSell])
	rb := rowOfItem(t, vb, "Subwoofer")
	retype(rb.fields[colQuantity], "6")
	enter(rb.fields[colQuantity])
	b.sync()
	a.gate.down.Store(false)
	if st := a.sync(); st.Conflicts != 1 {
		t.Fatalf("state %+v, want one conflict (the quantity)", st)
	}
	test.Tap(a.d.status.problems)
	got := texts(a.d.win.Canvas().Overlays().Top())
	for _, want := range []string{"Item quantity", "4", "6"} {
		if !strings.Contains(got, want) {
			t.Fatalf("panel lacks %q:\n%s", want, got)
		}
	}
	sp, err := a.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	it := sp.Areas[0].Options[0].Items[0]
	if it.SellPrice != app.MustMoney("850.00") || it.Quantity != app.MustQuantity("6") {
		t.Fatalf("server item %s × %s: the price should have merged, the quantity wait", it.Quantity, it.SellPrice)
	}
}
