package boltstore

import (
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// Group commit: every Update is queued, and one writer goroutine runs all
// the writes waiting at that moment in one bbolt transaction, so they
// share one fsync. A write starts as soon as the writer is free (no timer,
// unlike bbolt's DB.Batch), and the group is whatever queued up during the
// previous commit. Each write's fn runs in its own store.Tx, in queue
// order, and sees the writes before it in the group.
//
// A failure is isolated: a fn that fails before writing anything just
// returns its error. One that fails after writing (or panics) poisons the
// bbolt transaction, so the group is rolled back and run again as: the
// writes before it, then it alone (its own rollback), then the writes
// after it. Acknowledging a write waits for its group's commit.

// maxGroup bounds the writes of one transaction.
const maxGroup = 256

// maxPrimed is the most proposals one write may store and still have them
// decoded into the cache after its commit (see enqueue).
const maxPrimed = 4

// writeCall is one queued Update.
type writeCall struct {
	account  int64
	fn       func(store.Tx) error
	err      error
	panicked any
	done     chan struct{}
	took     time.Duration // fn's run time, for the writer's fairness
	// written are the proposals fn stored, decoded into the cache by the
	// caller after the commit (see enqueue).
	written []record
}

// record is a stored proposal's key and bytes, and a private copy of the
// value they encode (nil past maxPrimed records of one write).
type record struct {
	key string
	raw []byte
	val *app.Proposal
}

// writeGroup is what the writes of one bbolt transaction share: the list
// entries they wrote, per account, applied to the list index at commit.
type writeGroup struct {
	overlays map[int64]*acctOverlay
}

type acctOverlay struct {
	base    uint64 // the account's index version before the group
	entries map[int64]*app.ListEntry
	rows    map[int64][]byte // the entries' list rows as the API sends them
}

// overlayOf is the account's overlay, nil when the group wrote no list
// entry of it (or g is nil: a read transaction).
func (g *writeGroup) overlayOf(accountID int64) *acctOverlay {
	if g == nil {
		return nil
	}
	return g.overlays[accountID]
}

// put records a list entry and its row written in the group.
func (g *writeGroup) put(accountID int64, base uint64, e app.ListEntry, row []byte) {
	if g.overlays == nil {
		g.overlays = map[int64]*acctOverlay{}
	}
	ov := g.overlays[accountID]
	if ov == nil {
		ov = &acctOverlay{base: base, entries: map[int64]*app.ListEntry{}, rows: map[int64][]byte{}}
		g.overlays[accountID] = ov
	}
	ov.entries[e.ID] = &e
	ov.rows[e.ID] = row
}

// writeQueue feeds the writer goroutine.
type writeQueue struct {
	mu     sync.RWMutex // held to send; Close takes it to close ch
	closed bool
	ch     chan *writeCall
	done   chan struct{}
}

var errStoreClosed = errors.New("boltstore: store is closed")

func (s *Store) startWriter() {
	s.writes = &writeQueue{ch: make(chan *writeCall, maxGroup), done: make(chan struct{})}
	go s.writer()
}

// stopWriter runs the writes already queued and stops the writer.
func (s *Store) stopWriter() {
	q := s.writes
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.ch)
	}
	q.mu.Unlock()
	<-q.done
}

// enqueue runs c in a group and waits for the group's commit.
func (s *Store) enqueue(c *writeCall) error {
	q := s.writes
	q.mu.RLock()
	if q.closed {
		q.mu.RUnlock()
		return errStoreClosed
	}
	q.ch <- c
	q.mu.RUnlock()
	<-c.done
	if c.panicked != nil {
		panic(c.panicked)
	}
	if c.err == nil && len(c.written) <= maxPrimed {
		// The next write of a proposal reads it first: keep what was
		// stored as decoded, so neither the single writer nor a reader
		// decodes it again (decoding here was a third of a write's CPU).
		// Not after bulk writes (seeding, imports): nobody reads those
		// back at once, and they would flush the cache.
		for _, r := range c.written {
			if r.val != nil {
				s.decoded.proposals.Put(r.key, r.raw, *r.val)
			}
		}
	}
	return c.err
}

// writer runs the queued writes in groups, planned fairly between
// accounts (see fairness.go).
func (s *Store) writer() {
	defer close(s.writes.done)
	q := newAccountQueues()
	open := true
	for open || !q.empty() {
		if q.empty() {
			c, ok := <-s.writes.ch
			if !ok {
				return
			}
			q.push(c)
		}
	drain:
		for open {
			select {
			case c, ok := <-s.writes.ch:
				if !ok {
					open = false
					break drain
				}
				q.push(c)
			default:
				break drain
			}
		}
		group := q.next(maxGroup)
		s.runGroup(group)
		for _, c := range group {
			q.cost.observe(c.account, c.took)
			close(c.done)
		}
	}
}

// errPoisoned rolls back a group in which a write failed after writing.
var errPoisoned = errors.New("boltstore: a write of the group failed after writing")

// runGroup runs the calls in one transaction and sets each one's result.
func (s *Store) runGroup(calls []*writeCall) {
	if len(calls) == 0 {
		return
	}
	g := &writeGroup{}
	bad := -1
	var w uint64
	err := s.update(func(btx *bolt.Tx) error {
		w = uint64(btx.ID())
		for i, c := range calls {
			c.err, c.panicked, c.written = nil, nil, nil
			t, err := s.begin(btx, c.account)
			if err != nil {
				c.err = err
				continue
			}
			t.g = g
			start := time.Now()
			c.panicked, c.err = callFn(c.fn, t)
			c.took = time.Since(start)
			c.written = t.written
			if (c.err != nil || c.panicked != nil) && t.wrote {
				bad = i
				return errPoisoned
			}
		}
		s.prepareSnaps(g, w)
		return nil
	})
	switch {
	case bad >= 0 && len(calls) == 1:
		// Alone, the rollback is the failed write's own: its result stands.
	case bad >= 0:
		s.runGroup(calls[:bad])
		s.runGroup(calls[bad : bad+1])
		s.runGroup(calls[bad+1:])
	case err != nil:
		// The commit itself failed: nothing of the group was kept.
		for acct := range g.overlays {
			s.snaps.Drop(acct, w)
		}
		for _, c := range calls {
			if c.err == nil && c.panicked == nil {
				c.err = fmt.Errorf("commit: %w", err)
			}
		}
	}
}

// callFn runs fn, turning a panic into a value to re-panic with in the
// caller's goroutine.
func callFn(fn func(store.Tx) error, t *tx) (panicked any, err error) {
	defer func() {
		if r := recover(); r != nil {
			panicked = r
		}
	}()
	if err := fn(t); err != nil {
		return nil, err
	}
	return nil, t.err
}

// prepareSnaps publishes the list index at version w for every account
// the group wrote, before the commit makes w visible: a reader that sees
// the commit finds its index ready. If the commit fails, runGroup drops
// them again.
func (s *Store) prepareSnaps(g *writeGroup, w uint64) {
	for acct, ov := range g.overlays {
		if prev, ok := s.snaps.At(acct, ov.base); ok {
			s.snaps.Add(acct, prev.with(ov, w, s.cfg.deltaMin))
		}
	}
}
