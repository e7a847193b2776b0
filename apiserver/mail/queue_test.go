package mail_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"proposaldesk/apiserver/mail"
	"proposaldesk/apiserver/mail/smtptest"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/store/boltstore"
)

var ctx = context.Background()

// fast retries, so a deferred message comes back within the test.
var fast = mail.QueueOptions{Schedule: mail.Schedule{First: 20 * time.Millisecond, Max: 100 * time.Millisecond, GiveUpAfter: time.Hour},
	Poll: 50 * time.Millisecond, Log: slog.New(slog.DiscardHandler)}

const wait = 20 * time.Second

// openBolt opens (or reopens) the store file at path.
func openBolt(t *testing.T, path string) *boltstore.Store {
	t.Helper()
	s, err := openBoltB(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// openBoltB opens the store file at path as the server does (with
// fsync: the queue's writes are what is measured).
func openBoltB(path string) (*boltstore.Store, error) { return boltstore.Open(path) }

// sender sends to srv as --smtp-url names it, trusting its certificate.
func sender(t *testing.T, srv *smtptest.Server) *mail.Sender { return senderB(t, srv) }

func senderB(t testing.TB, srv *smtptest.Server) *mail.Sender {
	t.Helper()
	u, err := mail.ParseURL(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mail.NewSender(mail.Settings{Server: u, From: "Smith AV <office@smithav.example>", TLS: tlsTrusting(srv), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// refusals records the Refused hook's calls.
type refusals struct {
	mu  sync.Mutex
	got []string
	ch  chan struct{}
}

func newRefusals() *refusals { return &refusals{ch: make(chan struct{}, 100)} }

func (r *refusals) hook(_ context.Context, j store.MailJob, reason string) error {
	r.mu.Lock()
	r.got = append(r.got, reason)
	r.mu.Unlock()
	r.ch <- struct{}{}
	return nil
}

// run runs q until the test ends (or stop is called).
func run(t *testing.T, q *mail.Queue) (stop func()) { return runB(t, q) }

func runB(t testing.TB, q *mail.Queue) (stop func()) {
	c, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { q.Run(c); close(done) }()
	stop = sync.OnceFunc(func() { cancel(); <-done })
	t.Cleanup(stop)
	return stop
}

func linkMail(to ...string) mail.Message {
	return mail.Message{To: to, Subject: "Proposal 1001: Lake house theater",
		Text: "Dear Ann,\n\nOpen your proposal: https://desk.example/c/tok123\n", HTML: `<p>Open <a href="https://desk.example/c/tok123">your proposal</a></p>`}
}

func TestDeliversWithRecipientsSubjectAndLink(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Mode: smtptest.Plain})
	s := openBolt(t, filepath.Join(t.TempDir(), "pd.db"))
	defer s.Close()
	q := mail.NewQueue(s, sender(t, srv), mail.Hooks{}, fast)
	run(t, q)
	if err := q.Enqueue(ctx, 1, 1001, linkMail("ann@client.example", "bob@client.example")); err != nil {
		t.Fatal(err)
	}
	m := srv.WaitCount(t, 1, wait)[0]
	data := string(m.Data)
	if m.From != "office@smithav.example" || strings.Join(m.To, ",") != "ann@client.example,bob@client.example" {
		t.Errorf("envelope from %q to %v", m.From, m.To)
	}
	for _, want := range []string{"Subject: Proposal 1001: Lake house theater", "To: <ann@client.example>, <bob@client.example>",
		"https://desk.example/c/tok123", "text/html", "Message-ID: <pd-mail.1."} {
		if !strings.Contains(data, want) {
			t.Errorf("message lacks %q:\n%s", want, data)
		}
	}
	if m.TLS {
		t.Error("a server without STARTTLS: the session cannot be encrypted")
	}
	waitEmpty(t, s)
	if _, n := q.Latencies().Quantile(0.5); n != 1 {
		t.Errorf("%d latencies recorded; want 1", n)
	}
}

func TestEnqueueRefusesBadRecipients(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{})
	s := openBolt(t, filepath.Join(t.TempDir(), "pd.db"))
	defer s.Close()
	q := mail.NewQueue(s, sender(t, srv), mail.Hooks{}, fast)
	for _, to := range [][]string{nil, {"not an address"}, {"ann@client.example", "Bob <bob@client.example>"}} {
		if err := q.Enqueue(ctx, 1, 1, linkMail(to...)); err == nil {
			t.Errorf("Enqueue to %q: no error", to)
		}
	}
	var none *mail.Queue
	if err := none.Enqueue(ctx, 1, 1, linkMail("ann@client.example")); !errors.Is(err, mail.ErrNotConfigured) {
		t.Errorf("a nil queue: %v", err)
	}
}

func TestPermanentRefusalReportsWhy(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Reply: func(int, smtptest.Message) error { return smtptest.Refuse }})
	s := openBolt(t, filepath.Join(t.TempDir(), "pd.db"))
	defer s.Close()
	if reason, want := refusal(t, s, sender(t, srv)), "the mail server refused the message: 550 5.7.1 Message rejected by policy"; reason != want {
		t.Errorf("reason %q; want %q", reason, want)
	}
	waitEmpty(t, s)
	if n := srv.Offered(); n != 1 {
		t.Errorf("a refused message was offered %d times; want once", n)
	}
}

func TestTransientDeferralRetriedThenDelivered(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Mode: smtptest.StartTLS, Reply: func(n int, _ smtptest.Message) error {
		if n <= 2 {
			return smtptest.Defer
		}
		return nil
	}})
	s := openBolt(t, filepath.Join(t.TempDir(), "pd.db"))
	defer s.Close()
	r := newRefusals()
	q := mail.NewQueue(s, sender(t, srv), mail.Hooks{Refused: r.hook}, fast)
	run(t, q)
	if err := q.Enqueue(ctx, 1, 1001, linkMail("ann@client.example")); err != nil {
		t.Fatal(err)
	}
	got := srv.WaitCount(t, 1, wait)
	waitEmpty(t, s)
	if n := srv.Offered(); n != 3 || len(got) != 1 || len(r.got) != 0 {
		t.Errorf("offered %d times, accepted %d, refusals %v; want 3, 1, none", n, len(got), r.got)
	}
	if !got[0].TLS {
		t.Error("the server offered STARTTLS, but the message came in plain text")
	}
}

