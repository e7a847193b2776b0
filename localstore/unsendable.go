package localstore

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

// An entry that can never be sent as it is stored (it names proposal 0,
// a path ID of 0, or its edit does not decode) must not stop the sync:
// the engine marks it failed with FailUnsendable and goes on, and
// Review shows it with its reason until the user discards it. Older
// versions queued such edits (a rename of a copy before the copy had
// an ID); the migration to schema 6 marks the ones they left.

// Reasons an entry cannot be sent, in the words Review shows.
const (
	ReasonNoProposal     = "This edit refers to a proposal that does not exist on this computer and cannot be sent. Discard it."
	ReasonMissingID      = "This edit refers to something that does not exist in its proposal and cannot be sent. Discard it."
	ReasonUnreadable     = "This edit was saved in a form this version of Proposal Desk cannot read, so it cannot be sent. Discard it."
	ReasonIncomplete     = "This new contact or address was saved without its details and cannot be sent. Discard it and enter it again."
	ReasonIncompleteSend = "This send to the client was saved without its details and cannot be sent. Discard it and send again."
	// ReasonNeverCreated is the engine's: an edit still naming a
	// temporary ID once everything it depends on was settled.
	ReasonNeverCreated = "This edit refers to an area, option or item that never reached the server, so it cannot be sent. Discard it."
)

// CannotSend says why the entry can never be sent as it is stored, in
// words for the user; "" when it can be sent (perhaps only once the
// creates it depends on are acknowledged and its temporary IDs
// replaced).
func (e *Entry) CannotSend() string {
	switch e.Kind {
	case EntryContact:
		if e.Contact == nil {
			return ReasonIncomplete
		}
		return ""
	case EntryLocation:
		if e.Location == nil || e.ContactID == 0 {
			return ReasonIncomplete
		}
		return ""
	case EntrySend:
		if e.Send == nil || e.ProposalID <= 0 {
			return ReasonIncompleteSend
		}
		return ""
	case EntryProposal:
	default:
		return ReasonUnreadable
	}
	if e.ProposalID == 0 {
		return ReasonNoProposal
	}
	m, err := e.Decode()
	if err != nil {
		return ReasonUnreadable
	}
	for _, p := range app.PathParams(m) {
		if v, _ := p.Value(); v == int64(0) {
			if p.Name == "ProposalId" {
				return ReasonNoProposal
			}
			return ReasonMissingID
		}
	}
	if app.HasTemporaryRefs(m) {
		return "" // its request is built once they are replaced
	}
	if _, _, _, err := app.Request(m); err != nil {
		return ReasonMissingID
	}
	return ""
}

// migrate5to6 marks the entries older versions queued that cannot be
// sent (CannotSend) as failed, as FailUnsendable does, and rebuilds
// their proposals, so they show in Review and the sync goes on past
// them.
func migrate5to6(tx *bolt.Tx) error {
	t := &txn{tx: tx, servers: map[int64]*app.Proposal{}}
	all, err := t.allEntries()
	if err != nil {
		return err
	}
	// Mark them all before rebuilding: a replay stops at an entry that
	// does not decode unless it is marked failed.
	var bad []*Entry
	for _, e := range all {
		if e.State == StateFailed {
			continue
		}
		reason := e.CannotSend()
		if reason == "" {
			continue
		}
		markUnsendable(e, reason)
		if err := t.putEntry(e); err != nil {
			return fmt.Errorf("outbox entry %d: %w", e.Seq, err)
		}
		bad = append(bad, e)
	}
	for _, e := range bad {
		if err := t.rebuildAround(e); err != nil {
			return fmt.Errorf("outbox entry %d: %w", e.Seq, err)
		}
	}
	return nil
}

// markUnsendable marks e failed, found on this computer, with reason.
func markUnsendable(e *Entry, reason string) {
	e.State, e.ErrorKind, e.ErrorMessage, e.Unsendable = StateFailed, app.KindValidationFailed, reason, true
}
