package demo

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// builder writes one account's demo data inside one transaction. Proposal
// writes go through app.Apply wherever a mutation exists (create, area,
// option, contact, location, status), so the seeded data obeys the same
// rules as data made through the API; items, discounts, change orders,
// payment schedules and the statuses no API move reaches are set on the
// model directly, since no endpoint writes them.
type builder struct {
	tx       store.Tx
	acct     app.Account
	users    []app.User
	sellers  []app.User // users who may edit: salespeople
	contacts []contactRec
	now      time.Time
	r        *rand.Rand
}

type contactRec struct {
	c    app.Contact
	locs []app.ContactLocation
}

func newBuilder(tx store.Tx, acct store.Account, users []app.User, now time.Time, r *rand.Rand) *builder {
	b := &builder{tx: tx, acct: acct.AppAccount(), users: users, now: now, r: r}
	for _, u := range users {
		if u.Role.Can(app.PermEditProposals) && u.EmailVerified {
			b.sellers = append(b.sellers, u)
		}
	}
	return b
}

var stateNames = map[string]string{"TX": "Texas", "FL": "Florida", "AZ": "Arizona", "CO": "Colorado", "CA": "California",
	"WA": "Washington", "TN": "Tennessee", "GA": "Georgia", "NY": "New York", "NC": "North Carolina", "OR": "Oregon"}

// addContact stores a contact and its locations; primary is the index of
// the primary location, or -1 for none.
func (b *builder) addContact(nc app.NewContact, at []place, primary int) (contactRec, error) {
	c, err := nc.Contact(b.tx.NextID())
	if err != nil {
		return contactRec{}, err
	}
	if err := b.tx.PutContact(c); err != nil {
		return contactRec{}, err
	}
	rec := contactRec{c: c}
	for i, pl := range at {
		nl := app.NewLocation{Street: pl.street, City: pl.city, PostalCode: pl.postal, State: stateNames[pl.state],
			Country: "US", Phone: pl.phone, IsPrimary: i == primary, IsBilling: i == primary || (primary < 0 && i == 0)}
		if i == 1 && len(at) > 2 {
			nl.Suite = "Unit B"
		}
		loc, err := nl.Location(b.tx.NextID(), c.ID)
		if err != nil {
			return contactRec{}, err
		}
		if err := b.tx.PutLocation(loc); err != nil {
			return contactRec{}, err
		}
		rec.locs = append(rec.locs, loc)
	}
	b.contacts = append(b.contacts, rec)
	return rec, nil
}

func person(first, last, email, phone string) app.NewContact {
	return app.NewContact{PartyType: app.PartyPerson, ContactType: app.ContactClient, FirstName: first, LastName: last,
		ContactEmail: email, ContactPhone: phone}
}

func company(name, first, last, email, phone string) app.NewContact {
	return app.NewContact{PartyType: app.PartyCompany, ContactType: app.ContactClient, CompanyName: name,
		FirstName: first, LastName: last, ContactEmail: email, ContactPhone: phone}
}

// Indexes of the main account's fixed contacts.
const (
	cHendricks  = iota // one primary location (TX)
	cAlvarez           // three locations, one primary
	cCastellano        // company, two locations, none primary
	cWhitfield         // no locations
	cGrace             // church: tax-exempt proposals (TN)
	cLindqvist         // Oregon: a 0% state
	numFixedContacts
)

func (b *builder) seedContacts(main bool, generated int) error {
	if main {
		fixed := []struct {
			nc      app.NewContact
			at      []place
			primary int
		}{
			{person("Olivia", "Hendricks", "olivia.hendricks@gmail.example", "(512) 555-0142"), []place{places[0]}, 0},
			{person("Liam", "Alvarez", "liam@alvarezfamily.example", "(214) 555-0187"), []place{places[1], places[3], places[5]}, 0},
			{company("Castellano Development Group", "Sofia", "Castellano", "projects@castellanodev.example", "(480) 555-0133"),
				[]place{places[4], places[6]}, -1},
			{person("Ethan", "Whitfield", "ewhitfield@outlook.example", "(512) 555-0166"), nil, -1},
			{company("Grace Fellowship Church", "Daniel", "Okafor", "facilities@gracefellowship.example", "(615) 555-0145"),
				[]place{places[8]}, 0},
			{person("Mia", "Lindqvist", "mia.lindqvist@gmail.example", "(503) 555-0139"), []place{places[12]}, 0},
		}
		for _, f := range fixed {
			if _, err := b.addContact(f.nc, f.at, f.primary); err != nil {
				return err
			}
		}
	}
	for i := range generated {
		if err := b.randomContact(i == generated-1 && !main); err != nil {
			return err
		}
	}
	return nil
}

