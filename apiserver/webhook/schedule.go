package webhook

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Schedule is the wait before each retry, after the first attempt
// fails: the Standard Webhooks specification's example schedule.
var Schedule = []time.Duration{
	5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
	5 * time.Hour, 10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour,
}

// DisableAfter is how long a subscription may fail without a single
// success before the server disables it: about the schedule's span, so
// an event that exhausted every retry disables it.
const DisableAfter = 72 * time.Hour

// maxRetryAfter bounds how far a receiver's Retry-After may push a retry.
const maxRetryAfter = 24 * time.Hour

// Result words of the delivery log.
const (
	ResultDelivered = "Delivered"
	ResultRetrying  = "Retrying"
	ResultFailed    = "Failed"
	ResultDisabled  = "Disabled"
)

// Try is what one attempt did, as Decide reads it.
type Try struct {
	// Attempt is this attempt's number, from 1.
	Attempt int
	// Status is the receiver's HTTP status; 0 when none came.
	Status int
	// RetryAfter is the receiver's Retry-After (0: none).
	RetryAfter time.Duration
	At         time.Time
	// FailingSince is the subscription's first failure since its last
	// success (zero: none).
	FailingSince time.Time
	// Jitter, in [0,1), spreads retries: the wait is scaled by 0.8 to
	// 1.2 so receivers that failed together do not retry together.
	Jitter float64
}

// Decision is what follows an attempt.
type Decision struct {
	Result string
	// Done: the delivery leaves the queue.
	Done bool
	// NextAt is the next attempt's time when not Done.
	NextAt time.Time
	// Disable the subscription, saying Reason.
	Disable bool
	Reason  string
}

// Decide is the delivery rule: a 2xx delivers; 410 Gone disables the
// subscription; anything else retries on Schedule (a Retry-After
// further out than the schedule's wait is honoured, up to a day) until
// the schedule runs out, and a subscription failing for DisableAfter
// is disabled.
func Decide(t Try) Decision {
	switch {
	case t.Status >= 200 && t.Status < 300:
		return Decision{Result: ResultDelivered, Done: true}
	case t.Status == http.StatusGone:
		return Decision{Result: ResultDisabled, Done: true, Disable: true,
			Reason: "The receiver answered 410 Gone: it no longer wants these events."}
	}
	since := t.FailingSince
	if since.IsZero() {
		since = t.At
	}
	if t.At.Sub(since) >= DisableAfter {
		return Decision{Result: ResultDisabled, Done: true, Disable: true,
			Reason: "Every delivery failed for " + days(t.At.Sub(since)) + " since " + since.UTC().Format(time.RFC3339) + "; fix the receiver and enable the subscription again."}
	}
	if t.Attempt > len(Schedule) {
		return Decision{Result: ResultFailed, Done: true}
	}
	wait := time.Duration(float64(Schedule[t.Attempt-1]) * (0.8 + 0.4*t.Jitter))
	if ra := min(t.RetryAfter, maxRetryAfter); ra > wait {
		wait = ra
	}
	return Decision{Result: ResultRetrying, NextAt: t.At.Add(wait)}
}

func days(d time.Duration) string {
	n := int(d / (24 * time.Hour))
	if n == 1 {
		return "1 day"
	}
	return strconv.Itoa(n) + " days"
}

// ParseRetryAfter reads a Retry-After header: seconds or an HTTP date,
// relative to now; 0 for none or nonsense.
func ParseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		return time.Duration(min(n, int64(maxRetryAfter/time.Second))) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		return at.Sub(now)
	}
	return 0
}
