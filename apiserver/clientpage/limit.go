package clientpage

import (
	"sync"
	"time"
)

// Limit bounds the requests of one address to the client page: Requests
// per Window in all, and Failures (tokens that open nothing) per Window.
type Limit struct {
	Requests, Failures int
	Window             time.Duration
}

// DefaultLimit lets a client use the page freely and a guesser try 20
// tokens in 10 minutes (against 128 random bits).
var DefaultLimit = Limit{Requests: 300, Failures: 20, Window: 10 * time.Minute}

type limiter struct {
	lim   Limit
	mu    sync.Mutex
	start time.Time
	reqs  map[string]int
	fails map[string]int
}

func newLimiter(l Limit) *limiter {
	return &limiter{lim: l, reqs: map[string]int{}, fails: map[string]int{}}
}

// roll starts a new window when the last one is over (fixed windows:
// memory is one count per address seen in the window).
func (l *limiter) roll(now time.Time) {
	if now.Sub(l.start) >= l.lim.Window {
		l.start, l.reqs, l.fails = now, map[string]int{}, map[string]int{}
	}
}

// allow counts a request of addr and says whether it may go on.
func (l *limiter) allow(addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.roll(now)
	l.reqs[addr]++
	return l.reqs[addr] <= l.lim.Requests && l.fails[addr] < l.lim.Failures
}

// fail counts a token of addr that opened nothing.
func (l *limiter) fail(addr string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.roll(now)
	l.fails[addr]++
}
