package ui

import (
	gosync "sync"

	syncer "proposaldesk/sync"
)

// The sync's states reach the UI goroutine latest first. The engine
// publishes a state for each step of a sync: while a long outbox is
// sent, one or more for every acknowledgment. Each was handed to the UI
// goroutine as a job of its own (the status bar, the list read again),
// and the jobs piled up faster than they ran: a keystroke waited behind
// them for up to 2.1–3.3 s while 500 edits were sent, though the UI
// goroutine never ran or waited more than 43 ms at a time (an execution
// trace of the phase). Now at most one job waits, and it shows the
// latest state when it runs: the steps in between are not shown, and
// the UI compares the state it showed with the one it shows now.
type latestState struct {
	mu      gosync.Mutex
	state   syncer.State
	waiting bool
	// due: a step between the states shown called for the list to be
	// read again (listDue of each state and the one offered before it),
	// which comparing the first with the last may not show (an entry
	// queued and then discarded: the count is back where it was).
	due bool
}

// offer keeps st as the latest state and reports whether a job must be
// handed to the UI goroutine to show it (none is waiting yet).
func (l *latestState) offer(st syncer.State) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.due = l.due || listDue(l.state, st)
	l.state = st
	if l.waiting {
		return false
	}
	l.waiting = true
	return true
}

// take is the state to show now (on the UI goroutine), and whether a
// step since the last take called for the list to be read again; the
// next offer hands a new job over.
func (l *latestState) take() (st syncer.State, due bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	st, due = l.state, l.due
	l.waiting, l.due = false, false
	return st, due
}

// listDue reports whether the list and the open proposal are read again
// for st, the state shown before being prev: a sync ended or got past
// its pull (the proposals are in), or the outbox's counts moved. The
// states in between are not shown, so the tests hold across them: a
// whole sync run since prev shows as a new LastSync, and a sync seen
// first in its catalog phase has pulled.
func listDue(prev, st syncer.State) bool {
	beforePull := func(s syncer.State) bool {
		return !s.Syncing || s.Phase == syncer.PhasePush || s.Phase == syncer.PhasePull
	}
	pulled := st.Syncing && !beforePull(st) && (beforePull(prev) || !prev.Syncing)
	return prev.Syncing && !st.Syncing || pulled || !prev.LastSync.Equal(st.LastSync) ||
		prev.Pending != st.Pending || prev.Failed != st.Failed || prev.Conflicts != st.Conflicts
}
