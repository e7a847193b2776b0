package apiserver

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"proposaldesk/app"
)

// testClock is a server clock the test moves forward.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestSignInLockout runs the lockout policy end to end on a server over
// loopback; client addresses come from X-Forwarded-For (a trusted proxy).
func TestSignInLockout(t *testing.T) {
	clock := &testClock{t: time.Now()}
	e := newEnv(t, func(c *Config) { c.Now = clock.Now; c.TrustForwarded = true })
	exchange := func(u *tuser, password, addr string) tres {
		t.Helper()
		return e.do(treq{method: "GET", path: exchangePath(u.rec.Email, password),
			header: map[string]string{"X-Forwarded-For": addr}})
	}
	retryAfter := func(r tres) int {
		t.Helper()
		n, err := strconv.Atoi(r.header.Get("Retry-After"))
		if err != nil || n <= 0 {
			t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
		}
		return n
	}
	const wrong = "wrong password!"
	// fail makes one failed attempt, first sitting out any wait it is
	// told of (the clock moves by Retry-After).
	fail := func(u *tuser, addr string) {
		t.Helper()
		r := exchange(u, wrong, addr)
		if r.status == http.StatusTooManyRequests {
			clock.advance(time.Duration(retryAfter(r)) * time.Second)
			r = exchange(u, wrong, addr)
		}
		wantError(t, r, 401, app.KindInvalidCredentials)
	}
	admin, viewer, sales := e.main.admin, e.main.viewer, e.main.sales

	t.Run("one user's typos do not lock out the office", func(t *testing.T) {
		const office = "198.51.100.7"
		for range 10 {
			fail(admin, office)
		}
		// Another user behind the same address signs in.
		wantStatus(t, exchange(viewer, testPassword, office), 200)
		// The same user at that address waits, briefly: 2^5 s after the
		// tenth failure, not a flat 15 minutes.
		r := exchange(admin, testPassword, office)
		wantError(t, r, 429, app.KindRateLimited)
		if n := retryAfter(r); n > 32 {
			t.Fatalf("Retry-After %d s after 10 failures", n)
		}
		// From another address the correct password works at once.
		wantStatus(t, exchange(admin, testPassword, "203.0.113.9"), 200)
		// Once the wait is over it works from the office too.
		clock.advance(33 * time.Second)
		wantStatus(t, exchange(admin, testPassword, office), 200)
	})

	t.Run("guessing one password from many addresses", func(t *testing.T) {
		const home = "192.0.2.50"
		wantStatus(t, exchange(sales, testPassword, home), 200)
		for i := range 25 {
			fail(sales, fmt.Sprintf("10.1.%d.1", i))
		}
		r := exchange(sales, testPassword, "10.2.0.1")
		wantError(t, r, 429, app.KindRateLimited)
		retryAfter(r)
		// The user's known address still works.
		wantStatus(t, exchange(sales, testPassword, home), 200)
	})

	t.Run("one address trying many names", func(t *testing.T) {
		const bot = "198.51.100.66"
		for i := range 100 {
			r := e.do(treq{method: "GET", path: exchangePath(fmt.Sprintf("nobody%d@x.test", i), wrong),
				header: map[string]string{"X-Forwarded-For": bot}})
			wantError(t, r, 401, app.KindInvalidCredentials)
		}
		r := exchange(e.main.unverified, testPassword, bot)
		b := wantError(t, r, 429, app.KindRateLimited)
		retryAfter(r)
		if b.Message == "" || r.status != http.StatusTooManyRequests {
			t.Fatalf("%s", r.body)
		}
	})
}
