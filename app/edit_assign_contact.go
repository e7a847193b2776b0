package app

import "fmt"

// AssignContact is operation 13. A contact with exactly one primary
// location brings that location along; otherwise the proposal is left
// without a location until one is assigned.
type AssignContact struct {
	ID        int64 `json:"proposalId"`
	ContactID int64 `json:"contactId"`
}

const KindAssignContact MutationKind = "assignContact"
const OpAssignContact Operation = "AssignContact"

func init() {
	registerKind(func() Mutation { return &AssignContact{} }, allowedWhenLocked)
}

func (m *AssignContact) Kind() MutationKind   { return KindAssignContact }
func (m *AssignContact) Operation() Operation { return OpAssignContact }
func (m *AssignContact) ProposalID() int64    { return m.ID }

func (m *AssignContact) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/contact/{ContactId}",
		NoContent: true, BodyRepeatsPath: true,
		Name: "assignContact", Summary: "Assign contact (13)",
		Doc: "Assigns a contact of the same account. When the contact has exactly one primary location it becomes the proposal's location and tax is recalculated; otherwise the proposal keeps no location (tax Undefined) until one is assigned. Works in every status. No body needed; a body {proposalId, contactId} is accepted and must match the path (400 otherwise)."}
}

func (m *AssignContact) Params() []Param {
	return []Param{proposalParam(&m.ID), PathID("ContactId", &m.ContactID)}
}

func (m *AssignContact) Creates(*Proposal) []NewID  { return nil }
func (m *AssignContact) Writes() []Field            { return []Field{FieldCustomer, FieldCustomerLocation} }
func (m *AssignContact) Events() []WebhookEventType { return causesUpdated }
func (m *AssignContact) Describe() string           { return "Change the customer" }

func (m *AssignContact) Validate() error {
	// A negative ID is a contact the desktop created offline.
	if m.ContactID == 0 {
		return Invalid("ContactId", "is required")
	}
	return nil
}

func (m *AssignContact) apply(p *Proposal, env *Env) error {
	return assignCustomer(&p.Document, m.ContactID, env)
}

// assignCustomer makes contact id the document's customer. A contact
// with exactly one primary location brings it along, and tax follows it.
func assignCustomer(d *Document, id int64, env *Env) error {
	var contact Contact
	ok := false
	if env.Directory != nil {
		var err error
		if contact, ok, err = env.Directory.Contact(id); err != nil {
			return fmt.Errorf("contact %d: %w", id, err)
		}
	}
	if !ok {
		return Errorf(KindNotFound, "contact %d not found in this account", id)
	}
	locs, err := env.Directory.ContactLocations(id)
	if err != nil {
		return fmt.Errorf("locations of contact %d: %w", id, err)
	}
	primary := PrimaryLocation(locs)
	d.Customer = &Customer{Contact: contact, Location: copyLocation(primary)}
	applyLocationTax(d, primary, env.Account.Taxes)
	return nil
}

// PrimaryLocation is the contact's single primary location, or nil when
// it has none or (bad data) several.
func PrimaryLocation(locs []ContactLocation) *Location {
	var found *Location
	for i := range locs {
		if locs[i].IsPrimary {
			if found != nil {
				return nil
			}
			found = &locs[i].Location
		}
	}
	return found
}
