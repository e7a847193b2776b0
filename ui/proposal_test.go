package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// shortcut presses Ctrl+key on the window.
func (h *harness) shortcut(k fyne.KeyName) {
	h.d.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(
		&desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault})
}

// moveSelect is the status picker's "Move to…" select.
func moveSelect(v *proposalView) *widget.Select {
	var found *widget.Select
	walk(v.body, func(o fyne.CanvasObject) {
		if s, ok := o.(*widget.Select); ok && found == nil &&
			(s.PlaceHolder == "Move to…" || strings.HasPrefix(s.PlaceHolder, "No moves")) {
			found = s
		}
	})
	return found
}

// Online, New proposal opens the new proposal with its
// name focused and its row selected, and keeps it open with the focus
// when the sync gives it the server's ID; clicking again while it is
// untouched makes no more empty proposals.
func TestNewProposalOpensOnline(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	h.openByName("Smith home theater")
	n0 := len(d.list.rows)
	test.Tap(findButton(d.win.Content(), "New proposal"))
	v := d.detail
	if v.p == nil || !app.IsTemporaryID(v.id) || d.win.Canvas().Focused() != v.name || d.list.selected != v.id {
		t.Fatalf("opened %v, focus %v, selected %d", v.p, d.win.Canvas().Focused(), d.list.selected)
	}
	h.backgroundSync() // online: the server gives its ID
	if app.IsTemporaryID(v.id) || v.p == nil || v.p.ID != v.id {
		t.Fatalf("after sync the view shows %d (%v)", v.id, v.p)
	}
	if d.win.Canvas().Focused() != v.name {
		t.Fatalf("the name lost the focus after the sync: %v", d.win.Canvas().Focused())
	}
	if d.list.selected != v.id {
		t.Fatalf("list selects %d, want %d", d.list.selected, v.id)
	}
	id := v.id
	test.Tap(findButton(d.win.Content(), "New proposal"))
	h.shortcut(fyne.KeyN)
	if v.id != id || len(d.list.rows) != n0+1 {
		t.Fatalf("repeated clicks: open %d (want %d), %d rows (want %d)", v.id, id, len(d.list.rows), n0+1)
	}
	// Once it is named, New proposal makes another, even before the
	// typing is saved.
	h.typeIn(v.name, "Named")
	h.shortcut(fyne.KeyN)
	if v.id == id || len(d.list.rows) != n0+2 || d.win.Canvas().Focused() != v.name {
		t.Fatalf("after naming: open %d, %d rows", v.id, len(d.list.rows))
	}
}

// The wheel scrolls the page over a multi-line field
// that shows all its text, and by the platform's step (three lines per
// notch), not the driver's 25 units.
func TestWheelScrollsThePage(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	// Short, yet with the description in view (only what is in view is
	// drawn, and the wheel reaches only what is drawn).
	d.win.Resize(fyne.NewSize(1200, 560))
	v := h.newOwnProposal("Wheel")
	desc := v.fields[1]
	c := d.win.Canvas()
	drv := fyne.CurrentApp().Driver()
	at := drv.AbsolutePositionForObject(desc).Add(fyne.NewPos(20, 10))
	test.Scroll(c, at, 0, -driverNotch)
	step := wheelStep(fyne.NewDelta(0, driverNotch)).DY
	if step < 3*theme.TextSize() {
		t.Fatalf("a notch is %.0f units, want three lines", step)
	}
	if got := v.scroll.Offset.Y; got != step {
		t.Fatalf("one notch over the description moved the page %.1f, want %.1f", got, step)
	}
	// Over a label.
	v.scroll.ScrollToTop()
	test.Scroll(c, drv.AbsolutePositionForObject(v.header).Add(fyne.NewPos(5, 5)), 0, -driverNotch)
	if got := v.scroll.Offset.Y; got != step {
		t.Fatalf("one notch over the title moved the page %.1f, want %.1f", got, step)
	}
	// A field with more text than it shows scrolls itself first.
	v.scroll.ScrollToTop()
	desc.SetText(strings.Repeat("line\n", 40))
	at = drv.AbsolutePositionForObject(desc).Add(fyne.NewPos(20, 10))
	test.Scroll(c, at, 0, -driverNotch)
	if v.scroll.Offset.Y != 0 {
		t.Fatalf("the page moved (%.1f) while the field had more to show", v.scroll.Offset.Y)
	}
}

