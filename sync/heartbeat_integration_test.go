package syncer

import (
	"context"
	"errors"
	"testing"
	"time"

	"proposaldesk/app"
)

// The heartbeat: with the server gone, Run reports offline within a few
// beats although no sync is due for an hour; when it is back, online
// again (and a sync follows).
func TestEngineHeartbeatNoticesOutage(t *testing.T) {
	s := startReal(t)
	proxy := startProxy(t, s.URL)
	d := s.newDesk(t, proxy.URL(), app.RoleSales, nil, []Option{WithHTTPClient(noKeepAlive())},
		WithSyncInterval(time.Hour), WithHeartbeat(20*time.Millisecond))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.eng.Run(ctx) }()
	defer func() { cancel(); <-done }()

	waitState := func(what string, cond func(State) bool) time.Duration {
		t.Helper()
		start := time.Now()
		for !cond(d.eng.State()) {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("timed out waiting for %s: %+v", what, d.eng.State())
			}
			time.Sleep(5 * time.Millisecond)
		}
		return time.Since(start)
	}
	waitState("the first sync", func(s State) bool { return s.Online && !s.LastSync.IsZero() && !s.Syncing })
	proxy.always(proxyStep{Action: proxyDrop})
	waitState("offline", func(s State) bool { return !s.Online })
	if err := d.eng.State().LastError; !errors.Is(err, ErrUnreachable) {
		t.Fatalf("last error %v, want unreachable", err)
	}
	proxy.always(proxyStep{Action: proxyPass})
	waitState("online again", func(s State) bool { return s.Online })
}

// Ping is one signed request without retries: a dropped connection is
// ErrUnreachable at once.
func TestClientPing(t *testing.T) {
	s := startReal(t)
	proxy := startProxy(t, s.URL)
	c := s.signedIn(t, proxy.URL(), app.RoleSales, WithHTTPClient(noKeepAlive()))
	if err := c.Ping(bg); err != nil {
		t.Fatalf("ping: %v", err)
	}
	proxy.always(proxyStep{Action: proxyDrop})
	before, _ := proxy.stats()
	if err := c.Ping(bg); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("ping with the server gone: %v", err)
	}
	if after, _ := proxy.stats(); after-before != 1 {
		t.Fatalf("ping made %d connections, want 1 (no retries)", after-before)
	}
}
