package localstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"proposaldesk/app"
)

// Ack settles a proposal entry the server accepted: serverCopy is the
// proposal as the server returned it. In one transaction the entry is
// removed, the temporary IDs it created are replaced by the server's
// (worked out from serverCopy; returned as temp → real), the server copy
// is installed, and the proposal's remaining entries are replayed on top
// of it; one that no longer applies is marked failed with its error.
//
// Acknowledge entries of one proposal in order, one at a time.
func (s *Store) Ack(ctx context.Context, seq uint64, serverCopy *app.Proposal) (map[int64]int64, error) {
	if serverCopy == nil {
		return nil, fmt.Errorf("localstore: Ack %d without a server copy", seq)
	}
	var remaps map[int64]int64
	err := s.update(ctx, func(t *txn) error {
		e, err := t.entry(seq)
		if err != nil {
			return err
		}
		m, err := e.Decode()
		if err != nil {
			return err
		}
		var old *app.Proposal
		if rec, ok, err := t.record(e.ProposalID); err != nil {
			return err
		} else if ok {
			old = rec.Server
		}
		remaps = app.FoundIDs(m, old, serverCopy)
		if serverCopy.CopiedFrom != nil {
			// Read; never kept (the copy is stored and cached as is).
			serverCopy = serverCopy.Clone()
		}
		if err := t.deleteEntry(e); err != nil {
			return err
		}
		if err := t.failOrphans(m, remaps); err != nil {
			return err
		}
		affected := map[int64]bool{}
		for from, to := range remaps {
			ids, err := t.remap(from, to)
			if err != nil {
				return err
			}
			for id := range ids {
				affected[id] = true
			}
		}
		pid := e.ProposalID
		if to, ok := remaps[pid]; ok {
			pid = to
		}
		if serverCopy.ID != pid {
			return fmt.Errorf("localstore: Ack of entry %d (proposal %d) with a copy of proposal %d", seq, pid, serverCopy.ID)
		}
		rec, ok, err := t.record(pid)
		if err != nil {
			return err
		}
		if !ok {
			rec = &Record{ID: pid}
		}
		rec.Server, rec.BaseVersion, rec.NeedsServerCopy = serverCopy, serverCopy.Version, false
		if !serverCopy.Status.Locked() {
			rec.ReadOnly = false
		}
		if err := t.putRecord(rec, nil); err != nil {
			return err
		}
		affected[pid] = true
		return t.rebuildAll(affected)
	})
	return remaps, err
}

