package apiserver

import (
	"context"
	"errors"
	"strings"
	"time"

	"proposaldesk/apiserver/clientpage"
	"proposaldesk/apiserver/mail"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// MailConfig is the outgoing mail part of Config.
type MailConfig struct {
	// Sender sends through the configured SMTP server; nil: none is
	// configured, and no mail goes out (Mail returns nil).
	Sender *mail.Sender
	// Queue tunes the queue (retries, lease, workers).
	Queue mail.QueueOptions
}

// newMailQueue is the queue over the server's store, nil without an SMTP
// server. A message the mail server refuses for good marks its proposal
// (mailRefused).
func (s *Server) newMailQueue() *mail.Queue {
	q, ok := s.st.(store.MailQueue)
	if s.cfg.Mail.Sender == nil || !ok {
		return nil
	}
	opt := s.cfg.Mail.Queue
	if opt.Now == nil {
		opt.Now = s.now
	}
	if opt.Log == nil {
		opt.Log = s.log
	}
	return mail.NewQueue(q, s.cfg.Mail.Sender, mail.Hooks{Refused: s.mailRefused, Accepted: s.mailAccepted}, opt)
}

// Mail is the outgoing mail queue: Enqueue a message about a proposal
// and it goes out, retried across restarts. Nil when no SMTP server is
// configured; Enqueue on it returns mail.ErrNotConfigured.
func (s *Server) Mail() *mail.Queue { return s.mail }

// RunMail sends queued mail until ctx ends; without an SMTP server it
// returns at once.
func (s *Server) RunMail(ctx context.Context) {
	if s.mail != nil {
		s.mail.Run(ctx)
	}
}

// mailRefused records on the proposal why its mail did not go out
// (app.RecordEmailFailure decides what changes), through the store's
// ordinary write: the change goes into the changes feed, and laptops
// download it at their next sync.
func (s *Server) mailRefused(ctx context.Context, j store.MailJob, reason string) error {
	return s.st.Update(ctx, j.AccountID, func(tx store.Tx) error {
		p, err := tx.Proposal(j.ProposalID)
		if errors.Is(err, store.ErrNotFound) {
			return nil // gone meanwhile: nobody to tell
		}
		if err != nil {
			return err
		}
		f := app.EmailFailure{Reason: reason, To: strings.Join(j.To, ", ")}
		next, changed := app.RecordEmailFailure(p, j.EnqueuedAt, f, s.now())
		if !changed {
			return nil
		}
		if err := tx.PutProposal(next); err != nil {
			return err
		}
		if next.ClientLink == nil {
			return nil // a mail that carried no client link
		}
		_, err = clientpage.Record(tx, next, app.EventEmailFailed, clientpage.Requester{Actor: app.ActorSystem}, s.now(),
			map[string]string{"to": f.To, "reason": reason})
		return err
	})
}

// mailAccepted records that the mail server took the current link's
// mail: the proposal says so, and the evidence has when.
func (s *Server) mailAccepted(ctx context.Context, j store.MailJob, took time.Duration) {
	err := s.st.Update(ctx, j.AccountID, func(tx store.Tx) error {
		p, err := tx.Proposal(j.ProposalID)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		next, changed := app.RecordEmailAccepted(p, j.EnqueuedAt, s.now())
		if !changed {
			return nil
		}
		if err := tx.PutProposal(next); err != nil {
			return err
		}
		_, err = clientpage.Record(tx, next, app.EventEmailAccepted, clientpage.Requester{Actor: app.ActorSystem}, s.now(),
			map[string]string{"to": strings.Join(j.To, ", "), "took": took.Round(time.Millisecond).String()})
		return err
	})
	if err != nil {
		s.log.Error("recording an accepted mail", "proposal", j.ProposalID, "err", err)
	}
}
