package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
)

// Edits of items update the page in place: the page and every widget
// outside the options changed stay the same objects, the rows of the
// options changed show the store's items in the store's order, and a
// sync that only confirms the edits (new lines given the server's IDs)
// keeps even their rows. A change to anything else the page shows
// builds it anew.
func TestItemEditsUpdateThePageInPlace(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := runName("In place")
	v, id := h.contentFixture(name, [][2]string{{"Speaker", "100"}, {"Amp", "200"}}, [][2]string{{"Sub", "300"}})
	page, nameField, sub := v.page, v.name, rowOfItem(t, v, "Sub")
	first, second := v.p.Areas[0].Options[0].ID, v.p.Areas[0].Options[1].ID
	samePage := func(after string) {
		t.Helper()
		d.win.Canvas().Capture()
		if v.page != page || v.name != nameField {
			t.Fatalf("after %s the page was built anew", after)
		}
		checkRows(t, v, after)
	}

	test.Tap(tipButtons(v.body, "Custom item")[0])
	samePage("a line added")
	if rowOfItem(t, v, "Sub") != sub {
		t.Fatal("adding a line to the first option built the second's row again")
	}
	custom := rowOfItem(t, v, "Custom item")
	if d.win.Canvas().Focused() != custom.fields[colName] {
		t.Fatal("the line added has not the focus")
	}
	test.Type(custom.fields[colName], "Wall plate") // typed over the name, selected
	custom.fields[colName].flush()

	amp := rowOfItem(t, v, "Amp").id
	if !v.applyEdits(v.cui().hints[first], &app.ChangeItem{ID: v.id, ItemID: amp, OptionID: &second}) {
		t.Fatal("moving Amp to the second option was refused")
	}
	samePage("a line moved to another option")
	if v.p.Areas[0].Options[1].Items[1].Name != "Amp" {
		t.Fatalf("the second option holds %+v", v.p.Areas[0].Options[1].Items)
	}

	speaker := rowOfItem(t, v, "Speaker").id
	v.removeItem(speaker)
	samePage("a line removed, Undo offered")
	if _, _, there := v.p.Item(speaker); there || len(tipButtons(v.body, "Undo")) != 1 {
		t.Fatal("the line removed is still shown, or no Undo is offered")
	}
	v.undoRemoval()
	samePage("the removal undone")
	if _, _, there := v.p.Item(speaker); !there || len(tipButtons(v.body, "Undo")) != 0 {
		t.Fatal("Undo did not bring the line back in place of the strip")
	}

	// The sync gives the new line the server's ID: the row follows.
	tempID := custom.id
	h.sync()
	samePage("a sync")
	if custom.id == tempID || app.IsTemporaryID(custom.id) || rowOfItem(t, v, "Wall plate") != custom {
		t.Fatalf("after the sync the new line's row is %d (was %d), or was built again", custom.id, tempID)
	}

	// A colleague changes a line: its row shows it, in the same page.
	three := app.MustQuantity("3")
	if _, err := h.srv.Update(id, &app.ChangeItem{ItemID: sub.id, Quantity: &three}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	samePage("a colleague's change to a line")
	if rowOfItem(t, v, "Sub") != sub || sub.fields[colQuantity].Text != "3" || sub.total.Text != "$900.00" {
		t.Fatalf("after a colleague's change Sub's row shows %s × … = %s", sub.fields[colQuantity].Text, sub.total.Text)
	}

	// A colleague renames the proposal: the page is built anew with it.
	newName := name + " (renamed)"
	if _, err := h.srv.Update(id, &app.UpdateProposal{Name: &newName}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	if v.page == page || v.name.Text != newName {
		t.Fatalf("after a rename on the server the page shows %q (built anew: %v)", v.name.Text, v.page != page)
	}
	checkRows(t, v, "the page built anew")
}

// checkRows fails unless every option's rows are its items in outline
// order, each row showing its item's values.
func checkRows(t *testing.T, v *proposalView, after string) {
	t.Helper()
	c := v.cui()
	for _, a := range v.p.Areas {
		for oi := range a.Options {
			o := &a.Options[oi]
			s := c.slots[o.ID]
			if s == nil {
				t.Fatalf("after %s option %d has no place in the page", after, o.ID)
			}
			outline := app.Outline(o)
			box, ok := s.box.Objects[s.at].(*cullBox)
			if !ok {
				if len(outline) > 0 {
					t.Fatalf("after %s option %d shows no rows for its %d items", after, o.ID, len(outline))
				}
				continue
			}
			rowAt := map[any]*itemRow{}
			for _, r := range outline {
				row := v.rowFor(o.Items[r.Index].ID)
				if row == nil {
					t.Fatalf("after %s item %d has no row", after, o.Items[r.Index].ID)
				}
				rowAt[row.obj] = row
			}
			var shown []*itemRow
			for _, obj := range box.objs {
				if row := rowAt[obj]; row != nil {
					shown = append(shown, row)
				}
			}
			if len(shown) != len(outline) {
				t.Fatalf("after %s option %d shows %d of its %d items", after, o.ID, len(shown), len(outline))
			}
			for i, r := range outline {
				it := &o.Items[r.Index]
				if shown[i].id != it.ID || shown[i].fields[colName].Text != it.Name || shown[i].fields[colQuantity].Text != it.Quantity.String() {
					t.Fatalf("after %s row %d of option %d shows item %d %q × %s, want %d %q × %s", after, i, o.ID,
						shown[i].id, shown[i].fields[colName].Text, shown[i].fields[colQuantity].Text, it.ID, it.Name, it.Quantity)
				}
			}
		}
	}
}
