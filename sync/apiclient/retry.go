package apiclient

import (
	"context"
	"time"
)

// Retry defaults.
const (
	DefaultMaxAttempts   = 4
	DefaultBackoffBase   = 250 * time.Millisecond
	DefaultBackoffCap    = 10 * time.Second
	DefaultMaxRetryAfter = 60 * time.Second
	DefaultTimeout       = 30 * time.Second
)

// backoff is capped exponential backoff with full jitter: before retry n
// (n = 1 for the first retry) it waits a uniformly random time in
// [0, min(cap, base·2^(n-1))).
type backoff struct {
	base, cap time.Duration
	random    func() float64 // in [0, 1)
}

func (b backoff) wait(retry int) time.Duration {
	ceiling := b.cap
	if shift := retry - 1; shift < 32 {
		if d := b.base << shift; d > 0 && d < ceiling {
			ceiling = d
		}
	}
	r := b.random()
	if r < 0 || r >= 1 {
		r = 0
	}
	return time.Duration(r * float64(ceiling))
}

// sleepContext waits d or until ctx is done.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
