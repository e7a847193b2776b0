package localstore

import (
	"context"
	"fmt"
	"time"

	"proposaldesk/app"
)

// Entries are every queued entry in order, with Blocked filled in (for
// the outbox screen).
func (s *Store) Entries() ([]Entry, error) { return s.entries(func(*Entry) bool { return true }, 0) }

// Pending are the entries to send, in order: pending and sent (in
// flight, to be resent with the same key) ones, at most limit (all when
// limit ≤ 0). Blocked entries are included with Blocked set; the engine
// skips them.
func (s *Store) Pending(limit int) ([]Entry, error) {
	return s.entries(func(e *Entry) bool { return e.State == StatePending || e.State == StateSent }, limit)
}

func (s *Store) entries(keep func(*Entry) bool, limit int) ([]Entry, error) {
	var out []Entry
	err := s.view(func(t *txn) error {
		all, err := t.allEntries()
		if err != nil {
			return err
		}
		for _, e := range all {
			if !keep(e) {
				continue
			}
			if e.BlockedBy, e.Blocked, err = t.blocker(e, nil); err != nil {
				return err
			}
			out = append(out, *e)
			if limit > 0 && len(out) == limit {
				break
			}
		}
		return nil
	})
	return out, err
}

// Entry is one queued entry, with Blocked filled in.
func (s *Store) Entry(seq uint64) (Entry, error) {
	var out Entry
	err := s.view(func(t *txn) error {
		e, err := t.entry(seq)
		if err != nil {
			return err
		}
		if e.BlockedBy, e.Blocked, err = t.blocker(e, nil); err != nil {
			return err
		}
		out = *e
		return nil
	})
	return out, err
}

// Blocked reports whether an entry waits behind one that failed or is
// in conflict.
func (s *Store) Blocked(seq uint64) (bool, error) {
	e, err := s.Entry(seq)
	return e.Blocked, err
}

// MarkSent records that the entry is about to go out (call it before
// sending): from now on it may have reached the server. Attempts counts
// these.
func (s *Store) MarkSent(ctx context.Context, seq uint64) error {
	return s.update(ctx, func(t *txn) error {
		e, err := t.entry(seq)
		if err != nil {
			return err
		}
		if e.State != StatePending && e.State != StateSent {
			return fmt.Errorf("localstore: outbox entry %d is %s and cannot be sent", seq, e.State)
		}
		e.State = StateSent
		e.Attempts++
		return t.putEntry(e)
	})
}

// Fail records the server's refusal of an entry (its error kind and
// message). The edit leaves the local view, and so do the entries that
// depend on it, which stay pending but blocked until it is retried or
// discarded.
func (s *Store) Fail(ctx context.Context, seq uint64, kind app.Kind, message string) error {
	return s.fail(ctx, seq, kind, message, false)
}

// FailUnsendable marks an entry that cannot be sent (CannotSend) as
// failed with reason, words for the user, as Fail does: it waits in
// Review to be discarded, and so do the entries depending on it.
func (s *Store) FailUnsendable(ctx context.Context, seq uint64, reason string) error {
	return s.fail(ctx, seq, app.KindValidationFailed, reason, true)
}

func (s *Store) fail(ctx context.Context, seq uint64, kind app.Kind, message string, unsendable bool) error {
	return s.update(ctx, func(t *txn) error {
		e, err := t.entry(seq)
		if err != nil {
			return err
		}
		e.State, e.ErrorKind, e.ErrorMessage, e.Unsendable = StateFailed, kind, message, unsendable
		if err := t.putEntry(e); err != nil {
			return err
		}
		return t.rebuildAround(e)
	})
}

// Retry puts a failed entry back in the queue (the user fixed the cause,
// e.g. a permission); its replay decides whether it still applies.
func (s *Store) Retry(ctx context.Context, seq uint64) error {
	return s.update(ctx, func(t *txn) error {
		e, err := t.entry(seq)
		if err != nil {
			return err
		}
		if e.State != StateFailed {
			return fmt.Errorf("localstore: outbox entry %d is %s, not failed", seq, e.State)
		}
		e.State, e.ErrorKind, e.ErrorMessage, e.Unsendable = StatePending, "", "", false
		if err := t.putEntry(e); err != nil {
			return err
		}
		return t.rebuildAround(e)
	})
}

