package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// Syncs that give the server's IDs to what the screen shows (the
// proposal, its new lines) while the user is typing: the typing stays
// as it was and lands on the thing the user sees.

// storedItem is the item with this ID in the local store's view of
// proposal id.
func (h *harness) storedItem(id, itemID int64) *app.Item {
	h.t.Helper()
	rec, err := h.d.sess.st.Record(id)
	if err != nil {
		h.t.Fatal(err)
	}
	it, _, ok := rec.Local.Item(itemID)
	if !ok {
		h.t.Fatalf("the store has no item %d in proposal %d", itemID, id)
	}
	return it
}

// notSaved is every "Not saved" the proposal screen shows.
func notSaved(v *proposalView) []string {
	var out []string
	walk(v.body, func(o fyne.CanvasObject) {
		var l *widget.Label
		switch x := o.(type) {
		case *widget.Label:
			l = x
		case *hintLine:
			l = x.Label
		}
		if l != nil && l.Visible() && strings.Contains(l.Text, "Not saved") {
			out = append(out, l.Text)
		}
	})
	return out
}

// retypeIn is retype for a field that may be out of view: it is drawn
// first, as clicking it (after scrolling to it) does.
func retypeIn(v *proposalView, f *field, text string) {
	v.focus(f)
	retype(f, text)
}

// The cursor is in a new Labor line's name when a sync gives the line
// the server's ID: the name stays selected, and what is typed into the
// line's name, quantity and price afterwards (one value while a second
// sync runs) is saved on that line, locally and on the server.
func TestNewLineTypedThroughSync(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v, id := h.contentFixture(runName("Line through sync"), nil, nil)

	test.Tap(tipButtons(v.body, "Labor")[0])
	row := rowOfItem(t, v, "Labor")
	temp := row.id
	name := row.fields[colName]
	if !app.IsTemporaryID(temp) || d.win.Canvas().Focused() != name || name.SelectedText() != "Labor" {
		t.Fatalf("new line %d: focus %v, selected %q", temp, d.win.Canvas().Focused(), name.SelectedText())
	}
	h.backgroundSync()
	if d.win.Canvas().Focused() != name || name.SelectedText() != "Labor" {
		t.Fatalf("after the sync: focus %v, selected %q", d.win.Canvas().Focused(), name.SelectedText())
	}
	if _, _, there := v.p.Item(temp); there {
		t.Fatalf("the view still has the line under %d after the sync", temp)
	}
	test.Type(name, "Wiring") // replaces the selected default
	enter(name)
	retypeIn(v, row.fields[colQuantity], "6")
	h.backgroundSync() // the quantity typed, not saved yet
	enter(row.fields[colQuantity])
	retypeIn(v, row.fields[colSell], "95")
	enter(row.fields[colSell])
	h.drain()
	if got := notSaved(v); len(got) > 0 {
		t.Fatalf("the screen says %q", got)
	}
	if row.total.Text != "$570.00" {
		t.Fatalf("the line's total shows %q, want $570.00", row.total.Text)
	}
	if st := h.backgroundSync(); st.Pending+st.Failed+st.Conflicts != 0 {
		t.Fatalf("after the last sync %+v", st)
	}
	want := func(where string, it *app.Item) {
		t.Helper()
		if it.Name != "Wiring" || it.Quantity != app.MustQuantity("6") || it.SellPrice != app.MustMoney("95") {
			t.Fatalf("%s has %q %s × %s, want Wiring 6 × 95.00", where, it.Name, it.Quantity, it.SellPrice)
		}
	}
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	items := sp.Areas[0].Options[0].Items
	if len(items) != 1 {
		t.Fatalf("the server has %d items, want 1", len(items))
	}
	want("the server", &items[0])
	want("the store", h.storedItem(id, items[0].ID))
	if got := notSaved(v); len(got) > 0 {
		t.Fatalf("after the sync the screen says %q", got)
	}
}

// New proposal, a sync gives it the server's ID before the first
// keystroke: the name keeps the focus and its selection, so the typed
// name replaces the default one, and Enter saves it.
func TestNewProposalNamedAfterSync(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	h.openByName("Smith home theater")
	test.Tap(findButton(d.win.Content(), "New proposal"))
	v := d.detail
	temp := v.id
	h.backgroundSync()
	if v.id == temp || app.IsTemporaryID(v.id) {
		t.Fatalf("the view shows %d after the sync", v.id)
	}
	assertNameReady(t, d, v.p.Name)
	name := runName("Kitchen")
	test.Type(v.name, name)
	enter(v.name) // saves at once: no pause, no UI work run
	if rec, err := d.sess.st.Record(v.id); err != nil || rec.Local.Name != name {
		t.Fatalf("after Enter the store has %v (%v), want %q", rec, err, name)
	}
	h.backgroundSync()
	if sp, err := h.srv.Proposal(v.id); err != nil || sp.Name != name {
		t.Fatalf("the server has %v (%v), want %q", sp, err, name)
	}
}

