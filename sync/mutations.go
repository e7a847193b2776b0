package syncer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"proposaldesk/app"
)

// The writes. Every proposal write is an app.Mutation, which knows its
// own route and body (app.Request); Do sends it, so the sync engine can
// push an outbox entry without knowing which write it is. The typed
// methods build the mutation and call Do.

// Result is the answer to a write.
type Result struct {
	// Status is the HTTP status (200, or 204 for AssignContact).
	Status int
	// Proposal is the proposal after the write; nil for a 204.
	Proposal *app.ProposalDetail
	// ETag is the answer's ETag header, if the server sent one.
	ETag string
}

// Do sends any proposal mutation to its endpoint. A 204 answer
// (AssignContact) gives a Result without a Proposal.
func (c *Client) Do(ctx context.Context, m app.Mutation, opts WriteOptions) (Result, error) {
	method, path, body, err := app.Request(m)
	if err != nil {
		return Result{}, err
	}
	resp, err := c.send(ctx, call{method: method, path: path, body: json.RawMessage(body), opts: opts})
	if err != nil {
		return Result{}, err
	}
	res := Result{Status: resp.status, ETag: resp.header.Get("ETag")}
	if resp.status == http.StatusNoContent || len(resp.body) == 0 {
		return res, nil
	}
	p, err := decode[app.ProposalDetail](resp, string(m.Kind())+" answer")
	if err != nil {
		return res, err
	}
	res.Proposal = &p
	return res, nil
}

// doDetail sends m and returns the proposal of its answer.
func (c *Client) doDetail(ctx context.Context, m app.Mutation, opts WriteOptions) (app.ProposalDetail, error) {
	res, err := c.Do(ctx, m, opts)
	if err != nil {
		return app.ProposalDetail{}, err
	}
	if res.Proposal == nil {
		return app.ProposalDetail{}, fmt.Errorf("%s: the server answered %d without a proposal", m.Kind(), res.Status)
	}
	return *res.Proposal, nil
}

// CreateProposal is operation 2; an empty name lets the server choose
// the default ("Proposal <number>").
func (c *Client) CreateProposal(ctx context.Context, salesPersonID int64, name string, opts WriteOptions) (app.ProposalDetail, error) {
	m := &app.CreateProposal{SalesPersonID: salesPersonID}
	if name != "" {
		m.Name = &name
	}
	return c.doDetail(ctx, m, opts)
}

// UpdateProposal is operation 4; a nil field keeps its value.
func (c *Client) UpdateProposal(ctx context.Context, proposalID int64, name *string, salesPersonID *int64, opts WriteOptions) (app.ProposalDetail, error) {
	return c.doDetail(ctx, &app.UpdateProposal{ID: proposalID, Name: name, SalesPersonID: salesPersonID}, opts)
}

// SetDescription is operation 5: the client-facing project description.
func (c *Client) SetDescription(ctx context.Context, proposalID int64, description string, opts WriteOptions) (app.ProposalDetail, error) {
	return c.doDetail(ctx, &app.SetDescription{ID: proposalID, Description: description}, opts)
}

// SetInternalNotes is operation 6: the proposal's installer notes.
func (c *Client) SetInternalNotes(ctx context.Context, proposalID int64, notes string, opts WriteOptions) (app.ProposalDetail, error) {
	return c.doDetail(ctx, &app.SetInternalNotes{ID: proposalID, InternalNotes: notes}, opts)
}

// CreateArea is operation 9.
func (c *Client) CreateArea(ctx context.Context, proposalID int64, name string, opts WriteOptions) (app.ProposalDetail, error) {
	return c.doDetail(ctx, &app.CreateArea{ID: proposalID, Name: name}, opts)
}

// CreateOption is operation 10.
func (c *Client) CreateOption(ctx context.Context, proposalID, areaID int64, clientDescription, internalNotes string, opts WriteOptions) (app.ProposalDetail, error) {
	return c.doDetail(ctx, &app.CreateOption{ID: proposalID, AreaID: areaID,
		ClientDescription: clientDescription, InternalNotes: internalNotes}, opts)
}