// randomContact adds a person (now and then a builder company) with one
// primary location, or none when noLocation.
func (b *builder) randomContact(noLocation bool) error {
	first := firstNames[b.r.IntN(len(firstNames))]
	last := lastNames[b.r.IntN(len(lastNames))]
	pl := places[b.r.IntN(len(places))]
	email := fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(first), strings.ToLower(last), b.r.IntN(100))
	nc := person(first, last, email, pl.phone)
	if b.r.IntN(6) == 0 {
		nc = company(last+" Custom Homes", first, last, "office@"+strings.ToLower(last)+"homes.example", pl.phone)
	}
	at := []place{pl}
	if noLocation {
		at = nil
	}
	_, err := b.addContact(nc, at, 0)
	return err
}

// roomChoice is one area of a proposal: a room, how many of its packages
// become options, and which option is Selected (-1: none).
type roomChoice struct {
	room, options, selected int
}

// plan is one proposal to build.
type plan struct {
	name          string
	status        app.Status
	archived      bool
	contact       int // index into b.contacts, -1 for none
	location      int // location index for contacts without a primary one
	rooms         []roomChoice
	seller        app.User
	created       time.Time
	discount      app.Pricing
	taxExempt     bool
	changeOrders  int
	schedule      bool
	laborJitter   bool
	description   string
	internalNotes string
}

// env is the rule engine's environment for a write at the given time.
func (b *builder) env(actor app.User, at time.Time) app.Env {
	return app.Env{Now: at, Actor: actor, Account: b.acct, Directory: b.tx, NewID: b.tx.NextID, NextNumber: b.tx.NextNumber}
}

// build makes a proposal from a plan and stores it.
func (b *builder) build(pl plan) (*app.Proposal, error) {
	pb := &proposalBuild{b: b, pl: pl, at: pl.created}
	name := pl.name
	pb.apply(&app.CreateProposal{SalesPersonID: pl.seller.ID, Name: &name}, pb.at)
	if pb.err != nil {
		return nil, pb.err
	}
	pb.setTax()
	if pl.description != "" {
		pb.apply(&app.SetDescription{ID: pb.p.ID, Description: pl.description}, pb.step())
	}
	pb.assignContact()
	for _, rc := range pl.rooms {
		if err := pb.addRoom(rc); err != nil {
			return nil, err
		}
	}
	if pb.err != nil {
		return nil, pb.err
	}
	pb.p.Pricing = pl.discount
	if pl.internalNotes != "" {
		pb.apply(&app.SetInternalNotes{ID: pb.p.ID, InternalNotes: pl.internalNotes}, pb.step())
	}
	if pl.schedule {
		pb.p.PaymentSchedule = b.schedule(pb.at)
	}
	pb.moveToStatus()
	if pb.err != nil {
		return nil, pb.err
	}
	if err := pb.closeDeal(); err != nil {
		return nil, err
	}
	pb.p.Archived = pl.archived
	if err := b.tx.PutProposal(pb.p); err != nil {
		return nil, fmt.Errorf("put %q: %w", pl.name, err)
	}
	return pb.p, nil
}

// proposalBuild is one proposal being built from its plan: the proposal
// so far, the time of its latest change, and the first error, after
// which no change applies. Its steps draw from the builder's random
// source in a fixed order, so a seed always builds the same proposals.
type proposalBuild struct {
	b   *builder
	pl  plan
	p   *app.Proposal
	at  time.Time
	err error
}

// step is the time of the next change: 20 minutes to 10 hours after the
// last one, never after now.
func (pb *proposalBuild) step() time.Time {
	pb.at = pb.at.Add(time.Duration(20+pb.b.r.IntN(600)) * time.Minute)
	if pb.at.After(pb.b.now) {
		pb.at = pb.b.now
	}
	return pb.at
}

// apply makes a change through the rule engine, as the seller at when.
func (pb *proposalBuild) apply(m app.Mutation, when time.Time) {
	if pb.err != nil {
		return
	}
	next, err := app.Apply(pb.p, m, pb.b.env(pb.pl.seller, when))
	if err != nil {
		pb.err = fmt.Errorf("%s on %q: %w", m.Kind(), pb.pl.name, err)
		return
	}
	pb.p = next
}

