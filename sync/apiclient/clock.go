package apiclient

import (
	"net/http"
	"sync"
	"time"
)

// clockOffset estimates server time minus local time from the Date headers
// of responses, so requests can be stamped with the server's idea of now.
//
// A Date header has one-second resolution and the server wrote it
// somewhere between the moment the request left (sent) and the moment the
// answer arrived (received). So each response bounds the offset to an
// interval, [date - received, date + 1s - sent]; the estimator keeps the
// intersection of the intervals it has seen and uses its midpoint. That
// smooths the resolution noise away without averaging in stale data:
// when a new interval does not overlap the kept one, a clock has jumped
// (the laptop's was set, or it slept) and the new interval replaces it.
type clockOffset struct {
	mu     sync.Mutex
	known  bool
	lo, hi time.Duration
}

// offset is the current estimate; zero until a response was seen.
func (c *clockOffset) offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.known {
		return 0
	}
	return c.lo + (c.hi-c.lo)/2
}

// observe folds in a response's Date header. force discards what was
// known first (the server just refused our timestamp). It reports whether
// the header was usable.
func (c *clockOffset) observe(date string, sent, received time.Time, force bool) bool {
	if date == "" {
		return false
	}
	d, err := http.ParseTime(date)
	if err != nil {
		return false
	}
	if received.Before(sent) {
		received = sent
	}
	lo := d.Sub(received)
	hi := d.Add(time.Second).Sub(sent)
	c.mu.Lock()
	defer c.mu.Unlock()
	if force || !c.known || lo > c.hi || hi < c.lo {
		c.known, c.lo, c.hi = true, lo, hi
		return true
	}
	c.lo, c.hi = max(c.lo, lo), min(c.hi, hi)
	return true
}
