package localstore

import (
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
)

// The simulation drives the store with random edits, acks, failures,
// discards, office changes pulled in, simulated crashes and reopens, and
// checks it after every step against an in-memory model of the outbox
// and of the local views the model expects, in the style of bbolt's
// simulation_test.

type mEntry struct {
	seq     uint64
	pid     int64
	m       app.Mutation
	created time.Time
	failed  bool
	kind    app.Kind
}

type model struct {
	server   map[int64]*app.Proposal // the client's last server copy
	local    map[int64]*app.Proposal
	readOnly map[int64]bool
	queue    []*mEntry
}

// replay is the model's own statement of the local view: the server copy
// with the queue's entries applied in order; an entry that does not
// apply fails with the rule's kind.
func (md *model) replay(pid int64) {
	view := md.server[pid]
	for _, e := range md.queue {
		if e.pid != pid || e.failed {
			continue
		}
		next, err := app.Apply(view, e.m, app.Env{Now: e.created, Actor: sales, Account: account.App(), Directory: newMapDir()})
		if err != nil {
			e.failed, e.kind = true, app.KindOf(err)
			continue
		}
		view = next
	}
	md.local[pid] = view
}

func (md *model) live(pid int64) int {
	n := 0
	for _, e := range md.queue {
		if e.pid == pid && !e.failed {
			n++
		}
	}
	return n
}

func TestSimulation(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { simulate(t, seed, 250) })
	}
}

func simulate(t *testing.T, seed int64, steps int) {
	rng := rand.New(rand.NewSource(seed))
	s := openStore(t, "")
	seedCaches(t, s)
	f := newFakeServer()
	md := &model{server: map[int64]*app.Proposal{}, local: map[int64]*app.Proposal{}, readOnly: map[int64]bool{}}
	var pids []int64
	for i := range 4 {
		p := pulled(t, s, f, fmt.Sprint("P", i))
		md.server[p.ID], md.local[p.ID] = p, p
		pids = append(pids, p.ID)
	}
	areaNames := []string{"Kitchen", "Den", "Patio", "Bath"}
	now := 0
	var log []string
	stats := map[string]int{}
	defer func() { t.Logf("step-weighted counts: %v", stats) }()

	for step := range steps {
		now++
		pid := pids[rng.Intn(len(pids))]
		op := rng.Intn(100)
		switch {
		case op < 40: // an offline edit
			var m app.Mutation
			switch rng.Intn(4) {
			case 0:
				m = &app.SetDescription{ID: pid, Description: fmt.Sprint("d", step)}
			case 1:
				m = &app.SetInternalNotes{ID: pid, InternalNotes: fmt.Sprint("n", step)}
			case 2:
				m = &app.UpdateProposal{ID: pid, Name: strp(fmt.Sprint("name", step))}
			default:
				m = &app.CreateArea{ID: pid, Name: areaNames[rng.Intn(len(areaNames))]}
			}
			log = append(log, fmt.Sprintf("edit %d %s", pid, m.Kind()))
			before := dump(t, s)
			got, err := s.Edit(ctx, pid, m, envAt(now, sales))
			if err != nil {
				if kindOf(err) == "" {
					t.Fatalf("step %d: %v", step, err)
				}
				if after := dump(t, s); !reflect.DeepEqual(before, after) {
					t.Fatalf("step %d: refused edit changed the file", step)
				}
				break
			}
			pend, _ := s.Entries()
			last := pend[len(pend)-1]
			stored, _ := last.Decode() // with the temporary IDs the store gave
			md.queue = append(md.queue, &mEntry{seq: last.Seq, pid: pid, m: stored, created: envAt(now, sales).Now})
			md.replay(pid)
			if !reflect.DeepEqual(got, md.local[pid]) {
				t.Fatalf("step %d: Edit returned a view the model does not expect", step)
			}
		case op < 65: // the engine sends the first live entry
			i := slices.IndexFunc(md.queue, func(e *mEntry) bool { return !e.failed })
			if i < 0 {
				break
			}
			e := md.queue[i]
			log = append(log, fmt.Sprintf("send %d", e.seq))
			if rng.Intn(3) == 0 {
				if err := s.MarkSent(ctx, e.seq); err != nil {
					t.Fatal(err)
				}
			}
			m, _ := (&Entry{Kind: EntryProposal, Mutation: mustEncode(t, e.m)}).Decode()
			srv, err := f.apply(m, e.created, sales)
			if err != nil {
				if err := s.Fail(ctx, e.seq, app.KindOf(err), err.Error()); err != nil {
					t.Fatal(err)
				}
				e.failed, e.kind = true, app.KindOf(err)
				md.replay(e.pid)
				break
			}
			if _, err := s.Ack(ctx, e.seq, srv); err != nil {
				t.Fatal(err)
			}
			md.queue = slices.Delete(md.queue, i, i+1)
			md.server[e.pid] = srv
			if !srv.Status.Locked() {
				md.readOnly[e.pid] = false
			}
			md.replay(e.pid)
		case op < 69: // the server refuses the first live entry
			i := slices.IndexFunc(md.queue, func(e *mEntry) bool { return !e.failed })
			if i < 0 {
				break
			}
			e := md.queue[i]
			log = append(log, fmt.Sprintf("fail %d", e.seq))
			if err := s.Fail(ctx, e.seq, app.KindSubscriptionInactive, "lapsed"); err != nil {
				t.Fatal(err)
			}
			e.failed, e.kind = true, app.KindSubscriptionInactive
			md.replay(e.pid)
		case op < 78: // the user discards an entry
			if len(md.queue) == 0 {
				break
			}
			i := rng.Intn(len(md.queue))
			e := md.queue[i]
			log = append(log, fmt.Sprintf("discard %d", e.seq))
			if err := s.Discard(ctx, e.seq); err != nil {
				t.Fatal(err)
			}
			md.queue = slices.Delete(md.queue, i, i+1)
			md.replay(e.pid)
		case op < 90: // the office changes the proposal; the client pulls it
			var m app.Mutation = &app.CreateArea{ID: pid, Name: areaNames[rng.Intn(len(areaNames))]}
			if next := f.props[pid].Status.NextStatuses(); len(next) > 0 && rng.Intn(2) == 0 {
				m = &app.ChangeStatus{ID: pid, Status: next[rng.Intn(len(next))]}
			}
			log = append(log, fmt.Sprintf("office %d %s", pid, m.Kind()))
			srv, err := f.apply(m, t0.Add(time.Duration(now)*time.Minute), sales2)
			if err != nil {
				break
			}
			if err := s.PutServerCopy(ctx, srv); err != nil {
				t.Fatal(err)
			}
			live := md.live(pid)
			md.server[pid] = srv
			switch {
			case !srv.Status.Locked():
				md.readOnly[pid] = false
			case live > 0:
				md.readOnly[pid] = true
			}
			md.replay(pid)
		case op < 95: // a crash in the middle of a write: nothing of it stays
			log = append(log, "crash")
			s.beforeCommit = func() error { return errCrash }
			err := s.Discard(ctx, 1<<40) // not found either way
			_, err2 := s.Edit(ctx, pid, &app.SetInternalNotes{ID: pid, InternalNotes: "lost"}, envAt(now, sales))
			s.beforeCommit = nil
			if err == nil || !errors.Is(err2, errCrash) {
				t.Fatalf("step %d: crash not simulated: %v %v", step, err, err2)
			}
			s = reopen(t, s)
		default:
			log = append(log, "reopen")
			s = reopen(t, s)
		}
		for _, e := range md.queue {
			if e.failed {
				stats[string(e.kind)]++
			}
		}
		for _, ro := range md.readOnly {
			if ro {
				stats["readOnly"]++
			}
		}
		if len(log) > 0 {
			stats[strings.Fields(log[len(log)-1])[0]]++
		}
		if err := check(s, md); err != nil {
			t.Fatalf("step %d: %v\nlast ops: %v", step, err, log[max(0, len(log)-8):])
		}
	}
	// Finally everything drains and the local views meet the server.
	for _, e := range md.queue {
		if e.failed {
			s.Discard(ctx, e.seq)
		}
	}
	f.drain(t, s)
	for _, pid := range pids {
		rec, _ := s.Record(pid)
		if !reflect.DeepEqual(rec.Local, f.props[pid]) {
			t.Errorf("proposal %d: local view differs from the server after the drain", pid)
		}
	}
}

