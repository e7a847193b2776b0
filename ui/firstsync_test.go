package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
	syncer "proposaldesk/sync"
)

func TestConnectionWords(t *testing.T) {
	down := syncer.ErrUnreachable
	for _, c := range []struct {
		name string
		st   syncer.State
		want string
	}{
		{"first sync, starting", syncer.State{Syncing: true, Phase: syncer.PhasePush}, "⟳ Syncing…"},
		{"first sync, proposals", syncer.State{Syncing: true, Online: true, Phase: syncer.PhasePull, Done: 40, Total: 2000}, "⟳ Syncing… 40 of 2,000 proposals"},
		{"first sync, catalog", syncer.State{Syncing: true, Online: true, Phase: syncer.PhaseCatalog, Done: 20000, Total: 20000}, "⟳ Syncing… 20,000 of 20,000 catalog items"},
		{"first sync, contacts", syncer.State{Syncing: true, Online: true, Phase: syncer.PhasePeople, Done: 3, Total: 9}, "⟳ Syncing… 3 of 9 contacts"},
		{"first sync after a failure", syncer.State{Syncing: true, LastError: down}, "○ Offline"},
		{"a later sync", syncer.State{Syncing: true, Online: true, LastSync: time.Now(), Total: 5, Phase: syncer.PhasePull}, "● Online"},
		{"offline", syncer.State{LastError: down}, "○ Offline"},
		{"never synced, idle", syncer.State{}, "○ Offline"},
		{"online", syncer.State{Online: true, LastSync: time.Now()}, "● Online"},
	} {
		if got, _ := connectionWords(c.st); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A new computer's first sync: the status bar and the empty list say
// "Syncing… N of M" while it runs, never "Offline" or "No proposals
// yet"; at the end the list has the proposals and the bar says Online.
func TestFirstSyncSaysSyncing(t *testing.T) {
	h := newHarness(t)
	d := h.start(Options{})
	u := h.srv.Users[app.RoleSales]
	test.Type(d.signin.email, u.Email)
	test.Type(d.signin.password, u.Password)
	test.Tap(d.signin.button)
	h.waitFor("the workspace", func() bool { return d.sess != nil })
	if !d.sess.eng.State().LastSync.IsZero() {
		t.Fatal("a new computer has synced before")
	}
	test.Tap(d.status.syncNow)
	var bar, list []string
	deadline := time.Now().Add(20 * time.Second)
	for {
		// One queued state at a time, as the UI goroutine shows them.
		h.mu.Lock()
		q := h.queue
		h.queue = nil
		h.mu.Unlock()
		for _, fn := range q {
			fn()
			if d.status.state.Syncing {
				bar = append(bar, d.status.online.Text)
				if d.list.empty.Visible() {
					list = append(list, d.list.empty.Text)
				}
			}
		}
		st := d.sess.eng.State()
		if len(q) == 0 && !st.Syncing && !st.LastSync.IsZero() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first sync did not end")
		}
		time.Sleep(2 * time.Millisecond)
	}
	h.drain()
	if len(bar) == 0 {
		t.Fatal("no state shown while syncing")
	}
	counted := false
	for _, s := range append(bar, list...) {
		if strings.Contains(s, "Offline") || strings.Contains(s, "No proposals yet") {
			t.Fatalf("while syncing the workspace said %q", s)
		}
		counted = counted || strings.Contains(s, " of ") && strings.Contains(s, "proposals")
	}
	if !counted || !strings.HasPrefix(bar[len(bar)-1], "⟳ Syncing…") {
		t.Fatalf("the bar said %q", bar)
	}
	if len(list) == 0 || !strings.HasPrefix(list[0], "Syncing…") {
		t.Fatalf("the empty list said %q", list)
	}
	if d.status.online.Text != "● Online" || len(d.list.rows) == 0 || d.list.empty.Visible() {
		t.Fatalf("after the sync: %q, %d rows, empty text shown %v", d.status.online.Text, len(d.list.rows), d.list.empty.Visible())
	}
}
