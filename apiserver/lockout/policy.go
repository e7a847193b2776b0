// Package lockout decides when a sign-in (the key exchange) must wait
// after failed attempts. The decision is one pure function of the
// failure counts (Policy.Decide); the counts live behind Counter, whose
// in-memory implementation is Memory. A store shared by several server
// replicas implements Counter the same way.
//
// Failures are counted in three scopes: per (user name, client address),
// per client address across user names (a much higher allowance, so one
// person's typos never lock out an office behind one NAT), and per user
// name across addresses (against guessing one password from many
// addresses). Past a scope's free allowance every further attempt waits
// a delay that doubles with each failure, up to a cap.
//
// An attempt that presents a valid device token of its user (a device
// where the user signed in correctly before) is counted and limited in a
// fourth scope, that device's, instead: failures of others at the same
// address or against the same user name do not lock the user out of
// their own device (OWASP's "device cookies").
package lockout

import "time"

// Counts is what a Counter holds for one scope.
type Counts struct {
	Failures    int
	LastFailure time.Time
	// LastSuccess is the last correct sign-in; kept for the (user,
	// address) scope only, where it makes the address known for the user.
	LastSuccess time.Time
}

// State is the counts of the scopes of one attempt. Device is nil when
// the attempt came without a valid device token.
type State struct {
	Pair, Addr, User Counts
	Device           *Counts
}

// Rule is one scope's allowance.
type Rule struct {
	// Free failures cost nothing.
	Free int
	// After Free failures the next attempt waits Base after the last
	// failure, doubling with each further failure, at most Max.
	Base, Max time.Duration
}

// Policy is the whole lockout policy.
type Policy struct {
	Pair, Addr, User Rule
	// Device is the allowance of one trusted device.
	Device Rule
	// Forget: a scope's failures are forgotten this long after its last
	// failure.
	Forget time.Duration
	// KnownFor: an address where the user signed in correctly within
	// this time is known for that user, and the per-user scope does not
	// apply there (an attacker guessing from elsewhere cannot lock the
	// user out of their usual places).
	KnownFor time.Duration
}

// Default is the server's policy (DECISIONS.md "Sign-in lockout").
var Default = Policy{
	Pair:     Rule{Free: 5, Base: time.Second, Max: 15 * time.Minute},
	Addr:     Rule{Free: 100, Base: time.Second, Max: 15 * time.Minute},
	User:     Rule{Free: 20, Base: time.Second, Max: 15 * time.Minute},
	Device:   Rule{Free: 5, Base: time.Second, Max: 15 * time.Minute},
	Forget:   6 * time.Hour,
	KnownFor: 30 * 24 * time.Hour,
}

// Scope names which limit a Decision comes from.
type Scope string

const (
	ScopeNone Scope = ""
	ScopePair Scope = "user and address"
	ScopeAddr Scope = "address"
	ScopeUser Scope = "user"
	// ScopeDevice is the message's word for a trusted device.
	ScopeDevice Scope = "device"
)

// Decision says whether an attempt may go ahead now.
type Decision struct {
	// Wait is zero when the attempt may go ahead; otherwise how long
	// until it may.
	Wait  time.Duration
	Scope Scope
}

// Allowed reports whether the attempt may go ahead now.
func (d Decision) Allowed() bool { return d.Wait <= 0 }

// Decide is the policy: the longest wait any applicable scope imposes.
// From a trusted device only the device's own failures apply.
func (p Policy) Decide(s State, now time.Time) Decision {
	d := Decision{}
	consider := func(sc Scope, r Rule, c Counts) {
		if w := p.wait(r, c, now); w > d.Wait {
			d = Decision{Wait: w, Scope: sc}
		}
	}
	if s.Device != nil {
		consider(ScopeDevice, p.Device, *s.Device)
		return d
	}
	consider(ScopePair, p.Pair, s.Pair)
	consider(ScopeAddr, p.Addr, s.Addr)
	if !p.Known(s.Pair, now) {
		consider(ScopeUser, p.User, s.User)
	}
	return d
}

// Known reports whether the pair's address is known for its user.
func (p Policy) Known(pair Counts, now time.Time) bool {
	return !pair.LastSuccess.IsZero() && now.Sub(pair.LastSuccess) < p.KnownFor
}

// Live reports whether c's failures still count at now.
func (p Policy) Live(c Counts, now time.Time) bool {
	return c.Failures > 0 && now.Sub(c.LastFailure) < p.Forget
}

func (p Policy) wait(r Rule, c Counts, now time.Time) time.Duration {
	if !p.Live(c, now) || c.Failures < r.Free {
		return 0
	}
	delay := r.Max
	if over := c.Failures - r.Free; over < 40 {
		if d := r.Base << over; d > 0 && d < r.Max {
			delay = d
		}
	}
	return c.LastFailure.Add(delay).Sub(now)
}
