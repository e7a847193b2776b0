package apiclient

import (
	"context"
	"net/http"

	"proposaldesk/app"
)

// Sending a proposal to the client (extensions): the send, the
// proposal's evidence events and its signed PDF.

// SendInput is a send's body. Empty To means the customer's email on
// the server; empty ExpiresOn its default (30 days).
type SendInput struct {
	To        string `json:"To,omitempty"`
	Message   string `json:"Message,omitempty"`
	ExpiresOn string `json:"ExpiresOn,omitempty"` // YYYY-MM-DD
}

// SendResult is a send's answer: the proposal as the send left it and
// the link's URL, which only this answer carries ("" in a replay of
// the send under the same Idempotency-Key).
type SendResult struct {
	Proposal app.ProposalDetail
	URL      string
}

// SendProposal sends the proposal to the client
// (POST /public/proposals/{id}/send).
func (c *Client) SendProposal(ctx context.Context, proposalID int64, in SendInput, opts WriteOptions) (SendResult, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodPost, Path: ProposalPath(proposalID) + "/send", Body: in, Opts: opts})
	if err != nil {
		return SendResult{}, err
	}
	d, err := Decode[app.ProposalDetail](resp, "sent proposal")
	if err != nil {
		return SendResult{}, err
	}
	r := SendResult{Proposal: d}
	if d.ClientLink != nil && d.ClientLink.URL != nil {
		r.URL = *d.ClientLink.URL
	}
	return r, nil
}

// ClientEvents reads the proposal's evidence events, oldest first
// (GET /public/proposals/{id}/events).
func (c *Client) ClientEvents(ctx context.Context, proposalID int64) ([]app.Event, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: ProposalPath(proposalID) + "/events"})
	if err != nil {
		return nil, err
	}
	return Decode[[]app.Event](resp, "client events")
}

// SignedPDF downloads the PDF of the client's decision with its
// certificate page (GET /public/proposals/{id}/signed.pdf).
func (c *Client) SignedPDF(ctx context.Context, proposalID int64) ([]byte, error) {
	resp, err := c.Send(ctx, Call{Method: http.MethodGet, Path: ProposalPath(proposalID) + "/signed.pdf"})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}
