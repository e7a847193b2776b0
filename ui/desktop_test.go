package ui

import (
	"errors"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"proposaldesk/apiserver/apitest"

	"proposaldesk/app"
	syncer "proposaldesk/sync"
)

// Sign in through the form: each refusal is a plain, specific sentence;
// then the workspace opens with the server's proposals; sign-out forgets
// the key.
func TestSignIn(t *testing.T) {
	h := newHarness(t)
	d := h.start(Options{})
	f := d.signin
	if f == nil {
		t.Fatal("no sign-in form at first start")
	}
	try := func(email, password, want string) {
		t.Helper()
		f.email.SetText(email)
		f.password.SetText(password)
		test.Tap(f.button)
		h.waitFor("a sign-in answer", func() bool { return !f.submitting })
		if d.sess != nil || !strings.Contains(f.message.Text, want) {
			t.Fatalf("message %q, want it to contain %q", f.message.Text, want)
		}
	}
	sales := h.srv.Users[app.RoleSales]
	try(sales.Email, "wrong", "email or password is not right")
	try(h.srv.Unverified.Email, h.srv.Unverified.Password, "not been verified")
	f.baseURL.SetText("http://" + freePort(t))
	try(sales.Email, sales.Password, "cannot be reached")
	tlsSrv := httptest.NewTLSServer(h.gate) // a self-signed certificate
	defer tlsSrv.Close()
	f.baseURL.SetText(tlsSrv.URL)
	try(sales.Email, sales.Password, "certificate")
	f.baseURL.SetText(h.url)

	f.email.SetText(sales.Email)
	f.password.SetText(sales.Password)
	test.Tap(f.button)
	h.waitFor("the workspace", func() bool { return d.sess != nil })
	if d.sess.user.ID != sales.ID || d.sess.user.Role != app.RoleSales {
		t.Fatalf("signed in as %+v", d.sess.user)
	}
	if _, err := h.keys.Load(h.url, sales.Email); err != nil {
		t.Fatalf("the key is not in the keyring: %v", err)
	}
	h.sync()
	if got := len(d.list.rows); got < 2 {
		t.Fatalf("%d proposals listed after the first sync", got)
	}
	if !strings.Contains(d.status.online.Text, "Online") || !strings.Contains(d.status.last.Text, "Last sync") {
		t.Fatalf("status bar %q / %q", d.status.online.Text, d.status.last.Text)
	}

	test.Tap(findButton(d.win.Content(), "Sign out"))
	if d.signin == nil || d.sess != nil {
		t.Fatal("sign out did not show the sign-in form")
	}
	if _, err := h.keys.Load(h.url, sales.Email); err == nil {
		t.Fatal("the key is still in the keyring after sign-out")
	}
}

// The wrong-clock message: the server refuses the clock even after the
// client corrects its offset.
func TestSignInMessages(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&syncer.ClockError{Err: &syncer.APIError{Err: app.Errorf(app.KindTimestampOutOfRange, "x")}}, "clock"},
		{&syncer.CertificateError{Err: errors.New("x509")}, "certificate"},
		{&syncer.NetworkError{Err: errors.New("dial")}, "cannot be reached"},
		{app.Errorf(app.KindInvalidCredentials, "x"), "email or password"},
		{app.Errorf(app.KindEmailNotVerified, "x"), "not been verified"},
		{app.Errorf(app.KindTimestampOutOfRange, "x"), "clock"},
		// The lockout's waits run from a second to a quarter of an hour.
		{&syncer.APIError{Err: app.Errorf(app.KindRateLimited, "x"), RetryAfter: 4 * time.Second}, "Wait 4 seconds"},
		{&syncer.APIError{Err: app.Errorf(app.KindRateLimited, "x"), RetryAfter: 15 * time.Minute}, "Wait 15 minutes"},
		{&syncer.APIError{Err: app.Errorf(app.KindRateLimited, "x")}, "Wait a little"},
	}
	for _, c := range cases {
		if got := signInMessage(c.err, "https://x"); !strings.Contains(got, c.want) {
			t.Errorf("%T: %q, want %q", c.err, got, c.want)
		}
	}
}

