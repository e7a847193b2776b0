package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrForbiddenAddress is a receiver address inside the server's own
// networks (loopback, link-local, private, the cloud metadata address)
// while the server is not started with --webhook-allow-private.
var ErrForbiddenAddress = errors.New("webhook: the address is not a public one")

// Guard keeps deliveries away from the server's own networks: it checks
// a URL when a subscription is made, and every address a delivery
// connects to (the name may resolve elsewhere by then).
type Guard struct {
	// AllowPrivate lets URLs reach loopback and private networks and
	// be plain http (an office server delivering inside its LAN). The
	// metadata address stays refused.
	AllowPrivate bool
	// Lookup resolves a host name (default net.DefaultResolver's).
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

func (g *Guard) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if g.Lookup != nil {
		return g.Lookup(ctx, host)
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// metadata is the cloud instance metadata address: never a receiver.
var metadata = netip.MustParseAddr("169.254.169.254")

// AddrAllowed is the address rule, as a pure function.
func AddrAllowed(a netip.Addr, allowPrivate bool) bool {
	a = a.Unmap()
	if a == metadata || !a.IsValid() || a.IsUnspecified() || a.IsMulticast() {
		return false
	}
	if allowPrivate {
		return true
	}
	if a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || a.IsPrivate() || a.IsInterfaceLocalMulticast() {
		return false
	}
	// Shared address space (carrier NAT) and IPv4 "this network".
	for _, p := range []netip.Prefix{netip.MustParsePrefix("100.64.0.0/10"), netip.MustParsePrefix("0.0.0.0/8")} {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// CheckURL checks a subscription's URL: absolute, https (or http when
// private addresses are allowed), no user info, and a host whose every
// address is allowed.
func (g *Guard) CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return fmt.Errorf("not an absolute URL")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && g.AllowPrivate:
	default:
		return fmt.Errorf("must be https")
	}
	if u.User != nil {
		return fmt.Errorf("must not carry a user name or password")
	}
	addrs, err := g.resolve(ctx, u.Hostname())
	if err != nil {
		return err
	}
	for _, a := range addrs {
		if !AddrAllowed(a, g.AllowPrivate) {
			return fmt.Errorf("%w: %s resolves to %s", ErrForbiddenAddress, u.Hostname(), a)
		}
	}
	return nil
}

func (g *Guard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return []netip.Addr{a}, nil
	}
	addrs, err := g.lookup(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve %s: %w", host, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%s has no address", host)
	}
	return addrs, nil
}

// dialContext resolves through Guard and connects only to allowed
// addresses; the dialer's Control hook checks the address actually
// connected to once more, whatever produced it.
func (g *Guard) dialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	addrs, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Control: g.control}
	var firstErr error
	for _, a := range addrs {
		if !AddrAllowed(a, g.AllowPrivate) {
			if firstErr == nil {
				firstErr = fmt.Errorf("%w: %s resolves to %s", ErrForbiddenAddress, host, a)
			}
			continue
		}
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

func (g *Guard) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("webhook: unexpected address %q: %w", address, err)
	}
	if !AddrAllowed(ap.Addr(), g.AllowPrivate) {
		return fmt.Errorf("%w: %s", ErrForbiddenAddress, ap.Addr())
	}
	return nil
}

// Client is the HTTP client deliveries go through: every connection
// checked by the guard, no proxy from the environment, redirects never
// followed (a 3xx is a failed attempt), timeout per attempt.
func (g *Guard) Client(timeout time.Duration) *http.Client {
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           g.dialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{
		Transport: tr,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
