package mail

import "time"

// Schedule is when a message the mail server deferred is tried again:
// First after the first failed attempt, doubling with each attempt up to
// Max, until GiveUpAfter has passed since it was queued (then it counts
// as refused for good, and the proposal says so).
type Schedule struct {
	First       time.Duration
	Max         time.Duration
	GiveUpAfter time.Duration
}

// DefaultSchedule retries after 30s, 1m, 2m, … then hourly, for two
// days: a relay down over a weekend night is ridden out, and a
// salesperson hears of a mail that cannot go out while the client still
// waits for it.
var DefaultSchedule = Schedule{First: 30 * time.Second, Max: time.Hour, GiveUpAfter: 48 * time.Hour}

// Next is when to try again after attempt (1 for the first) failed at
// now, for a message queued at enqueued; giveUp is true when that would
// be past GiveUpAfter.
func (s Schedule) Next(attempt int, enqueued, now time.Time) (next time.Time, giveUp bool) {
	wait := s.First
	for i := 1; i < attempt && wait < s.Max; i++ {
		wait *= 2
	}
	wait = min(wait, s.Max)
	next = now.Add(wait)
	if next.Sub(enqueued) > s.GiveUpAfter {
		return time.Time{}, true
	}
	return next, false
}
