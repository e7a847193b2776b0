package apiserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/app"
)

// sendable makes the account's draft sendable (a customer) and gives it
// installer notes and a cost the client must never see.
func sendable(e *tenv, a *tacct) int64 {
	e.t.Helper()
	p := e.load(a, a.draft)
	p = e.apply(a, p, &app.AssignContact{ID: p.ID, ContactID: a.contact})
	e.apply(a, p, &app.SetInternalNotes{ID: p.ID, InternalNotes: "INSTALLER-ONLY gate code 4711"})
	return p.ID
}

func sendAs(e *tenv, u *tuser, id int64, body map[string]any) (app.ProposalDetail, tres) {
	e.t.Helper()
	r := e.postJSON(u, pathf("/public/proposals/%d/send", id), body)
	if r.status != http.StatusOK {
		return app.ProposalDetail{}, r
	}
	return detail(e.t, r), r
}

func TestSendFreezesSnapshotAndMakesLink(t *testing.T) {
	e := newEnv(t)
	a := e.main
	id := sendable(e, a)
	day := time.Now().UTC().AddDate(0, 0, 40).Format(time.DateOnly)
	d, r := sendAs(e, a.sales, id, map[string]any{"Message": "Here it is", "ExpiresOn": day})
	if r.status != http.StatusOK {
		t.Fatalf("send: %d %s", r.status, r.body)
	}
	if d.Status != app.StatusSubmitted || d.LastSubmittedDate.IsZero() {
		t.Errorf("after send: status %s, lastSubmittedDate %v", d.Status, d.LastSubmittedDate)
	}
	l := d.ClientLink
	if l == nil || l.URL == nil {
		t.Fatalf("no client link in the send's answer: %s", r.body)
	}
	if !strings.HasPrefix(*l.URL, e.srv.URL+"/c/") || l.Mail != app.MailNotSent || !strings.Contains(l.MailNote, "no mail went out") {
		t.Errorf("link %q, mail %s %q", *l.URL, l.Mail, l.MailNote)
	}
	if got := strings.Join(l.SentTo, ","); got != "ann@main.test" {
		t.Errorf("sentTo %q, want the customer's email", got)
	}
	if want, _ := time.Parse(time.DateOnly, day); !l.ExpiresOn.Equal(want.AddDate(0, 0, 1)) {
		t.Errorf("expiresOn %v, want the end of %s UTC", l.ExpiresOn, day)
	}
	token := (*l.URL)[strings.LastIndex(*l.URL, "/")+1:]
	secret := token[strings.LastIndex(token, ".")+1:]
	if len(secret) < 22 { // 128 bits in base64url
		t.Errorf("token secret %q is shorter than 128 bits", secret)
	}
	// The token is stored nowhere: not in the proposal, not in the
	// snapshot, not in what GET answers.
	stored := e.load(a, id)
	raw, _ := stored.AppendJSON(nil)
	if strings.Contains(string(raw), secret) {
		t.Error("the stored proposal holds the token")
	}
	if g := e.get(a.sales, pathf("/public/proposals/%d", id)); strings.Contains(string(g.body), secret) || !strings.Contains(string(g.body), `"url":null`) {
		t.Errorf("GET shows the token or lacks a null url: %s", g.body)
	}
	var snap []byte
	e.update(a.acct.ID, func(tx store.Tx) (err error) {
		snap, err = tx.ClientSnapshot(id, l.SnapshotHash)
		return err
	})
	if _, err := app.ReadClientSnapshot(snap, l.SnapshotHash); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"INSTALLER-ONLY", `"cost":40`, secret} {
		if strings.Contains(string(snap), bad) {
			t.Errorf("the snapshot holds %q", bad)
		}
	}

	// A second send replaces the link; the chain says so.
	d2, _ := sendAs(e, a.sales, id, nil)
	if d2.ClientLink == nil || d2.ClientLink.LinkID == l.LinkID || *d2.ClientLink.URL == *l.URL {
		t.Fatalf("the second send kept the link: %+v", d2.ClientLink)
	}
	var events []app.Event
	er := e.get(a.viewer, pathf("/public/proposals/%d/events", id))
	er.json(t, &events)
	var types []string
	for _, ev := range events {
		types = append(types, string(ev.Type))
	}
	if strings.Join(types, ",") != "Sent,LinkReplaced,Sent" {
		t.Errorf("events %v", types)
	}
	if err := app.VerifyEvents(id, events); err != nil {
		t.Error(err)
	}
	if events[1].Data["linkId"] != l.LinkID {
		t.Errorf("LinkReplaced names link %q, want %q", events[1].Data["linkId"], l.LinkID)
	}
}

func TestSendRefusals(t *testing.T) {
	e := newEnv(t)
	a := e.main
	// No customer.
	_, r := sendAs(e, a.sales, a.draft, nil)
	wantError(t, r, http.StatusConflict, app.KindNoContactAssigned)
	// Accepted: not sendable.
	_, r = sendAs(e, a.sales, a.locked, nil)
	wantError(t, r, http.StatusConflict, app.KindInvalidTransition)
	id := sendable(e, a)
	for _, tc := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"To": "not an address"}, "To"},
		{map[string]any{"ExpiresOn": "2001-01-01"}, "ExpiresOn"},
		{map[string]any{"ExpiresOn": "soon"}, "ExpiresOn"},
		{map[string]any{"Message": strings.Repeat("x", app.MaxSendMessage+1)}, "Message"},
	} {
		_, r := sendAs(e, a.sales, id, tc.body)
		b := wantError(t, r, http.StatusBadRequest, app.KindValidationFailed)
		if len(b.ResponseStatus.Errors) == 0 || b.ResponseStatus.Errors[0].FieldName != tc.field {
			t.Errorf("%v: errors %+v, want %s named", tc.body, b.ResponseStatus.Errors, tc.field)
		}
	}
	// A viewer cannot send; another account's proposal is not found.
	_, r = sendAs(e, a.viewer, id, nil)
	wantError(t, r, http.StatusForbidden, app.KindPermissionDenied)
	_, r = sendAs(e, e.other.sales, id, nil)
	wantError(t, r, http.StatusNotFound, app.KindNotFound)
	// Nothing before a decision.
	wantError(t, e.get(a.sales, pathf("/public/proposals/%d/signed.pdf", id)), http.StatusNotFound, app.KindNotFound)
}

func TestSendIdempotencyRecordKeepsNoToken(t *testing.T) {
	e := newEnv(t)
	a := e.main
	id := sendable(e, a)
	send := func() tres {
		return e.do(treq{method: "POST", path: pathf("/public/proposals/%d/send", id), body: "{}", ct: "application/json", as: a.sales,
			edit: func(h http.Header) { h.Set("Idempotency-Key", "send-1") }})
	}
	first := send()
	again := send()
	d1, d2 := detail(t, first), detail(t, again)
	if d1.ClientLink.URL == nil || d2.ClientLink.URL != nil || d2.ClientLink.LinkID != d1.ClientLink.LinkID {
		t.Errorf("first url %v, replay url %v (links %s, %s)", d1.ClientLink.URL, d2.ClientLink.URL, d1.ClientLink.LinkID, d2.ClientLink.LinkID)
	}
}