// rebuildAround rebuilds the local views of e's proposal and of every
// proposal with an entry depending on e.
func (t *txn) rebuildAround(e *Entry) error {
	deps, err := t.dependents(e.Seq)
	if err != nil {
		return err
	}
	ids := map[int64]bool{}
	for _, x := range append(deps, e) {
		if x.indexed() {
			ids[x.ProposalID] = true
		}
	}
	return t.rebuildAll(ids)
}

// Discard drops an entry and every entry depending on it, and rebuilds
// the local views from the server copies and what remains. A discarded
// offline create takes its temporary contact, location or proposal with
// it.
func (s *Store) Discard(ctx context.Context, seq uint64) error {
	return s.update(ctx, func(t *txn) error {
		e, err := t.entry(seq)
		if err != nil {
			return err
		}
		deps, err := t.dependents(seq)
		if err != nil {
			return err
		}
		ids := map[int64]bool{}
		for _, x := range append([]*Entry{e}, deps...) {
			if err := t.deleteEntry(x); err != nil {
				return err
			}
			if x.indexed() {
				// Proposal 0 too: the phantom record an edit naming
				// it made goes with its last entry.
				ids[x.ProposalID] = true
			}
			if err := t.dropOffline(x); err != nil {
				return err
			}
		}
		return t.rebuildAll(ids)
	})
}

// dropOffline removes the cached contact or location an offline create
// made.
func (t *txn) dropOffline(e *Entry) error {
	d := &Directory{t: t}
	switch {
	case e.Kind == EntryContact && e.ContactID < 0:
		locs, err := t.contactLocations(e.ContactID)
		if err != nil {
			return err
		}
		for _, l := range locs {
			if err := t.deleteLocation(l); err != nil {
				return err
			}
		}
		return t.b(bucketContacts).Delete(idKey(e.ContactID))
	case e.Kind == EntryLocation && e.LocationID < 0:
		l, ok, err := d.Location(e.LocationID)
		if err != nil || !ok {
			return err
		}
		return t.deleteLocation(l)
	}
	return nil
}

// ResolveConflict settles an entry in conflict: keepMine sends it again
// on top of the server's current copy; otherwise it is discarded (with
// its dependents) and the server's value stands.
func (s *Store) ResolveConflict(ctx context.Context, seq uint64, keepMine bool) error {
	if !keepMine {
		return s.Discard(ctx, seq)
	}
	return s.update(ctx, func(t *txn) error {
		e, err := t.entry(seq)
		if err != nil {
			return err
		}
		if e.State != StateConflict {
			return fmt.Errorf("localstore: outbox entry %d is %s, not in conflict", seq, e.State)
		}
		e.State = StatePending
		if err := t.putEntry(e); err != nil {
			return err
		}
		return t.rebuildAround(e)
	})
}

// Counts are the numbers the UI's sync indicator shows.
type Counts struct {
	Pending   int // pending or in flight (blocked included)
	Blocked   int // of those, waiting behind a failure or conflict
	Failed    int
	Conflicts int
	// LastSync is the last successful sync (zero: never).
	LastSync time.Time
}

// Counts counts the outbox by state.
func (s *Store) Counts() (Counts, error) {
	var c Counts
	err := s.view(func(t *txn) error {
		all, err := t.allEntries()
		if err != nil {
			return err
		}
		for _, e := range all {
			switch e.State {
			case StateFailed:
				c.Failed++
			case StateConflict:
				c.Conflicts++
			default:
				c.Pending++
				if b, err := t.blocked(e, nil); err != nil {
					return err
				} else if b {
					c.Blocked++
				}
			}
		}
		c.LastSync, err = t.lastSync()
		return err
	})
	return c, err
}

func (t *txn) lastSync() (time.Time, error) {
	var at time.Time
	v := t.b(bucketMeta).Get(keyLastSync)
	if v == nil {
		return at, nil
	}
	err := at.UnmarshalText(v)
	return at, err
}
