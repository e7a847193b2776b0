package localstore

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/app"
)

// EntryKind says what an outbox entry sends.
type EntryKind string

const (
	// EntryProposal is a write to a proposal: an app.Mutation.
	EntryProposal EntryKind = "proposal"
	// EntryContact creates a contact (app.NewContact) offline.
	EntryContact EntryKind = "contact"
	// EntryLocation creates a location (app.NewLocation) for a contact.
	EntryLocation EntryKind = "location"
)

// State is where an outbox entry is in its life. An acknowledged entry
// is deleted, so there is no "done".
type State string

const (
	// StatePending: not sent yet (or sent and then reset to be retried).
	StatePending State = "pending"
	// StateSent: in flight; it may have reached the server. Resend it
	// with the same idempotency key.
	StateSent State = "sent"
	// StateFailed: the server (or a replay on the server's copy) refused
	// it; ErrorKind and ErrorMessage say why. Kept until discarded.
	StateFailed State = "failed"
	// StateConflict: the server changed a field this entry changes;
	// the record's Conflicts list the fields. Resolve with
	// ResolveConflict.
	StateConflict State = "conflict"
)

// Entry is one queued write. Seq orders the queue; the sync engine sends
// entries in Seq order and settles each with Ack, Fail or Discard.
type Entry struct {
	Seq  uint64    `json:"seq"`
	Kind EntryKind `json:"kind"`
	// ProposalID is the proposal written (negative while it exists only
	// here); 0 for contact and location entries.
	ProposalID int64 `json:"proposalId,omitempty"`
	// Mutation is app.EncodeMutation's form (EntryProposal).
	Mutation json.RawMessage `json:"mutation,omitempty"`
	// Contact and ContactID: EntryContact's input and temporary ID;
	// EntryLocation's contact (maybe temporary too).
	Contact   *app.NewContact `json:"contact,omitempty"`
	ContactID int64           `json:"contactId,omitempty"`
	// Location and LocationID: EntryLocation's input and temporary ID.
	Location   *app.NewLocation `json:"location,omitempty"`
	LocationID int64            `json:"locationId,omitempty"`
	// Send is EntrySend's request (clientsend.go).
	Send *SendRequest `json:"send,omitempty"`
	// IdempotencyKey is made once at enqueue and never changes: every
	// attempt sends the same key, so the server applies it once.
	IdempotencyKey string `json:"idempotencyKey"`
	// BaseVersion is the server version the edit applies to (If-Match);
	// 0 when unknown (a proposal not yet on the server).
	BaseVersion  int64    `json:"baseVersion,omitempty"`
	State        State    `json:"state"`
	ErrorKind    app.Kind `json:"errorKind,omitempty"`
	ErrorMessage string   `json:"errorMessage,omitempty"`
	// Unsendable: the failure was found on this computer, not by the
	// server: the entry cannot be sent as it is (CannotSend), and
	// ErrorMessage says why in the user's words. Only discarding helps.
	Unsendable bool      `json:"unsendable,omitempty"`
	Attempts   int       `json:"attempts"`
	Created    time.Time `json:"created"`
	// DependsOn are the entries that must reach the server first: the
	// creates of the temporary IDs this entry refers to.
	DependsOn []uint64 `json:"dependsOn,omitempty"`
	// Actor is the user who made the edit; replays check their
	// permissions again.
	Actor app.User `json:"actor"`
	// Effect is what the edit left in the fields it writes, on the view
	// it was made on (app.Effect): whether the server already has it is
	// judged by it alone (app.SettledBy).
	Effect map[app.Field]string `json:"effect,omitempty"`

	// Blocked is computed when an entry is read: an entry it depends on
	// failed or is in conflict, so this one waits. BlockedBy is that
	// entry (the first one found, maybe several steps up).
	Blocked   bool   `json:"-"`
	BlockedBy uint64 `json:"-"`
}

// indexed reports whether the entry has a row in the per-proposal
// index: every proposal entry, even one naming proposal 0 (older
// versions queued such edits; the index lets Discard remove the
// phantom proposal they made), and no contact, location or send entry
// (the index is what replays edits, and a send is none).
func (e *Entry) indexed() bool {
	return e.Kind == EntryProposal || (e.ProposalID != 0 && e.Kind != EntrySend)
}

// Decode returns the entry's mutation (EntryProposal only).
func (e *Entry) Decode() (app.Mutation, error) {
	if e.Kind != EntryProposal {
		return nil, fmt.Errorf("localstore: outbox entry %d is a %s entry, not a mutation", e.Seq, e.Kind)
	}
	return app.DecodeMutation(e.Mutation)
}

// newKey is a random idempotency key: 128 bits, hex.
func newKey(r io.Reader) (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return "", fmt.Errorf("localstore: idempotency key: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

func errNoEntry(seq uint64) error {
	return app.Errorf(app.KindNotFound, "outbox entry %d not found", seq)
}

func (t *txn) entry(seq uint64) (*Entry, error) {
	var e Entry
	ok, err := getJSON(t.b(bucketOutbox), seqKey(seq), &e)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errNoEntry(seq)
	}
	return &e, nil
}

// putEntry writes an entry and its index row. A changed ProposalID must
// go through moveEntry.
func (t *txn) putEntry(e *Entry) error {
	if err := putJSON(t.b(bucketOutbox), seqKey(e.Seq), e); err != nil {
		return err
	}
	if e.indexed() {
		return t.b(bucketOutboxByProposal).Put(pairKey(e.ProposalID, e.Seq), nil)
	}
	return nil
}

func (t *txn) deleteEntry(e *Entry) error {
	if err := t.b(bucketOutbox).Delete(seqKey(e.Seq)); err != nil {
		return err
	}
	if e.indexed() {
		if err := t.b(bucketOutboxByProposal).Delete(pairKey(e.ProposalID, e.Seq)); err != nil {
			return err
		}
	}
	cr := t.b(bucketCreators)
	ids, err := createdIDs(e)
	if err != nil {
		// An edit that does not decode can still be discarded: drop
		// whatever the creators index says it creates.
		return deleteWhere(cr, func(v []byte) bool { return keySeq(v) == e.Seq })
	}
	for _, id := range ids {
		if v := cr.Get(idKey(id)); v != nil && keySeq(v) == e.Seq {
			if err := cr.Delete(idKey(id)); err != nil {
				return err
			}
		}
	}
	return nil
}

// deleteWhere deletes the keys of b whose value matches.
func deleteWhere(b *bolt.Bucket, match func(v []byte) bool) error {
	var keys [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if match(v) {
			keys = append(keys, slices.Clone(k))
		}
		return nil
	})
	for _, k := range keys {
		if err == nil {
			err = b.Delete(k)
		}
	}
	return err
}

