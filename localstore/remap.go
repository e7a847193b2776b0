package localstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"

	"proposaldesk/app"
)

// RemapID replaces a temporary ID with the real one the server gave,
// everywhere it is stored, in one transaction: outbox entries (the
// mutation's ID fields, the entry's proposal, contact and location IDs),
// the proposal's record and list row (rekeyed), the contact and
// location caches, the creators index and the last-open setting. Local
// views that referred to it are rebuilt. Temporary IDs are unique across
// kinds, so the ID alone says what it names.
func (s *Store) RemapID(ctx context.Context, tempID, realID int64) error {
	if tempID >= 0 || realID <= 0 {
		return fmt.Errorf("localstore: remap %d → %d: want a temporary (negative) ID and a real one", tempID, realID)
	}
	return s.update(ctx, func(t *txn) error {
		affected, err := t.remap(tempID, realID)
		if err != nil {
			return err
		}
		return t.rebuildAll(affected)
	})
}

// rebuildAll rebuilds the local views of ids, each copy made here after
// its source: an unsent copy is replayed on its source's local view,
// which must already hold the IDs the same remap gave (the copy's
// SourceIDs were rewritten to them).
func (t *txn) rebuildAll(ids map[int64]bool) error {
	done := map[int64]bool{}
	var visit func(id int64) error
	visit = func(id int64) error {
		if done[id] {
			return nil
		}
		done[id] = true
		src, err := t.copySource(id)
		if err != nil {
			return err
		}
		if src != 0 && ids[src] {
			if err := visit(src); err != nil {
				return err
			}
		}
		return t.rebuild(id)
	}
	for id := range ids {
		if err := visit(id); err != nil {
			return err
		}
	}
	return nil
}

// copySource is the proposal an unsent copy id was made from, or 0 when
// id is not such a copy (it has a server copy, or its first queued edit
// is its own).
func (t *txn) copySource(id int64) (int64, error) {
	rec, ok, err := t.record(id)
	if err != nil || !ok || rec.Server != nil {
		return 0, err
	}
	entries, err := t.proposalEntries(id)
	if err != nil || len(entries) == 0 {
		return 0, err
	}
	m, err := entries[0].Decode()
	if err != nil {
		return 0, nil // unreadable: shown as unsendable, replays nothing
	}
	if src := m.ProposalID(); src != 0 && src != id {
		return src, nil
	}
	return 0, nil
}

// remap rewrites from → to and returns the proposals whose local views
// must be rebuilt; it rebuilds nothing itself, so that Ack can install
// the new server copy first.
func (t *txn) remap(from, to int64) (map[int64]bool, error) {
	affected := map[int64]bool{}
	if err := t.putAlias(from, to); err != nil {
		return nil, err
	}
	if err := t.remapEntries(from, to, affected); err != nil {
		return nil, err
	}
	if err := t.b(bucketCreators).Delete(idKey(from)); err != nil {
		return nil, err
	}
	if err := t.remapRecord(from, to, affected); err != nil {
		return nil, err
	}
	if err := t.remapPeople(from, to); err != nil {
		return nil, err
	}
	if err := t.remapSettings(from, to); err != nil {
		return nil, err
	}
	if err := t.remapAcceptance(from, to); err != nil {
		return nil, err
	}
	return affected, nil
}

// remapEntries rewrites from → to in the outbox entries that mention it,
// noting in affected the proposals of the entries it changed.
func (t *txn) remapEntries(from, to int64, affected map[int64]bool) error {
	entries, err := t.entriesMentioning(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		changed, err := t.remapEntry(e, from, to)
		if err != nil {
			return err
		}
		if !changed {
			continue
		}
		if err := t.putEntry(e); err != nil {
			return err
		}
		if e.ProposalID != 0 {
			affected[e.ProposalID] = true
		}
	}
	return nil
}

