package apiserver

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"proposaldesk/apiserver/mail/smtptest"
	"proposaldesk/app"
)

// A send with an SMTP server configured mails the link: the client finds
// it in the mail, it opens the proposal, and the proposal and its
// evidence say the mail server accepted it.
func TestSendMailsTheLink(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Mode: smtptest.Plain})
	e := mailEnv(t, srv)
	a := e.main
	id := sendable(e, a)
	d, r := sendAs(e, a.sales, id, map[string]any{"Message": "Hi Ann, here it is."})
	if r.status != http.StatusOK {
		t.Fatalf("send: %d %s", r.status, r.body)
	}
	if d.ClientLink == nil || d.ClientLink.Mail != app.MailQueued || d.ClientLink.URL == nil {
		t.Fatalf("send's link %+v; want the mail queued", d.ClientLink)
	}
	m := srv.WaitCount(t, 1, 20*time.Second)[0]
	body := string(m.Data)
	link := mailedLink(t, m)
	if link != *d.ClientLink.URL || !strings.Contains(body, "Hi Ann, here it is.") || !strings.Contains(strings.Join(m.To, ","), "ann@main.test") {
		t.Fatalf("mail to %v with link %q (sent %q):\n%s", m.To, link, *d.ClientLink.URL, body)
	}
	res, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(page), "Accept") {
		t.Errorf("the mailed link answers %d:\n%.300s", res.StatusCode, page)
	}
	got := waitDetail(t, e, a, id, func(d app.ProposalDetail) bool {
		return d.ClientLink != nil && d.ClientLink.Mail == app.MailAccepted
	})
	if got.Status != app.StatusViewedByClient {
		t.Errorf("status %s after the client opened the mailed link", got.Status)
	}
	var events []app.Event
	e.get(a.admin, pathf("/public/proposals/%d/events", id)).json(t, &events)
	var types []string
	for _, ev := range events {
		types = append(types, string(ev.Type))
	}
	if s := strings.Join(types, ","); !strings.Contains(s, "Sent") || !strings.Contains(s, "EmailAccepted") || !strings.Contains(s, "Opened") {
		t.Errorf("events %s; want Sent, EmailAccepted and Opened", s)
	}
	if err := app.VerifyEvents(id, events); err != nil {
		t.Errorf("chain: %v", err)
	}
}

// A send whose mail the server refuses for good leaves the proposal in
// EmailFailed with the reason, the link marked failed, and the refusal
// in the evidence.
func TestSendMailRefused(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Reply: func(int, smtptest.Message) error { return smtptest.Refuse }})
	e := mailEnv(t, srv)
	a := e.main
	id := sendable(e, a)
	if _, r := sendAs(e, a.sales, id, nil); r.status != http.StatusOK {
		t.Fatalf("send: %d %s", r.status, r.body)
	}
	d := waitDetail(t, e, a, id, func(d app.ProposalDetail) bool { return d.Status == app.StatusEmailFailed })
	if d.ClientLink == nil || d.ClientLink.Mail != app.MailFailed || !strings.Contains(d.ClientLink.MailNote, "550") {
		t.Errorf("link after the refusal: %+v", d.ClientLink)
	}
	var events []app.Event
	e.get(a.admin, pathf("/public/proposals/%d/events", id)).json(t, &events)
	if n := len(events); n == 0 || events[n-1].Type != app.EventEmailFailed {
		t.Errorf("last event %+v; want EmailFailed", events)
	}
}
