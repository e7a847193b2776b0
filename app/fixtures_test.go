package app_test

// The one place for the shared builders of the rules, mutation, list and
// tax tests: an in-memory Directory, an Env with a fixed clock and counter
// IDs, and proposals in a known shape. Names start with "fixture" so they
// do not clash with other test files of the package.

import (
	"cmp"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"proposaldesk/app"
)

// fixtureNow is the fixed clock of every test Env. It is deliberately not
// UTC and has sub-millisecond digits, so tests see that stamped dates are
// converted to UTC and cut to the wire's millisecond precision.
var fixtureNow = time.Date(2026, time.March, 14, 15, 9, 26, 535_897_932, time.FixedZone("EST", -5*60*60))

// fixtureStamp is fixtureNow as a stored date: 20:09:26.535 UTC, worked
// out by hand.
var fixtureStamp = app.Time{Time: time.Date(2026, time.March, 14, 20, 9, 26, 535_000_000, time.UTC)}

// Users of the fixture account, one per role.
var (
	fixtureAdmin  = app.User{ID: 1, Email: "ada@dealer.test", FirstName: "Ada", LastName: "Admin", Role: app.RoleAdmin, EmailVerified: true}
	fixtureSales  = app.User{ID: 2, Email: "sam@dealer.test", FirstName: "Sam", LastName: "Seller", Role: app.RoleSales, EmailVerified: true}
	fixtureViewer = app.User{ID: 3, Email: "vic@dealer.test", FirstName: "Vic", LastName: "Viewer", Role: app.RoleViewer, EmailVerified: true}
)

// Contacts and locations of the fixture directory.
const (
	contactOnePrimary   = 10 // one primary location (CA) and one other (NY)
	contactNoLocation   = 11 // no locations at all
	contactTwoPrimaries = 12 // bad data: two primary locations
	contactForeign      = 13 // one primary location in a state the table lacks
	contactNoPrimary    = 14 // one location, not primary

	locCA        = 101 // contactOnePrimary, primary
	locNY        = 102 // contactOnePrimary
	locTX        = 121 // contactTwoPrimaries, primary
	locMN        = 122 // contactTwoPrimaries, primary
	locOntario   = 131 // contactForeign, primary
	locOregonFar = 141 // contactNoPrimary; state given by full name only

	missingID = 999_999 // no user, contact, location, area or option has it
)

// fixtureDirectory is a plain map-backed Directory.
type fixtureDirectory struct {
	users     map[int64]app.User
	contacts  map[int64]app.Contact
	locations map[int64]app.ContactLocation
}

func (d *fixtureDirectory) User(id int64) (app.User, bool, error) {
	u, ok := d.users[id]
	return u, ok, nil
}

func (d *fixtureDirectory) Contact(id int64) (app.Contact, bool, error) {
	c, ok := d.contacts[id]
	return c, ok, nil
}

func (d *fixtureDirectory) Location(id int64) (app.ContactLocation, bool, error) {
	l, ok := d.locations[id]
	return l, ok, nil
}

