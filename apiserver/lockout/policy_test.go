package lockout

import (
	"context"
	"testing"
	"time"
)

func TestDecide(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	fails := func(n int, last time.Duration) Counts { return Counts{Failures: n, LastFailure: ago(last)} }
	known := Counts{LastSuccess: ago(24 * time.Hour)}
	p := Default
	for _, tc := range []struct {
		name  string
		s     State
		wait  time.Duration
		scope Scope
	}{
		{"nothing", State{}, 0, ScopeNone},
		{"pair under its allowance", State{Pair: fails(4, 0)}, 0, ScopeNone},
		{"pair at its allowance: first step", State{Pair: fails(5, 0)}, time.Second, ScopePair},
		{"pair one more: doubled", State{Pair: fails(6, 0)}, 2 * time.Second, ScopePair},
		{"pair step already waited", State{Pair: fails(6, 3*time.Second)}, 0, ScopeNone},
		{"pair part waited", State{Pair: fails(8, 3*time.Second)}, 5 * time.Second, ScopePair},
		{"pair capped", State{Pair: fails(30, 0)}, 15 * time.Minute, ScopePair},
		{"pair far past the cap does not overflow", State{Pair: fails(1000, time.Minute)}, 14 * time.Minute, ScopePair},
		{"pair forgotten", State{Pair: fails(30, 6*time.Hour)}, 0, ScopeNone},
		// An office behind one NAT: another user's typos at the address
		// do not lock this user out.
		{"address busy but under its allowance", State{Addr: fails(99, 0)}, 0, ScopeNone},
		{"address at its allowance", State{Addr: fails(100, 0)}, time.Second, ScopeAddr},
		{"address over", State{Addr: fails(103, 0)}, 8 * time.Second, ScopeAddr},
		// Guessing one user's password from many addresses.
		{"user across addresses under", State{User: fails(19, 0)}, 0, ScopeNone},
		{"user across addresses over", State{User: fails(22, 0)}, 4 * time.Second, ScopeUser},
		{"user over, but from a known address", State{Pair: known, User: fails(40, 0)}, 0, ScopeNone},
		{"known address long ago", State{Pair: Counts{LastSuccess: ago(31 * 24 * time.Hour)}, User: fails(22, 0)}, 4 * time.Second, ScopeUser},
		{"known address still limited by its own failures", State{Pair: Counts{Failures: 7, LastFailure: now, LastSuccess: ago(time.Hour)}}, 4 * time.Second, ScopePair},
		{"the longest wait wins", State{Pair: fails(6, 0), Addr: fails(104, 0), User: fails(21, 0)}, 16 * time.Second, ScopeAddr},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := p.Decide(tc.s, now)
			if d.Wait != tc.wait || d.Scope != tc.scope || d.Allowed() != (tc.wait == 0) {
				t.Fatalf("Decide = %+v, want wait %v scope %q", d, tc.wait, tc.scope)
			}
		})
	}
}

func TestMemoryCounts(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	m := NewMemory(Default, 0)
	a := KeysOf(" Ana@Example.test ", "10.0.0.1")
	b := KeysOf("bo@example.test", "10.0.0.1")
	for i := 0; i < 3; i++ {
		m.Failed(ctx, a, now)
	}
	m.Failed(ctx, b, now)
	s, _ := m.Load(ctx, KeysOf("ana@example.test", "10.0.0.1"))
	if s.Pair.Failures != 3 || s.Addr.Failures != 4 || s.User.Failures != 3 {
		t.Fatalf("state %+v", s)
	}
	m.Succeeded(ctx, a, now)
	s, _ = m.Load(ctx, a)
	if s.Pair.Failures != 0 || !Default.Known(s.Pair, now) || s.Addr.Failures != 4 || s.User.Failures != 3 {
		t.Fatalf("after success %+v", s)
	}
	// Failures long after the last are counted afresh.
	later := now.Add(Default.Forget)
	m.Failed(ctx, b, later)
	if s, _ := m.Load(ctx, b); s.Pair.Failures != 1 || s.Addr.Failures != 1 {
		t.Fatalf("after forgetting %+v", s)
	}
}

func TestMemoryIsBounded(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	m := NewMemory(Default, 50)
	for i := 0; i < 200; i++ {
		m.Failed(ctx, KeysOf("u"+string(rune('a'+i%26))+string(rune('a'+i/26)), "10.0.0.1"), now.Add(time.Duration(i)*time.Second))
	}
	if n := m.Len(); n > 50 {
		t.Fatalf("%d entries, bound 50", n)
	}
}

func TestKeysOfIPv6UsesThe64(t *testing.T) {
	a := KeysOf("x", "2001:db8:1:2:aaaa::1")
	b := KeysOf("x", "2001:db8:1:2:bbbb::9")
	c := KeysOf("x", "2001:db8:1:3::1")
	if a.Addr != b.Addr || a.Addr == c.Addr || KeysOf("x", "192.0.2.7").Addr != "192.0.2.7" {
		t.Fatalf("%q %q %q", a.Addr, b.Addr, c.Addr)
	}
}

// From a trusted device only the device's own failures count: a locked
// address, a guessed-at user name and the pair's typos do not.
func TestDecideTrustedDevice(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	locked := Counts{Failures: 200, LastFailure: now}
	for _, tc := range []struct {
		name   string
		device Counts
		wait   time.Duration
	}{
		{"device clean, everything else locked", Counts{}, 0},
		{"device under its allowance", Counts{Failures: 4, LastFailure: now}, 0},
		{"device at its allowance", Counts{Failures: 5, LastFailure: now}, time.Second},
		{"device capped", Counts{Failures: 50, LastFailure: now}, 15 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Default.Decide(State{Pair: locked, Addr: locked, User: locked, Device: &tc.device}, now)
			if d.Wait != tc.wait || (tc.wait > 0 && d.Scope != ScopeDevice) {
				t.Fatalf("Decide = %+v, want wait %v", d, tc.wait)
			}
		})
	}
}

func TestMemoryCountsADeviceApart(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	m := NewMemory(Default, 0)
	plain := KeysOf("ana@example.test", "10.0.0.1")
	dev := plain
	dev.Device = "d1"
	m.Failed(ctx, plain, now)
	m.Failed(ctx, dev, now)
	m.Failed(ctx, dev, now)
	s, _ := m.Load(ctx, dev)
	if s.Device == nil || s.Device.Failures != 2 || s.Pair.Failures != 1 || s.Addr.Failures != 1 || s.User.Failures != 1 {
		t.Fatalf("state %+v (device %+v)", s, s.Device)
	}
	if s, _ := m.Load(ctx, plain); s.Device != nil {
		t.Fatalf("device counts loaded without a device: %+v", s.Device)
	}
	m.Succeeded(ctx, dev, now)
	if s, _ := m.Load(ctx, dev); s.Device.Failures != 0 || s.Pair.Failures != 0 || !Default.Known(s.Pair, now) {
		t.Fatalf("after success %+v (device %+v)", s, s.Device)
	}
}
