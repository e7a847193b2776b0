package ui

import (
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/app"
	"proposaldesk/localstore"
)

// openSendable signs in as a salesperson, makes a sendable proposal
// named after prefix on the server, syncs and opens it.
func openSendable(t *testing.T, prefix string) (*harness, *Desktop, int64, *proposalView) {
	t.Helper()
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := prefix + " " + time.Now().Format("150405.000")
	id := sendable(t, h, name)
	h.sync()
	return h, d, id, h.openByName(name)
}

// sendable makes a proposal on the server that can be sent: it has the
// fixture's customer (carla@example.test) and an area.
func sendable(t *testing.T, h *harness, name string) int64 {
	t.Helper()
	base, err := h.srv.Proposal(h.srv.Draft)
	if err != nil {
		t.Fatal(err)
	}
	id, err := createOnServer(h.srv, h.srv.Users[app.RoleSales].ID, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.Update(id, &app.AssignContact{ContactID: base.Customer.ID}, &app.CreateArea{Name: "Den"}); err != nil {
		t.Fatal(err)
	}
	return id
}

// pressSend types Send to client…'s shortcut.
func pressSend(d *Desktop) {
	d.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(sendShortcut())
}

// topText is the text of the dialog on top ("" when none).
func topText(d *Desktop) string {
	if top := d.win.Canvas().Overlays().Top(); top != nil {
		return texts(top)
	}
	return ""
}

// sendThroughDialog opens Send to client… with its shortcut, checks the
// customer's address is filled in, and sends with message.
func sendThroughDialog(t *testing.T, h *harness, message string) {
	t.Helper()
	d := h.d
	pressSend(d)
	f := d.sendDlg
	if f == nil || d.dlg != f.dlg {
		t.Fatal("Ctrl+Shift+S did not open Send to client…")
	}
	if f.to.Text != "carla@example.test" {
		t.Fatalf("To %q, want the customer's email", f.to.Text)
	}
	if want := time.Now().UTC().AddDate(0, 0, 30).Format(time.DateOnly); f.expiry.Text != want {
		t.Fatalf("expiry %q, want %q", f.expiry.Text, want)
	}
	test.Type(f.message, message)
	f.dlg.Confirm()
}

// clientPage is the link's path on the server itself (not through the
// gate, which may be down: the client is not the laptop).
func clientPage(h *harness, link string) string {
	return strings.Replace(link, h.url, h.srv.URL, 1)
}

func TestSendToClientOnline(t *testing.T) {
	h, d, id, v := openSendable(t, "Send online")
	if !strings.Contains(v.clientText.Text, "Not sent to the client yet.") {
		t.Fatalf("card before the send: %q", v.clientText.Text)
	}
	sendThroughDialog(t, h, "Here is the proposal we discussed.")
	h.waitFor("the send's answer", func() bool { return strings.Contains(topText(d), "Sent to the client") })
	answer := topText(d)
	saved, ok, err := d.sess.st.SavedLink(id)
	if err != nil || !ok {
		t.Fatalf("no saved link: %v", err)
	}
	if !strings.HasPrefix(saved.URL, h.url+"/c/") || !strings.Contains(answer, saved.URL) {
		t.Fatalf("answer %q, saved link %q", answer, saved.URL)
	}
	if !strings.Contains(answer, "no mail went out") {
		t.Fatalf("answer does not say that no mail went out: %q", answer)
	}
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Status != app.StatusSubmitted || sp.ClientLink == nil || sp.ClientLink.Message != "Here is the proposal we discussed." ||
		strings.Join(sp.ClientLink.SentTo, ",") != "carla@example.test" {
		t.Fatalf("server: %s %+v", sp.Status, sp.ClientLink)
	}

	// Copy client link, from the answer and from the menu later.
	test.Tap(findButton(d.win.Canvas().Overlays().Top(), "Copy client link"))
	if got := d.app.Clipboard().Content(); got != saved.URL {
		t.Fatalf("clipboard %q, want %q", got, saved.URL)
	}
	d.app.Clipboard().SetContent("")
	d.closeDialog()
	d.CopyClientLink()
	if got := d.app.Clipboard().Content(); got != saved.URL {
		t.Fatalf("Copy client link: clipboard %q, want %q", got, saved.URL)
	}
	d.closeDialog()

	// The client opens the page; the next sync shows it.
	resp, err := http.Get(clientPage(h, saved.URL))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("client page: %d", resp.StatusCode)
	}
	h.sync()
	v = d.detail
	if v.p.Status != app.StatusViewedByClient || !strings.Contains(v.clientText.Text, "Viewed by the client just now.") {
		t.Fatalf("after the client's visit: %s, card %q", v.p.Status, v.clientText.Text)
	}
	sub := h.rowOf(id).sub.Segments[0].(*widget.TextSegment).Text
	if !strings.Contains(sub, "Viewed by the client just now") {
		t.Fatalf("row %q", sub)
	}
}

