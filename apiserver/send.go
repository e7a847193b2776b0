package apiserver

import (
	"context"
	"net/http"
	"strings"
	"time"

	"proposaldesk/apiserver/clientpage"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// Sending a proposal to the client (extension): the send freezes the
// client snapshot, makes the link and hands it to deliverLink; the
// evidence routes read what the client's page recorded.

// sendRequest is a send's checked body.
type sendRequest struct {
	to        []string
	message   string
	expiresOn time.Time // the instant the link stops deciding
}

// parseSend checks a send's fields with app's rule; defaultTo is the
// customer's email.
func parseSend(f fields, defaultTo string, now time.Time) (sendRequest, error) {
	to, _ := f["To"].(string)
	message, _ := f["Message"].(string)
	expiresOn, _ := f["ExpiresOn"].(string)
	r, err := app.ParseSendRequest(to, message, expiresOn, defaultTo, now)
	return sendRequest{to: r.To, message: r.Message, expiresOn: r.ExpiresOn}, err
}

// LinkDelivery is what deliverLink hands on: where the link goes and
// what the mail says.
type LinkDelivery struct {
	AccountID, ProposalID int64
	LinkID                string
	URL                   string
	To                    []string
	Message               string
	ExpiresOn             time.Time
	Dealer                string
	ProposalName          string
}

// noMailNote is what a send says when no mail went out.
const noMailNote = "No mail server is configured, so no mail went out: copy the link and send it to the client yourself."

// deliverLink says what becomes of the new link's mail: queued when an
// SMTP server is configured, otherwise nothing goes out and the
// salesperson copies the link. It runs inside the send's transaction
// (which may run more than once); the mail itself is queued once the
// send is committed (queueLink), since the queue is a write of its own.
func (s *Server) deliverLink(d LinkDelivery) (app.MailStatus, string) {
	if s.mail == nil {
		return app.MailNotSent, noMailNote
	}
	return app.MailQueued, "The link is on its way to " + strings.Join(d.To, ", ") + "."
}

// queueLink puts a committed send's mail into the mail queue. If that
// fails (the store refused the write), the proposal says so as a mail
// refused would, so the salesperson knows to copy the link.
func (s *Server) queueLink(ctx context.Context, d LinkDelivery) {
	err := s.mail.Enqueue(ctx, d.AccountID, d.ProposalID, linkMail(d))
	if err == nil {
		return
	}
	s.log.Error("queueing a client link's mail", "proposal", d.ProposalID, "err", err)
	job := store.MailJob{AccountID: d.AccountID, ProposalID: d.ProposalID, To: d.To, EnqueuedAt: s.now()}
	if err := s.mailRefused(context.WithoutCancel(ctx), job, "The mail could not be queued: "+err.Error()); err != nil {
		s.log.Error("recording a mail that could not be queued", "proposal", d.ProposalID, "err", err)
	}
}

// clientBaseURL is the base of client links: the public URL, or the
// scheme and host the sender used.
func (s *Server) clientBaseURL(r *http.Request) string {
	full := s.absoluteURL(r)
	return strings.TrimSuffix(full, r.URL.RequestURI())
}

// POST /public/proposals/{ProposalId}/send (extension)
func (s *Server) sendProposal(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	f, err := c.decodeBody([]field{{"To", fString}, {"Message", fString}, {"ExpiresOn", fString}})
	if err != nil {
		return err
	}
	base := s.clientBaseURL(c.r)
	who := clientpage.Requester{IP: s.clientAddr(c.r), UserAgent: c.r.UserAgent(), Actor: app.ActorUser(c.user.User)}
	opts := c.viewOptions()
	return s.update(c, func(tx store.Tx) (result, error) {
		p, err := tx.Proposal(id)
		if err != nil {
			return result{}, err
		}
		if err := c.ifMatch(p.Version); err != nil {
			return result{}, err
		}
		if err := app.CheckSend(p); err != nil {
			return result{}, err
		}
		req, err := parseSend(f, p.Customer.ContactEmail, c.now)
		if err != nil {
			return result{}, err
		}
		doc, hash, err := app.ClientSnapshotJSON(p)
		if err != nil {
			return result{}, err
		}
		if err := tx.PutClientSnapshot(id, hash, doc); err != nil {
			return result{}, err
		}
		if old := p.ClientLink; old != nil {
			// The replaced link's hash goes into the chain, so that
			// opening it later says it was replaced.
			if _, err := clientpage.Record(tx, p, app.EventLinkReplaced, who, c.now,
				map[string]string{"linkId": old.ID, "tokenHash": old.TokenHash}); err != nil {
				return result{}, err
			}
		}
		token, tokenHash, linkID := clientpage.NewToken(tx.AccountID(), id)
		url := base + clientpage.PathPrefix + token
		delivery := LinkDelivery{
			AccountID: tx.AccountID(), ProposalID: id, LinkID: linkID, URL: url, To: req.to, Message: req.message,
			ExpiresOn: req.expiresOn, Dealer: p.Dealer.CompanyName, ProposalName: p.Name,
		}
		status, note := s.deliverLink(delivery)
		now := app.At(c.now)
		p.ClientLink = &app.ClientLink{ID: linkID, TokenHash: tokenHash, SentDate: now, ExpiresOn: app.At(req.expiresOn),
			SentTo: req.to, Message: req.message, SnapshotHash: hash, Mail: status, MailNote: note}
		p.Status = app.StatusSubmitted
		p.EmailFailure = nil // of an earlier send's mail
		p.LastSubmittedDate, p.LastModifiedDate, p.LastModifiedByUserDate = now, now, now
		p.LastModifiedUser = app.PersonName{FirstName: c.user.FirstName, LastName: c.user.LastName}
		if err := tx.PutProposal(p); err != nil {
			return result{}, err
		}
		if err := tx.SetClientExpiry(id, req.expiresOn); err != nil {
			return result{}, err
		}
		if _, err := clientpage.Record(tx, p, app.EventSent, who, c.now, map[string]string{
			"sentTo": strings.Join(req.to, ", "), "expiresOn": req.expiresOn.Format(time.RFC3339), "mail": string(status),
		}); err != nil {
			return result{}, err
		}
		d := app.DetailView(p, opts)
		// The record an Idempotency-Key keeps has no URL: the token is
		// never stored. Only this answer carries it.
		stored, err := d.AppendJSON(nil)
		if err != nil {
			return result{}, err
		}
		d.ClientLink.URL = &url
		body, err := d.AppendJSON(nil)
		if err != nil {
			return result{}, err
		}
		res := result{status: http.StatusOK, body: body, stored: stored, etag: etagOf(p.Version), lastModified: p.LastModifiedDate.Time}
		if status == app.MailQueued {
			res.committed = func() { s.queueLink(c.r.Context(), delivery) }
		}
		return res, nil
	})
}

// GET /public/proposals/{ProposalId}/events (extension)
func (s *Server) proposalEvents(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	return s.view(c, func(tx store.Tx) (result, error) {
		if _, err := tx.ProposalVersion(id); err != nil {
			return result{}, err
		}
		events, err := tx.ClientEvents(id)
		if err != nil {
			return result{}, err
		}
		return jsonResult(events)
	})
}

// GET /public/proposals/{ProposalId}/signed.pdf (extension)
func (s *Server) signedPDF(c *call) error {
	id, err := c.pathID("ProposalId")
	if err != nil {
		return err
	}
	var d clientpage.Decision
	err = s.st.View(c.r.Context(), c.account.ID, func(tx store.Tx) error {
		p, err := tx.Proposal(id)
		if err != nil {
			return err
		}
		var found bool
		d, found, err = clientpage.FindDecision(tx, p)
		if err != nil {
			return err
		}
		if !found {
			return app.Errorf(app.KindNotFound, "Proposal %d has no client decision yet, so there is no signed PDF.", id)
		}
		return nil
	})
	if err != nil {
		return err
	}
	pdf, err := d.PDF()
	if err != nil {
		return err
	}
	return writePDF(c, pdf, "proposal-"+app.FormatID(d.Document.Number)+"-signed.pdf", time.Time{})
}