// proposalEntries are the proposal's entries in queue order.
func (t *txn) proposalEntries(pid int64) ([]*Entry, error) {
	var out []*Entry
	prefix := idKey(pid)
	c := t.b(bucketOutboxByProposal).Cursor()
	for k, _ := c.Seek(prefix); k != nil && string(k[:8]) == string(prefix); k, _ = c.Next() {
		e, err := t.entry(keySeq(k[8:]))
		if err != nil {
			return nil, fmt.Errorf("outbox index of proposal %d: %w", pid, err)
		}
		out = append(out, e)
	}
	return out, nil
}

func (t *txn) allEntries() ([]*Entry, error) {
	var out []*Entry
	err := t.b(bucketOutbox).ForEach(func(k, v []byte) error {
		var e Entry
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("outbox entry %d: %w", keySeq(k), err)
		}
		out = append(out, &e)
		return nil
	})
	return out, err
}

// blocked reports whether something e depends on failed, is in
// conflict, or is itself blocked; skipped marks entries already known
// to be out of the current replay.
func (t *txn) blocked(e *Entry, skipped map[uint64]bool) (bool, error) {
	_, b, err := t.blocker(e, skipped)
	return b, err
}

// blocker is blocked with the entry e waits behind: the failed or
// conflicting one, or the skipped one.
func (t *txn) blocker(e *Entry, skipped map[uint64]bool) (uint64, bool, error) {
	for _, d := range e.DependsOn {
		if skipped[d] {
			return d, true, nil
		}
		dep, err := t.entry(d)
		if app.KindOf(err) == app.KindNotFound {
			continue // acknowledged
		}
		if err != nil {
			return 0, false, err
		}
		if dep.State == StateFailed || dep.State == StateConflict {
			return d, true, nil
		}
		if by, b, err := t.blocker(dep, skipped); b || err != nil {
			return by, b, err
		}
	}
	return 0, false, nil
}

// dependents are the entries that depend on seq, directly or not, in
// queue order.
func (t *txn) dependents(seq uint64) ([]*Entry, error) {
	all, err := t.allEntries()
	if err != nil {
		return nil, err
	}
	in := map[uint64]bool{seq: true}
	var out []*Entry
	for _, e := range all { // dependencies always have smaller seqs
		for _, d := range e.DependsOn {
			if in[d] {
				in[e.Seq] = true
				out = append(out, e)
				break
			}
		}
	}
	return out, nil
}

// enqueue assigns the entry its seq, key and dependencies and stores it.
func (t *txn) enqueue(e *Entry) error {
	seq, err := t.b(bucketOutbox).NextSequence()
	if err != nil {
		return err
	}
	e.Seq = seq
	if e.State == "" {
		e.State = StatePending
	}
	if e.IdempotencyKey == "" {
		if e.IdempotencyKey, err = newKey(t.s.rand); err != nil {
			return err
		}
	}
	refs, err := referencedIDs(e)
	if err != nil {
		return err
	}
	cr := t.b(bucketCreators)
	for _, id := range refs {
		if v := cr.Get(idKey(id)); v != nil && !slices.Contains(e.DependsOn, keySeq(v)) {
			e.DependsOn = append(e.DependsOn, keySeq(v))
		}
	}
	slices.Sort(e.DependsOn)
	created, err := createdIDs(e)
	if err != nil {
		return err
	}
	for _, id := range created {
		if err := cr.Put(idKey(id), seqKey(seq)); err != nil {
			return err
		}
	}
	return t.putEntry(e)
}

// createdIDs are the temporary IDs an entry brings into being.
func createdIDs(e *Entry) ([]int64, error) {
	var ids []int64
	add := func(id int64) {
		if id < 0 {
			ids = append(ids, id)
		}
	}
	switch e.Kind {
	case EntryContact:
		add(e.ContactID)
	case EntryLocation:
		add(e.LocationID)
	case EntryProposal:
		m, err := e.Decode()
		if err != nil {
			return nil, err
		}
		for _, id := range app.CreatedIDs(m) {
			add(id)
		}
	}
	return ids, nil
}

// referencedIDs are the temporary IDs an entry refers to without
// creating them.
func referencedIDs(e *Entry) ([]int64, error) {
	created, err := createdIDs(e)
	if err != nil {
		return nil, err
	}
	var ids []int64
	add := func(id int64) {
		if id < 0 && !slices.Contains(created, id) && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	switch e.Kind {
	case EntryLocation:
		add(e.ContactID)
	case EntryProposal:
		m, err := e.Decode()
		if err != nil {
			return nil, err
		}
		for _, id := range app.RefIDs(m) {
			add(id)
		}
	}
	return ids, nil
}
