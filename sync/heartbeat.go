package syncer

import (
	"context"
	"errors"
	"time"
)

// DefaultHeartbeat is how often Run asks whether the server answers,
// so that an outage (or the end of one) shows within a few seconds
// rather than at the next sync.
const DefaultHeartbeat = 5 * time.Second

// WithHeartbeat sets how often Run checks that the server answers (0
// turns the check off).
func WithHeartbeat(d time.Duration) EngineOption { return func(e *Engine) { e.beat = d } }

// heartbeat pings the server every e.beat until ctx ends. A ping
// without answer marks the engine offline at once; an answer after an
// outage marks it online and asks for a sync (the client's answer hook).
func (e *Engine) heartbeat(ctx context.Context) {
	if e.beat <= 0 {
		return
	}
	t := time.NewTicker(e.beat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if e.State().Syncing {
			continue // the sync reports reachability itself
		}
		err := e.c.Ping(ctx)
		if ctx.Err() != nil || err == nil || !(errors.Is(err, ErrUnreachable) || errors.Is(err, ErrCertificate)) {
			continue
		}
		e.goOffline(err)
	}
}

// goOffline marks the engine offline with err, publishing only when
// that changes something (a heartbeat fails every beat while the server
// is away, and a subscriber's work must not pile up).
func (e *Engine) goOffline(err error) {
	e.mu.Lock()
	if !e.state.Online || e.state.Syncing {
		e.mu.Unlock()
		return
	}
	e.state.Online, e.state.LastError = false, err
	s := e.state
	e.mu.Unlock()
	e.publish(s)
}
