package webhook

import (
	"net/netip"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestDecide(t *testing.T) {
	for _, c := range []struct {
		name string
		try  Try
		want Decision
	}{
		{"2xx delivers", Try{Attempt: 1, Status: 204, At: t0}, Decision{Result: ResultDelivered, Done: true}},
		{"first failure waits 5 s", Try{Attempt: 1, Status: 500, At: t0, Jitter: 0.5}, Decision{Result: ResultRetrying, NextAt: t0.Add(5 * time.Second)}},
		{"jitter low end", Try{Attempt: 2, Status: 500, At: t0, Jitter: 0}, Decision{Result: ResultRetrying, NextAt: t0.Add(4 * time.Minute)}},
		{"no answer is a failure", Try{Attempt: 3, Status: 0, At: t0, Jitter: 0.5}, Decision{Result: ResultRetrying, NextAt: t0.Add(30 * time.Minute)}},
		{"Retry-After further than the schedule", Try{Attempt: 1, Status: 503, RetryAfter: time.Hour, At: t0, Jitter: 0.5}, Decision{Result: ResultRetrying, NextAt: t0.Add(time.Hour)}},
		{"Retry-After nearer than the schedule", Try{Attempt: 4, Status: 429, RetryAfter: time.Second, At: t0, Jitter: 0.5}, Decision{Result: ResultRetrying, NextAt: t0.Add(2 * time.Hour)}},
		{"Retry-After capped at a day", Try{Attempt: 1, Status: 503, RetryAfter: 72 * time.Hour, At: t0, Jitter: 0.5}, Decision{Result: ResultRetrying, NextAt: t0.Add(24 * time.Hour)}},
		{"last retry", Try{Attempt: 9, Status: 500, At: t0, FailingSince: t0.Add(-time.Hour), Jitter: 0.5}, Decision{Result: ResultRetrying, NextAt: t0.Add(24 * time.Hour)}},
		{"schedule exhausted", Try{Attempt: 10, Status: 500, At: t0, FailingSince: t0.Add(-time.Hour)}, Decision{Result: ResultFailed, Done: true}},
	} {
		if got := Decide(c.try); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
	gone := Decide(Try{Attempt: 1, Status: 410, At: t0})
	if !gone.Disable || !gone.Done || gone.Reason == "" {
		t.Errorf("410: %+v", gone)
	}
	days := Decide(Try{Attempt: 3, Status: 500, At: t0, FailingSince: t0.Add(-DisableAfter)})
	if !days.Disable || !days.Done || days.Reason == "" {
		t.Errorf("failing for days: %+v", days)
	}
	if d := Decide(Try{Attempt: 3, Status: 500, At: t0, FailingSince: t0.Add(-DisableAfter + time.Minute)}); d.Disable {
		t.Errorf("disabled before DisableAfter: %+v", d)
	}
}

func TestParseRetryAfter(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"":    0,
		"0":   0,
		"-3":  0,
		"x":   0,
		"120": 2 * time.Minute,
		t0.Add(90 * time.Second).Format("Mon, 02 Jan 2006 15:04:05 GMT"): 90 * time.Second,
		t0.Add(-time.Hour).Format("Mon, 02 Jan 2006 15:04:05 GMT"):       0,
		"999999999": 24 * time.Hour,
	} {
		if got := ParseRetryAfter(in, t0); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
}

func TestAddrAllowed(t *testing.T) {
	for _, c := range []struct {
		addr          string
		public, inLAN bool
	}{
		{"93.184.216.34", true, true},
		{"2606:2800:220:1:248:1893:25c8:1946", true, true},
		{"127.0.0.1", false, true},
		{"::1", false, true},
		{"10.0.0.1", false, true},
		{"172.16.5.4", false, true},
		{"192.168.1.10", false, true},
		{"169.254.1.1", false, true},
		{"169.254.169.254", false, false},
		{"::ffff:169.254.169.254", false, false},
		{"::ffff:127.0.0.1", false, true},
		{"fe80::1", false, true},
		{"fc00::1", false, true},
		{"100.64.0.1", false, true},
		{"0.0.0.0", false, false},
		{"224.0.0.1", false, false},
	} {
		a := netip.MustParseAddr(c.addr)
		if got := AddrAllowed(a, false); got != c.public {
			t.Errorf("%s public: %v", c.addr, got)
		}
		if got := AddrAllowed(a, true); got != c.inLAN {
			t.Errorf("%s with private allowed: %v", c.addr, got)
		}
	}
}
