package localstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"proposaldesk/app"
)

// Record is what the store keeps of one proposal.
type Record struct {
	ID int64 `json:"id"`
	// Server is the last copy the server sent; nil for a proposal created
	// offline and not yet acknowledged (or dropped by ResetForNewStore).
	// Since schema 4 it is kept in its own bucket (serverCopies), so an
	// edit, which changes only Local, does not encode it again.
	Server *app.Proposal `json:"server,omitempty"`
	// Local is the view the user sees and edits: Server with the queued
	// entries applied through app.Apply.
	Local *app.Proposal `json:"local"`
	// BaseVersion is the server version Server is at (0 when none).
	BaseVersion int64 `json:"baseVersion"`
	// ReadOnly: the server locked the proposal (accepted, declined,
	// completed) while it had unsent edits; those edits show as failed
	// with kind ProposalLocked.
	ReadOnly bool `json:"readOnly,omitempty"`
	// Conflicts are the fields both the user and the server changed.
	Conflicts []Conflict `json:"conflicts,omitempty"`
	// NeedsServerCopy: ResetForNewStore dropped the server copy; Local
	// stays as it was until a pull brings the proposal again.
	NeedsServerCopy bool `json:"needsServerCopy,omitempty"`
	// LocalIsServer is how the file says Local is Server (no edit
	// waiting: most records), which is then written once (schema 4).
	LocalIsServer bool `json:"localIsServer,omitempty"`
}

// Conflict is one field changed on both sides. Values are display
// strings (JSON for structured values).
type Conflict struct {
	Field  app.Field `json:"field"`
	Base   string    `json:"base"`
	Mine   string    `json:"mine"`
	Theirs string    `json:"theirs"`
}

// record reads a proposal's record. The caller may change the Record's
// fields but not the proposals it points to (they are shared with the
// cache; app.Apply and Clone make new ones).
func (t *txn) record(id int64) (*Record, bool, error) {
	if t.recs != nil {
		if r, staged := t.recs[id]; staged {
			if r == nil {
				return nil, false, nil
			}
			return r.copy(), true, nil
		}
		t.s.mu.RLock()
		r, cached := t.s.recs[id]
		t.s.mu.RUnlock()
		if cached {
			t.servers[id] = r.Server
			return r.copy(), true, nil
		}
	}
	v := t.b(bucketProposals).Get(idKey(id))
	if v == nil {
		return nil, false, nil
	}
	r, err := decodeRecord(v)
	if err != nil {
		return nil, false, fmt.Errorf("proposal %d: %w", id, err)
	}
	var srv app.Proposal
	if ok, err := getJSON(t.b(bucketServerCopies), idKey(id), &srv); err != nil {
		return nil, true, fmt.Errorf("server copy of proposal %d: %w", id, err)
	} else if ok {
		r.Server = &srv
	}
	if r.LocalIsServer {
		r.Local, r.LocalIsServer = r.Server, false
	}
	if t.recs != nil {
		t.recs[id] = r.copy()
		t.servers[id] = r.Server
	}
	return r, true, nil
}

