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
	// Load returns the counts of k's three scopes.
	Load(ctx context.Context, k Keys) (State, error)
	// Failed counts one failed attempt in all three scopes.
	Failed(ctx context.Context, k Keys, now time.Time) error
	// Succeeded clears the (user, address) failures and records the
	// success there; the address and user scopes keep their counts.
	Succeeded(ctx context.Context, k Keys, now time.Time) error
}

// Scopes are the names of k's three scopes, as a Counter keys them: the
// (user, address) pair, the address, and the user.
func (k Keys) Scopes() (pair, addr, user string) { return pairKey(k), addrKeyOf(k), userKey(k) }
