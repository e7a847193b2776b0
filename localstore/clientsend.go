package localstore

import (
	"context"
	"fmt"
	"time"

	"proposaldesk/app"
)

// Sending a proposal to the client from the laptop. A send is not an
// edit of the proposal's fields (only the server can make the link's
// secret), so it has its own outbox entry kind, EntrySend: queued
// durably, sent in queue order with its proposal's edits, and settled
// with AckSend. It is not in the per-proposal index, so the replay of
// edits on the server copy never meets it.
//
// The link's URL is only in the send's own answer; the laptop keeps the
// last one it saw per proposal (bucket clientLinks), and the client's
// evidence events as the last sync read them (bucket clientEvents).
// Both buckets are made by their first write, so no migration adds
// them and older programs ignore them.
//
//	clientLinks    proposal ID → SavedLink (JSON)
//	clientEvents   proposal ID → []app.Event (JSON)

// EntrySend sends the proposal to the client (Entry.Send).
const EntrySend EntryKind = "send"

var (
	bucketClientLinks  = []byte("clientLinks")
	bucketClientEvents = []byte("clientEvents")
)

// SendRequest is a send as the user asked for it: To is a comma
// separated list (empty: the customer's email), ExpiresOn a date
// (YYYY-MM-DD; empty: the server's default).
type SendRequest struct {
	To        string `json:"to,omitempty"`
	Message   string `json:"message,omitempty"`
	ExpiresOn string `json:"expiresOn,omitempty"`
}

// SavedLink is the last client link this laptop saw.
type SavedLink struct {
	URL    string    `json:"url"`
	LinkID string    `json:"linkId"`
	Saved  time.Time `json:"saved"`
}

// QueueSend queues a send of the proposal after checking it with the
// server's rules on the local view (app.CheckSend, app.ParseSendRequest). A
// send still waiting (not yet sent) is replaced: the user changed their
// mind before it went out.
func (s *Store) QueueSend(ctx context.Context, proposalID int64, r SendRequest, env app.Env) (Entry, error) {
	var out Entry
	err := s.update(ctx, func(t *txn) error {
		id := t.resolve(proposalID)
		if app.IsTemporaryID(id) {
			return app.Errorf(app.KindValidationFailed,
				"This proposal has not reached the server yet; sync once, then send it.")
		}
		rec, ok, err := t.record(id)
		if err != nil {
			return err
		}
		if !ok || rec.Local == nil {
			return errNoProposal(id)
		}
		if err := app.CheckSend(rec.Local); err != nil {
			return err
		}
		if err := checkSend(r, rec.Local.Customer.ContactEmail, env.Now); err != nil {
			return err
		}
		all, err := t.allEntries()
		if err != nil {
			return err
		}
		for _, e := range all {
			if e.Kind == EntrySend && e.ProposalID == id && e.State == StatePending {
				e.Send, e.Created, e.Actor = &r, env.Now, env.Actor
				out = *e
				return t.putEntry(e)
			}
		}
		e := &Entry{Kind: EntrySend, ProposalID: id, Send: &r, Created: env.Now, Actor: env.Actor}
		if err := t.enqueue(e); err != nil {
			return err
		}
		out = *e
		return nil
	})
	return out, err
}

// QueuedSend is the proposal's send waiting in the outbox, if any.
func (s *Store) QueuedSend(proposalID int64) (Entry, bool, error) {
	id := s.Resolve(proposalID)
	es, err := s.entries(func(e *Entry) bool { return e.Kind == EntrySend && e.ProposalID == id }, 0)
	if err != nil || len(es) == 0 {
		return Entry{}, false, err
	}
	return es[len(es)-1], true, nil
}

// AckSend settles a send: sp is the proposal as the send left it, url
// the link from the send's answer ("" when the answer had none: a
// replay of a send whose first answer was lost).
func (s *Store) AckSend(ctx context.Context, seq uint64, sp *app.Proposal, url string, now time.Time) error {
	return s.update(ctx, func(t *txn) error {
		e, err := t.entry(seq)
		if err != nil {
			return err
		}
		if e.Kind != EntrySend {
			return fmt.Errorf("localstore: outbox entry %d is a %s entry, not a send", seq, e.Kind)
		}
		if err := t.deleteEntry(e); err != nil {
			return err
		}
		if url != "" && sp.ClientLink != nil {
			if err := t.saveLink(sp.ID, SavedLink{URL: url, LinkID: sp.ClientLink.ID, Saved: now}); err != nil {
				return err
			}
		}
		return (&PullTx{t: t}).PutServerCopy(sp)
	})
}

func (t *txn) saveLink(id int64, l SavedLink) error {
	b, err := t.tx.CreateBucketIfNotExists(bucketClientLinks)
	if err != nil {
		return err
	}
	return putJSON(b, idKey(id), l)
}

// SavedLink is the last client link of the proposal this laptop saw.
func (s *Store) SavedLink(proposalID int64) (SavedLink, bool, error) {
	var l SavedLink
	var ok bool
	err := s.view(func(t *txn) error {
		b := t.tx.Bucket(bucketClientLinks)
		if b == nil {
			return nil
		}
		var err error
		ok, err = getJSON(b, idKey(s.Resolve(proposalID)), &l)
		return err
	})
	return l, ok, err
}

// PutClientEvents keeps the proposal's evidence events as the server
// last listed them.
func (s *Store) PutClientEvents(ctx context.Context, proposalID int64, events []app.Event) error {
	return s.update(ctx, func(t *txn) error {
		b, err := t.tx.CreateBucketIfNotExists(bucketClientEvents)
		if err != nil {
			return err
		}
		return putJSON(b, idKey(proposalID), events)
	})
}

// ClientEvents are the proposal's evidence events as the last sync read
// them (nil when none were read).
func (s *Store) ClientEvents(proposalID int64) ([]app.Event, error) {
	var out []app.Event
	err := s.view(func(t *txn) error {
		b := t.tx.Bucket(bucketClientEvents)
		if b == nil {
			return nil
		}
		_, err := getJSON(b, idKey(s.Resolve(proposalID)), &out)
		return err
	})
	return out, err
}

// checkSend checks a queued send's fields with the server's rule.
func checkSend(r SendRequest, customerEmail string, now time.Time) error {
	_, err := app.ParseSendRequest(r.To, r.Message, r.ExpiresOn, customerEmail, now)
	return err
}
