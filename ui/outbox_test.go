package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"proposaldesk/app"
	"proposaldesk/localstore"
	"proposaldesk/localstore/legacytest"
)

// A rename of proposal 0 with its phantom "#0" proposal, as older
// versions queued it after Duplicate, and a new option in area 0 with
// an edit waiting for it do not stop the sync: an edit made after them
// reaches the server. Review lists them with their reasons in words and
// the waiting edit under its option, and offers only Discard, which
// removes them, the waiting edit and the phantom.
func TestUnsendableEditIsListedAndDiscarded(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	name := "Still syncs " + time.Now().Format("150405.000")
	other, err := createOnServer(h.srv, h.srv.Users[app.RoleSales].ID, name)
	if err != nil {
		t.Fatal(err)
	}
	h.sync()
	path, actor := d.sess.st.Path(), d.sess.user
	d.Close()
	d.Window().Close()
	if err := legacytest.AddPhantom(path, "Copy of "+name); err != nil {
		t.Fatal(err)
	}
	if _, err := legacytest.AddEdit(path, 0, &app.UpdateProposal{Name: &name}, actor); err != nil {
		t.Fatal(err)
	}
	badOption, err := legacytest.AddEdit(path, other, &app.CreateOption{ID: other, OptionID: -900, ClientDescription: "In no area"}, actor)
	if err != nil {
		t.Fatal(err)
	}
	waits := &app.SetOptionClientDescription{ID: other, OptionID: -900, ClientDescription: "Waits for its option"}
	if _, err := legacytest.AddEdit(path, other, waits, actor, badOption); err != nil {
		t.Fatal(err)
	}

	d = New(fyne.CurrentApp(), Options{DataDir: h.dir, Keyring: h.keys, Do: h.enqueue, ManualSync: true, SaveDelay: 30 * time.Millisecond})
	h.d = d
	if d.sess == nil {
		t.Fatal("no session resumed")
	}
	v := h.openByName(name)
	v.fields[1].SetText("Sent past the stuck edit")
	v.fields[1].FocusLost()
	st := h.sync()
	if st.LastError != nil || st.Failed != 2 || st.Pending != 1 || st.Blocked != 1 {
		t.Fatalf("state after sync %+v: want two failed edits, one waiting, no error", st)
	}
	srvCopy, err := h.srv.Proposal(other)
	if err != nil || srvCopy.ProjectDescription != "Sent past the stuck edit" {
		t.Fatalf("server copy: %q %v", srvCopy.ProjectDescription, err)
	}
	if got := h.rowOf(0).badge.Text; got != "✕ failed" {
		t.Fatalf("phantom's badge %q", got)
	}

	test.Tap(d.status.problems)
	content := d.win.Canvas().Overlays().Top()
	got := texts(content)
	for _, want := range []string{localstore.ReasonNoProposal, localstore.ReasonMissingID,
		"1 edit waits for this one", "• " + waits.Describe()} {
		if !strings.Contains(got, want) {
			t.Fatalf("panel lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "The server said") {
		t.Fatalf("panel blames the server:\n%s", got)
	}
	if findButton(content, "Retry") != nil || findButton(content, "Edit and retry") != nil {
		t.Fatal("an edit that cannot be sent is offered a retry")
	}
	test.Tap(findButton(content, "Discard this edit and the 1 waiting for it"))
	h.drain()
	if st := d.sess.eng.State(); st.Failed != 1 || st.Pending != 0 {
		t.Fatalf("after discarding the option: %+v", st)
	}
	content = d.win.Canvas().Overlays().Top()
	test.Tap(findButton(content, "Discard this edit"))
	h.drain()
	if st := d.sess.eng.State(); st.Failed != 0 || st.Pending != 0 {
		t.Fatalf("after discard: %+v", st)
	}
	if _, err := d.sess.st.Record(0); app.KindOf(err) != app.KindNotFound {
		t.Fatalf("phantom record after discard: %v", err)
	}
	for _, r := range d.list.rows {
		if r.ID == 0 {
			t.Fatalf("phantom row after discard: %+v", r)
		}
	}
}