// A message deferred before a restart is sent after it: the queue is
// in the store's file, not in memory.
func TestRestartLosesNoMail(t *testing.T) {
	var mu sync.Mutex
	accepting := false
	tried := map[string]bool{} // subjects offered
	srv := smtptest.Start(t, smtptest.Options{Reply: func(_ int, m smtptest.Message) error {
		mu.Lock()
		defer mu.Unlock()
		tried[subjectOf(m)] = true
		if !accepting {
			return smtptest.Defer
		}
		return nil
	}})
	path := filepath.Join(t.TempDir(), "pd.db")
	s := openBolt(t, path)
	q := mail.NewQueue(s, sender(t, srv), mail.Hooks{}, fast)
	stop := run(t, q)
	for i := range 3 {
		m := linkMail("ann@client.example")
		m.Subject = fmt.Sprintf("Proposal %d", 1001+i)
		if err := q.Enqueue(ctx, 1, int64(1001+i), m); err != nil {
			t.Fatal(err)
		}
	}
	srv.Wait(t, wait, func(int, []smtptest.Message) bool {
		mu.Lock()
		defer mu.Unlock()
		return len(tried) == 3 // each deferred at least once
	})
	stop()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	mu.Lock()
	accepting = true
	mu.Unlock()
	s = openBolt(t, path)
	defer s.Close()
	q = mail.NewQueue(s, sender(t, srv), mail.Hooks{}, fast)
	run(t, q)
	got := srv.WaitCount(t, 3, wait)
	waitEmpty(t, s)
	subjects := map[string]int{}
	for _, m := range got {
		subjects[subjectOf(m)]++
	}
	if len(got) != 3 || len(subjects) != 3 {
		t.Errorf("delivered after the restart: %v; want each of 3 once", subjects)
	}
}

