package syncer

import (
	"context"
	"errors"
	"fmt"
	gosync "sync"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// The laptop's clock is two hours off either way: syncs work (the client
// adopts the server's clock), and offline edits are stamped with the
// corrected time.
func TestEngineClockSkew(t *testing.T) {
	s := startReal(t)
	for _, skew := range []time.Duration{2 * time.Hour, -2 * time.Hour} {
		now := func() time.Time { return time.Now().Add(skew) }
		p := serverDraft(t, s, "Skewed")
		d := s.newDesk(t, s.URL, app.RoleSales, nil, []Option{WithClock(now)}, WithEngineClock(now))
		d.sync(t)
		lp := d.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: fmt.Sprint("skew ", skew)})
		if off := time.Since(lp.LastModifiedDate.Time); off > time.Minute || off < -time.Minute {
			t.Fatalf("skew %s: the offline edit is stamped %s off the server's clock", skew, off)
		}
		d.sync(t)
		if g := serverProposal(t, s, p.ID); g.ProjectDescription != fmt.Sprint("skew ", skew) {
			t.Fatalf("skew %s: server %q", skew, g.ProjectDescription)
		}
		if st := d.eng.State(); st.Pending != 0 || st.LastError != nil || !st.Online {
			t.Fatalf("skew %s: %+v", skew, st)
		}
	}
}

// recorder collects the states an engine publishes.
type recorder struct {
	mu     gosync.Mutex
	states []State
}

func (r *recorder) add(s State) {
	r.mu.Lock()
	r.states = append(r.states, s)
	r.mu.Unlock()
}

func (r *recorder) all() []State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]State(nil), r.states...)
}

// syncs counts the syncs that started (Syncing false → true).
func (r *recorder) syncs() int {
	n, was := 0, false
	for _, s := range r.all() {
		if s.Syncing && !was {
			n++
		}
		was = s.Syncing
	}
	return n
}

func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The UI sees progress (n of m) of pushes and pulls, the counts, and the
// last sync, through a subscription.
func TestEngineStateProgress(t *testing.T) {
	s := startReal(t)
	p := serverDraft(t, s, "Progress")
	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	var rec recorder
	cancel := d.eng.Subscribe(rec.add)
	d.sync(t)
	for i := range 5 {
		d.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: fmt.Sprint("step ", i)})
	}
	if st := d.eng.State(); st.Pending != 5 {
		t.Fatalf("state %+v", st)
	}
	d.sync(t)
	states := rec.all()
	var pushes []int
	sawPull := false
	for _, st := range states {
		if st.Syncing && st.Phase == PhasePush && st.Total == 5 {
			pushes = append(pushes, st.Done)
		}
		if st.Syncing && st.Phase == PhasePull && st.Total > 0 && st.Done == st.Total {
			sawPull = true
		}
	}
	if fmt.Sprint(pushes) != "[0 1 2 3 4 5]" || !sawPull {
		t.Fatalf("push progress %v, pull seen %v", pushes, sawPull)
	}
	last := states[len(states)-1]
	if last.Syncing || last.Pending != 0 || last.LastSync.IsZero() || !last.Online || last.Total != 0 {
		t.Fatalf("last state %+v", last)
	}
	cancel()
	d.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: "after cancel"})
	if len(rec.all()) != len(states) {
		t.Fatal("a cancelled subscription was called")
	}
}