// decodeRecord reads a stored record without its server copy (in its
// own bucket): when LocalIsServer, the caller sets Local to the server
// copy.
func decodeRecord(v []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// copy is a copy of the record that shares its proposals (never changed
// in place) but not its conflict list.
func (r *Record) copy() *Record {
	c := *r
	c.Conflicts = slices.Clone(r.Conflicts)
	return &c
}

func errNoProposal(id int64) error {
	return app.Errorf(app.KindNotFound, "proposal %d is not on this computer", id)
}

// putRecord stores the record and its list row (with the badge counts
// of its entries).
func (t *txn) putRecord(r *Record, entries []*Entry) error {
	return t.putRecordBadges(r, countBadges(entries))
}

func (t *txn) putRecordBadges(r *Record, b Badges) error {
	if err := t.putServerCopy(r.ID, r.Server); err != nil {
		return err
	}
	stored := r
	if r.Local != nil && r.Local == r.Server {
		// Proposals are never changed in place, so the same pointer
		// is the same proposal: the record says so instead of holding
		// it a second time.
		stored = &Record{}
		*stored = *r
		stored.Local, stored.LocalIsServer = nil, true
	}
	data, err := encodeRecord(stored)
	if err != nil {
		return fmt.Errorf("encode proposal %d: %w", r.ID, err)
	}
	if err := t.b(bucketProposals).Put(idKey(r.ID), data); err != nil {
		return err
	}
	if t.recs != nil {
		t.recs[r.ID] = r.copy()
	}
	it := itemOf(r, b)
	if err := putJSON(t.b(bucketList), idKey(r.ID), &it); err != nil {
		return err
	}
	if t.items != nil {
		t.items[r.ID] = &it
	}
	return nil
}

// putServerCopy writes a record's server copy unless it is the one this
// transaction read (proposals are never changed in place, so the same
// pointer is the same copy).
func (t *txn) putServerCopy(id int64, srv *app.Proposal) error {
	if prev, read := t.servers[id]; read && prev == srv {
		return nil
	}
	var err error
	if srv == nil {
		err = t.b(bucketServerCopies).Delete(idKey(id))
	} else {
		data, ok := t.encoded[srv]
		if !ok {
			data, err = srv.AppendJSON(nil)
		}
		if err == nil {
			err = t.b(bucketServerCopies).Put(idKey(id), data)
		}
	}
	if err != nil {
		return fmt.Errorf("server copy of proposal %d: %w", id, err)
	}
	t.servers[id] = srv
	return nil
}

// encodeRecord is the record's JSON without its server copy (in its own
// bucket), the same bytes json.Marshal writes; the local view goes
// through app's faster encoder (an edit encodes it every time).
func encodeRecord(r *Record) ([]byte, error) {
	rest := *r
	rest.Server, rest.Local = nil, nil
	head, err := json.Marshal(&rest)
	if err != nil {
		return nil, err
	}
	if r.Local == nil {
		return head, nil
	}
	// "id" is a number, so the first "local":null is the field.
	i := bytes.Index(head, localNull)
	if i < 0 {
		panic("bug: record JSON has no local field")
	}
	out, err := r.Local.AppendJSON(append([]byte(nil), head[:i+len(localNull)-len("null")]...))
	if err != nil {
		return nil, err
	}
	return append(out, head[i+len(localNull):]...), nil
}

var localNull = []byte(`"local":null`)

func (t *txn) deleteRecord(id int64) error {
	if err := t.b(bucketProposals).Delete(idKey(id)); err != nil {
		return err
	}
	if err := t.putServerCopy(id, nil); err != nil {
		return err
	}
	if t.recs != nil {
		t.recs[id] = nil
	}
	if err := t.b(bucketList).Delete(idKey(id)); err != nil {
		return err
	}
	if t.items != nil {
		t.items[id] = nil
	}
	return nil
}

// env is the rule engine's environment for an edit made at now by
// actor: the cached account and directory, and temporary IDs.
func (t *txn) env(now time.Time, actor app.User) (app.Env, error) {
	acct, err := t.account()
	if err != nil {
		return app.Env{}, err
	}
	return app.Env{
		Now: now, Actor: actor, Account: acct.App(), Directory: &Directory{t: t}, Catalog: txCatalog{t},
		NewID: func() int64 {
			id, err := t.nextTempID()
			if err != nil {
				panic("bug: temporary ID sequence: " + err.Error())
			}
			return id
		},
	}, nil
}

// nextTempID allocates a temporary (negative) ID, unique in this file
// across proposals, areas, options, contacts and locations.
func (t *txn) nextTempID() (int64, error) {
	n, err := t.b(bucketMeta).NextSequence()
	if err != nil {
		return 0, err
	}
	return -int64(n), nil
}

// rebuild recomputes a proposal's local view: the server copy with its
// queued entries replayed through app.Apply in order (a server-
// authoritative rebase). Failed and conflicting entries, and those
// blocked behind them, are left out; an entry that no longer applies is
// marked failed with the rule's error. It then stores the record and
// its list row.
func (t *txn) rebuild(pid int64) error {
	rec, ok, err := t.record(pid)
	if err != nil || !ok {
		return err
	}
	return t.rebuildRecord(pid, rec)
}

// rebuildRecord is rebuild of rec, the proposal's record as the caller
// has just changed it (not stored yet).
func (t *txn) rebuildRecord(pid int64, rec *Record) error {
	entries, err := t.proposalEntries(pid)
	if err != nil {
		return err
	}
	if rec.Server == nil && rec.NeedsServerCopy {
		// The server copy was dropped (a new server store): keep the
		// local view as it is until the next pull brings a copy.
		return t.putRecord(rec, entries)
	}
	var r replay
	r.from(rec.Server)
	skipped, settled := map[uint64]bool{}, map[uint64]bool{}
	// lost: the parts of a copy not sent yet that its source no longer
	// has; edits of them are refused in the words Ack uses.
	lost := map[int64]bool{}
	for _, e := range entries {
		if e.State == StateFailed || e.State == StateConflict {
			skipped[e.Seq] = true
			continue
		}
		if b, err := t.blocked(e, skipped); err != nil {
			return err
		} else if b {
			skipped[e.Seq] = true
			continue
		}
		m, err := e.Decode()
		if err != nil {
			return fmt.Errorf("outbox entry %d: %w", e.Seq, err)
		}
		env, err := t.env(e.Created, e.Actor)
		if err != nil {
			return err
		}
		fromSource := r.view == nil && m.ProposalID() != 0 && m.ProposalID() != pid
		if fromSource {
			// A proposal made from another (a copy): replay it on the
			// source as it was copied.
			if src, ok, err := t.record(m.ProposalID()); err != nil {
				return err
			} else if ok {
				view, err := t.sourceAsOf(src, e.Seq)
				if err != nil {
					return err
				}
				r.from(view)
			}
		}
		aerr, err := r.apply(m, env)
		if err != nil {
			return err
		}
		if aerr == nil && fromSource {
			for _, id := range app.CreatedIDs(m) {
				if !hasPart(r.view, id) {
					lost[id] = true
				}
			}
		}
		if aerr != nil && app.SettledBy(m, e.Effect, r.view) {
			// The server copy already has what the edit did (another
			// laptop made the same move): it is done, not refused.
			if err := t.deleteEntry(e); err != nil {
				return err
			}
			settled[e.Seq] = true
			continue
		}
		if aerr != nil {
			if app.KindOf(aerr) == app.KindNotFound && len(lost) > 0 {
				if refs, err := referencedIDs(e); err == nil && slices.ContainsFunc(refs, func(id int64) bool { return lost[id] }) {
					aerr = errOrphan()
				}
			}
			markFailed(e, aerr)
			skipped[e.Seq] = true
			if err := t.putEntry(e); err != nil {
				return err
			}
			continue
		}
		if rec.Server != nil && e.BaseVersion != rec.BaseVersion {
			e.BaseVersion = rec.BaseVersion
			if err := t.putEntry(e); err != nil {
				return err
			}
		}
	}
	if len(settled) > 0 {
		entries = slices.DeleteFunc(entries, func(e *Entry) bool { return settled[e.Seq] })
	}
	if r.view == nil {
		if len(entries) == 0 {
			return t.deleteRecord(pid) // an offline create, discarded
		}
		// The create itself failed: keep the last view so the user sees
		// what failed until they discard it.
		return t.putRecord(rec, entries)
	}
	rec.Local = r.view
	rec.Conflicts = liveConflicts(rec.Conflicts, entries)
	return t.putRecord(rec, entries)
}

// hasPart reports whether p is, or has an area, option or item, id.
func hasPart(p *app.Proposal, id int64) bool {
	_, _, item := p.Item(id)
	_, option := p.Option(id)
	_, area := p.Area(id)
	return p.ID == id || item || option || area
}

// sourceAsOf is the source of a copy as the copy (entry seq) was made:
// its server copy with its queued edits made before the copy, not its
// local view, which has those made since: an item removed from the
// source after it was copied is still in the copy, and the edits of it
// there apply. A source that has no server copy (made offline too)
// gives its local view.
func (t *txn) sourceAsOf(src *Record, seq uint64) (*app.Proposal, error) {
	if src.Server == nil {
		return src.Local, nil
	}
	entries, err := t.proposalEntries(src.ID)
	if err != nil {
		return nil, err
	}
	view, skipped := src.Server, map[uint64]bool{}
	for _, e := range entries {
		if e.Seq >= seq {
			break
		}
		if e.State == StateFailed || e.State == StateConflict {
			skipped[e.Seq] = true
			continue
		}
		if b, err := t.blocked(e, skipped); err != nil {
			return nil, err
		} else if b {
			skipped[e.Seq] = true
			continue
		}
		m, err := e.Decode()
		if err != nil {
			return nil, fmt.Errorf("outbox entry %d: %w", e.Seq, err)
		}
		env, err := t.env(e.Created, e.Actor)
		if err != nil {
			return nil, err
		}
		// One that no longer applies is left out here; the source's own
		// rebuild marks it failed.
		if next, err := app.Apply(view, m, env); err == nil {
			view = next
		}
	}
	return view, nil
}

func markFailed(e *Entry, err error) {
	e.State = StateFailed
	e.ErrorKind = app.KindOf(err)
	e.ErrorMessage = err.Error()
	var ae *app.Error
	if errors.As(err, &ae) {
		e.ErrorMessage = ae.Message
	}
}

// liveConflicts keeps the conflicts some entry in conflict still has.
func liveConflicts(cs []Conflict, entries []*Entry) []Conflict {
	var out []Conflict
	for _, c := range cs {
		for _, e := range entries {
			if e.State == StateConflict && touches(e, c.Field) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// Record returns what the store holds of a proposal: from the cache of
// decoded records when it is there (the screen reads the proposal after
// each edit; decoding a 500-item record took most of a save), else from
// the file, cached unless a write committed meanwhile. The proposals it
// points to are shared with the cache: read them, never change them in
// place (app.Apply and Clone make new ones).
func (s *Store) Record(id int64) (*Record, error) {
	id = s.Resolve(id)
	s.mu.RLock()
	cached, ok := s.recs[id]
	gen := s.recGen
	s.mu.RUnlock()
	if ok {
		return cached.copy(), nil
	}
	var rec *Record
	err := s.view(func(t *txn) error {
		r, ok, err := t.record(id)
		if err != nil {
			return err
		}
		if !ok {
			return errNoProposal(id)
		}
		rec = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	if s.afterRead != nil {
		s.afterRead()
	}
	s.mu.Lock()
	if s.recGen == gen {
		s.cacheRecord(id, rec.copy())
	}
	s.mu.Unlock()
	return rec, nil
}

// Proposal is the local view of a proposal: what the user sees.
func (s *Store) Proposal(id int64) (*app.Proposal, error) {
	r, err := s.Record(id)
	if err != nil {
		return nil, err
	}
	return r.Local, nil
}