// assertNameReady: the open proposal's name field has the cursor with
// all its text (want) selected.
func assertNameReady(t *testing.T, d *Desktop, want string) {
	t.Helper()
	v := d.detail
	if v.name == nil || v.name.Text != want || d.win.Canvas().Focused() != v.name || v.name.SelectedText() != want {
		t.Fatalf("name %q: focused %v, selected %q; want %q selected", v.name.Text, d.win.Canvas().Focused() == v.name, v.name.SelectedText(), want)
	}
}

// Duplicate with the app's own sync loop running: the copy opens at
// once with its name selected, keeps it through the sync that gives it
// the server's ID, and the typed name + Enter renames the copy, never
// the source.
func TestDuplicateRenamedThroughSync(t *testing.T) {
	h := newHarness(t)
	h.autoSync = true
	d := h.signIn(app.RoleSales)
	src := runName("To copy and rename")
	v, srcID := h.contentFixture(src, [][2]string{{"Speaker", "250.00"}}, nil)
	for round := range 3 { // the sync may end before or after the copy opens
		test.Tap(tipButtons(v.body, "Duplicate proposal")[0])
		cp := d.detail
		if cp.p == nil || cp.id == srcID || cp.p.Name != "Copy of "+src {
			t.Fatalf("round %d: the right pane shows %v", round, cp.p)
		}
		assertNameReady(t, d, "Copy of "+src)
		h.waitFor("the copy sent", func() bool { st := d.sess.eng.State(); return st.Pending == 0 && !st.Syncing })
		h.drain()
		if cp.id <= 0 || cp.p == nil || cp.p.Name != "Copy of "+src {
			t.Fatalf("round %d: after the sync the right pane shows %d (%v)", round, cp.id, cp.p)
		}
		assertNameReady(t, d, "Copy of "+src)
		name := runName("Renamed copy")
		test.Type(cp.name, name)
		enter(cp.name)
		copyID := cp.id
		h.sync()
		for what, pid := range map[string]int64{"copy": copyID, "source": srcID} {
			sp, err := h.srv.Proposal(pid)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[string]string{"copy": name, "source": src}[what]; sp.Name != want {
				t.Fatalf("round %d: the server's %s is named %q, want %q", round, what, sp.Name, want)
			}
		}
		v = h.openByName(src)
	}
}

// The header and the status bar never say everything is saved and sent
// while a line shows "Not saved" or an edit waits, was refused or is in
// conflict.
func TestIndicatorNeverClaimsInSync(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v, id := h.contentFixture(runName("Honest indicator"), [][2]string{{"Amp", "500.00"}, {"Cable", "20.00"}}, nil)
	claims := func(when string) {
		t.Helper()
		if strings.Contains(v.saved.Text, "in sync") || d.status.pending.Text == "All changes sent" {
			t.Fatalf("%s: header %q, status bar %q, while the line says %q", when, v.saved.Text, d.status.pending.Text, notSaved(v))
		}
	}
	if !strings.Contains(v.saved.Text, "in sync") || d.status.pending.Text != "All changes sent" {
		t.Fatalf("synced: header %q, status bar %q", v.saved.Text, d.status.pending.Text)
	}
	// A value the rules refuse.
	amp := rowOfItem(t, v, "Amp")
	retypeIn(v, amp.fields[colQuantity], "0")
	enter(amp.fields[colQuantity])
	if len(notSaved(v)) == 0 {
		t.Fatal("the refused quantity shows no Not saved")
	}
	claims("a refused quantity")
	// Another line saved meanwhile: the first still holds its refused text.
	cable := rowOfItem(t, v, "Cable")
	retypeIn(v, cable.fields[colQuantity], "2")
	enter(cable.fields[colQuantity])
	claims("another line saved after the refusal")
	h.sync()
	claims("a sync after the refusal")
	retypeIn(v, amp.fields[colQuantity], "1")
	enter(amp.fields[colQuantity])
	h.sync()
	if got := notSaved(v); len(got) > 0 || !strings.Contains(v.saved.Text, "in sync") || d.status.pending.Text != "All changes sent" {
		t.Fatalf("fixed and synced: %q, header %q, status bar %q", got, v.saved.Text, d.status.pending.Text)
	}

	// An edit the server refuses: Cable was removed there meanwhile.
	cableID := rowOfItem(t, v, "Cable").id
	if _, err := h.srv.Update(id, &app.RemoveItem{ItemID: cableID}); err != nil {
		t.Fatal(err)
	}
	retypeIn(v, rowOfItem(t, v, "Cable").fields[colSell], "25")
	enter(rowOfItem(t, v, "Cable").fields[colSell])
	claims("an unsent edit")
	if st := h.sync(); st.Failed == 0 && st.Conflicts == 0 {
		t.Fatalf("the server did not refuse the edit of a removed item: %+v", st)
	}
	claims("a refused edit")
}

