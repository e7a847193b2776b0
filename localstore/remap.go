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

func (t *txn) rebuildAll(ids map[int64]bool) error {
	for id := range ids {
		if err := t.rebuild(id); err != nil {
			return err
		}
	}
	return nil
}

// remap rewrites from → to and returns the proposals whose local views
// must be rebuilt; it rebuilds nothing itself, so that Ack can install
// the new server copy first.
func (t *txn) remap(from, to int64) (map[int64]bool, error) {
	affected := map[int64]bool{}
	if err := t.putAlias(from, to); err != nil {
		return nil, err
	}
	entries, err := t.entriesMentioning(from)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		changed := false
		if e.Kind == EntryProposal {
			raw, ch, err := remapMutation(e.Mutation, from, to)
			if err != nil {
				return nil, fmt.Errorf("outbox entry %d: %w", e.Seq, err)
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
				return nil, err
			}
			e.ProposalID, changed = to, true
		}
		if changed {
			if err := t.putEntry(e); err != nil {
				return nil, err
			}
			if e.ProposalID != 0 {
				affected[e.ProposalID] = true
			}
		}
	}
	if err := t.b(bucketCreators).Delete(idKey(from)); err != nil {
		return nil, err
	}

	// The proposal record, when from names a proposal.
	if rec, ok, err := t.record(from); err != nil {
		return nil, err
	} else if ok {
		if err := t.deleteRecord(from); err != nil {
			return nil, err
		}
		existing, have, err := t.record(to)
		if err != nil {
			return nil, err
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
			return nil, err
		}
		affected[to] = true
	}

	// The caches, when from names a contact or a location.
	d := &Directory{t: t}
	c, ok, err := d.Contact(from)
	if err != nil {
		return nil, err
	}
	if ok {
		if err := t.b(bucketContacts).Delete(idKey(from)); err != nil {
			return nil, err
		}
		c.ID = to
		if err := t.putContact(c); err != nil {
			return nil, err
		}
		locs, err := t.contactLocations(from)
		if err != nil {
			return nil, err
		}
		for _, l := range locs {
			if err := t.deleteLocation(l); err != nil {
				return nil, err
			}
			l.ContactID = to
			if err := t.putLocation(l); err != nil {
				return nil, err
			}
		}
	}
	l, ok, err := d.Location(from)
	if err != nil {
		return nil, err
	}
	if ok {
		if err := t.deleteLocation(l); err != nil {
			return nil, err
		}
		l.ID = to
		if err := t.putLocation(l); err != nil {
			return nil, err
		}
	}

	set, err := t.settings()
	if err != nil {
		return nil, err
	}
	if set.LastOpenProposal == from {
		set.LastOpenProposal = to
		if err := t.putSettings(set); err != nil {
			return nil, err
		}
	}
	return affected, nil
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