// Edit a name offline: the row shows an unsent badge and the screen says
// so; sync while offline keeps it; sync online clears it and the server
// has the name.
func TestOfflineEditThenSync(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v := h.openByName("Smith home theater")
	id := v.p.ID

	h.gate.down.Store(true)
	v.name.SetText("")
	test.Type(v.name, "Smith theater (offline)")
	h.waitFor("the debounced save", func() bool { return !v.name.dirty() })
	if got := h.rowOf(id).badge.Text; got != "● 1 unsent" {
		t.Fatalf("badge %q, want one unsent edit", got)
	}
	if !strings.Contains(v.saved.Text, "Saved locally · 1 unsent") {
		t.Fatalf("indicator %q", v.saved.Text)
	}
	st := h.sync()
	if st.Online || !strings.Contains(d.status.online.Text, "Offline") || d.status.errText.Text == "" {
		t.Fatalf("offline sync: state %+v, status %q %q", st, d.status.online.Text, d.status.errText.Text)
	}
	if got := h.rowOf(id).badge.Text; got != "● 1 unsent" {
		t.Fatalf("badge after an offline sync %q", got)
	}

	h.gate.down.Store(false)
	h.sync()
	if got := h.rowOf(id).badge.Text; got != "" {
		t.Fatalf("badge after sync %q, want none", got)
	}
	if !strings.Contains(d.status.pending.Text, "All changes sent") {
		t.Fatalf("status %q", d.status.pending.Text)
	}
	sp, err := h.srv.Proposal(id)
	if err != nil || sp.Name != "Smith theater (offline)" {
		t.Fatalf("server has %q, %v", sp.Name, err)
	}
	// Restore for the other tests.
	if _, err := h.srv.Update(id, &app.UpdateProposal{Name: strp("Smith home theater")}); err != nil {
		t.Fatal(err)
	}
}

// Add options until the rule refuses the fourth: the button is disabled
// and says why.
func TestOptionLimit(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	v := h.openByName("Smith home theater")
	// A fresh area so the test does not depend on others.
	name := "Garage " + time.Now().Format("150405.000")
	area := findNewArea(v)
	test.Type(area.entry, name)
	test.Tap(area.button)
	card := findCard(v.body, name)
	if card == nil {
		t.Fatalf("no card for the new area: %s", texts(v.body))
	}
	for i := 1; i < app.MaxOptionsPerArea; i++ {
		b := findButton(findCard(v.body, name), "Add option")
		if b.Disabled() {
			t.Fatalf("Add option disabled with %d options", i)
		}
		test.Tap(b)
	}
	card = findCard(v.body, name)
	b := findButton(card, "Add option")
	if !b.Disabled() {
		t.Fatal("Add option still enabled with three options")
	}
	if got := texts(card); !strings.Contains(got, "already has the maximum of 3 options") {
		t.Fatalf("no reason shown: %s", got)
	}
	a, _ := v.p.Area(areaID(v.p, name))
	if len(a.Options) != 3 {
		t.Fatalf("%d options", len(a.Options))
	}
}

// An accepted proposal is read-only: banner, disabled fields; installer
// notes stay editable (the contract allows them in every status).
func TestLockedProposalIsReadOnly(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	v := h.openByName("Jones office")
	if got := texts(v.body); !strings.Contains(got, "is Accepted, so it is read-only") {
		t.Fatalf("no banner: %s", got)
	}
	notes := v.fields[2]
	if !v.name.Disabled() || !v.fields[1].Disabled() {
		t.Fatal("name or project description editable on an accepted proposal")
	}
	if notes == nil || notes.Disabled() {
		t.Fatal("installer notes should stay editable")
	}
	if findNewArea(v) != nil {
		t.Fatal("Add area offered on an accepted proposal")
	}
	// The change orders are listed and open read-only.
	if got := texts(v.body); !strings.Contains(got, "Change orders") {
		t.Fatalf("no change orders: %s", got)
	}
	var co *widget.Button
	walk(v.body, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && strings.HasPrefix(b.Text, "Change order 1") {
			co = b
		}
	})
	if co == nil {
		t.Fatal("no change order button")
	}
	test.Tap(co)
	if got := texts(h.d.win.Canvas().Overlays().Top()); !strings.Contains(got, "Change order total") {
		t.Fatalf("change order detail: %s", got)
	}
}

