// Package mail delivers the server's outgoing mail (the client's link to
// a proposal) through an SMTP server: the settings, the sending
// (github.com/wneessen/go-mail), and a durable queue kept in the server's
// store that retries what a mail server deferred and reports what it
// refused for good.
package mail

import (
	"errors"
	"fmt"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
)

// DefaultFrom is the sender of a server started without --mail-from:
// fine for a demo on a test relay, not for real clients (the domain is
// reserved and receivers reject or bin it).
const DefaultFrom = "Proposal Desk <proposals@proposaldesk.example>"

// Server is an SMTP server as --smtp-url names it.
type Server struct {
	Host string
	Port int
	// ImplicitTLS is smtps://: TLS from the first byte. Otherwise the
	// connection starts in plain text and upgrades with STARTTLS when
	// the server offers it (an office's local relay may not).
	ImplicitTLS bool
	Username    string
	Password    string
}

// ParseURL reads smtp://[user[:password]@]host[:port] (port 25 by
// default) or smtps://… (port 465). The user part is percent-decoded,
// so a password may hold any character.
func ParseURL(raw string) (Server, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Server{}, fmt.Errorf("SMTP URL: %w", err)
	}
	var s Server
	switch strings.ToLower(u.Scheme) {
	case "smtp":
		s.Port = 25
	case "smtps":
		s.Port, s.ImplicitTLS = 465, true
	default:
		return Server{}, fmt.Errorf("SMTP URL %q: the scheme must be smtp:// (STARTTLS when offered) or smtps:// (TLS)", redact(u))
	}
	if u.Opaque != "" || u.Host == "" {
		return Server{}, fmt.Errorf("SMTP URL %q: no host (write smtp://host:port)", redact(u))
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return Server{}, fmt.Errorf("SMTP URL %q: only a user, a host and a port are read; remove the rest", redact(u))
	}
	s.Host = u.Hostname()
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Server{}, fmt.Errorf("SMTP URL %q: port %q is not a port number", redact(u), p)
		}
		s.Port = n
	}
	if u.User != nil {
		s.Username = u.User.Username()
		s.Password, _ = u.User.Password()
		if s.Username == "" {
			return Server{}, fmt.Errorf("SMTP URL %q: a password without a user name", redact(u))
		}
	}
	return s, nil
}

// String is the URL with the password left out, for logs.
func (s Server) String() string {
	u := url.URL{Scheme: "smtp", Host: s.Host + ":" + strconv.Itoa(s.Port)}
	if s.ImplicitTLS {
		u.Scheme = "smtps"
	}
	if s.Username != "" {
		u.User = url.User(s.Username)
	}
	return u.String()
}

func redact(u *url.URL) string { return u.Redacted() }

// ParseFrom checks a --mail-from address ("Name <addr>" or a bare
// address).
func ParseFrom(from string) (*netmail.Address, error) {
	if strings.TrimSpace(from) == "" {
		return nil, errors.New("mail sender: empty (set --mail-from)")
	}
	a, err := netmail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("mail sender %q: %w", from, err)
	}
	return a, nil
}