// Accepted, Declined and Completed ask first and warn
// about a missing customer, location or a zero total; Cancel keeps the
// status.
func TestDecisiveMoveAsksFirst(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v := h.newOwnProposal("Decide")
	id := v.id
	if _, err := h.srv.Update(id, &app.ChangeStatus{Status: app.StatusSubmitted}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	v = d.detail
	moveSelect(v).SetSelected(app.StatusAccepted.Label())
	dl := d.win.Canvas().Overlays().Top()
	got := texts(dl)
	for _, want := range []string{"It has no customer.", "Its total is zero.", "read-only"} {
		if !strings.Contains(got, want) {
			t.Fatalf("confirmation lacks %q:\n%s", want, got)
		}
	}
	if v.p.Status != app.StatusSubmitted {
		t.Fatalf("moved to %s before the answer", v.p.Status)
	}
	test.Tap(findButton(dl, "Cancel"))
	if v.p.Status != app.StatusSubmitted || moveSelect(v).Selected != "" {
		t.Fatalf("after Cancel: %s, picker %q", v.p.Status, moveSelect(v).Selected)
	}
	moveSelect(v).SetSelected(app.StatusDeclined.Label())
	test.Tap(findButton(d.win.Canvas().Overlays().Top(), "Mark as Declined"))
	if v.p.Status != app.StatusDeclined {
		t.Fatalf("after confirming: %s", v.p.Status)
	}
	// Draft is not decisive: no question.
	moveSelect(v).SetSelected(app.StatusDraft.Label())
	if v.p.Status != app.StatusDraft {
		t.Fatalf("reopen: %s", v.p.Status)
	}
}

// Declined and Undefined proposals can go back to
// Draft, and the desktop offers it.
func TestReopenDeclinedOffered(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v := h.newOwnProposal("Reopen")
	if _, err := h.srv.Update(v.id, &app.ChangeStatus{Status: app.StatusSubmitted}, &app.ChangeStatus{Status: app.StatusDeclined}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	v = d.detail
	sel := moveSelect(v)
	if v.p.Status != app.StatusDeclined || sel.Disabled() || len(sel.Options) != 1 || sel.Options[0] != "Draft" {
		t.Fatalf("declined: options %q disabled %v", sel.Options, sel.Disabled())
	}
	sel.SetSelected("Draft")
	h.sync()
	if sp, err := h.srv.Proposal(v.id); err != nil || sp.Status != app.StatusDraft {
		t.Fatalf("server has %v, %v", sp.Status, err)
	}
	p := *v.p
	p.Status = app.StatusUndefined
	v.p = &p
	v.build()
	if sel := moveSelect(v); len(sel.Options) != 1 || sel.Options[0] != "Draft" {
		t.Fatalf("undefined: options %q", sel.Options)
	}
}

// One save indicator, reporting the worst state; a
// refused field does not move the form.
func TestOneSaveIndicator(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	v := h.newOwnProposal("Indicator")
	drv := fyne.CurrentApp().Driver()
	pos := drv.AbsolutePositionForObject(v.name)
	v.name.SetText("")
	v.name.flush()
	indicators := 0
	walk(v.body, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Visible() && (strings.HasPrefix(l.Text, "Not saved") || strings.HasPrefix(l.Text, "Saved")) {
			indicators++
		}
	})
	if indicators != 1 || !strings.HasPrefix(v.saved.Text, "Not saved: Name is required") || v.saved.Importance != widget.DangerImportance {
		t.Fatalf("%d indicators, indicator %q", indicators, v.saved.Text)
	}
	if got := drv.AbsolutePositionForObject(v.name); got != pos {
		t.Fatalf("the name field moved from %v to %v", pos, got)
	}
	h.typeIn(v.name, "Indicator fixed")
	v.name.flush()
	if !strings.HasPrefix(v.saved.Text, "Saved locally · 1 unsent") {
		t.Fatalf("after the fix: %q", v.saved.Text)
	}
}

// People's words, not API identifiers.
func TestPeoplesWords(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	r := newRow().(*row)
	r.show(&localstore.ListItem{ListEntry: app.ListEntry{Name: "x", Status: app.StatusViewedByClient}}, false)
	if got := r.sub.Segments[0].(*widget.TextSegment).Text; !strings.Contains(got, "Viewed by client") {
		t.Fatalf("row says %q", got)
	}
	v := h.newOwnProposal("Words")
	if got := texts(v.summary); strings.Contains(got, "(Ok)") || strings.Contains(got, "(Undefined)") || !strings.Contains(got, "Sales tax") {
		t.Fatalf("summary:\n%s", got)
	}
	found := false
	for _, o := range d.list.status.checks.Options {
		found = found || o == "Email failed"
	}
	if !found {
		t.Fatalf("status filter %q", d.list.status.checks.Options)
	}
	d.list.status.checks.SetSelected([]string{"Viewed by client"})
	if len(d.list.query.Statuses) != 1 || d.list.query.Statuses[0] != app.StatusViewedByClient {
		t.Fatalf("filter query %v", d.list.query.Statuses)
	}
}

// Ctrl+End in a multi-line field goes to the end, an
// empty search says so.
func TestCtrlEndAndEmptySearch(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v := h.newOwnProposal("Keys")
	desc := v.fields[1]
	text := "first line\nsecond line\nthird"
	desc.SetText(text)
	d.win.Canvas().Focus(desc)
	desc.CursorRow, desc.CursorColumn = 0, 0
	desc.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyEnd, Modifier: fyne.KeyModifierShortcutDefault})
	if got := desc.CursorTextOffset(); got != len(text) {
		t.Fatalf("Ctrl+End: caret at %d, want %d", got, len(text))
	}
	desc.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyHome, Modifier: fyne.KeyModifierShortcutDefault})
	if got := desc.CursorTextOffset(); got != 0 {
		t.Fatalf("Ctrl+Home: caret at %d", got)
	}

	h.typeIn(d.list.search, "zzz-no-such-proposal")
	if len(d.list.rows) != 0 || !d.list.empty.Visible() || d.list.empty.Text != "No proposals match this search." {
		t.Fatalf("empty search: %d rows, %q visible %v", len(d.list.rows), d.list.empty.Text, d.list.empty.Visible())
	}
	d.list.search.SetText("")
	if d.list.empty.Visible() {
		t.Fatal("the empty message stays with rows listed")
	}
}
