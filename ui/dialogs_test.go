package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// newOwnProposal makes a proposal of the test's own on the server,
// syncs and opens it.
func (h *harness) newOwnProposal(prefix string) *proposalView {
	h.t.Helper()
	name := prefix + " " + time.Now().Format("150405.000000")
	if _, err := createOnServer(h.srv, h.srv.Users[app.RoleSales].ID, name); err != nil {
		h.t.Fatal(err)
	}
	h.sync()
	return h.openByName(name)
}

// openNewContact opens Choose contact… → New contact… and returns the
// dialog's content and its entries in form order: first, last,
// company, email, phone, street, city, postal code.
func (h *harness) openNewContact(v *proposalView) (fyne.CanvasObject, []*plainEntry) {
	h.t.Helper()
	test.Tap(findButton(v.body, "Choose contact…"))
	test.Tap(findButton(h.d.win.Canvas().Overlays().Top(), "New contact…"))
	form := h.d.win.Canvas().Overlays().Top()
	return form, plainEntries(form)
}

func plainEntries(o fyne.CanvasObject) []*plainEntry {
	var entries []*plainEntry
	walk(o, func(x fyne.CanvasObject) {
		if e, ok := x.(*plainEntry); ok {
			entries = append(entries, e)
		}
	})
	return entries
}

// marked reports whether an entry shows its validation error: its
// border drawn in the theme's error colour.
func marked(e *plainEntry) bool {
	errColor := theme.Color(theme.ColorNameError)
	for _, o := range test.WidgetRenderer(e).Objects() {
		if r, ok := o.(*canvas.Rectangle); ok && r.StrokeWidth > 0 && r.StrokeColor == errColor {
			return true
		}
	}
	return false
}

func press(e *plainEntry, k fyne.KeyName) { e.TypedKey(&fyne.KeyEvent{Name: k}) }

// typeIn focuses e in the window, as a click does, and types text.
func (h *harness) typeIn(e fyne.Focusable, text string) {
	h.d.win.Canvas().Focus(e)
	test.Type(e, text)
}

// An invalid email keeps the dialog open with what was
// typed, the field marked and the reason shown; Enter submits, Escape
// cancels; the form has a postal code.
func TestNewContactDialogKeepsWhatWasTyped(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	v := h.newOwnProposal("Dialog")
	form, e := h.openNewContact(v)
	if len(e) != 8 || !strings.Contains(formLabels(form), "Postal code") {
		t.Fatalf("%d entries, labels %q", len(e), formLabels(form))
	}
	first, email, street, zip := e[0], e[3], e[5], e[7]
	h.typeIn(first, "Ivy")
	h.typeIn(email, "ivy at example")
	press(email, fyne.KeyReturn)
	if h.d.win.Canvas().Overlays().Top() != form {
		t.Fatal("the dialog closed on an invalid email")
	}
	if first.Text != "Ivy" || email.Text != "ivy at example" {
		t.Fatalf("typed text lost: %q %q", first.Text, email.Text)
	}
	if got := texts(form); !strings.Contains(got, "Email is not an email address.") {
		t.Fatalf("no reason shown:\n%s", got)
	}
	if !marked(email) || marked(first) {
		t.Fatalf("email marked %v, first name marked %v", marked(email), marked(first))
	}

	// A US address needs a ZIP code the rule accepts.
	email.SetText("ivy@example.com")
	h.typeIn(street, "9 Bay Rd")
	h.typeIn(zip, "ABCDE")
	press(zip, fyne.KeyReturn)
	if h.d.win.Canvas().Overlays().Top() != form || !marked(zip) || marked(email) {
		t.Fatalf("bad ZIP: dialog open %v, zip marked %v, email marked %v",
			h.d.win.Canvas().Overlays().Top() == form, marked(zip), marked(email))
	}
	if got := texts(form); !strings.Contains(got, "Postal code must be a US ZIP code") {
		t.Fatalf("no ZIP reason:\n%s", got)
	}

	// Escape cancels: nothing assigned.
	press(zip, fyne.KeyEscape)
	if h.d.win.Canvas().Overlays().Top() == form || v.p.Customer != nil {
		t.Fatalf("Escape: dialog still open or customer %+v", v.p.Customer)
	}

	// Enter with valid input creates and assigns.
	form, e = h.openNewContact(v)
	h.typeIn(e[0], "Ivy")
	h.typeIn(e[5], "9 Bay Rd")
	h.typeIn(e[7], "33101-1234")
	findSelect(form, "Choose a state").SetSelected("Florida (FL)")
	press(e[7], fyne.KeyReturn)
	p := h.d.detail.p
	if h.d.win.Canvas().Overlays().Top() == form || p.Customer == nil || p.Customer.FirstName != "Ivy" {
		t.Fatalf("Enter did not create and assign: %+v", p.Customer)
	}
	if l := p.Customer.Location; l == nil || l.PostalCode != "33101-1234" || l.StateAbbrev != "FL" {
		t.Fatalf("location %+v", l)
	}
	if p.Tax.Status != app.TaxOK {
		t.Fatalf("tax %s with a Florida location", p.Tax.Status)
	}
}