// Two desktops edit the same description; the second to sync gets a
// conflict, the panel shows mine and theirs, and keep-mine lands mine
// on the server.
func TestConflictResolvedInPanel(t *testing.T) {
	a := newHarness(t)
	a.signIn(app.RoleSales)
	b := newHarness(t)
	b.signIn(app.RoleAdmin)
	va := a.openByName("Smith home theater")
	vb := b.openByName("Smith home theater")
	id := va.p.ID
	descA := va.fields[1]
	descB := vb.fields[1]

	run := time.Now().Format("15:04:05.000") // the shared server outlives -count runs
	mineText, theirsText := "Mine: 7.1 surround "+run, "Theirs: 5.1 surround "+run
	a.gate.down.Store(true)
	descA.SetText(mineText)
	descA.FocusLost()
	descB.SetText(theirsText)
	descB.FocusLost()
	b.sync()
	a.gate.down.Store(false)
	st := a.sync()
	if st.Conflicts != 1 {
		t.Fatalf("state %+v, want one conflict", st)
	}
	if !a.d.status.problems.Visible() || !strings.Contains(a.d.status.problems.Text, "1 conflict") {
		t.Fatalf("status bar does not point at the conflict: %q", a.d.status.problems.Text)
	}
	if got := a.rowOf(id).badge.Text; got != "⚠ conflict" {
		t.Fatalf("badge %q", got)
	}
	test.Tap(a.d.status.problems)
	panel := a.d.dlg
	if panel == nil {
		t.Fatal("no panel")
	}
	content := a.d.win.Canvas().Overlays().Top()
	got := texts(content)
	for _, want := range []string{"Project description", mineText, theirsText} {
		if !strings.Contains(got, want) {
			t.Fatalf("panel lacks %q:\n%s", want, got)
		}
	}
	test.Tap(findButton(content, "Keep mine"))
	a.sync()
	sp, err := a.srv.Proposal(id)
	if err != nil || sp.ProjectDescription != mineText {
		t.Fatalf("server has %q, %v", sp.ProjectDescription, err)
	}
	if st := a.d.sess.eng.State(); st.Conflicts != 0 || st.Pending != 0 {
		t.Fatalf("after keep-mine: %+v", st)
	}
	// Esc closes the panel.
	a.d.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if a.d.dlg != nil {
		t.Fatal("Esc did not close the panel")
	}
}

// An edit the server refuses shows the server's reason in the panel;
// discarding it clears the failure.
func TestRejectedEditShowsTheReason(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	s := h.srv
	// A proposal of its own, so no other test sees it locked.
	p, err := s.Proposal(s.Draft)
	if err != nil {
		t.Fatal(err)
	}
	name := "Locked later " + time.Now().Format("150405.000")
	created, err := createOnServer(s, p.SalesPerson.ID, name)
	if err != nil {
		t.Fatal(err)
	}
	h.sync()
	v := h.openByName(name)
	h.gate.down.Store(true)
	v.fields[1].SetText("Offline description")
	v.fields[1].FocusLost()
	if _, err := s.Update(created, &app.ChangeStatus{Status: app.StatusSubmitted}, &app.ChangeStatus{Status: app.StatusAccepted}); err != nil {
		t.Fatal(err)
	}
	h.gate.down.Store(false)
	st := h.sync()
	if st.Failed != 1 {
		t.Fatalf("state %+v, want one failed edit", st)
	}
	if got := h.rowOf(created).badge.Text; got != "✕ failed" {
		t.Fatalf("badge %q", got)
	}
	test.Tap(d.status.problems)
	content := d.win.Canvas().Overlays().Top()
	got := texts(content)
	if !strings.Contains(got, "The server said:") || !strings.Contains(got, "can no longer be edited") {
		t.Fatalf("panel:\n%s", got)
	}
	test.Tap(findButton(content, "Discard this edit"))
	h.drain()
	if st := d.sess.eng.State(); st.Failed != 0 || st.Pending != 0 {
		t.Fatalf("after discard: %+v", st)
	}
	if got := h.rowOf(created).badge.Text; got != "" {
		t.Fatalf("badge after discard %q", got)
	}
}