// Requests made while a sync runs are served by exactly one more sync.
func TestEngineRequestDuringSyncRunsOnceMore(t *testing.T) {
	s := startReal(t)
	serverDraft(t, s, "Requests")
	proxy := startProxy(t, s.URL)
	proxy.always(proxyStep{Action: proxyDelay, Delay: 5 * time.Millisecond})
	d := s.newDesk(t, proxy.URL(), app.RoleSales, nil, []Option{WithHTTPClient(noKeepAlive())}, WithSyncInterval(time.Hour))
	var rec recorder
	var once gosync.Once
	d.eng.Subscribe(func(st State) {
		rec.add(st)
		if st.Syncing && st.Phase == PhasePull {
			once.Do(func() {
				for range 3 {
					d.eng.Request()
				}
			})
		}
	})
	ctx, stop := context.WithCancel(bg)
	done := make(chan struct{})
	go func() { d.eng.Run(ctx); close(done) }()
	waitFor(t, "two syncs", 20*time.Second, func() bool { return rec.syncs() >= 2 && !d.eng.State().Syncing })
	time.Sleep(300 * time.Millisecond) // room for a third, which must not come
	stop()
	<-done
	if n := rec.syncs(); n != 2 {
		t.Fatalf("%d syncs, want 2 (the start, and one more for the requests)", n)
	}
}

// Offline, the engine keeps the edits and backs off; when any request
// gets through again it syncs at once.
func TestEngineReconnects(t *testing.T) {
	s := startReal(t)
	p := serverDraft(t, s, "Reconnect")
	proxy := startProxy(t, s.URL)
	direct := s.newDesk(t, s.URL, app.RoleSales, nil, nil)
	st := direct.st
	direct.sync(t) // the local store has the proposal
	c := s.client(t, proxy.URL(), WithHTTPClient(noKeepAlive()), WithUserKey(direct.c.UserKey()), WithSleep(noSleep))
	eng := NewEngine(st, c, s.appUser(t, app.RoleSales), WithSyncInterval(time.Hour))
	proxy.always(proxyStep{Action: proxyDrop})

	ctx, stop := context.WithCancel(bg)
	defer stop()
	go eng.Run(ctx)
	waitFor(t, "offline", 10*time.Second, func() bool {
		s := eng.State()
		return !s.Syncing && errors.Is(s.LastError, ErrUnreachable) && !s.Online
	})
	if _, err := eng.Edit(bg, p.ID, &app.SetDescription{ID: p.ID, Description: "while offline"}); err != nil {
		t.Fatal(err)
	}
	// Let the sync that Edit asked for fail too: the next try is now
	// seconds away.
	waitFor(t, "a failed retry", 10*time.Second, func() bool {
		s := eng.State()
		return !s.Syncing && s.Pending == 1 && !s.Online
	})
	time.Sleep(50 * time.Millisecond)
	proxy.always(proxyStep{Action: proxyPass})
	start := time.Now()
	if _, err := c.ListUsers(bg); err != nil { // the UI reads something: it works again
		t.Fatal(err)
	}
	waitFor(t, "the edit to be sent", 1500*time.Millisecond, func() bool {
		s := eng.State()
		return s.Pending == 0 && s.Online && !s.Syncing
	})
	t.Logf("sent %s after the network came back", time.Since(start))
	if g := serverProposal(t, s, p.ID); g.ProjectDescription != "while offline" {
		t.Fatalf("server %q", g.ProjectDescription)
	}
}

