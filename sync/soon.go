package syncer

import (
	"context"
	"fmt"
	"time"
)

// The sync an edit asks for. Every edit is stored and queued at once;
// sending it can wait a moment. A sync at once after each edit ran while
// the screen drew the edit: with a 500-item proposal on two cores, the
// push, the server's answer read back and the proposal read again took
// the CPU from the frame that showed a structural edit. Waiting for a
// pause in the editing sends a burst of edits (a line added, named,
// moved) in one sync, and an edit's frame is drawn before its sync
// starts. Sync now, a reconnection and the interval still sync at once.

// Defaults of the wait (WithEditSyncDelay).
const (
	DefaultEditSyncDelay = 400 * time.Millisecond
	DefaultEditSyncMost  = 2 * time.Second
)

// WithEditSyncDelay sets how long the sync an edit asks for waits for
// the next edit (delay), and how long at most after the first edit not
// yet sent (most). A delay of 0 syncs after every edit at once.
func WithEditSyncDelay(delay, most time.Duration) EngineOption {
	return func(e *Engine) { e.editDelay, e.editMost = delay, max(most, delay) }
}

// editSyncAt is when the sync asked for by edits is due: delay after the
// last edit, but no later than most after the first one it waits for.
func editSyncAt(first, last time.Time, delay, most time.Duration) time.Time {
	due := last.Add(delay)
	if limit := first.Add(most); limit.Before(due) {
		return limit
	}
	return due
}

// requestSoon asks Run for a sync once the editing pauses (editSyncAt).
func (e *Engine) requestSoon() {
	if e.editDelay <= 0 {
		e.Request()
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	now := time.Now()
	if e.soon == nil {
		e.soonFirst = now
		e.soonGen++
		gen := e.soonGen
		e.soon = time.AfterFunc(e.editDelay, func() { e.soonDue(gen) })
		return
	}
	e.soon.Reset(max(editSyncAt(e.soonFirst, now, e.editDelay, e.editMost).Sub(now), 0))
}

// soonDue asks for the sync the edits waited for. A timer that another
// edit reset while it fired only asks again (gen: not the timer of now).
func (e *Engine) soonDue(gen int) {
	e.mu.Lock()
	if e.soonGen == gen {
		e.soon = nil
	}
	e.mu.Unlock()
	e.Request()
}

// SendWaiting sends the queued edits at once, and nothing else (no
// pull), within ctx: as the app closes, an edit still waiting for a
// pause reaches the server now rather than at the next start. It does
// nothing when nothing waits, or when the last request found the server
// unreachable. Stop Run first: this waits for a sync in progress.
func (e *Engine) SendWaiting(ctx context.Context) error {
	if st := e.State(); st.Pending == 0 || !st.Online {
		return nil
	}
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	err := e.push(ctx)
	e.refreshCounts()
	if err != nil {
		return fmt.Errorf("sending the queued edits: %w", err)
	}
	return nil
}
