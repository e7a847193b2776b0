package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/zalando/go-keyring"

	"proposaldesk/app"
	syncer "proposaldesk/sync"
)

// With the background loop running, the status bar
// says Offline within a few heartbeats of the server going away, and
// Online again when it is back, without waiting for the next sync.
func TestOutageNoticedQuickly(t *testing.T) {
	h := newHarness(t)
	h.autoSync = true
	d := h.signInWith(app.RoleSales, Options{EngineOptions: []syncer.EngineOption{
		syncer.WithSyncInterval(time.Hour), syncer.WithHeartbeat(50 * time.Millisecond)}})
	h.waitFor("online", func() bool { return strings.Contains(d.status.online.Text, "Online") })
	h.gate.down.Store(true)
	start := time.Now()
	h.waitFor("the outage shown", func() bool { return strings.Contains(d.status.online.Text, "Offline") })
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("the outage took %v to show", took)
	}
	if !strings.Contains(d.status.errText.Text, "Working offline") {
		t.Fatalf("status %q", d.status.errText.Text)
	}
	h.gate.down.Store(false)
	h.waitFor("back online", func() bool { return strings.Contains(d.status.online.Text, "Online") })
}

// When the OS keyring cannot keep the key, the
// desktop says so once, in words, with what to do.
func TestKeyringProblemToldOnce(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided by any .service files"))
	defer keyring.MockInit()
	h := newHarness(t)
	h.keys = syncer.NewKeyring(syncer.WithKeyringTimeout(time.Second))
	if h.keys.Persistent() {
		t.Fatal("the failing keyring reports persistent")
	}
	d := h.signIn(app.RoleSales)
	dl := d.win.Canvas().Overlays().Top()
	got := texts(dl)
	for _, want := range []string{"will have to sign in again", "keyring service is running", "org.freedesktop.secrets"} {
		if !strings.Contains(got, want) {
			t.Fatalf("notice lacks %q:\n%s", want, got)
		}
	}
	test.Tap(findButton(dl, "OK"))
	test.Tap(findButton(d.win.Content(), "Sign out"))
	u := h.srv.Users[app.RoleSales]
	d.signin.email.SetText(u.Email)
	d.signin.password.SetText(u.Password)
	test.Tap(d.signin.button)
	h.waitFor("the workspace", func() bool { return d.sess != nil })
	if o := d.win.Canvas().Overlays().Top(); o != nil && strings.Contains(texts(o), "will have to sign in again") {
		t.Fatal("the notice was shown twice")
	}
}
