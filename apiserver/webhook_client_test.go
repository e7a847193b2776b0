package apiserver

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
)

// The client's side of a proposal reaches subscribers: the send, the
// client's first open and the acceptance, each under its own event
// name, about the proposal as stored with it.
func TestWebhookClientDecisionEvents(t *testing.T) {
	h := newHookEnv(t, true)
	rcv := newReceiver(t, h.clock.Now)
	sub := h.subscribe(h.main.admin, rcv.srv.URL, "proposal.sent,proposal.viewed,proposal.accepted,proposal.declined")
	rcv.secret.Store(sub.SecretKey)
	id := sendable(h.tenv, h.main)
	d, r := sendAs(h.tenv, h.main.sales, id, nil)
	if r.status != http.StatusOK {
		t.Fatalf("send: %d %s", r.status, r.body)
	}
	link := *d.ClientLink.URL
	if status, _, _ := browse(t, "GET", link, nil); status != 200 {
		t.Fatalf("open: %d", status)
	}
	if status, _, _ := browse(t, "POST", link+"/accept", url.Values{"FullName": {"Ann Lee"}, "Consent": {"yes"}}); status != http.StatusSeeOther {
		t.Fatalf("accept: %d", status)
	}
	if n := h.run(); n != 3 {
		t.Fatalf("worker attempted %d deliveries, want 3", n)
	}
	var events []string
	for _, r := range rcv.requests() {
		if r.verifyErr != nil || r.proposal != id {
			t.Errorf("%s about %d: %v", r.event, r.proposal, r.verifyErr)
		}
		events = append(events, r.event)
	}
	slices.Sort(events)
	if want := []string{"proposal.accepted", "proposal.sent", "proposal.viewed"}; !slices.Equal(events, want) {
		t.Errorf("events %v, want %v", events, want)
	}
}
