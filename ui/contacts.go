package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
)

// customerPicker shows the proposal's customer and a button to choose
// another from the cached contacts (with search), or create one: offline
// too, with a temporary ID until the server gives its own.
func (v *proposalView) customerPicker(readOnly bool) fyne.CanvasObject {
	text := "No customer yet"
	if c := v.p.Customer; c != nil {
		text = c.DisplayName()
		if c.ContactEmail != "" {
			text += " · " + c.ContactEmail
		}
	}
	choose := widget.NewButton("Choose contact…", v.chooseContact)
	if readOnly {
		choose.Disable()
	}
	return container.NewBorder(nil, nil, nil, choose, widget.NewLabel(text))
}

func (v *proposalView) chooseContact() {
	st := v.d.sess.st
	var found []app.Contact
	search := newPlainEntry(v.d)
	search.SetPlaceHolder("Search contacts")
	list := widget.NewList(func() int { return len(found) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := found[i]
			t := c.DisplayName()
			if c.ContactEmail != "" {
				t += " · " + c.ContactEmail
			}
			if app.IsTemporaryID(c.ID) {
				t += " (new, not sent yet)"
			}
			o.(*widget.Label).SetText(t)
		})
	load := func() {
		q := app.ContactQuery{SearchText: search.Text, SortBy: "LastName", PageNumber: 1, PageSize: 500}
		found, _, _ = st.Contacts(q)
		list.Refresh()
	}
	search.OnChanged = func(string) { load() }
	load()
	var dl dialog.Dialog
	list.OnSelected = func(i widget.ListItemID) {
		c := found[i]
		dl.Hide()
		v.editAndRebuild(&app.AssignContact{ID: v.p.ID, ContactID: c.ID})
	}
	newBtn := widget.NewButton("New contact…", func() {
		dl.Hide()
		v.newContact(search.Text)
	})
	body := container.NewBorder(search, newBtn, nil, nil, list)
	dl = dialog.NewCustom("Choose the customer", "Cancel", container.New(layout.NewGridWrapLayout(fyne.NewSize(480, 420)), body), v.d.win)
	v.d.showDialog(dl)
	v.d.win.Canvas().Focus(search)
}

// newContact creates a contact (and optionally its first location) and
// assigns it. What was typed stays until it is accepted or canceled. It
// starts with what was searched for (contactFromSearch): the name or
// email the contact list did not have.
func (v *proposalView) newContact(searched string) {
	d := v.d
	party := widget.NewRadioGroup([]string{string(app.PartyPerson), string(app.PartyCompany)}, nil)
	party.Horizontal = true
	party.SetSelected(string(app.PartyPerson))
	first, last, company := newPlainEntry(d), newPlainEntry(d), newPlainEntry(d)
	email, phone := newPlainEntry(d), newPlainEntry(d)
	street, city, zip := newPlainEntry(d), newPlainEntry(d), newPlainEntry(d)
	state, abbrev := stateSelect()
	zip.SetPlaceHolder("e.g. 78701")
	fn, ln, em := contactFromSearch(searched)
	first.SetText(fn)
	last.SetText(ln)
	email.SetText(em)
	save := func() error {
		ctx := context.Background()
		nc := app.NewContact{PartyType: app.PartyType(party.Selected), ContactType: app.ContactClient,
			FirstName: strings.TrimSpace(first.Text), LastName: strings.TrimSpace(last.Text),
			CompanyName: strings.TrimSpace(company.Text), ContactEmail: strings.TrimSpace(email.Text),
			ContactPhone: strings.TrimSpace(phone.Text)}
		if _, err := nc.Contact(-1); err != nil {
			return err
		}
		var nl *app.NewLocation
		if s := strings.TrimSpace(street.Text); s != "" || strings.TrimSpace(zip.Text) != "" || abbrev() != "" {
			nl = &app.NewLocation{Street: s, City: strings.TrimSpace(city.Text), State: abbrev(),
				PostalCode: strings.TrimSpace(zip.Text), Country: "US", IsPrimary: true}
			if _, err := nl.Location(-1, -1); err != nil {
				return err
			}
		}
		eng := d.sess.eng
		c, err := eng.CreateContact(ctx, nc)
		if err != nil {
			return err
		}
		if nl != nil {
			if _, err := eng.CreateLocation(ctx, c.ID, *nl); err != nil {
				return err
			}
		}
		v.editAndRebuild(&app.AssignContact{ID: v.p.ID, ContactID: c.ID})
		return nil
	}
	f := d.newFormDialog("New contact", "Create and assign", fyne.NewSize(480, 520), []formField{
		{"Type", "PartyType", party},
		{"First name", "FirstName", first}, {"Last name", "LastName", last},
		{"Company", "CompanyName", company}, {"Email", "ContactEmail", email}, {"Phone", "ContactPhone", phone},
		{"Street", "Street", street}, {"City", "City", city}, {"State", "State", state},
		{"Postal code", "PostalCode", zip},
	}, save)
	f.show(first)
}

