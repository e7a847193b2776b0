package lockout

import (
	"context"
	"net"
	"strings"
	"time"
)

// Keys name one attempt's scopes.
type Keys struct {
	// User is the user name as typed, trimmed and lower-cased.
	User string
	// Addr is the client address: an IPv4 address, or an IPv6 /64
	// (one customer's usual allocation, so hopping inside it does not
	// reset the count).
	Addr string
	// Device is the ID of a valid device token of User that came with
	// the attempt ("" when none did). An attempt from a trusted device
	// is limited by that device's own failures only (Policy.Decide).
	Device string
}

// KeysOf normalizes a user name and a client IP into Keys.
func KeysOf(userName, clientIP string) Keys {
	return Keys{User: strings.ToLower(strings.TrimSpace(userName)), Addr: addrKey(clientIP)}
}

func addrKey(ip string) string {
	parsed := net.ParseIP(ip)
	if parsed == nil || parsed.To4() != nil {
		return ip
	}
	return parsed.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// Counter holds failure counts. Implementations must be safe for
// concurrent use; a store shared by several servers makes the counts
// shared too.
type Counter interface {
	// Load returns the counts of k's scopes; State.Device is non-nil
	// exactly when k.Device is set.
	Load(ctx context.Context, k Keys) (State, error)
	// Failed counts one failed attempt in each scope of k.Counted.
	Failed(ctx context.Context, k Keys, now time.Time) error
	// Succeeded clears the (user, address) failures and records the
	// success there, and clears the device's failures; the address and
	// user scopes keep their counts.
	Succeeded(ctx context.Context, k Keys, now time.Time) error
}

// Scopes are the names of k's scopes, as a Counter keys them: the
// (user, address) pair, the address, the user, and the device ("" when
// k has none).
func (k Keys) Scopes() (pair, addr, user, device string) {
	if k.Device != "" {
		device = deviceKey(k)
	}
	return pairKey(k), addrKeyOf(k), userKey(k), device
}

// Counted are the scopes a failed attempt counts in: the device's alone
// when it came from a trusted device (someone else's guesses at the
// office's address must not use up the allowance of the user's own
// device, and the other way round), else the pair, address and user.
func (k Keys) Counted() []string {
	if k.Device != "" {
		return []string{deviceKey(k)}
	}
	return []string{pairKey(k), addrKeyOf(k), userKey(k)}
}

// Cleared are the scopes a correct sign-in clears: the pair (which it
// also marks known) and the device, if any.
func (k Keys) Cleared() []string {
	if k.Device != "" {
		return []string{pairKey(k), deviceKey(k)}
	}
	return []string{pairKey(k)}
}
