package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"proposaldesk/app"
)

func TestTaxRateWords(t *testing.T) {
	all := []app.ApplyTo{app.ApplyParts, app.ApplyLabor, app.ApplyFees}
	for _, c := range []struct {
		name string
		calc app.TaxCalculation
		want string
	}{
		{"parts only", app.TaxCalculation{ApplyTo: []app.ApplyTo{app.ApplyParts}, PartsTax: app.Rate(62500)}, "6.25%"},
		{"one rate for all", app.TaxCalculation{ApplyTo: all, PartsTax: 62500, LaborTax: 62500, FeeTax: 62500}, "6.25%"},
		{"rates differ", app.TaxCalculation{ApplyTo: []app.ApplyTo{app.ApplyParts, app.ApplyLabor}, PartsTax: 62500, LaborTax: 40000}, "parts 6.25%, labor 4%"},
		{"a second rate adds", app.TaxCalculation{ApplyTo: []app.ApplyTo{app.ApplyParts}, PartsTax: 62500, PartsTax2: 20000, HasMultipleTaxSupport: true}, "8.25%"},
		{"nothing taxed", app.TaxCalculation{ApplyTo: []app.ApplyTo{app.ApplyNone}}, ""},
	} {
		if got := taxRateWords(&c.calc); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := taxLabel(&app.SalesTax{TaxStatus: app.TaxUnavailable}); got != "Sales tax (not available)" {
		t.Errorf("unavailable: %q", got)
	}
}

// Read-only text (a locked proposal's fields) is readable: 4.5:1 or
// more on the page, in a field and on a disabled button, light and dark.
func TestReadOnlyTextContrast(t *testing.T) {
	th := newLegibleTheme(theme.DefaultTheme())
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		text := th.Color(theme.ColorNameDisabled, v)
		for _, bg := range []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameDisabledButton} {
			if c := contrast(text, over(th.Color(bg, v), th.Color(theme.ColorNameBackground, v))); c < 4.5 {
				t.Errorf("variant %d: read-only text on %s %.2f:1", v, bg, c)
			}
		}
		// Still greyed: not the colour of text that can be edited.
		if text == th.Color(theme.ColorNameForeground, v) {
			t.Errorf("variant %d: read-only text looks editable", v)
		}
	}
}

// Words and figures a salesperson reads: the picker says "Custom item",
// the summary gives the tax rate, a price typed as 150 shows 150.00
// once saved, a locked proposal's text is legible and its banner
// promises only what the rules let change, and the client PDF leaves an
// option without items out.
func TestWordsAndFigures(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleAdmin)
	name := runName("Words")
	v, id := h.contentFixture(name, [][2]string{{"Amp", "500.00"}}, nil) // option 2 stays empty

	// The picker's type filter in words.
	importCatalog(t, h)
	p := openPickerOf(t, v, 0)
	if !slices.Contains(p.typ.Options, "Custom item") || slices.Contains(p.typ.Options, "CustomItem") {
		t.Errorf("type filter %q", p.typ.Options)
	}
	p.typ.SetSelected("Custom item")
	if q := p.query(); q.ItemType != app.ItemCustomItem {
		t.Errorf("\"Custom item\" filters %q", q.ItemType)
	}
	pressKey(p.search, fyne.KeyEscape)

	// The tax rate, for a customer in Texas.
	ctx := bg
	c, err := d.sess.eng.CreateContact(ctx, app.NewContact{PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Tex"})
	if err != nil {
		t.Fatal(err)
	}
	v.editAndRebuild(&app.AssignContact{ID: v.id, ContactID: c.ID})
	l, err := d.sess.eng.CreateLocation(ctx, c.ID, app.NewLocation{Street: "1 Congress Ave", City: "Austin", State: "TX", PostalCode: "78701", Country: "US"})
	if err != nil {
		t.Fatal(err)
	}
	v.editAndRebuild(&app.AssignLocation{ID: v.id, LocationID: l.ID})
	if got := summaryText(v); !strings.Contains(got, "Sales tax (6.25%)") {
		t.Errorf("summary without the rate:\n%s", got)
	}

	// A price typed as 150 shows as saved: 150.00 after Enter; a
	// quantity 2.50 as 2.5 when the field is left.
	amp := rowOfItem(t, v, "Amp")
	sell, qty := amp.fields[colSell], amp.fields[colQuantity]
	h.typeIn(sell, "")
	sell.SetText("150")
	sell.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if sell.Text != "150.00" || v.p.Areas[0].Options[0].Items[0].SellPrice != app.MustMoney("150") {
		t.Errorf("after Enter the price shows %q (saved %s)", sell.Text, v.p.Areas[0].Options[0].Items[0].SellPrice)
	}
	qty.SetText("2.50")
	qty.FocusLost() // left, as a click elsewhere does
	if qty.Text != "2.5" || v.p.Areas[0].Options[0].Items[0].Quantity != app.MustQuantity("2.5") {
		t.Errorf("after leaving it the quantity shows %q", qty.Text)
	}
	sell.SetText("15x")
	sell.FocusLost() // a refused value stays as typed
	if sell.Text != "15x" {
		t.Errorf("a refused price was rewritten to %q", sell.Text)
	}
	sell.SetText("150")
	sell.FocusLost()

	// The client PDF: option 1 and its total; option 2 (no items) not.
	h.sync()
	dir := t.TempDir()
	pdf := filepath.Join(dir, "client.pdf")
	if err := exportPDF(d.sess.st, id, 0, app.RoleAdmin, pdfClient, pdf); err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, pdf)
	if !strings.Contains(text, "Option 1") || strings.Contains(text, "Option 2") {
		t.Errorf("client PDF options:\n%s", text)
	}

	// Locked: legible, and the banner promises what the rules allow.
	if _, err := h.srv.Update(id, &app.ChangeStatus{Status: app.StatusSubmitted}, &app.ChangeStatus{Status: app.StatusAccepted}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	v = d.detail
	if v.p.Status != app.StatusAccepted {
		t.Fatalf("status %s", v.p.Status)
	}
	if got := texts(v.body); !strings.Contains(got, lockedStillEditable) {
		t.Errorf("banner:\n%s", got)
	}
	for _, op := range []app.Operation{app.OpSetInternalNotes, app.OpAssignContact, app.OpAssignLocation} {
		if op.LockedIn(app.StatusAccepted) {
			t.Errorf("the banner promises %s, which app locks", op)
		}
	}
	if !app.OpSetOptionInstaller.LockedIn(app.StatusAccepted) {
		t.Error("app lets option installer notes change when locked: say so in the banner")
	}
	var notes, optionNotes *field
	for _, f := range v.fields {
		switch f.PlaceHolder {
		case "Gate codes, wiring notes, anything the installers need. Never shown to the client.":
			notes = f
		case "Notes for the installers (internal)":
			optionNotes = f
		}
	}
	if notes == nil || notes.Disabled() || optionNotes == nil || !optionNotes.Disabled() {
		t.Fatalf("installer notes found %v, disabled %v; option's found %v", notes != nil, notes != nil && notes.Disabled(), optionNotes != nil)
	}
	name2 := v.name
	if !name2.Disabled() {
		t.Fatal("the locked proposal's name is editable")
	}
	th := fyne.CurrentApp().Settings().Theme()
	vr := fyne.CurrentApp().Settings().ThemeVariant()
	if cr := contrast(th.Color(theme.ColorNameDisabled, vr), th.Color(theme.ColorNameInputBackground, vr)); cr < 4.5 {
		t.Errorf("the locked name reads at %.2f:1", cr)
	}
}