// setTax makes a tax-exempt proposal's tax apply to nothing, and one in
// five others' to parts and labor.
func (pb *proposalBuild) setTax() {
	if pb.pl.taxExempt {
		pb.p.Tax.ApplyTo = []app.ApplyTo{app.ApplyNone}
	} else if pb.b.r.IntN(5) == 0 {
		pb.p.Tax.ApplyTo = []app.ApplyTo{app.ApplyParts, app.ApplyLabor}
	}
}

// assignContact assigns the plan's contact, and one of its locations
// when it has no primary one.
func (pb *proposalBuild) assignContact() {
	if pb.pl.contact < 0 {
		return
	}
	rec := pb.b.contacts[pb.pl.contact]
	pb.apply(&app.AssignContact{ID: pb.p.ID, ContactID: rec.c.ID}, pb.step())
	if app.PrimaryLocation(rec.locs) == nil && len(rec.locs) > 0 {
		pb.apply(&app.AssignLocation{ID: pb.p.ID, LocationID: rec.locs[pb.pl.location%len(rec.locs)].ID}, pb.step())
	}
}

// addRoom adds an area for the room with its options, their items and
// the plan's selected option.
func (pb *proposalBuild) addRoom(rc roomChoice) error {
	room := rooms[rc.room]
	pb.apply(&app.CreateArea{ID: pb.p.ID, Name: room.name}, pb.step())
	if pb.err != nil {
		return pb.err
	}
	area := &pb.p.Areas[len(pb.p.Areas)-1]
	for oi := 1; oi < rc.options && oi < len(room.packages); oi++ {
		pk := room.packages[oi]
		pb.apply(&app.CreateOption{ID: pb.p.ID, AreaID: area.ID, ClientDescription: pk.description, InternalNotes: pk.installer}, pb.step())
		if pb.err != nil {
			return pb.err
		}
		area = &pb.p.Areas[len(pb.p.Areas)-1]
	}
	// The default option's descriptions and every option's items are set
	// directly: the API has no item endpoint.
	area.Options[0].ClientDescription = room.packages[0].description
	area.Options[0].InstallerDescription = room.packages[0].installer
	for oi := range area.Options {
		area.Options[oi].Items = pb.b.items(room.packages[oi].lines, pb.at, pb.pl.laborJitter)
		if rc.selected >= 0 && len(area.Options) > 1 {
			if oi == rc.selected {
				area.Options[oi].Status = app.OptionSelected
			} else if pb.pl.status == app.StatusAccepted || pb.pl.status == app.StatusCompleted {
				area.Options[oi].Status = app.OptionDeclined
			}
		}
	}
	return nil
}

// moveToStatus takes the proposal to the plan's status (moveTo).
func (pb *proposalBuild) moveToStatus() {
	moveTo(pb.pl.status,
		func(s app.Status) { pb.apply(&app.ChangeStatus{ID: pb.p.ID, Status: s}, pb.step()) },
		func(s app.Status) {
			when := app.At(pb.step())
			p := pb.p
			p.Status = s
			p.Version++
			p.LastModifiedDate = when
			if s == app.StatusViewedByClient {
				p.ClientLastOpenedDate = when
			}
		})
}

// closeDeal gives an accepted or completed proposal its payment requests
// and the plan's change orders.
func (pb *proposalBuild) closeDeal() error {
	if pb.pl.status != app.StatusAccepted && pb.pl.status != app.StatusCompleted {
		return nil
	}
	p := pb.p
	p.PaymentRequests = pb.b.paymentRequests(p, pb.pl.status)
	for i := range pb.pl.changeOrders {
		co, err := pb.b.changeOrder(p, i, pb.step())
		if err != nil {
			return err
		}
		p.ChangeOrders = append(p.ChangeOrders, co)
	}
	return nil
}

// moveTo takes a new Draft proposal to status: through ChangeStatus where
// the rule engine has the move (change), and directly (direct) for the
// statuses only the outside world sets: the client opened it, the email
// bounced, it timed out, it is on hold, or it came from a legacy import
// without one.
func moveTo(status app.Status, change, direct func(app.Status)) {
	switch status {
	case app.StatusDraft:
	case app.StatusUndefined, app.StatusSubmitted, app.StatusViewedByClient, app.StatusDelayed,
		app.StatusEmailFailed, app.StatusExpired:
		change(app.StatusSubmitted)
		if status != app.StatusSubmitted {
			direct(status)
		}
	case app.StatusAccepted, app.StatusDeclined:
		change(app.StatusSubmitted)
		direct(app.StatusViewedByClient)
		change(status)
	case app.StatusCompleted:
		change(app.StatusSubmitted)
		change(app.StatusAccepted)
		change(app.StatusCompleted)
	}
}