// SetOptionClientDescription is operation 11 ("" clears).
func (c *Client) SetOptionClientDescription(ctx context.Context, proposalID, optionID int64, text string, opts WriteOptions) (app.ProposalDetail, error) {
	return c.doDetail(ctx, &app.SetOptionClientDescription{ID: proposalID, OptionID: optionID, ClientDescription: text}, opts)
}

// SetOptionInstallerNotes is operation 12 ("" clears).
func (c *Client) SetOptionInstallerNotes(ctx context.Context, proposalID, optionID int64, text string, opts WriteOptions) (app.ProposalDetail, error) {
	return c.doDetail(ctx, &app.SetOptionInstallerNotes{ID: proposalID, OptionID: optionID, InstallerNotes: text}, opts)
}

// AssignContact is operation 13; the server answers 204 No Content, so
// read the proposal again to see the customer and taxes.
func (c *Client) AssignContact(ctx context.Context, proposalID, contactID int64, opts WriteOptions) error {
	_, err := c.Do(ctx, &app.AssignContact{ID: proposalID, ContactID: contactID}, opts)
	return err
}

// AssignLocation is operation 14.
func (c *Client) AssignLocation(ctx context.Context, proposalID, locationID int64, opts WriteOptions) (app.ProposalDetail, error) {
	return c.doDetail(ctx, &app.AssignLocation{ID: proposalID, LocationID: locationID}, opts)
}

// ChangeStatus moves a proposal to another status (extension).
func (c *Client) ChangeStatus(ctx context.Context, proposalID int64, status app.Status, opts WriteOptions) (app.ProposalDetail, error) {
	return c.doDetail(ctx, &app.ChangeStatus{ID: proposalID, Status: status}, opts)
}

// CreatePerson adds a contact (POST /public/people).
func (c *Client) CreatePerson(ctx context.Context, n app.NewContact, opts WriteOptions) (app.Contact, error) {
	body := struct {
		PartyType    app.PartyType   `json:"PartyType"`
		ContactType  app.ContactType `json:"ContactType"`
		FirstName    string          `json:"FirstName"`
		LastName     string          `json:"LastName,omitempty"`
		CompanyName  string          `json:"CompanyName,omitempty"`
		ContactEmail string          `json:"ContactEmail,omitempty"`
		ContactPhone string          `json:"ContactPhone,omitempty"`
	}{n.PartyType, n.ContactType, n.FirstName, n.LastName, n.CompanyName, n.ContactEmail, n.ContactPhone}
	resp, err := c.send(ctx, call{method: http.MethodPost, path: "/public/people", body: body, opts: opts})
	if err != nil {
		return app.Contact{}, err
	}
	return decode[app.Contact](resp, "new person")
}

// CreateLocation adds a location to a contact
// (POST /public/people/{PersonId}/location).
func (c *Client) CreateLocation(ctx context.Context, personID int64, n app.NewLocation, opts WriteOptions) (app.ContactLocation, error) {
	body := struct {
		Street     string `json:"Street"`
		Suite      string `json:"Suite,omitempty"`
		City       string `json:"City,omitempty"`
		PostalCode string `json:"PostalCode,omitempty"`
		State      string `json:"State,omitempty"`
		Country    string `json:"Country,omitempty"`
		Phone      string `json:"Phone,omitempty"`
		IsPrimary  bool   `json:"IsPrimary"`
		IsBilling  bool   `json:"IsBilling"`
	}{n.Street, n.Suite, n.City, n.PostalCode, n.State, n.Country, n.Phone, n.IsPrimary, n.IsBilling}
	resp, err := c.send(ctx, call{method: http.MethodPost, path: personPath(personID) + "/location", body: body, opts: opts})
	if err != nil {
		return app.ContactLocation{}, err
	}
	return decode[app.ContactLocation](resp, "new location")
}
