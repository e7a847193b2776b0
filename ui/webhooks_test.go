package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/apitest"
	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/webhook"
	"proposaldesk/app"
	syncer "proposaldesk/sync"
	"proposaldesk/sync/apiclient"
)

// An Admin sees the account's subscriptions and a failing receiver's
// answers, read from the server; a Sales user is told they are for
// Admins.
func TestWebhooksDialogShowsFailures(t *testing.T) {
	s, err := apitest.StartWith(func(c *apiserver.Config) { c.WebhookAllowPrivate = true })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	h := newHarnessOn(t, s)

	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "CRM is down", http.StatusInternalServerError)
	}))
	t.Cleanup(receiver.Close)

	d := h.signIn(app.RoleAdmin)
	c := d.sess.client
	ctx := context.Background()
	if _, err := c.Send(ctx, apiclient.Call{Method: "POST", Path: "/public/webhook/subscribe",
		Body: map[string]any{"Url": receiver.URL, "Events": "proposal.updated", "Description": "Office CRM"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, &app.SetDescription{ID: s.Draft, Description: "Wired for the CRM"}, syncer.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	w := webhook.NewWorker(webhook.Config{Queue: s.Store.(store.Webhooks), StoreID: s.Store.StoreID(),
		Guard: &webhook.Guard{AllowPrivate: true}, Timeout: 5 * time.Second})
	if n, err := w.RunOnce(ctx); err != nil || n != 1 {
		t.Fatalf("worker attempted %d deliveries: %v", n, err)
	}

	d.Webhooks()
	var shown string
	h.waitFor("the subscriptions", func() bool {
		shown = overlayTexts(d)
		return strings.Contains(shown, "HTTP 500")
	})
	for _, want := range []string{"Office CRM — " + receiver.URL, "Events: proposal.updated", "Failing since", "proposal.updated: HTTP 500", "next try"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, shown)
		}
	}
}

func TestWebhooksAreForAdmins(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	d.Webhooks()
	if shown := overlayTexts(d); !strings.Contains(shown, "Webhook subscriptions are for Admins") {
		t.Errorf("a Sales user sees:\n%s", shown)
	}
}

// overlayTexts is the text of the window's open dialogs.
func overlayTexts(d *Desktop) string {
	var b strings.Builder
	for _, o := range d.Window().Canvas().Overlays().List() {
		b.WriteString(texts(o))
	}
	return b.String()
}
