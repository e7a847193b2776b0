package apiserver

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"proposaldesk/apiserver/mail"
	"proposaldesk/apiserver/mail/smtptest"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// mailEnv is the fixture server sending mail to srv, its queue running
// until the test ends.
func mailEnv(t *testing.T, srv *smtptest.Server) *tenv {
	t.Helper()
	u, err := mail.ParseURL(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	snd, err := mail.NewSender(mail.Settings{Server: u, From: mail.DefaultFrom})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, func(c *Config) {
		c.Mail = MailConfig{Sender: snd, Queue: mail.QueueOptions{Poll: 50 * time.Millisecond,
			Schedule: mail.Schedule{First: 20 * time.Millisecond, Max: 100 * time.Millisecond, GiveUpAfter: time.Hour}}}
	})
	ctx, cancel := context.WithCancel(bg)
	done := make(chan struct{})
	go func() { e.s.RunMail(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return e
}

// submitted is a new proposal of a, moved to Submitted (as a send does).
func submitted(e *tenv, a *tacct) *app.Proposal {
	p := e.proposal(a, "Lake house theater")
	return e.apply(a, p, &app.ChangeStatus{ID: p.ID, Status: app.StatusSubmitted})
}

// detailOf is the proposal's detail as the API answers it to a's admin.
func detailOf(e *tenv, a *tacct, id int64) app.ProposalDetail {
	var d app.ProposalDetail
	e.get(a.admin, fmt.Sprintf("/public/proposals/%d", id)).json(e.t, &d)
	return d
}

// A mail the server refuses for good moves its proposal to EmailFailed
// and says why, on the proposal the API and the sync serve.
func TestMailRefusedMarksTheProposal(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Reply: func(int, smtptest.Message) error { return smtptest.Refuse }})
	e := mailEnv(t, srv)
	a := e.main
	p := submitted(e, a)
	var cursor string
	e.st.View(bg, a.acct.ID, func(tx store.Tx) (err error) {
		_, cursor, err = tx.Changes("")
		return err
	})
	if err := e.s.Mail().Enqueue(bg, a.acct.ID, p.ID, mail.Message{To: []string{"ann@client.example", "bob@client.example"},
		Subject: "Your proposal", Text: "https://desk.example/c/tok"}); err != nil {
		t.Fatal(err)
	}
	d := waitDetail(t, e, a, p.ID, func(d app.ProposalDetail) bool { return d.Status == app.StatusEmailFailed })
	want := "the mail server refused the message: 550 5.7.1 Message rejected by policy"
	if f := d.EmailFailure; f == nil || f.Reason != want || f.To != "ann@client.example, bob@client.example" || f.At.IsZero() {
		t.Errorf("emailFailure %+v; want the reason %q", f, want)
	}
	if d.Version != p.Version+1 || d.FieldVersions[app.FieldStatus] != d.Version {
		t.Errorf("version %d (was %d), status written at %d", d.Version, p.Version, d.FieldVersions[app.FieldStatus])
	}
	body := string(e.get(a.admin, fmt.Sprintf("/public/proposals/%d", p.ID)).body)
	if !strings.Contains(body, `"emailFailure":{"reason":"`+want) {
		t.Errorf("the detail's JSON lacks emailFailure: %s", body)
	}
	// Laptops see it at their next sync: the proposal is in the feed.
	e.st.View(bg, a.acct.ID, func(tx store.Tx) error {
		ids, _, err := tx.Changes(cursor)
		if err != nil || len(ids) != 1 || ids[0] != p.ID {
			t.Errorf("changes after the refusal: %v, %v; want [%d]", ids, err, p.ID)
		}
		return nil
	})
}

// A delivered mail changes nothing on the proposal.
func TestMailDeliveredLeavesTheProposal(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Mode: smtptest.Plain})
	e := mailEnv(t, srv)
	a := e.main
	p := submitted(e, a)
	if err := e.s.Mail().Enqueue(bg, a.acct.ID, p.ID, mail.Message{To: []string{"ann@client.example"}, Subject: "Your proposal", Text: "https://desk.example/c/tok"}); err != nil {
		t.Fatal(err)
	}
	m := srv.WaitCount(t, 1, 20*time.Second)[0]
	if !strings.Contains(string(m.Data), "https://desk.example/c/tok") {
		t.Errorf("message %s", m.Data)
	}
	if d := detailOf(e, a, p.ID); d.Status != app.StatusSubmitted || d.EmailFailure != nil || d.Version != p.Version {
		t.Errorf("after delivery: status %s, failure %+v, version %d (was %d)", d.Status, d.EmailFailure, d.Version, p.Version)
	}
}

// Without an SMTP server there is no queue, and Enqueue says so.
func TestMailNotConfigured(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Logger = slog.New(slog.DiscardHandler) })
	if err := e.s.Mail().Enqueue(bg, e.main.acct.ID, e.main.draft, mail.Message{To: []string{"ann@client.example"}}); err != mail.ErrNotConfigured {
		t.Errorf("Enqueue without SMTP: %v", err)
	}
	e.s.RunMail(bg) // returns at once
}

// waitDetail waits until cond holds of the proposal's detail.
func waitDetail(t *testing.T, e *tenv, a *tacct, id int64, cond func(app.ProposalDetail) bool) app.ProposalDetail {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		d := detailOf(e, a, id)
		if cond(d) {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("proposal %d never reached the state awaited: status %s, failure %+v", id, d.Status, d.EmailFailure)
		}
		time.Sleep(10 * time.Millisecond) // polling the API: it has nothing to wait on
	}
}