func (d *fixtureDirectory) ContactLocations(contactID int64) ([]app.ContactLocation, error) {
	var out []app.ContactLocation
	for _, l := range d.locations {
		if l.ContactID == contactID {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b app.ContactLocation) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

func fixtureLocation(id, contact int64, primary bool, state, abbrev string) app.ContactLocation {
	return app.ContactLocation{
		Location:  app.Location{ID: id, Street: "1 Main St", City: "Town", State: state, StateAbbrev: abbrev, Country: "US"},
		ContactID: contact, IsPrimary: primary,
	}
}

// newFixtureDirectory is the fixture account's directory; each call gives
// a fresh copy.
func newFixtureDirectory() *fixtureDirectory {
	d := &fixtureDirectory{
		users: map[int64]app.User{},
		contacts: map[int64]app.Contact{
			contactOnePrimary:   {ID: contactOnePrimary, PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Carla", LastName: "Client", ContactEmail: "carla@example.com"},
			contactNoLocation:   {ID: contactNoLocation, PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Nora", LastName: "Nowhere"},
			contactTwoPrimaries: {ID: contactTwoPrimaries, PartyType: app.PartyCompany, ContactType: app.ContactClient, FirstName: "Tim", LastName: "Twice", CompanyName: "Twice Ltd"},
			contactForeign:      {ID: contactForeign, PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Fran", LastName: "Foreign"},
			contactNoPrimary:    {ID: contactNoPrimary, PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: "Olive", LastName: "Other"},
		},
		locations: map[int64]app.ContactLocation{
			locCA:        fixtureLocation(locCA, contactOnePrimary, true, "California", "CA"),
			locNY:        fixtureLocation(locNY, contactOnePrimary, false, "New York", "NY"),
			locTX:        fixtureLocation(locTX, contactTwoPrimaries, true, "Texas", "TX"),
			locMN:        fixtureLocation(locMN, contactTwoPrimaries, true, "Minnesota", "MN"),
			locOntario:   fixtureLocation(locOntario, contactForeign, true, "Ontario", "ON"),
			locOregonFar: fixtureLocation(locOregonFar, contactNoPrimary, false, "oregon", ""),
		},
	}
	for _, u := range []app.User{fixtureAdmin, fixtureSales, fixtureViewer} {
		d.users[u.ID] = u
	}
	return d
}

// fixtureCounter hands out increasing numbers: the Env's ID allocator and
// proposal-number source.
type fixtureCounter struct{ next int64 }

func (c *fixtureCounter) take() int64 { c.next++; return c.next }

// First values the counters hand out.
const (
	firstNewID     = 9001
	firstNewNumber = 301
)

// fixtureEnv is an Env acting as the given user, with the fixed clock,
// fresh counters, the fixture directory and the US tax table.
func fixtureEnv(actor app.User) app.Env {
	ids := &fixtureCounter{next: firstNewID - 1}
	numbers := &fixtureCounter{next: firstNewNumber - 1}
	return app.Env{
		Now:   fixtureNow,
		Actor: actor,
		Account: app.Account{
			Dealer:   app.DealerProfile{CompanyName: "Sound & Vision", Location: app.Location{State: "Texas", StateAbbrev: "TX"}},
			Currency: app.USD,
			Taxes:    app.USTaxTable(),
			Terms:    "Net 30",
		},
		Directory:  newFixtureDirectory(),
		NewID:      ids.take,
		NextNumber: numbers.take,
	}
}

// IDs in the fixture proposals.
const (
	fixtureProposalID = 500
	fixtureVersion    = 7
	kitchenAreaID     = 600 // "Kitchen", one option
	kitchenOptionID   = 601
	theaterAreaID     = 610 // "Theater", three options (full)
	theaterOption1    = 611
	otherProposalID   = 700
	otherAreaID       = 710
	otherOptionID     = 711
)

var fixtureCreated = app.Time{Time: time.Date(2025, time.June, 1, 12, 0, 0, 0, time.UTC)}

// fixtureProposal is an editable-looking proposal in the given status,
// with two areas (one with room for options, one full), an item with a
// cost, a payment request and no contact.
func fixtureProposal(status app.Status) *app.Proposal {
	cost := app.MustMoney("60.00")
	option := func(id int64) app.Option {
		return app.Option{ID: id, Status: app.OptionDraft, LastModifiedDate: fixtureCreated, ClientDescription: "desc", Items: []app.Item{}}
	}
	theater := []app.Option{option(theaterOption1), option(theaterOption1 + 1), option(theaterOption1 + 2)}
	kitchen := option(kitchenOptionID)
	kitchen.Items = []app.Item{{ID: 801, ItemType: app.ItemPart, Name: "Speaker", SellPrice: app.MustMoney("100.00"),
		Cost: &cost, Quantity: app.MustQuantity("2")}}
	return &app.Proposal{
		Version: fixtureVersion,
		Document: app.Document{
			ID: fixtureProposalID, Number: 42, Name: "Lake house", Status: status,
			CreatedDate: fixtureCreated, LastModifiedDate: fixtureCreated, LastModifiedByUserDate: fixtureCreated,
			SalesPerson: fixtureSales.Salesperson(),
			Currency:    app.USD,
			Areas: []app.Area{
				{ID: kitchenAreaID, Name: "Kitchen", Options: []app.Option{kitchen}},
				{ID: theaterAreaID, Name: "Theater", Options: theater},
			},
			Pricing:          app.Pricing{DiscountType: app.DiscountPercentage},
			Tax:              app.TaxSettings{Status: app.TaxUndefined, Method: app.TaxClientLocation, ApplyTo: []app.ApplyTo{app.ApplyParts}},
			PaymentRequests:  []app.PaymentRequest{{ID: 901, Status: app.PaymentDraft, Amount: app.MustMoney("50.00")}},
			PaymentSchedule:  app.PaymentSchedule{Payments: []app.PaymentTerm{{Calculation: app.PaymentRemainder}}},
			LastModifiedUser: app.PersonName{FirstName: "Old", LastName: "Editor"},
		},
		ChangeOrders: []app.ChangeOrder{},
	}
}

// fixtureProposalWithContact is fixtureProposal with the directory's
// contact assigned (and its location, when given).
func fixtureProposalWithContact(status app.Status, contactID, locationID int64) *app.Proposal {
	p := fixtureProposal(status)
	dir := newFixtureDirectory()
	c := &app.Customer{Contact: dir.contacts[contactID]}
	if locationID != 0 {
		loc := dir.locations[locationID].Location
		c.Location = &loc
		p.Tax.TaxLocation = &app.Location{ID: loc.ID, State: loc.State, StateAbbrev: loc.StateAbbrev}
	}
	p.Customer = c
	return p
}

// fixtureMutations is one valid mutation of every kind, each acceptable
// for fixtureProposal in Draft (fixtureProposalWithContact for the
// location). The golden encoding file lists them in this order.
func fixtureMutations() []app.Mutation {
	name := "Lake house, phase 2"
	sp := int64(fixtureAdmin.ID)
	return []app.Mutation{
		&app.CreateProposal{SalesPersonID: fixtureSales.ID, Name: &name},
		&app.UpdateProposal{ID: fixtureProposalID, Name: &name, SalesPersonID: &sp},
		&app.SetDescription{ID: fixtureProposalID, Description: "A new sound system"},
		&app.SetInternalNotes{ID: fixtureProposalID, InternalNotes: "Gate code 1234"},
		&app.CreateArea{ID: fixtureProposalID, Name: "Patio"},
		&app.CreateOption{ID: fixtureProposalID, AreaID: kitchenAreaID, ClientDescription: "Premium", InternalNotes: "Needs ladder"},
		&app.SetOptionClientDescription{ID: fixtureProposalID, OptionID: kitchenOptionID, ClientDescription: "Basic"},
		&app.SetOptionInstallerNotes{ID: fixtureProposalID, OptionID: kitchenOptionID, InstallerNotes: "Wire first"},
		&app.AssignContact{ID: fixtureProposalID, ContactID: contactOnePrimary},
		&app.AssignLocation{ID: fixtureProposalID, LocationID: locNY},
		&app.ChangeStatus{ID: fixtureProposalID, Status: app.StatusSubmitted},
		// The content edits, after the 11 kinds of the first version (the
		// golden encoding file keeps their order).
		&app.AddItem{ID: fixtureProposalID, OptionID: kitchenOptionID, ItemType: ptr(app.ItemLabor), Name: ptr("Install"),
			SellPrice: ptr(app.MustMoney("95.00")), Quantity: ptr(app.MustQuantity("2.5"))},
		&app.ChangeItem{ID: fixtureProposalID, ItemID: 801, Quantity: ptr(app.MustQuantity("3")), SellPrice: ptr(app.MustMoney("110.00"))},
		&app.RemoveItem{ID: fixtureProposalID, ItemID: 801},
		&app.RenameArea{ID: fixtureProposalID, AreaID: kitchenAreaID, Name: "Chef's kitchen"},
		&app.RemoveArea{ID: fixtureProposalID, AreaID: kitchenAreaID},
		&app.RemoveOption{ID: fixtureProposalID, OptionID: theaterOption1 + 2},
		&app.SetOptionStatus{ID: fixtureProposalID, OptionID: kitchenOptionID, Status: app.OptionSelected},
		&app.SetPricing{ID: fixtureProposalID, DiscountType: ptr(app.DiscountPercentage), DiscountPercentage: ptr(app.MustRate("10"))},
		&app.SetArchived{ID: fixtureProposalID, IsArchived: true},
		&app.CopyProposal{ID: fixtureProposalID, Name: ptr("Lake house, copy")},
		fixtureAcceptance(fixtureProposal(app.StatusDraft)),
	}
}

// fixtureAcceptance accepts p in person, the theater's second option
// chosen, signed over p's client view.
func fixtureAcceptance(p *app.Proposal) *app.AcceptInPerson {
	hash, err := app.ClientViewHash(p)
	if err != nil {
		panic(err)
	}
	return &app.AcceptInPerson{ID: p.ID, SignerName: "Ann Lee", SignatureImage: signaturePNG,
		SnapshotHash: hash, SignedAt: "2026-11-26T14:05:00+01:00", DeviceID: "laptop-1",
		Options: []app.OptionChoice{{AreaID: theaterAreaID, OptionID: theaterOption1 + 1}}}
}

// signaturePNG is a real 1×1 PNG, in base64, as a drawn signature.
const signaturePNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg=="

// firstVersionKinds is how many of fixtureMutations the first version had.
const firstVersionKinds = 11

// fixtureTarget is the proposal a fixture mutation applies to, in the
// given status: nil for a create, one with a contact for a location.
func fixtureTarget(m app.Mutation, status app.Status) *app.Proposal {
	switch m.(type) {
	case *app.CreateProposal:
		return nil
	case *app.AssignLocation:
		return fixtureProposalWithContact(status, contactOnePrimary, locCA)
	}
	return fixtureProposal(status)
}

// fixtureJSON is the JSON encoding of v; tests compare snapshots of a
// proposal with it to see that nothing changed.
func fixtureJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}