var errCrash = errors.New("simulated crash before commit")

func seedCaches(t *testing.T, s *Store) { seed(t, s) }

func mustEncode(t *testing.T, m app.Mutation) []byte {
	b, err := app.EncodeMutation(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// check compares the store with the model: every local view, flag and
// list row, and the outbox entry by entry.
func check(s *Store, md *model) error {
	entries, err := s.Entries()
	if err != nil {
		return err
	}
	if len(entries) != len(md.queue) {
		return fmt.Errorf("outbox has %d entries, model %d", len(entries), len(md.queue))
	}
	for i, e := range entries {
		me := md.queue[i]
		state := StatePending
		if me.failed {
			state = StateFailed
		}
		st := e.State
		if st == StateSent {
			st = StatePending
		}
		if e.Seq != me.seq || e.ProposalID != me.pid || st != state || (me.failed && e.ErrorKind != me.kind) {
			return fmt.Errorf("entry %d: %+v, model %+v", i, e, *me)
		}
		m, _ := e.Decode()
		if !reflect.DeepEqual(m, me.m) {
			return fmt.Errorf("entry %d: mutation %s", e.Seq, e.Mutation)
		}
	}
	var all []app.ListEntry
	for pid, want := range md.local {
		rec, err := s.Record(pid)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(rec.Local, want) {
			return fmt.Errorf("proposal %d: local view\n%+v\nmodel\n%+v", pid, rec.Local.Document, want.Document)
		}
		if !reflect.DeepEqual(rec.Server, md.server[pid]) {
			return fmt.Errorf("proposal %d: server copy differs", pid)
		}
		if rec.ReadOnly != md.readOnly[pid] {
			return fmt.Errorf("proposal %d: read-only %v, model %v", pid, rec.ReadOnly, md.readOnly[pid])
		}
		var b Badges
		for _, e := range md.queue {
			if e.pid == pid {
				if e.failed {
					b.Failed++
				} else {
					b.Pending++
				}
			}
		}
		it, ok := s.Item(pid)
		if !ok || it != itemOf(rec, b) {
			return fmt.Errorf("proposal %d: list row %+v, want %+v", pid, it, itemOf(rec, b))
		}
		all = append(all, app.EntryOf(want))
	}
	q := app.DefaultListQuery()
	got, n, _ := s.Search(q)
	want, wn := q.Select(all)
	if n != wn || !reflect.DeepEqual(got, want) {
		return fmt.Errorf("search differs")
	}
	return nil
}