// remapEntry rewrites from → to in one entry (in place) and says whether
// it changed; an entry it cannot read is marked unsendable instead.
func (t *txn) remapEntry(e *Entry, from, to int64) (changed bool, err error) {
	if e.Kind == EntryProposal {
		raw, ch, err := remapMutation(e.Mutation, from, to)
		if err != nil {
			// An entry that cannot be read (its text only happens to
			// contain the ID's digits, in a date say) must not fail the
			// acknowledgement of another: it is shown as unsendable and
			// left for the user to discard.
			if !e.Unsendable {
				markUnsendable(e, ReasonUnreadable)
				return false, t.putEntry(e)
			}
			return false, nil
		}
		if ch {
			e.Mutation, changed = raw, true
		}
		if eff := app.RemapEffect(e.Effect, from, to); !maps.Equal(eff, e.Effect) {
			e.Effect, changed = eff, true
		}
	}
	if e.ContactID == from {
		e.ContactID, changed = to, true
	}
	if e.LocationID == from {
		e.LocationID, changed = to, true
	}
	if e.ProposalID == from {
		if err := t.b(bucketOutboxByProposal).Delete(pairKey(from, e.Seq)); err != nil {
			return false, err
		}
		e.ProposalID, changed = to, true
	}
	return changed, nil
}

// remapRecord moves the proposal record, when from names a proposal, to
// to, keeping the server copy of a record already pulled under to.
func (t *txn) remapRecord(from, to int64, affected map[int64]bool) error {
	rec, ok, err := t.record(from)
	if err != nil || !ok {
		return err
	}
	if err := t.deleteRecord(from); err != nil {
		return err
	}
	existing, have, err := t.record(to)
	if err != nil {
		return err
	}
	if have { // pulled already: keep its server copy
		rec.Server, rec.BaseVersion = existing.Server, existing.BaseVersion
	}
	rec.ID = to
	if rec.Local != nil {
		rec.Local = rec.Local.Clone()
		rec.Local.ID = to
	}
	if err := t.putRecord(rec, nil); err != nil {
		return err
	}
	affected[to] = true
	return nil
}

// remapPeople moves the cached contact (with its locations) or location
// from names to to.
func (t *txn) remapPeople(from, to int64) error {
	d := &Directory{t: t}
	c, ok, err := d.Contact(from)
	if err != nil {
		return err
	}
	if ok {
		if err := t.remapContact(c, to); err != nil {
			return err
		}
	}
	l, ok, err := d.Location(from)
	if err != nil || !ok {
		return err
	}
	if err := t.deleteLocation(l); err != nil {
		return err
	}
	l.ID = to
	return t.putLocation(l)
}

// remapContact stores the cached contact c under to, its locations with
// it.
func (t *txn) remapContact(c app.Contact, to int64) error {
	from := c.ID
	if err := t.b(bucketContacts).Delete(idKey(from)); err != nil {
		return err
	}
	c.ID = to
	if err := t.putContact(c); err != nil {
		return err
	}
	locs, err := t.contactLocations(from)
	if err != nil {
		return err
	}
	for _, l := range locs {
		if err := t.deleteLocation(l); err != nil {
			return err
		}
		l.ContactID = to
		if err := t.putLocation(l); err != nil {
			return err
		}
	}
	return nil
}

// remapSettings follows from → to in the settings (the proposal last
// open).
func (t *txn) remapSettings(from, to int64) error {
	set, err := t.settings()
	if err != nil {
		return err
	}
	if set.LastOpenProposal != from {
		return nil
	}
	set.LastOpenProposal = to
	return t.putSettings(set)
}

// remapMutation rewrites every ID of an encoded mutation equal to from
// (referred to or created) to to.
func remapMutation(raw []byte, from, to int64) ([]byte, bool, error) {
	m, err := app.DecodeMutation(raw)
	if err != nil {
		return nil, false, err
	}
	if !app.RemapID(m, from, to) {
		return raw, false, nil
	}
	out, err := app.EncodeMutation(m)
	return out, true, err
}

// entriesMentioning are the outbox entries whose stored form contains id
// written in decimal: every entry that refers to it, and perhaps a few
// more (-12 is inside -123). Only those are decoded, so acknowledging a
// create does not decode the whole outbox.
func (t *txn) entriesMentioning(id int64) ([]*Entry, error) {
	needle := []byte(strconv.FormatInt(id, 10))
	var out []*Entry
	err := t.b(bucketOutbox).ForEach(func(k, v []byte) error {
		if !bytes.Contains(v, needle) {
			return nil
		}
		var e Entry
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("outbox entry %d: %w", keySeq(k), err)
		}
		out = append(out, &e)
		return nil
	})
	return out, err
}