func TestSendToClientOfflineThenSync(t *testing.T) {
	h, d, id, v := openSendable(t, "Send offline")
	h.gate.down.Store(true)
	sendThroughDialog(t, h, "Sent from the road.")
	h.waitFor("the queued answer", func() bool { return strings.Contains(topText(d), "Send queued") })
	d.closeDialog()
	if !strings.Contains(v.clientText.Text, "Send to the client queued") {
		t.Fatalf("card while offline: %q", v.clientText.Text)
	}
	if sp, _ := h.srv.Proposal(id); sp.ClientLink != nil || sp.Status != app.StatusDraft {
		t.Fatalf("the server got the send while offline: %s", sp.Status)
	}
	if e, ok, err := d.sess.st.QueuedSend(id); err != nil || !ok || e.Send.Message != "Sent from the road." {
		t.Fatalf("queued send: %+v %v %v", e, ok, err)
	}

	h.gate.down.Store(false)
	if st := h.sync(); st.Pending != 0 || st.Failed != 0 {
		t.Fatalf("after the sync: %+v", st)
	}
	sp, err := h.srv.Proposal(id)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Status != app.StatusSubmitted || sp.ClientLink == nil || sp.ClientLink.Message != "Sent from the road." {
		t.Fatalf("server after the sync: %s %+v", sp.Status, sp.ClientLink)
	}
	saved, ok, err := d.sess.st.SavedLink(id)
	if err != nil || !ok || saved.LinkID != sp.ClientLink.ID {
		t.Fatalf("saved link %+v %v %v, want link %s", saved, ok, err, sp.ClientLink.ID)
	}
	v = d.detail
	if strings.Contains(v.clientText.Text, "queued") || !strings.Contains(v.clientText.Text, "Sent ") {
		t.Fatalf("card after the sync: %q", v.clientText.Text)
	}
	d.CopyClientLink()
	if got := d.app.Clipboard().Content(); got != saved.URL {
		t.Fatalf("Copy client link: %q, want %q", got, saved.URL)
	}
}

// The client accepts on the page while the laptop is offline with an
// edit of the proposal: the sync shows the decision and the signer,
// locks the proposal, opens the signed PDF, and Review says in words
// why the edit was not applied.
func TestClientAcceptanceAfterSync(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatal("pdftotext (poppler-utils) is needed to read the signed PDF")
	}
	h, d, id, v := openSendable(t, "Accepted online")
	out, err := d.sess.eng.SendToClient(t.Context(), id, localstore.SendRequest{})
	if err != nil || out.URL == "" {
		t.Fatalf("send: %+v %v", out, err)
	}

	h.gate.down.Store(true)
	v.fields[1].SetText("Changed offline")
	v.fields[1].FocusLost()
	h.drain()
	page := clientPage(h, out.URL)
	resp, err := http.PostForm(page+"/accept", url.Values{"FullName": {"Ann Lee"}, "Consent": {"yes"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		t.Fatalf("accept: %d", resp.StatusCode)
	}
	sp, err := h.srv.Proposal(id)
	if err != nil || sp.Status != app.StatusAccepted {
		t.Fatalf("server after accept: %v %v", sp, err)
	}
	at := sp.ClientLastDecisionDate.Time

	h.gate.down.Store(false)
	if st := h.sync(); st.Failed != 1 {
		t.Fatalf("state %+v, want the offline edit refused", st)
	}
	v = d.detail
	if v.p.Status != app.StatusAccepted || !v.fields[1].Disabled() {
		t.Fatalf("proposal %s, description editable: %v", v.p.Status, !v.fields[1].Disabled())
	}
	want := fmt.Sprintf("Accepted by Ann Lee on %s.", clockWords(at, time.Local))
	if !strings.Contains(v.clientText.Text, want) {
		t.Fatalf("card %q, want %q", v.clientText.Text, want)
	}

	// Review says why the edit was not applied.
	test.Tap(d.status.problems)
	got := topText(d)
	refused := fmt.Sprintf("The client accepted this proposal at %s; your change was not applied.", at.In(time.Local).Format("15:04"))
	if !strings.Contains(got, refused) {
		t.Fatalf("Review:\n%s\nwant %q", got, refused)
	}
	d.closeDialog()

	// The signed PDF, downloaded to the data folder.
	if !v.signedPDF.Visible() {
		t.Fatal("no Open signed PDF button")
	}
	test.Tap(v.signedPDF)
	h.waitFor("the signed PDF", func() bool { return d.lastSignedPDF != "" || d.dlg != nil })
	if d.lastSignedPDF == "" {
		t.Fatalf("no signed PDF: %s", topText(d))
	}
	text, err := exec.Command("pdftotext", d.lastSignedPDF, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	if !strings.Contains(string(text), "Ann Lee") || !strings.HasPrefix(d.lastSignedPDF, h.dir) {
		t.Fatalf("signed PDF %s:\n%s", d.lastSignedPDF, text)
	}
}
