package listindex

import (
	"maps"
	"math"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"proposaldesk/apiserver/store/storetest"
	"proposaldesk/app"
)

// model is the entries a snapshot should hold, and the reference its
// answers are held to.
type model struct {
	g       *storetest.Gen
	entries map[int64]app.ListEntry
}

// newModel is n random entries.
func newModel(seed uint64, n int) *model {
	m := &model{g: storetest.NewGen(seed), entries: map[int64]app.ListEntry{}}
	for id := range int64(n) {
		m.fill(id + 1)
	}
	return m
}

// fill (re)writes entry id with random content.
func (m *model) fill(id int64) *app.ListEntry {
	p := &app.Proposal{}
	p.ID, p.Number = id, 1000+id
	m.g.Fill(p)
	e := app.EntryOf(p)
	m.entries[id] = e
	return &e
}

// writes rewrites n random entries and adds one.
func (m *model) writes(n int) map[int64]*app.ListEntry {
	overlay := map[int64]*app.ListEntry{}
	for range n {
		id := int64(1 + m.g.R.IntN(len(m.entries)))
		overlay[id] = m.fill(id)
	}
	id := int64(len(m.entries) + 1)
	overlay[id] = m.fill(id)
	return overlay
}

func (m *model) all() []app.ListEntry { return slices.Collect(maps.Values(m.entries)) }

// check asks sn a random query twice (the second time through the
// remembered word slots) and compares with app.ListQuery.Select.
func (m *model) check(t *testing.T, sn *Snap) {
	t.Helper()
	ids := func(l []app.ListEntry) []int64 {
		out := make([]int64, len(l))
		for i, e := range l {
			out[i] = e.ID
		}
		return out
	}
	q := m.g.Query()
	wantPage, wantCount := q.Select(m.all())
	for try := range 2 {
		page, count := sn.Query(&q)
		got := make([]app.ListEntry, len(page))
		for j, e := range page {
			got[j] = *e
		}
		if count != wantCount || !slices.Equal(ids(got), ids(wantPage)) {
			t.Fatalf("query %+v, try %d: count %d page %v; want %d %v", q, try, count, ids(got), wantCount, ids(wantPage))
		}
	}
}

// The index answers as app.ListQuery.Select does over the same entries:
// random entries and queries, with writes now and then that go to the
// delta or, past its bound, into a rebuilt base (at once or in the
// background, whichever comes first).
func TestQueryEqualsSelect(t *testing.T) {
	m := newModel(11, 400)
	sn := New(m.all(), 1)
	for i := range 300 {
		if i%30 == 29 {
			sn = sn.With(m.writes(6), sn.Version()+1, 16)
		}
		m.check(t, sn)
	}
}

// Past its bound the delta is folded into a base built in the
// background; the first snapshot after it is ready keeps only the
// entries written since, and answers as before.
func TestRebuildInBackground(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newModel(3, 300)
		const deltaMax = 40
		sn := New(m.all(), 1)
		base := sn.base
		early := sn.With(m.writes(1), 2, deltaMax)
		sn = early
		for sn.delta.Len() <= deltaMax {
			sn = sn.With(m.writes(1), sn.Version()+1, deltaMax)
			m.check(t, sn)
		}
		builtAt := sn.Version()
		synctest.Wait() // the build is done
		r := base.rebuilt.Load()
		if r == nil || r.Version() != builtAt || len(r.base.entries) != len(m.entries) {
			t.Fatalf("no base rebuilt at version %d: %+v", builtAt, r)
		}
		if sn.base != base {
			t.Fatal("a snapshot made before the build changed base")
		}
		m.check(t, sn)
		sn = sn.With(m.writes(1), sn.Version()+1, deltaMax)
		if sn.base != r.base || sn.delta.Len() > 2 {
			t.Fatalf("after the build: base replaced %v, %d entries in the delta; want the new base and this write's", sn.base == r.base, sn.delta.Len())
		}
		for range 5 {
			m.check(t, sn)
		}
		// A snapshot of the old base older than the rebuilt one does not
		// take it: the new base holds writes it must not see.
		if old := early.With(map[int64]*app.ListEntry{}, 3, deltaMax); old.base != base {
			t.Error("a snapshot older than the rebuilt base took it")
		}
	})
}

