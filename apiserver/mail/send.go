package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	netmail "net/mail"
	"time"

	gomail "github.com/wneessen/go-mail"

	"proposaldesk/apiserver/store"
)

// Settings are what sending needs. A zero Server.Host means no SMTP
// server is configured: the server then sends nothing.
type Settings struct {
	Server Server
	From   string
	// TLS, when not nil, is the TLS configuration (tests trust their
	// own certificate with it); nil verifies the server's certificate
	// against the system's roots.
	TLS *tls.Config
	// Timeout bounds one attempt: connecting, the dialogue and the
	// message (default 30s).
	Timeout time.Duration
}

// Sender sends one message through the configured SMTP server, on a new
// connection each time (mail goes out a few at a time; a kept connection
// would be one more thing to find broken).
type Sender struct {
	server  Server
	from    *netmail.Address
	tls     *tls.Config
	timeout time.Duration
}

// NewSender checks the settings.
func NewSender(s Settings) (*Sender, error) {
	if s.Server.Host == "" {
		return nil, fmt.Errorf("mail: no SMTP server configured")
	}
	from, err := ParseFrom(s.From)
	if err != nil {
		return nil, err
	}
	cfg := s.TLS
	if cfg == nil {
		cfg = &tls.Config{}
	}
	cfg = cfg.Clone()
	if cfg.ServerName == "" {
		cfg.ServerName = s.Server.Host
	}
	cfg.MinVersion = max(cfg.MinVersion, tls.VersionTLS12)
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	return &Sender{server: s.Server, from: from, tls: cfg, timeout: timeout}, nil
}

// Send delivers j: it returns once the SMTP server has accepted the
// message (its reply to the end of DATA), or with why not (see Classify).
func (s *Sender) Send(ctx context.Context, j store.MailJob) error {
	m, err := s.message(j)
	if err != nil {
		return err
	}
	opts := []gomail.Option{
		gomail.WithPort(s.server.Port),
		gomail.WithTLSConfig(s.tls),
		gomail.WithTimeout(s.timeout),
	}
	if s.server.ImplicitTLS {
		opts = append(opts, gomail.WithSSL())
	} else {
		// Upgrade when the server offers STARTTLS; a local relay that
		// does not is spoken to in plain text. (WithTLSPortPolicy would
		// move port 25 to 587.)
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if s.server.Username != "" {
		// The best mechanism the server offers; go-mail refuses PLAIN
		// and LOGIN over a connection that is not encrypted.
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.server.Username), gomail.WithPassword(s.server.Password))
	}
	c, err := gomail.NewClient(s.server.Host, opts...)
	if err != nil {
		return fmt.Errorf("mail client: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		return fmt.Errorf("send mail %d to %s: %w", j.ID, s.server, err)
	}
	return nil
}

// message is j as a MIME message: plain text, with the HTML as its
// alternative when there is one. Its Message-ID is the job's, so a
// receiver that sees a retry of a message it already has (the reply to
// DATA lost on the way back) can tell.
func (s *Sender) message(j store.MailJob) (*gomail.Msg, error) {
	m := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	m.FromMailAddress(s.from)
	if err := m.To(j.To...); err != nil {
		return nil, fmt.Errorf("mail %d recipients: %w", j.ID, err)
	}
	m.Subject(j.Subject)
	m.SetMessageIDWithValue(fmt.Sprintf("pd-mail.%d.%d@%s", j.ID, j.EnqueuedAt.UnixNano(), domainOf(s.from.Address)))
	m.SetDate()
	m.SetBodyString(gomail.TypeTextPlain, j.Text)
	if j.HTML != "" {
		m.AddAlternativeString(gomail.TypeTextHTML, j.HTML)
	}
	return m, nil
}

func domainOf(addr string) string {
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == '@' {
			return addr[i+1:]
		}
	}
	return "localhost"
}