// failOrphans marks failed, in words, the queued edits of what an
// acknowledged edit created here but the server did not: a copy made
// offline of an item that the server's source had lost by the time the
// copy reached it. Without this they would wait for an ID that never
// comes.
//
// A copy of the copy, made here too, has no copy of such an item either:
// the queued edits of its part made from it are failed alike.
func (t *txn) failOrphans(m app.Mutation, found map[int64]int64) error {
	var orphans []int64
	for _, id := range app.CreatedIDs(m) {
		if _, ok := found[id]; !ok && app.IsTemporaryID(id) {
			orphans = append(orphans, id)
		}
	}
	for len(orphans) > 0 {
		id := orphans[0]
		orphans = orphans[1:]
		entries, err := t.entriesMentioning(id)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if next, err := e.Decode(); err == nil {
				if part, ok := app.CopiedPart(next, id); ok {
					orphans = append(orphans, part)
				}
			}
			refs, err := referencedIDs(e)
			if err != nil {
				return err
			}
			if !slices.Contains(refs, id) || (e.State != StatePending && e.State != StateSent) {
				continue
			}
			markFailed(e, errOrphan())
			if err := t.putEntry(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// errOrphan is the refusal of an edit of a copied part that the copy
// does not have: its source lost it first.
func errOrphan() error {
	return app.Errorf(app.KindNotFound,
		"What this change was made on was removed on the server before the copy reached it, so the server's copy does not have it.")
}

// AckContact settles a contact create: c is the contact the server made.
// The temporary ID is replaced everywhere and the cache holds c.
func (s *Store) AckContact(ctx context.Context, seq uint64, c app.Contact) error {
	return s.update(ctx, func(t *txn) error {
		e, err := t.entry(seq)
		if err != nil {
			return err
		}
		if e.Kind != EntryContact {
			return fmt.Errorf("localstore: outbox entry %d is a %s entry, not a contact", seq, e.Kind)
		}
		if err := t.deleteEntry(e); err != nil {
			return err
		}
		affected, err := t.remap(e.ContactID, c.ID)
		if err != nil {
			return err
		}
		if err := t.putContact(c); err != nil {
			return err
		}
		return t.rebuildAll(affected)
	})
}

// AckLocation settles a location create: l is the location the server
// made.
func (s *Store) AckLocation(ctx context.Context, seq uint64, l app.ContactLocation) error {
	return s.update(ctx, func(t *txn) error {
		e, err := t.entry(seq)
		if err != nil {
			return err
		}
		if e.Kind != EntryLocation {
			return fmt.Errorf("localstore: outbox entry %d is a %s entry, not a location", seq, e.Kind)
		}
		if err := t.deleteEntry(e); err != nil {
			return err
		}
		affected, err := t.remap(e.LocationID, l.ID)
		if err != nil {
			return err
		}
		if err := t.putLocation(l); err != nil {
			return err
		}
		return t.rebuildAll(affected)
	})
}

// PullTx is one pull's writes: the data and the cursor that follows it
// commit together or not at all.
type PullTx struct{ t *txn }

// ApplyPull runs fn in one write transaction. Nothing fn wrote is kept
// if it returns an error.
func (s *Store) ApplyPull(ctx context.Context, fn func(tx *PullTx) error) error {
	return s.update(ctx, func(t *txn) error { return fn(&PullTx{t: t}) })
}

// PutServerCopy is ApplyPull with one PutServerCopy.
func (s *Store) PutServerCopy(ctx context.Context, p *app.Proposal) error {
	return s.ApplyPull(ctx, func(tx *PullTx) error { return tx.PutServerCopy(p) })
}

// PutServerCopy installs a pulled proposal. Without queued edits it
// becomes the local view as is. With queued edits: fields the server
// changed that the user also changed differently become conflicts (the
// entries writing them are set aside in StateConflict); the rest are
// replayed on top. If the server has locked the proposal, the record is
// marked read-only and the edits that no longer apply show as failed
// with ProposalLocked. A copy older than the one held is ignored.
func (p *PullTx) PutServerCopy(sp *app.Proposal) error {
	t := p.t
	rec, ok, err := t.record(sp.ID)
	if err != nil {
		return err
	}
	if !ok {
		rec = &Record{ID: sp.ID}
	}
	if rec.Server != nil && sp.Version < rec.Server.Version {
		return nil
	}
	entries, err := t.proposalEntries(sp.ID)
	if err != nil {
		return err
	}
	live := 0
	for _, e := range entries {
		if e.State == StatePending || e.State == StateSent {
			live++
		}
	}
	if live > 0 && rec.Server != nil {
		conflicts := FieldConflicts(rec.Server, rec.Local, sp)
		for _, c := range conflicts {
			for _, e := range entries {
				if (e.State == StatePending || e.State == StateSent) && touches(e, c.Field) {
					e.State = StateConflict
					if err := t.putEntry(e); err != nil {
						return err
					}
				}
			}
		}
		rec.Conflicts = mergeConflicts(rec.Conflicts, conflicts)
	}
	rec.Server, rec.BaseVersion, rec.NeedsServerCopy = sp, sp.Version, false
	switch {
	case !sp.Status.Locked():
		rec.ReadOnly = false
	case live > 0:
		rec.ReadOnly = true
	}
	// Stored once, by the rebuild (a record is a large JSON document).
	return t.rebuildRecord(sp.ID, rec)
}

// PutServerCopyJSON is PutServerCopy of sp given as raw, the JSON a
// pull received: raw is stored as it is instead of encoding sp again
// (most of a pulled proposal's write). raw must decode to exactly sp;
// the caller checks that (syncer keeps only what it decoded unchanged).
func (p *PullTx) PutServerCopyJSON(sp *app.Proposal, raw []byte) error {
	if p.t.encoded == nil {
		p.t.encoded = map[*app.Proposal][]byte{}
	}
	p.t.encoded[sp] = raw
	return p.PutServerCopy(sp)
}

func mergeConflicts(old, fresh []Conflict) []Conflict {
	out := append([]Conflict(nil), fresh...)
	for _, c := range old {
		dup := false
		for _, f := range fresh {
			dup = dup || f.Field == c.Field
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

// RemoveProposal forgets a proposal the server no longer shows this
// user. One with queued entries is kept until they are settled.
func (p *PullTx) RemoveProposal(id int64) error {
	entries, err := p.t.proposalEntries(id)
	if err != nil || len(entries) > 0 {
		return err
	}
	return p.t.deleteRecord(id)
}

// PutAccount replaces the cached account information.
func (p *PullTx) PutAccount(a AccountInfo) error { return p.t.putAccount(a) }

// PutUsers replaces the cached users.
func (p *PullTx) PutUsers(users []app.User) error {
	if err := replaceAll(p.t.tx, bucketUsers); err != nil {
		return err
	}
	for _, u := range users {
		if err := putJSON(p.t.b(bucketUsers), idKey(u.ID), u); err != nil {
			return err
		}
	}
	return nil
}

// PutContact caches a contact from the server.
func (p *PullTx) PutContact(c app.Contact) error { return p.t.putContact(c) }

// PutLocations replaces a contact's cached locations with the server's,
// keeping the ones made offline and not yet sent.
func (p *PullTx) PutLocations(contactID int64, locs []app.ContactLocation) error {
	old, err := p.t.contactLocations(contactID)
	if err != nil {
		return err
	}
	for _, l := range old {
		if l.ID <= 0 {
			continue
		}
		// A location that moved to another contact, stored already,
		// keeps its record: only this contact's link goes.
		if l.ContactID != contactID {
			if err := p.t.b(bucketContactLocations).Delete(pairKey(contactID, uint64(l.ID))); err != nil {
				return err
			}
			continue
		}
		if err := p.t.deleteLocation(l); err != nil {
			return err
		}
	}
	for _, l := range locs {
		l.ContactID = contactID
		if err := p.t.putLocation(l); err != nil {
			return err
		}
	}
	return nil
}

// Cursor is the changes-feed position as of this transaction.
func (p *PullTx) Cursor() (storeID, cursor string) { return p.t.cursor() }

// SetCursor moves the changes-feed position; it commits with the data.
func (p *PullTx) SetCursor(storeID, cursor string) error {
	m := p.t.b(bucketMeta)
	if err := m.Put(keyStoreID, []byte(storeID)); err != nil {
		return err
	}
	return m.Put(keyCursor, []byte(cursor))
}

// SetLastSync records a successful sync.
func (p *PullTx) SetLastSync(at time.Time) error { return p.t.setLastSync(at) }

func (t *txn) setLastSync(at time.Time) error {
	v, err := at.UTC().MarshalText()
	if err != nil {
		return err
	}
	return t.b(bucketMeta).Put(keyLastSync, v)
}

func (t *txn) cursor() (string, string) {
	m := t.b(bucketMeta)
	return string(m.Get(keyStoreID)), string(m.Get(keyCursor))
}

// Cursor is the server store ID and changes-feed cursor of the last
// pull ("" and "" before the first).
func (s *Store) Cursor() (storeID, cursor string, err error) {
	err = s.view(func(t *txn) error { storeID, cursor = t.cursor(); return nil })
	return
}

// MarkSynced records a successful sync at the given time.
func (s *Store) MarkSynced(ctx context.Context, at time.Time) error {
	return s.update(ctx, func(t *txn) error { return t.setLastSync(at) })
}

// ResetForNewStore handles a server whose data was replaced (a new
// storeId): every server copy is dropped and the cursor starts over,
// but the outbox is kept. Proposals with queued entries keep their local
// view (NeedsServerCopy) until the next pull brings them; the others
// are forgotten and downloaded again.
func (s *Store) ResetForNewStore(ctx context.Context, storeID string) error {
	return s.update(ctx, func(t *txn) error {
		var ids []int64
		if err := t.b(bucketProposals).ForEach(func(k, _ []byte) error {
			ids = append(ids, keyID(k))
			return nil
		}); err != nil {
			return err
		}
		for _, id := range ids {
			entries, err := t.proposalEntries(id)
			if err != nil {
				return err
			}
			if len(entries) == 0 {
				if err := t.deleteRecord(id); err != nil {
					return err
				}
				continue
			}
			rec, _, err := t.record(id)
			if err != nil {
				return err
			}
			if rec.Server != nil || id > 0 {
				rec.Server, rec.BaseVersion, rec.NeedsServerCopy = nil, 0, true
				rec.Conflicts = nil
			}
			for _, e := range entries {
				if e.BaseVersion != 0 {
					e.BaseVersion = 0
					if err := t.putEntry(e); err != nil {
						return err
					}
				}
			}
			if err := t.putRecord(rec, entries); err != nil {
				return err
			}
		}
		return (&PullTx{t: t}).SetCursor(storeID, "")
	})
}
