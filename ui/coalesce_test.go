package ui

import (
	"testing"
	"time"

	syncer "proposaldesk/sync"
)

func TestListDue(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	idle := syncer.State{Online: true, LastSync: t0}
	push := syncer.State{Online: true, Syncing: true, Phase: syncer.PhasePush, Done: 1, Total: 5, Pending: 5, LastSync: t0}
	pushed := push
	pushed.Done, pushed.Pending = 2, 4
	pull := syncer.State{Online: true, Syncing: true, Phase: syncer.PhasePull, Done: 1, Total: 40, LastSync: t0}
	pull2 := pull
	pull2.Done = 2
	catalog := syncer.State{Online: true, Syncing: true, Phase: syncer.PhaseCatalog, LastSync: t0}
	ended := syncer.State{Online: true, LastSync: t0.Add(time.Minute)}
	failed := idle
	failed.Failed = 1
	for _, c := range []struct {
		name      string
		prev, now syncer.State
		want      bool
	}{
		{"nothing moved", idle, idle, false},
		{"a sync starts", idle, push, true}, // its pending count is new
		{"an edit acknowledged", push, pushed, true},
		{"the pull goes on", pull, pull2, false},
		{"past the pull", pull, catalog, true},
		{"from the push to the catalog, the pull unseen", pushed, catalog, true},
		{"first seen in its catalog phase", idle, catalog, true},
		{"the catalog goes on", catalog, catalog, false},
		{"a sync ends", catalog, ended, true},
		{"a whole sync unseen", idle, ended, true},
		{"an edit refused", idle, failed, true},
	} {
		if got := listDue(c.prev, c.now); got != c.want {
			t.Errorf("%s: listDue = %v, want %v", c.name, got, c.want)
		}
	}
}

// However fast the engine publishes, at most one job waits for the UI
// goroutine, and it shows the latest state, with what the states in
// between called for.
func TestLatestStateKeepsOneJob(t *testing.T) {
	var l latestState
	l.offer(syncer.State{})
	l.take()
	var jobs []func() (syncer.State, bool)
	for i := range 100 {
		if l.offer(syncer.State{Syncing: true, Phase: syncer.PhasePull, Done: i}) {
			jobs = append(jobs, l.take)
		}
	}
	if len(jobs) != 1 {
		t.Fatalf("100 states handed %d jobs over, want 1", len(jobs))
	}
	if st, _ := jobs[0](); st.Done != 99 {
		t.Fatalf("the job shows state %d, want the latest, 99", st.Done)
	}
	// An entry queued, then discarded before the UI ran: the last state
	// is the first again, but the list must be read again.
	idle := syncer.State{Online: true}
	l.offer(idle)
	l.take()
	if !l.offer(syncer.State{Online: true, Pending: 1}) {
		t.Fatal("a state after the job ran handed no job over")
	}
	l.offer(idle)
	if st, due := l.take(); st != idle || !due {
		t.Fatalf("took %+v, due %v: want the idle state, due", st, due)
	}
	l.offer(idle)
	if _, due := l.take(); due {
		t.Fatal("the same state again is due")
	}
}