// Shortcuts: Ctrl+N makes a proposal offline and opens it with the
// cursor in its name; Ctrl+F focuses the search.
func TestShortcutsAndSearch(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	c := d.win.Canvas()
	short := func(k fyne.KeyName) {
		c.(interface {
			TypedShortcut(fyne.Shortcut)
		}).TypedShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault})
	}
	short(fyne.KeyN)
	v := d.detail
	if v.p == nil || !app.IsTemporaryID(v.p.ID) || c.Focused() != v.name {
		t.Fatalf("Ctrl+N: opened %v, focus %v", v.p, c.Focused())
	}
	name := "Made with Ctrl+N " + time.Now().Format("150405.000")
	test.Type(v.name, name)
	v.name.FocusLost()
	short(fyne.KeyF)
	if c.Focused() != d.list.search {
		t.Fatal("Ctrl+F did not focus the search")
	}
	test.Type(d.list.search, strings.ToLower(name))
	if len(d.list.rows) != 1 || d.list.rows[0].Name != name {
		t.Fatalf("search rows %+v", d.list.rows)
	}
	// The list's status filter and the server agree on the same query.
	d.list.search.SetText("")
	d.list.status.checks.SetSelected([]string{app.StatusAccepted.Label()})
	for _, r := range d.list.rows {
		if r.Status != app.StatusAccepted {
			t.Fatalf("filter let %s through", r.Status)
		}
	}
	h.sync()
	short(fyne.KeyR) // a sync request: no panic, the button is there
	h.waitFor("the sync", func() bool { return !d.sess.eng.State().Syncing })
}

// The window size and the last open proposal are remembered.
func TestRemembersWindowAndProposal(t *testing.T) {
	h := newHarness(t)
	d := h.signIn(app.RoleSales)
	v := h.openByName("Smith home theater")
	id := v.p.ID
	d.win.Resize(fyne.NewSize(1000, 700))
	d.Close()
	d2 := New(fyne.CurrentApp(), Options{DataDir: h.dir, Keyring: h.keys, Do: h.enqueue, ManualSync: true})
	h.d = d2
	if d2.sess == nil {
		t.Fatal("no session resumed from the keyring")
	}
	if d2.detail.p == nil || d2.detail.p.ID != id {
		t.Fatalf("last open proposal not reopened: %v", d2.detail.p)
	}
	set, _ := d2.sess.st.Settings()
	if set.WindowWidth != 1000 || set.WindowHeight != 700 {
		t.Fatalf("window %dx%d", set.WindowWidth, set.WindowHeight)
	}
	// Started with another app's connection (a re-seeded demo server),
	// the saved key is not used: the sign-in form shows.
	d2.Close()
	other := syncer.Connection{BaseURL: h.url, AppID: "other-app", AppSecret: "other-secret"}
	d3 := New(fyne.CurrentApp(), Options{DataDir: h.dir, Keyring: h.keys, Do: h.enqueue, ManualSync: true, Connection: &other})
	h.d = d3
	if d3.sess != nil || d3.signin == nil || d3.signin.appID.Text != "other-app" {
		t.Fatal("resumed with a key of another app")
	}
}

