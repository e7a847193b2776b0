package apiserver

import (
	"context"
	"errors"
	"strings"

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
	return mail.NewQueue(q, s.cfg.Mail.Sender, mail.Hooks{Refused: s.mailRefused}, opt)
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
		return tx.PutProposal(next)
	})
}
