package app

import "fmt"

// AssignLocation is operation 14: one of the assigned contact's locations,
// which recalculates tax.
type AssignLocation struct {
	ID         int64 `json:"proposalId"`
	LocationID int64 `json:"locationId"`
}

const KindAssignLocation MutationKind = "assignLocation"
const OpAssignLocation Operation = "AssignLocation"

func init() {
	registerKind(func() Mutation { return &AssignLocation{} }, allowedWhenLocked)
}

func (m *AssignLocation) Kind() MutationKind   { return KindAssignLocation }
func (m *AssignLocation) Operation() Operation { return OpAssignLocation }
func (m *AssignLocation) ProposalID() int64    { return m.ID }

func (m *AssignLocation) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/location/{LocationId}",
		BodyRepeatsPath: true,
		Name:            "assignLocation", Summary: "Assign location (14)",
		Doc: "Assigns one of the proposal's contact's locations and recalculates tax (409 NoContactAssigned without a contact; 404 when the location is not the contact's). Works in every status. A body {proposalId, locationId} is accepted and must match the path."}
}

func (m *AssignLocation) Params() []Param {
	return []Param{proposalParam(&m.ID), PathID("LocationId", &m.LocationID)}
}

func (m *AssignLocation) Creates(*Proposal) []NewID  { return nil }
func (m *AssignLocation) Writes() []Field            { return []Field{FieldCustomerLocation} }
func (m *AssignLocation) Events() []WebhookEventType { return causesUpdated }
func (m *AssignLocation) Describe() string           { return "Change the location" }

func (m *AssignLocation) Validate() error {
	// A negative ID is a location the desktop created offline.
	if m.LocationID == 0 {
		return Invalid("LocationId", "is required")
	}
	return nil
}

func (m *AssignLocation) apply(p *Proposal, env *Env) error {
	var loc ContactLocation
	ok := false
	if env.Directory != nil {
		var err error
		if loc, ok, err = env.Directory.Location(m.LocationID); err != nil {
			return fmt.Errorf("location %d: %w", m.LocationID, err)
		}
	}
	if !ok {
		return Errorf(KindNotFound, "location %d not found in this account", m.LocationID)
	}
	if p.Customer == nil {
		return Errorf(KindNoContactAssigned, "proposal %d has no contact assigned, so a location cannot be set", p.Number)
	}
	if loc.ContactID != p.Customer.ID {
		return Errorf(KindNotFound, "location %d does not belong to the proposal's contact", m.LocationID)
	}
	p.Customer.Location = copyLocation(&loc.Location)
	applyLocationTax(&p.Document, &loc.Location, env.Account.Taxes)
	return nil
}
