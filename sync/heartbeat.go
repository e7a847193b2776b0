package syncer

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// DefaultHeartbeat is how often Run asks whether the server answers,
// so that an outage (or the end of one) shows within a few seconds
// rather than at the next sync.
const DefaultHeartbeat = 5 * time.Second

// pingTimeout bounds one heartbeat: a server that does not answer in
// this time is taken as unreachable.
const pingTimeout = 3 * time.Second

// WithHeartbeat sets how often Run checks that the server answers (0
// turns the check off).
func WithHeartbeat(d time.Duration) EngineOption { return func(e *Engine) { e.beat = d } }

// Ping asks the server once, without retries, whether it answers: a
// signed HEAD of the public API document (no body comes back). Any HTTP
// answer counts (the server is there); no answer is an error matching
// ErrUnreachable or ErrCertificate.
func (c *Client) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	u, err := c.buildURL("/openapi.json", nil)
	if err != nil {
		return err
	}
	if _, _, _, err := c.attempt(ctx, call{method: http.MethodHead, path: "/openapi.json"}, u, "", nil); err != nil {
		return err
	}
	c.noteAnswer()
	return nil
}

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