// A new storeId (the server restored from a backup) downloads
// everything again and keeps the unsent edits.
func TestEngineNewStoreKeepsOutbox(t *testing.T) {
	s := startReal(t)
	p := serverDraft(t, s, "Restored")
	q := serverDraft(t, s, "Restored, refused")
	front := s.restorable(t)
	d := s.newDesk(t, front.URL, app.RoleSales, nil, nil)
	d.sync(t)
	oldStore, _, _ := d.st.Cursor()

	// A failed entry and a pending one.
	if _, err := s.admin(t).CreateArea(bg, q.ID, "Taken", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	d.edit(t, q.ID, &app.CreateArea{ID: q.ID, Name: "taken"})
	if err := d.eng.push(bg); err != nil {
		t.Fatal(err)
	}
	d.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: "made before the restore"})

	front.restored.Store(true)
	if err := d.eng.pull(bg); err != nil { // the pull alone: the edit is still queued
		t.Fatal(err)
	}
	newStore, _, _ := d.st.Cursor()
	if newStore == oldStore || newStore != oldStore+"-restored" {
		t.Fatalf("store %q → %q", oldStore, newStore)
	}
	// The contacts were downloaded again from the new store.
	if peopleStore, _, _ := d.st.PeopleCursor(); peopleStore != newStore {
		t.Fatalf("people feed of store %q, want %q", peopleStore, newStore)
	}
	serverPeople, err := s.admin(t).ListPeople(bg, PeopleQuery{PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, n, _ := d.st.Contacts(app.ContactQuery{}); n != serverPeople.Count {
		t.Fatalf("local store has %d contacts, the server %d", n, serverPeople.Count)
	}
	entries, err := d.st.Entries()
	if err != nil || len(entries) != 2 || entries[0].State != localstore.StateFailed || entries[1].State != localstore.StatePending {
		t.Fatalf("outbox %+v, %v", entries, err)
	}
	rec, err := d.st.Record(p.ID)
	if err != nil || rec.Server == nil || rec.NeedsServerCopy || rec.Local.ProjectDescription != "made before the restore" {
		t.Fatalf("record %+v, %v", rec, err)
	}
	// Everything the server has was downloaded again.
	page, err := s.admin(t).ListProposals(bg, ProposalQuery{PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	q2 := app.DefaultListQuery()
	if _, n, _ := d.st.Search(q2); n != page.Count {
		t.Fatalf("local store has %d proposals, the server %d", n, page.Count)
	}
	d.sync(t)
	if g := serverProposal(t, s, p.ID); g.ProjectDescription != "made before the restore" {
		t.Fatalf("server %q", g.ProjectDescription)
	}
	if st := d.eng.State(); st.Failed != 1 || st.Pending != 0 {
		t.Fatalf("state %+v", st)
	}
}

// Edits in a burst are sent by one sync once the editing pauses, and a
// long run of edits is still sent while it goes on (at most editMost
// after its first edit).
func TestEngineEditsWaitForAPause(t *testing.T) {
	s := startReal(t)
	p := serverDraft(t, s, "Burst")
	delay, most := 150*time.Millisecond, 600*time.Millisecond
	d := s.newDesk(t, s.URL, app.RoleSales, nil, nil, WithSyncInterval(time.Hour), WithEditSyncDelay(delay, most))
	var rec recorder
	d.eng.Subscribe(rec.add)
	ctx, stop := context.WithCancel(bg)
	done := make(chan struct{})
	go func() { defer close(done); d.eng.Run(ctx) }()
	defer func() { stop(); <-done }()
	waitFor(t, "the first sync", 10*time.Second, func() bool { st := d.eng.State(); return !st.LastSync.IsZero() && !st.Syncing })

	before := rec.syncs()
	start := time.Now()
	for i := range 5 {
		d.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: fmt.Sprint("burst ", i)})
	}
	edited := time.Since(start)
	if edited >= delay {
		// A machine this slow cannot tell a burst from edits apart.
		t.Logf("the burst took %s, past the %s wait: its checks are not made", edited, delay)
	}
	if st := d.eng.State(); st.Pending != 5 && edited < delay {
		t.Fatalf("right after the burst: %+v, want 5 edits waiting", st)
	}
	waitFor(t, "the burst sent", 10*time.Second, func() bool { st := d.eng.State(); return st.Pending == 0 && !st.Syncing })
	if n := rec.syncs() - before; n != 1 && edited < delay {
		t.Fatalf("a burst of 5 edits took %d syncs, want 1", n)
	}
	if g := serverProposal(t, s, p.ID); g.ProjectDescription != "burst 4" {
		t.Fatalf("server %q", g.ProjectDescription)
	}

	// Edits every delay/3 for 3×most: sent while they go on.
	before = rec.syncs()
	end := time.Now().Add(3 * most)
	for i := 0; time.Now().Before(end); i++ {
		d.edit(t, p.ID, &app.SetDescription{ID: p.ID, Description: fmt.Sprint("run ", i)})
		time.Sleep(delay / 3)
	}
	if rec.syncs() == before {
		t.Fatalf("no sync during %s of edits %s apart", 3*most, delay/3)
	}
}
