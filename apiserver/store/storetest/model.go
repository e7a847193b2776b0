package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// acctModel is what one account should hold: its proposals and its
// changes feed (seq -> proposal, one entry per proposal).
type acctModel struct {
	id        int64
	proposals map[int64]*app.Proposal
	feed      []feedEntry
	seq       uint64
	cursors   []string
}

type feedEntry struct {
	seq uint64
	id  int64
}

func (m *acctModel) put(p *app.Proposal) {
	// As the store keeps it: through JSON (nil and empty slices alike).
	var c app.Proposal
	if err := json.Unmarshal([]byte(MustJSON(p)), &c); err != nil {
		panic(err)
	}
	m.proposals[p.ID] = &c
	m.feed = slices.DeleteFunc(m.feed, func(e feedEntry) bool { return e.id == p.ID })
	m.seq++
	m.feed = append(m.feed, feedEntry{m.seq, p.ID})
}

func (m *acctModel) changes(cursor string) ([]int64, string) {
	var after uint64
	if cursor != "" {
		after, _ = strconv.ParseUint(cursor, 10, 64)
	}
	ids, next := []int64{}, cursor
	for _, e := range m.feed {
		if e.seq > after {
			ids = append(ids, e.id)
			next = strconv.FormatUint(e.seq, 10)
		}
	}
	return ids, next
}

// simulate runs n random operations on account m, checking each answer
// against the model. other is an ID of another account's proposal.
func simulate(t *testing.T, s func() store.Store, m *acctModel, g *Gen, other int64, n int) {
	errRollback := errors.New("rollback")
	randomID := func() int64 {
		ids := make([]int64, 0, len(m.proposals))
		for id := range m.proposals {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return ids[g.R.IntN(len(ids))]
	}
	for i := range n {
		switch op := g.R.IntN(100); {
		case op < 15: // create a few
			var created []*app.Proposal
			err := s().Update(ctx, m.id, func(tx store.Tx) error {
				created = nil
				for range 1 + g.R.IntN(3) {
					p := &app.Proposal{}
					p.ID, p.Number = tx.NextID(), tx.NextNumber()
					g.Fill(p)
					if err := tx.PutProposal(p); err != nil {
						return err
					}
					created = append(created, p)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range created {
				m.put(p)
			}
		case op < 40: // read-modify-write one or two
			var written []*app.Proposal
			err := s().Update(ctx, m.id, func(tx store.Tx) error {
				written = nil
				for range 1 + g.R.IntN(2) {
					p, err := tx.Proposal(randomID())
					if err != nil {
						return err
					}
					g.Fill(p)
					if err := tx.PutProposal(p); err != nil {
						return err
					}
					written = append(written, p)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range written {
				m.put(p)
			}
		case op < 50: // a write that fails: nothing changes
			err := s().Update(ctx, m.id, func(tx store.Tx) error {
				p, _ := tx.Proposal(randomID())
				g.Fill(p)
				tx.PutProposal(p)
				np := &app.Proposal{}
				np.ID, np.Number = tx.NextID(), tx.NextNumber()
				g.Fill(np)
				tx.PutProposal(np)
				if g.R.IntN(2) == 0 {
					// A list inside the doomed tx fills no cache.
					tx.List(g.Query())
				}
				return errRollback
			})
			if !errors.Is(err, errRollback) {
				t.Fatal(err)
			}
		case op < 80: // list
			q := g.Query()
			s().View(ctx, m.id, func(tx store.Tx) error {
				CheckList(t, tx, m.proposals, q)
				return nil
			})
		case op < 90: // get, sometimes another account's ID
			id := randomID()
			if g.R.IntN(4) == 0 {
				id = other
			}
			s().View(ctx, m.id, func(tx store.Tx) error {
				p, err := tx.Proposal(id)
				want, ok := m.proposals[id]
				switch {
				case !ok && !errors.Is(err, store.ErrNotFound):
					t.Fatalf("op %d: Proposal(%d) of another account: %v", i, id, err)
				case ok && (err != nil || MustJSON(p) != MustJSON(want)):
					t.Fatalf("op %d: Proposal(%d) differs from the model: %v", i, id, err)
				}
				return nil
			})
		default: // changes from a cursor seen before
			cursor := ""
			if len(m.cursors) > 0 && g.R.IntN(3) > 0 {
				cursor = m.cursors[g.R.IntN(len(m.cursors))]
			}
			s().View(ctx, m.id, func(tx store.Tx) error {
				ids, next, err := tx.Changes(cursor)
				wantIDs, wantNext := m.changes(cursor)
				if err != nil || !slices.Equal(ids, wantIDs) || next != wantNext {
					t.Fatalf("op %d: Changes(%q) = %v %q %v; want %v %q", i, cursor, ids, next, err, wantIDs, wantNext)
				}
				m.cursors = append(m.cursors, next)
				return nil
			})
		}
	}
}

// TestModel is a simulation in the style of bbolt's simulation_test:
// random puts, updates, failed writes, lists, gets and feed reads over
// two accounts, checked against an in-memory model. Sequentially with
// reopens (cold caches), then with both accounts driven concurrently.
func testModel(t *testing.T, be Backend) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			f := NewFixture(t, be)
			models := map[int64]*acctModel{}
			for _, x := range []struct{ acct, p int64 }{{f.A, f.ProposalA}, {f.B, f.ProposalB}} {
				m := &acctModel{id: x.acct, proposals: map[int64]*app.Proposal{}}
				f.S.View(ctx, x.acct, func(tx store.Tx) error {
					p, err := tx.Proposal(x.p)
					m.put(p)
					return err
				})
				models[x.acct] = m
			}
			g := NewGen(seed)
			s := f.S
			cur := func() store.Store { return s }
			for round := range 6 {
				for _, acct := range []int64{f.A, f.B} {
					other := f.ProposalB
					if acct == f.B {
						other = f.ProposalA
					}
					simulate(t, cur, models[acct], g, other, 60)
				}
				if round%2 == 1 {
					s = be.Reopen(t, s)
				}
			}
			// Both accounts at once: the caches and feeds stay apart.
			var wg sync.WaitGroup
			for i, acct := range []int64{f.A, f.B} {
				other := []int64{f.ProposalB, f.ProposalA}[i]
				wg.Go(func() { simulate(t, cur, models[acct], NewGen(seed*10+uint64(i)), other, 300) })
			}
			wg.Wait()
			s.Close()
		})
	}
}
