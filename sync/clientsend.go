package syncer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"proposaldesk/app"
	"proposaldesk/localstore"
	"proposaldesk/sync/apiclient"
)

// Sending to the client and reading what the client did. A send is
// queued like an edit (localstore.EntrySend) and goes out in queue
// order with its proposal's edits, so the client sees the proposal as
// the laptop shows it; SendToClient syncs at once, which calls the
// send route when the server can be reached. After each sync the
// evidence events of the proposals that changed and have a client link
// are read again and kept on the laptop.

// SendOutcome is what became of a send asked for on the laptop.
type SendOutcome struct {
	// Queued: the server could not be reached; the send waits in the
	// outbox and goes out at the next sync.
	Queued bool
	// URL is the link (when the send went out now).
	URL string
	// Mail and MailNote say whether mail went out.
	Mail     app.MailStatus
	MailNote string
}

// SendToClient queues a send of the proposal (checked with the
// server's rules on the local view) and syncs at once. A send the
// server refuses is dropped from the outbox and its refusal returned,
// so the user can change the input and send again.
func (e *Engine) SendToClient(ctx context.Context, proposalID int64, r localstore.SendRequest) (SendOutcome, error) {
	en, err := e.st.QueueSend(ctx, proposalID, r, e.env())
	if err != nil {
		return SendOutcome{}, err
	}
	e.queued()
	_ = e.SyncOnce(ctx) // unreachable: the send stays queued
	cur, err := e.st.Entry(en.Seq)
	switch {
	case app.KindOf(err) == app.KindNotFound:
		// Sent and acknowledged.
		l, _, err := e.st.SavedLink(en.ProposalID)
		if err != nil {
			return SendOutcome{}, err
		}
		rec, err := e.st.Record(en.ProposalID)
		if err != nil {
			return SendOutcome{}, err
		}
		out := SendOutcome{URL: l.URL}
		if cl := rec.Server.ClientLink; cl != nil {
			out.Mail, out.MailNote = cl.Mail, cl.MailNote
		}
		return out, nil
	case err != nil:
		return SendOutcome{}, err
	case cur.State == localstore.StateFailed:
		refusal := app.Errorf(cur.ErrorKind, "%s", cur.ErrorMessage)
		if err := e.Discard(ctx, cur.Seq); err != nil {
			return SendOutcome{}, err
		}
		return SendOutcome{}, refusal
	}
	return SendOutcome{Queued: true}, nil
}

// sendToClient sends a queued send and settles it.
func (e *Engine) sendToClient(ctx context.Context, en *localstore.Entry, opts WriteOptions) error {
	in := apiclient.SendInput{To: en.Send.To, Message: en.Send.Message, ExpiresOn: en.Send.ExpiresOn}
	res, err := e.c.SendProposal(ctx, en.ProposalID, in, opts)
	if err != nil {
		return e.refused(ctx, en, err)
	}
	sp := ProposalFromDetail(res.Proposal)
	if err := e.withChangeOrders(ctx, sp); err != nil {
		return stopOn(err)
	}
	if err := e.st.AckSend(ctx, en.Seq, sp, res.URL, e.now()); err != nil {
		return fmt.Errorf("acknowledge send %d: %w", en.Seq, err)
	}
	e.noteClientLink(sp)
	return nil
}

// noteClientLink marks a proposal whose events are to be read after
// the sync: one whose copy just arrived with a client link, or with a
// client's decision (an acceptance in person has evidence but no link).
func (e *Engine) noteClientLink(p *app.Proposal) {
	if p == nil || (p.ClientLink == nil && p.ClientLastDecisionDate.IsZero()) {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.eventsDue == nil {
		e.eventsDue = map[int64]bool{}
	}
	e.eventsDue[p.ID] = true
}

// pullClientEvents reads the events of the proposals noted during the
// sync. One that cannot be read now is read at the next sync.
func (e *Engine) pullClientEvents(ctx context.Context) error {
	e.mu.Lock()
	due := e.eventsDue
	e.eventsDue = nil
	e.mu.Unlock()
	for id := range due {
		evs, err := e.c.ClientEvents(ctx, id)
		if err == nil {
			err = e.st.PutClientEvents(ctx, id, evs)
		}
		if err != nil {
			e.mu.Lock()
			for id := range due {
				if e.eventsDue == nil {
					e.eventsDue = map[int64]bool{}
				}
				e.eventsDue[id] = true
			}
			e.mu.Unlock()
			return fmt.Errorf("client events of proposal %d: %w", id, err)
		}
		delete(due, id)
	}
	return nil
}

// SignedPDF downloads the proposal's signed PDF (the client's decision
// with its certificate page) into dir and returns the file's path.
func (e *Engine) SignedPDF(ctx context.Context, proposalID int64, dir string) (string, error) {
	rec, err := e.st.Record(proposalID)
	if err != nil {
		return "", err
	}
	pdf, err := e.c.SignedPDF(ctx, rec.ID)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("signed PDF folder: %w", err)
	}
	name := fmt.Sprintf("proposal-%d-signed.pdf", rec.Local.Number)
	path := filepath.Join(dir, name)
	tmp := path + ".part"
	if err := os.WriteFile(tmp, pdf, 0o600); err != nil {
		return "", fmt.Errorf("save the signed PDF: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("save the signed PDF: %w", err)
	}
	return path, nil
}