// A delta left by a burst of writes is not paid for by every page until
// the next write: once queries have merged a rebuild's worth of delta
// entries, the base is rebuilt in the background and the same snapshot
// answers from it, with nothing left in its delta.
func TestReadsRebuildAnIdleDelta(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newModel(5, 300)
		sn := New(m.all(), 1)
		base := sn.base
		sn = sn.With(m.writes(20), 2, math.MaxInt) // no write rebuilds it
		d := int64(sn.delta.Len())
		budget := rebuildWeight * (int64(len(base.entries)) + d)
		queries := 0
		for base.rebuilt.Load() == nil {
			if queries > int(budget/d)+2 {
				t.Fatalf("%d queries over a delta of %d and no rebuild (budget %d)", queries, d, budget)
			}
			m.check(t, sn) // two queries
			queries += 2
			synctest.Wait()
		}
		if queries < int(budget/d) {
			t.Errorf("rebuilt after %d queries; want about %d (a rebuild's worth)", queries, budget/d)
		}
		m.check(t, sn)
		if s := sn.settled(); s.base == base || s.delta.Len() != 0 || s.Version() != sn.Version() {
			t.Errorf("after the rebuild the snapshot reads base replaced %v, %d delta entries, version %d; want a new base, none, %d",
				s.base != base, s.delta.Len(), s.Version(), sn.Version())
		}
		// The next write starts from the rebuilt base too.
		w := m.writes(1)
		next := sn.With(w, 3, math.MaxInt)
		if next.base == base || next.delta.Len() != len(w) {
			t.Errorf("a write after the rebuild: base replaced %v, %d delta entries; want a new base and %d", next.base != base, next.delta.Len(), len(w))
		}
		m.check(t, next)
	})
}

// Readers querying one snapshot at once, while their queries start the
// rebuild and take it, all get app.ListQuery.Select's answers (run it
// with -race).
func TestConcurrentReadsTakeTheRebuild(t *testing.T) {
	m := newModel(9, 2000)
	sn := New(m.all(), 1).With(m.writes(200), 2, math.MaxInt)
	type want struct {
		q     app.ListQuery
		ids   []int64
		count int
	}
	var wants []want
	for range 20 {
		q := m.g.Query()
		page, count := q.Select(m.all())
		ids := make([]int64, len(page))
		for i, e := range page {
			ids[i] = e.ID
		}
		wants = append(wants, want{q, ids, count})
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 400 {
				w := wants[(g+i)%len(wants)]
				page, count := sn.Query(&w.q)
				ids := make([]int64, len(page))
				for j, e := range page {
					ids[j] = e.ID
				}
				if count != w.count || !slices.Equal(ids, w.ids) {
					t.Errorf("reader %d, query %+v: count %d page %v; want %d %v", g, w.q, count, ids, w.count, w.ids)
					return
				}
			}
		})
	}
	wg.Wait()
	// The readers spent their budget many times over: a build runs.
	for deadline := time.Now().Add(10 * time.Second); sn.base.rebuilt.Load() == nil; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no base rebuilt 10 s after 3,200 queries over a delta of 200")
		}
	}
	if s := sn.settled(); s.delta.Len() != 0 {
		t.Errorf("after the rebuild the snapshot reads %d delta entries; want 0", s.delta.Len())
	}
}

// A write's private view (version 0: the index it began with plus its
// group's writes, before the commit, which may roll back) answers its
// queries but never starts a rebuild, however much its delta costs:
// the rebuilt base would hold writes that were never committed, and
// every later snapshot would take it.
func TestPrivateSnapshotStartsNoRebuild(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newModel(7, 300)
		published := New(m.all(), 1)
		private := published.With(m.writes(20), 0, math.MaxInt)
		for range 2000 {
			private.Query(&app.ListQuery{PageNumber: 1, PageSize: 25})
		}
		synctest.Wait()
		if r := published.base.rebuilt.Load(); r != nil {
			t.Fatalf("a private snapshot's queries rebuilt the shared base (at version %d)", r.Version())
		}
	})
}
