// Package smtptest runs a real SMTP server (github.com/emersion/go-smtp)
// in the test's process, on loopback: plain, offering STARTTLS, or TLS
// from the start, with a self-signed certificate the test trusts, and
// optionally asking for a password. It keeps what it received, and it
// can refuse or defer messages as a real server would.
package smtptest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Mode is how a client reaches the server.
type Mode int

const (
	Plain    Mode = iota // no TLS offered
	StartTLS             // plain, offering STARTTLS
	TLS                  // TLS from the first byte (smtps)
)

// Options configure Start.
type Options struct {
	Mode Mode
	// Username and Password, when set, are required (AUTH PLAIN).
	Username, Password string
	// Reply, when set, answers each message at the end of DATA (n counts
	// the messages offered, from 1): nil accepts it, an *smtp.SMTPError
	// refuses (5xx) or defers (4xx) it.
	Reply func(n int, m Message) error
}

// Message is what the server received in one transaction.
type Message struct {
	From string
	To   []string
	Data []byte
	TLS  bool   // the session was encrypted
	User string // who authenticated, if anyone
}

// Server is a running test SMTP server.
type Server struct {
	// URL names it as --smtp-url does (with the credentials).
	URL string
	// Roots trusts the server's certificate.
	Roots *x509.CertPool
	Host  string
	Port  int

	opt     Options
	mu      sync.Mutex
	offered int
	got     []Message
	changed chan struct{} // closed and replaced at each message
	srv     *smtp.Server
}

// Start runs a server until the test ends.
func Start(t testing.TB, opt Options) *Server {
	t.Helper()
	cert, roots := selfSigned(t)
	s := &Server{opt: opt, Roots: roots, changed: make(chan struct{})}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, encrypted := c.TLSConnectionState()
		return &session{s: s, tls: encrypted}, nil
	}))
	s.srv.Domain = "localhost"
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	tlsCfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	scheme := "smtp"
	switch opt.Mode {
	case StartTLS:
		s.srv.TLSConfig = tlsCfg
	case TLS:
		s.srv.TLSConfig = tlsCfg
		ln = tls.NewListener(ln, tlsCfg)
		scheme = "smtps"
	}
	addr := ln.Addr().(*net.TCPAddr)
	s.Host, s.Port = "127.0.0.1", addr.Port
	u := url.URL{Scheme: scheme, Host: net.JoinHostPort(s.Host, strconv.Itoa(s.Port))}
	if opt.Username != "" {
		u.User = url.UserPassword(opt.Username, opt.Password)
	}
	s.URL = u.String()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.srv.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = s.srv.Close()
		<-done
	})
	return s
}

// Close stops the server: clients then cannot connect.
func (s *Server) Close() { _ = s.srv.Close() }

// Messages are the messages accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.got...)
}

// Offered counts the messages offered (accepted or not).
func (s *Server) Offered() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offered
}

// Wait waits until cond holds of the accepted messages (checked at each
// message), or fails the test after timeout.
func (s *Server) Wait(t testing.TB, timeout time.Duration, cond func(offered int, got []Message) bool) []Message {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		offered, got, changed := s.offered, append([]Message(nil), s.got...), s.changed
		s.mu.Unlock()
		if cond(offered, got) {
			return got
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("smtptest: condition not met after %s: %d offered, %d accepted", timeout, offered, len(got))
		}
	}
}

// WaitCount waits for n accepted messages.
func (s *Server) WaitCount(t testing.TB, n int, timeout time.Duration) []Message {
	t.Helper()
	return s.Wait(t, timeout, func(_ int, got []Message) bool { return len(got) >= n })
}

type session struct {
	s    *Server
	tls  bool
	user string
	from string
	to   []string
}

func (se *session) AuthMechanisms() []string {
	if se.s.opt.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (se *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != se.s.opt.Username || password != se.s.opt.Password {
			return smtp.ErrAuthFailed
		}
		se.user = username
		return nil
	}), nil
}

func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	if se.s.opt.Username != "" && se.user == "" {
		return smtp.ErrAuthRequired
	}
	se.from = from
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	se.to = append(se.to, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := Message{From: se.from, To: se.to, Data: bytes.Clone(data), TLS: se.tls, User: se.user}
	s := se.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.offered++
	var reply error
	if s.opt.Reply != nil {
		reply = s.opt.Reply(s.offered, m)
	}
	if reply == nil {
		s.got = append(s.got, m)
	}
	close(s.changed)
	s.changed = make(chan struct{})
	return reply
}

func (se *session) Reset()        { se.from, se.to = "", nil }
func (se *session) Logout() error { return nil }

// Refuse is a permanent refusal (550 5.7.1).
var Refuse = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Message rejected by policy"}

// Defer is a transient refusal (451 4.3.0).
var Defer = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Temporary failure, try again later"}

// selfSigned makes a certificate for 127.0.0.1 and localhost and a pool
// that trusts it.
func selfSigned(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "smtptest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, roots
}