// locationPicker chooses among the customer's locations, or adds one.
func (v *proposalView) locationPicker(readOnly bool) fyne.CanvasObject {
	c := v.p.Customer
	if c == nil {
		l := widget.NewLabel("Choose a customer first")
		l.Importance = widget.LowImportance
		return l
	}
	locs, _ := v.d.sess.st.Locations(c.ID)
	labels := make([]string, len(locs))
	current := ""
	for i, l := range locs {
		labels[i] = locationText(l.Location)
		if l.IsPrimary {
			labels[i] += " (primary)"
		}
		if c.Location != nil && c.Location.ID == l.ID {
			current = labels[i]
		}
	}
	sel := widget.NewSelect(labels, nil)
	sel.PlaceHolder = "No location"
	if current != "" {
		sel.SetSelected(current)
	} else if c.Location != nil {
		sel.PlaceHolder = locationText(*c.Location)
	}
	sel.OnChanged = func(s string) {
		for i, l := range labels {
			if l == s && (c.Location == nil || c.Location.ID != locs[i].ID) {
				v.editAndRebuild(&app.AssignLocation{ID: v.p.ID, LocationID: locs[i].ID})
				return
			}
		}
	}
	add := widget.NewButton("New location…", func() { v.newLocation(c.ID) })
	if readOnly {
		sel.Disable()
		add.Disable()
	}
	return container.NewBorder(nil, nil, nil, add, sel)
}

func locationText(l app.Location) string {
	parts := []string{l.Street}
	if l.City != "" {
		parts = append(parts, l.City)
	}
	st := l.StateAbbrev
	if st == "" {
		st = l.State
	}
	if st != "" {
		parts = append(parts, st)
	}
	return strings.Join(parts, ", ")
}

func (v *proposalView) newLocation(contactID int64) {
	d := v.d
	street, suite, city, zip := newPlainEntry(d), newPlainEntry(d), newPlainEntry(d), newPlainEntry(d)
	state, abbrev := stateSelect()
	zip.SetPlaceHolder("e.g. 78701")
	primary := widget.NewCheck("Primary location", nil)
	save := func() error {
		nl := app.NewLocation{Street: strings.TrimSpace(street.Text), Suite: strings.TrimSpace(suite.Text),
			City: strings.TrimSpace(city.Text), State: abbrev(),
			PostalCode: strings.TrimSpace(zip.Text), Country: "US", IsPrimary: primary.Checked}
		if _, err := nl.Location(-1, -1); err != nil {
			return err
		}
		l, err := d.sess.eng.CreateLocation(context.Background(), contactID, nl)
		if err != nil {
			return fmt.Errorf("new location: %w", err)
		}
		v.editAndRebuild(&app.AssignLocation{ID: v.p.ID, LocationID: l.ID})
		return nil
	}
	f := d.newFormDialog("New location", "Create and use", fyne.NewSize(460, 380), []formField{
		{"Street", "Street", street}, {"Suite", "Suite", suite}, {"City", "City", city},
		{"State", "State", state}, {"Postal code", "PostalCode", zip}, {"", "", primary},
	}, save)
	f.show(street)
}