// fieldsWith are the screen's fields with this placeholder, in order.
func fieldsWith(v *proposalView, placeholder string) []*field {
	var out []*field
	for _, f := range v.fields {
		if f.PlaceHolder == placeholder {
			out = append(out, f)
		}
	}
	return out
}

// A new area gets the server's IDs (its own and its option's) while the
// cursor is in its option's description: the description typed, the
// area's + Labor button and the new line's name all land on that area.
func TestNewAreaUsedThroughSync(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	v, id := h.contentFixture(runName("Area through sync"), nil, nil)
	var newArea *plainEntry
	for _, e := range plainEntries(v.body) {
		if e.PlaceHolder == "New area name (e.g. Kitchen)" {
			newArea = e
		}
	}
	h.typeIn(newArea, "Kitchen")
	press(newArea, fyne.KeyReturn)
	if len(v.p.Areas) != 2 || !app.IsTemporaryID(v.p.Areas[1].ID) {
		t.Fatalf("areas %+v", v.p.Areas)
	}
	descs := fieldsWith(v, "What the client reads about this option")
	desc := descs[len(descs)-1] // Kitchen's (Den has two options)
	v.focus(desc)
	test.Type(desc, "Cabinets")
	h.backgroundSync()
	if a := v.p.Areas[1]; app.IsTemporaryID(a.ID) || app.IsTemporaryID(a.Options[0].ID) {
		t.Fatalf("after the sync the view has the area under %d, its option under %d", a.ID, a.Options[0].ID)
	}
	labor := tipButtons(v.body, "Labor")
	test.Tap(labor[len(labor)-1])
	row := rowOfItem(t, v, "Labor")
	test.Type(row.fields[colName], "Fan")
	enter(row.fields[colName])
	h.drain()
	if got := notSaved(v); len(got) > 0 {
		t.Fatalf("the screen says %q", got)
	}
	h.backgroundSync()
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.Areas) != 2 || sp.Areas[1].Name != "Kitchen" {
		t.Fatalf("the server's areas %+v", sp.Areas)
	}
	o := sp.Areas[1].Options[0]
	if o.ClientDescription != "Cabinets" || len(o.Items) != 1 || o.Items[0].Name != "Fan" || o.Items[0].ItemType != app.ItemLabor {
		t.Fatalf("the server's Kitchen option: %q, items %+v", o.ClientDescription, o.Items)
	}
	for _, o := range sp.Areas[0].Options {
		if len(o.Items) != 0 || o.ClientDescription != "" {
			t.Fatalf("Den got %q, items %+v", o.ClientDescription, o.Items)
		}
	}
}

// Typing a new proposal's name at once: the sync that gives it the
// server's ID (and number, and so another default name) comes while the
// name is typed and not saved. The typing is kept and saved as typed:
// the server's default name is not a colleague's change to ask about.
func TestNewProposalTypedDuringSync(t *testing.T) {
	h := newHarness(t)
	d := h.signInWith(app.RoleSales, Options{SaveDelay: time.Hour}) // saved only by Enter
	test.Tap(findButton(d.win.Content(), "New proposal"))
	v := d.detail
	test.Type(v.name, "Garage ")
	h.backgroundSync()
	if app.IsTemporaryID(v.id) {
		t.Fatal("the sync did not give the proposal the server's ID")
	}
	test.Type(v.name, "doors")
	enter(v.name)
	if top := d.win.Canvas().Overlays().Top(); top != nil {
		t.Fatalf("a question is open: %q", texts(top))
	}
	if rec, err := d.sess.st.Record(v.id); err != nil || rec.Local.Name != "Garage doors" {
		t.Fatalf("the store has %v (%v), want Garage doors", rec, err)
	}
	if strings.Contains(v.saved.Text, "Changed") {
		t.Fatalf("indicator %q", v.saved.Text)
	}
}