// formLabels is the text of every form row's label under o.
func formLabels(o fyne.CanvasObject) string {
	var b strings.Builder
	walk(o, func(x fyne.CanvasObject) {
		if f, ok := x.(*widget.Form); ok {
			for _, it := range f.Items {
				b.WriteString(it.Text + "\n")
			}
		}
	})
	return b.String()
}

// The location form picks states from the tax table's
// list and checks the ZIP code; a location whose state the tax table
// lacks shows a warning on the proposal and in its list row.
func TestLocationStateListAndTaxWarning(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v := h.newOwnProposal("Tax")
	ctx := bg
	c, err := d.sess.eng.CreateContact(ctx, app.NewContact{PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Tess"})
	if err != nil {
		t.Fatal(err)
	}
	v.editAndRebuild(&app.AssignContact{ID: v.id, ContactID: c.ID})

	test.Tap(findButton(v.body, "New location…"))
	form := d.win.Canvas().Overlays().Top()
	state := findSelect(form, "Choose a state")
	if state == nil || len(state.Options) != len(app.USTaxTable().States()) {
		t.Fatalf("no state list from the tax table: %v", state)
	}
	e := plainEntries(form) // street, suite, city, postal code
	h.typeIn(e[0], "4 Palm Ct")
	h.typeIn(e[3], "ABCDE")
	test.Tap(findButton(form, "Create and use"))
	if d.win.Canvas().Overlays().Top() != form || !marked(e[3]) || e[0].Text != "4 Palm Ct" {
		t.Fatal("a bad ZIP code closed the dialog or was not marked")
	}
	press(e[3], fyne.KeyEscape)

	// A location from elsewhere (an older client, another system) whose
	// state the table does not know.
	l, err := d.sess.eng.CreateLocation(ctx, c.ID, app.NewLocation{Street: "5 Sand St", State: "Floridaa", Country: "US"})
	if err != nil {
		t.Fatal(err)
	}
	v.editAndRebuild(&app.AssignLocation{ID: v.id, LocationID: l.ID})
	if !v.taxWarn.Visible() || !strings.Contains(v.taxWarn.Text, "Tax unavailable: check the location's state") {
		t.Fatalf("no tax warning on the proposal: %q visible %v", v.taxWarn.Text, v.taxWarn.Visible())
	}
	if got := texts(v.summary); strings.Contains(got, "Unavailable") || !strings.Contains(got, "Sales tax (not available)") {
		t.Fatalf("summary:\n%s", got)
	}
	d.list.refresh()
	h.sync() // the badge shows once the edits are sent
	if got := h.rowOf(v.id).badge.Text; got != "⚠ no tax" {
		t.Fatalf("row badge %q, want the tax warning", got)
	}
}
