package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
)

// A focused field never shows a stale value as saved.
// A colleague renames the open proposal on the server while the Name
// field has the focus: untouched, the field shows the new name at once
// and keeps the focus; typed in, it keeps the typing, the indicator says
// so, and the save asks instead of overwriting the colleague's name.
func TestFocusedFieldFollowsTheStore(t *testing.T) {
	h := newHarness(t)
	// Typing is saved only when the field is left: with the harness's
	// 30 ms delay a loaded machine saved it during the sync below, and
	// the test then saw the colleague's name follow a saved field.
	h.signInWith(app.RoleSales, Options{SaveDelay: time.Hour})
	run := time.Now().Format("15:04:05.000") // the shared server outlives -count runs
	name := "Stale field " + run
	id, err := h.srv.Create(&app.CreateProposal{SalesPersonID: h.srv.Users[app.RoleSales].ID, Name: &name})
	if err != nil {
		t.Fatal(err)
	}
	h.sync()
	v := h.openByName(name)
	h.d.win.Canvas().Focus(v.name)

	// Not typed in: the new value shows at once, focus kept.
	elsewhere := "Renamed elsewhere " + run
	if _, err := h.srv.Update(id, &app.UpdateProposal{Name: &elsewhere}); err != nil {
		t.Fatal(err)
	}
	h.backgroundSync()
	if v.name.Text != elsewhere || h.d.win.Canvas().Focused() != v.name {
		t.Fatalf("field %q (focused %v), want %q with the focus", v.name.Text, h.d.win.Canvas().Focused() == v.name, elsewhere)
	}
	if got := v.saved.Text; !strings.Contains(got, "in sync") {
		t.Fatalf("indicator %q after taking the server's value", got)
	}

	// Typed in: the typing stays, and the indicator never says in sync.
	v.name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	test.Type(v.name, ", mine")
	mine := elsewhere + ", mine"
	again := "Renamed again " + run
	if _, err := h.srv.Update(id, &app.UpdateProposal{Name: &again}); err != nil {
		t.Fatal(err)
	}
	h.backgroundSync()
	if v.name.Text != mine {
		t.Fatalf("the typing was replaced: %q", v.name.Text)
	}
	if got := v.saved.Text; strings.Contains(got, "in sync") || !strings.Contains(got, "while you typed") {
		t.Fatalf("indicator %q while the field differs from the store", got)
	}

	// The save asks; until the user answers nothing overwrites theirs.
	v.name.FocusLost()
	h.drain()
	dlg := h.d.win.Canvas().Overlays().Top()
	if dlg == nil || !strings.Contains(texts(dlg), again) {
		t.Fatalf("no question naming the colleague's value; overlay: %v", dlg)
	}
	h.sync()
	if p, _ := h.srv.Proposal(id); p.Name != again {
		t.Fatalf("the server has %q before the user chose, want %q kept", p.Name, again)
	}
	test.Tap(findButton(dlg, "Keep mine"))
	h.drain()
	h.sync()
	if p, _ := h.srv.Proposal(id); p.Name != mine {
		t.Fatalf("after Keep mine the server has %q, want %q", p.Name, mine)
	}
	if v.name.Text != mine || v.name.hasTheirs {
		t.Fatalf("field %q, still holding theirs %v", v.name.Text, v.name.hasTheirs)
	}
}