// The open proposal goes away (its offline create discarded in Review)
// while its name has the cursor: the pane empties and what is typed
// afterwards edits nothing, never a proposal 0.
func TestGoneProposalTakesNoEdits(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	h.gate.down.Store(true)
	test.Tap(findButton(d.win.Content(), "New proposal"))
	v := d.detail
	name, temp := v.name, v.id
	entries, err := d.sess.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.ProposalID == temp {
			if err := d.sess.eng.Discard(bg, e.Seq); err != nil {
				t.Fatal(err)
			}
		}
	}
	h.drain()
	if v.p != nil || v.id != 0 {
		t.Fatalf("the pane still shows %d", v.id)
	}
	test.Type(name, "Phantom")
	enter(name)
	name.FocusLost() // a click elsewhere: saves what the field has
	h.drain()
	entries, err = d.sess.st.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Fatalf("typing into the gone proposal's name queued %+v", entries)
	}
	for _, r := range d.list.rows {
		if r.ID == 0 || r.Name == "Phantom" {
			t.Fatalf("the list has %+v", r)
		}
	}
}

// The copy keeps the customer and the location (the contract's copy
// row), on the screen at once and on the server after the sync. (It
// needs CopyProposal to keep them: app's part.)
func TestDuplicateKeepsCustomerAndLocation(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	carla := h.openByName("Smith home theater").p.Customer
	if carla == nil {
		t.Fatal("the fixture proposal has no customer")
	}
	locs, err := d.sess.st.Locations(carla.ID)
	if err != nil || len(locs) == 0 {
		t.Fatalf("Carla's locations %v, %v", locs, err)
	}
	src := runName("Copy with customer")
	id, err := createOnServer(h.srv, h.srv.Users[app.RoleSales].ID, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.Update(id, &app.AssignContact{ContactID: carla.ID}, &app.AssignLocation{LocationID: locs[0].ID}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	v := h.openByName(src)
	test.Tap(tipButtons(v.body, "Duplicate proposal")[0])
	cp := d.detail
	has := func(where string, p *app.Proposal) {
		t.Helper()
		if p.Customer == nil || p.Customer.ID != carla.ID || p.Customer.Location == nil || p.Customer.Location.ID != locs[0].ID {
			t.Fatalf("%s: customer %+v, want contact %d at location %d", where, p.Customer, carla.ID, locs[0].ID)
		}
	}
	has("the copy on the screen", cp.p)
	if got := texts(cp.body); !strings.Contains(got, "Carla") {
		t.Fatalf("the copy's screen does not name the customer:\n%s", got)
	}
	h.sync()
	sp, err := h.srv.Proposal(cp.id)
	if err != nil {
		t.Fatal(err)
	}
	has("the copy on the server", sp)
}

// A copy made and edited offline: the sync that sends it gives the copy
// and every area, option and line in it the server's IDs while the
// cursor is in one of its lines; the typing goes on landing on the copy.
func TestOfflineCopyEditedThroughSync(t *testing.T) {
	h := newHarness(t)
	d := h.signInWith(app.RoleSales, Options{SaveDelay: time.Hour}) // saved by Enter
	src := runName("Copy edited offline")
	v, srcID := h.contentFixture(src, [][2]string{{"Amp", "500.00"}, {"Cable", "20.00"}}, nil)
	h.gate.down.Store(true)
	test.Tap(tipButtons(v.body, "Duplicate proposal")[0])
	cp := d.detail
	retypeIn(cp, rowOfItem(t, cp, "Cable").fields[colQuantity], "3")
	enter(rowOfItem(t, cp, "Cable").fields[colQuantity])
	amp := rowOfItem(t, cp, "Amp")
	retypeIn(cp, amp.fields[colSell], "510")
	h.gate.down.Store(false)
	h.backgroundSync()
	if app.IsTemporaryID(cp.id) || app.IsTemporaryID(amp.id) {
		t.Fatalf("after the sync the screen shows the copy as %d, Amp as %d", cp.id, amp.id)
	}
	enter(amp.fields[colSell])
	retypeIn(cp, amp.fields[colName], "Big amp")
	enter(amp.fields[colName])
	if got := notSaved(cp); len(got) > 0 {
		t.Fatalf("the screen says %q", got)
	}
	h.backgroundSync()
	for pid, want := range map[int64]string{cp.id: "Big amp 1×510.00, Cable 3×20.00", srcID: "Amp 1×500.00, Cable 1×20.00"} {
		sp, err := h.srv.Proposal(pid)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range sp.Areas[0].Options[0].Items {
			got = append(got, fmt.Sprintf("%s %s×%s", it.Name, it.Quantity, it.SellPrice))
		}
		if strings.Join(got, ", ") != want {
			t.Fatalf("the server's proposal %d has %q, want %q", pid, got, want)
		}
	}
}