func TestDemoLogin(t *testing.T) {
	path := t.TempDir() + "/demo.json"
	data := `{"baseUrl":"http://x","appId":"a","appSecret":"s","accounts":[{"users":[
		{"email":"u@x","password":"p0","role":"Sales","emailVerified":false},
		{"email":"s@x","password":"p1","role":"Sales","emailVerified":true}]}]}`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := DemoLogin(path, "sales")
	if err != nil || l.Email != "s@x" || l.Password != "p1" {
		t.Fatalf("%+v %v", l, err)
	}
	if _, err := DemoLogin(path, "Viewer"); err == nil {
		t.Fatal("no Viewer in the file, want an error")
	}
}

type newAreaInput struct {
	entry  *plainEntry
	button *widget.Button
}

func findNewArea(v *proposalView) *newAreaInput {
	in := &newAreaInput{button: findButton(v.body, "Add area")}
	walk(v.body, func(o fyne.CanvasObject) {
		if e, ok := o.(*plainEntry); ok && strings.HasPrefix(e.PlaceHolder, "New area name") {
			in.entry = e
		}
	})
	if in.entry == nil || in.button == nil {
		return nil
	}
	return in
}

func findCard(o fyne.CanvasObject, title string) *widget.Card {
	var found *widget.Card
	walk(o, func(x fyne.CanvasObject) {
		if c, ok := x.(*widget.Card); ok && c.Title == title && found == nil {
			found = c
		}
	})
	return found
}

func areaID(p *app.Proposal, name string) int64 {
	for _, a := range p.Areas {
		if a.Name == name {
			return a.ID
		}
	}
	return 0
}

func strp(s string) *string { return &s }

func createOnServer(s *apitest.Server, salesPerson int64, name string) (int64, error) {
	return s.Create(&app.CreateProposal{SalesPersonID: salesPerson, Name: &name})
}

// A new contact with a location, made offline in the dialog, becomes the
// customer at once and reaches the server at the next sync.
func TestNewContactOffline(t *testing.T) {
	h := newHarness(t)
	h.signIn(app.RoleSales)
	name := "Off " + time.Now().Format("150405.000")
	id, err := createOnServer(h.srv, h.srv.Users[app.RoleSales].ID, name)
	if err != nil {
		t.Fatal(err)
	}
	h.sync()
	v := h.openByName(name)
	h.gate.down.Store(true)
	test.Tap(findButton(v.body, "Choose contact…"))
	picker := h.d.win.Canvas().Overlays().Top()
	test.Tap(findButton(picker, "New contact…"))
	form := h.d.win.Canvas().Overlays().Top()
	var entries []*plainEntry
	walk(form, func(o fyne.CanvasObject) {
		if e, ok := o.(*plainEntry); ok {
			entries = append(entries, e)
		}
	})
	if len(entries) != 8 {
		t.Fatalf("%d entries in the new contact form", len(entries))
	}
	// First, last, company, email, phone, street, city, postal code;
	// the state comes from a list.
	test.Type(entries[0], "Olive")
	test.Type(entries[1], "Offline")
	test.Type(entries[5], "1 Elm St")
	test.Type(entries[6], "Austin")
	test.Type(entries[7], "78701")
	findSelect(form, "Choose a state").SetSelected("Texas (TX)")
	test.Tap(findButton(form, "Create and assign"))
	p := h.d.detail.p
	if p.Customer == nil || p.Customer.FirstName != "Olive" || !app.IsTemporaryID(p.Customer.ID) {
		t.Fatalf("customer %+v", p.Customer)
	}
	if p.Customer.Location == nil || p.Customer.Location.Street != "1 Elm St" {
		t.Fatalf("location %+v", p.Customer.Location)
	}
	h.gate.down.Store(false)
	h.sync()
	sp, err := h.srv.Proposal(id)
	if err != nil || sp.Customer == nil || sp.Customer.FirstName != "Olive" || app.IsTemporaryID(sp.Customer.ID) ||
		sp.Customer.Location == nil || sp.Customer.Location.City != "Austin" {
		t.Fatalf("server copy customer %+v, %v", sp.Customer, err)
	}
}
