package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
)

func TestTypeAhead(t *testing.T) {
	states := []string{"Tennessee (TN)", "Texas (TX)", "Utah (UT)", "New Hampshire (NH)", "New Jersey (NJ)", "New York (NY)", "Nevada (NV)"}
	for _, c := range []struct {
		current int
		typed   string
		want    int
	}{
		{-1, "t", 0},     // T → Tennessee
		{0, "t", 1},      // T again, after a pause → Texas
		{1, "t", 0},      // and round to Tennessee
		{0, "tt", 1},     // T T quickly steps the same way
		{1, "ttt", 0},    //
		{0, "tex", 1},    // a word finds its option
		{1, "te", 1},     // the current option still matches: it stays
		{-1, "TE", 0},    // case ignored
		{-1, "new y", 5}, // spaces inside a word
		{-1, "u", 2},     //
		{2, "x", -1},     // nothing starts with X
		{-1, "tz", -1},   // nor with "tz"
		{-1, " ", -1},    // a space alone chooses nothing
		{-1, "", -1},     //
		{6, "n", 3},      // round the end
		{3, "ne", 3},     //
		{3, "nev", 6},    //
	} {
		if got := typeAhead(states, c.current, c.typed); got != c.want {
			t.Errorf("at %d typing %q: %d, want %d", c.current, c.typed, got, c.want)
		}
	}
}

func TestContactFromSearch(t *testing.T) {
	for _, c := range []struct{ in, first, last, email string }{
		{"", "", "", ""},
		{"  ", "", "", ""},
		{"Ivy", "Ivy", "", ""},
		{" Ivy  Chen ", "Ivy", "Chen", ""},
		{"Mary Ann Smith", "Mary Ann", "Smith", ""},
		{"ivy@example.com", "", "", "ivy@example.com"},
	} {
		if f, l, e := contactFromSearch(c.in); f != c.first || l != c.last || e != c.email {
			t.Errorf("%q: %q %q %q, want %q %q %q", c.in, f, l, e, c.first, c.last, c.email)
		}
	}
}

// The state chooser in New contact takes type-ahead: T chooses
// Tennessee, T again Texas, and the contact is created in Texas; the
// form starts with the name searched for.
func TestNewContactFromSearchAndStateTypeAhead(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v := h.newOwnProposal("Type-ahead")
	test.Tap(findButton(v.body, "Choose contact…"))
	chooser := d.win.Canvas().Overlays().Top()
	var search *plainEntry
	for _, e := range plainEntries(chooser) {
		if e.PlaceHolder == "Search contacts" {
			search = e
		}
	}
	if search == nil {
		t.Fatal("no contact search")
	}
	name := "Quinn Zephyrine" + time.Now().Format("150405")
	h.typeIn(search, name)
	test.Tap(findButton(chooser, "New contact…"))
	form := d.win.Canvas().Overlays().Top()
	e := plainEntries(form) // first, last, company, email, phone, street, city, zip
	if e[0].Text != "Quinn" || e[1].Text != strings.Fields(name)[1] {
		t.Fatalf("New contact starts with %q %q, want the search %q", e[0].Text, e[1].Text, name)
	}

	var state *typeAheadSelect
	walk(form, func(x fyne.CanvasObject) {
		if s, ok := x.(*typeAheadSelect); ok {
			state = s
		}
	})
	if state == nil {
		t.Fatal("no state chooser")
	}
	clock := time.Now()
	state.now = func() time.Time { return clock }
	d.win.Canvas().Focus(state)
	test.Type(state, "T")
	if state.Selected != "Tennessee (TN)" {
		t.Fatalf("T chose %q", state.Selected)
	}
	clock = clock.Add(2 * typeAheadPause)
	test.Type(state, "T")
	if state.Selected != "Texas (TX)" {
		t.Fatalf("T again chose %q", state.Selected)
	}
	clock = clock.Add(2 * typeAheadPause)
	test.Type(state, "new y") // one word: typed within the pause
	if state.Selected != "New York (NY)" {
		t.Fatalf("\"new y\" chose %q", state.Selected)
	}
	test.Type(state, "") // nothing
	clock = clock.Add(2 * typeAheadPause)
	test.Type(state, "tex")
	h.typeIn(e[5], "1 Main St")
	h.typeIn(e[7], "78701")
	press(e[7], fyne.KeyReturn)
	c := d.detail.p.Customer
	if c == nil || c.LastName != strings.Fields(name)[1] || c.Location == nil || c.Location.StateAbbrev != "TX" {
		t.Fatalf("customer %+v", c)
	}
}

// Enter answers "Mark as Accepted?" with its highlighted button, as a
// click on it does.
func TestEnterConfirms(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v := h.newOwnProposal("Enter confirms")
	if _, err := h.srv.Update(v.id, &app.ChangeStatus{Status: app.StatusSubmitted}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	v = d.detail
	moveSelect(v).SetSelected(app.StatusAccepted.Label())
	c := d.win.Canvas()
	if findButton(c.Overlays().Top(), "Mark as Accepted") == nil {
		t.Fatal("no confirmation")
	}
	c.Unfocus()
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if v = d.detail; v.p.Status != app.StatusAccepted || c.Overlays().Top() != nil {
		t.Fatalf("after Enter: %s, dialog open %v", v.p.Status, c.Overlays().Top() != nil)
	}
	// Enter with no confirmation showing does nothing.
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if d.detail.p.Status != app.StatusAccepted {
		t.Fatal("a stray Enter changed the status")
	}
}