func TestSMTPSWithPassword(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Mode: smtptest.TLS, Username: "office@smithav.example", Password: "s3cret:/@"})
	if !strings.HasPrefix(srv.URL, "smtps://") {
		t.Fatalf("URL %q", srv.URL)
	}
	s := openBolt(t, filepath.Join(t.TempDir(), "pd.db"))
	defer s.Close()
	q := mail.NewQueue(s, sender(t, srv), mail.Hooks{}, fast)
	run(t, q)
	if err := q.Enqueue(ctx, 1, 1001, linkMail("ann@client.example")); err != nil {
		t.Fatal(err)
	}
	m := srv.WaitCount(t, 1, wait)[0]
	if !m.TLS || m.User != "office@smithav.example" {
		t.Errorf("TLS %v, user %q", m.TLS, m.User)
	}
}

// A wrong password is the server's 535: refused for good, and said so.
func TestWrongPasswordIsRefused(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Mode: smtptest.TLS, Username: "office", Password: "right"})
	s := openBolt(t, filepath.Join(t.TempDir(), "pd.db"))
	defer s.Close()
	u, _ := mail.ParseURL(strings.Replace(srv.URL, ":right@", ":wrong@", 1))
	snd, err := mail.NewSender(mail.Settings{Server: u, From: mail.DefaultFrom, TLS: tlsTrusting(srv)})
	if err != nil {
		t.Fatal(err)
	}
	if reason := refusal(t, s, snd); !strings.Contains(reason, "535 5.7.8") {
		t.Errorf("reason %q", reason)
	}
}

// refusal sends one message through a queue over s and returns why it
// was refused.
func refusal(t *testing.T, s store.MailQueue, snd *mail.Sender) string {
	t.Helper()
	r := newRefusals()
	q := mail.NewQueue(s, snd, mail.Hooks{Refused: r.hook}, fast)
	run(t, q)
	if err := q.Enqueue(ctx, 1, 1001, linkMail("ann@client.example")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-r.ch:
	case <-time.After(wait):
		t.Fatal("the refusal was never reported")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.got[0]
}

// subjectOf is m's Subject header.
func subjectOf(m smtptest.Message) string {
	_, after, _ := strings.Cut(string(m.Data), "Subject: ")
	subject, _, _ := strings.Cut(after, "\r\n")
	return subject
}

// waitEmpty waits until the queue holds nothing.
func waitEmpty(t *testing.T, q store.MailQueue) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		_, ok, err := q.NextMailDue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the queue never emptied")
		}
		time.Sleep(5 * time.Millisecond) // polling the store: nothing to wait on
	}
}

// A proposal's name in the subject, written by a dealer, cannot add a
// header (a recipient) with a line break.
func TestSubjectCannotAddHeaders(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{})
	s := openBolt(t, filepath.Join(t.TempDir(), "pd.db"))
	defer s.Close()
	q := mail.NewQueue(s, sender(t, srv), mail.Hooks{}, fast)
	run(t, q)
	m := linkMail("ann@client.example")
	m.Subject = "Proposal 1001\r\nBcc: thief@evil.example\r\n"
	if err := q.Enqueue(ctx, 1, 1001, m); err != nil {
		t.Fatal(err)
	}
	got := srv.WaitCount(t, 1, wait)[0]
	if strings.Contains(string(got.Data), "\r\nBcc:") || strings.Join(got.To, ",") != "ann@client.example" {
		t.Errorf("the subject added a header: to %v\n%s", got.To, got.Data)
	}
}
