package ui

// The test harness: the real API server on loopback (apiserver/apitest),
// a real local store in a temp dir, and the desktop on Fyne's headless
// test driver. Work that the app hands to the UI goroutine (Options.Do)
// is queued and run on the test's goroutine, so the test drives the
// screens as a user would without racing the sync goroutines.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"proposaldesk/apiserver/apitest"
	"proposaldesk/app"
	syncer "proposaldesk/sync"
)

var (
	srvOnce sync.Once
	srv     *apitest.Server
	srvErr  error
)

func TestMain(m *testing.M) {
	keyring.MockInit() // these tests are not about the OS keyring
	code := m.Run()
	if srv != nil {
		srv.Close()
	}
	os.Exit(code)
}

func server(t testing.TB) *apitest.Server {
	t.Helper()
	srvOnce.Do(func() { srv, srvErr = apitest.Start() })
	if srvErr != nil {
		t.Fatalf("starting the server: %v", srvErr)
	}
	return srv
}

// gate is a front for the server that can go offline: while down, every
// connection is closed without an answer, as an unreachable server does.
type gate struct {
	h    http.Handler
	down atomic.Bool
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.down.Load() {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	g.h.ServeHTTP(w, r)
}

type harness struct {
	t    *testing.T
	srv  *apitest.Server
	gate *gate
	url  string
	dir  string
	d    *Desktop
	keys *syncer.Keyring

	mu    sync.Mutex
	queue []func()
	// autoSync runs the engine's background loop (heartbeat included)
	// instead of syncing only when the test asks.
	autoSync bool
}

// newHarness starts a desktop (not signed in) against the server.
func newHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessOn(t, server(t))
}

// newHarnessOn is newHarness against a server of the test's own.
func newHarnessOn(t *testing.T, s *apitest.Server) *harness {
	t.Helper()
	test.NewTempApp(t)
	h := &harness{t: t, srv: s, dir: t.TempDir(), keys: syncer.NewKeyring()}
	h.gate = &gate{h: s.Handler}
	hs := httptest.NewServer(h.gate)
	t.Cleanup(hs.Close)
	h.url = hs.URL
	return h
}

func (h *harness) conn() syncer.Connection {
	return syncer.Connection{BaseURL: h.url, AppID: h.srv.AppID, AppSecret: h.srv.AppSecret}
}

// start opens the desktop window.
func (h *harness) start(o Options) *Desktop {
	h.t.Helper()
	o.DataDir = h.dir
	o.Keyring = h.keys
	if o.Connection == nil {
		c := h.conn()
		o.Connection = &c
	}
	o.Do = h.enqueue
	o.ManualSync = !h.autoSync
	if o.SaveDelay == 0 {
		o.SaveDelay = 30 * time.Millisecond
	}
	h.d = New(fyne.CurrentApp(), o)
	h.d.Window().Resize(fyne.NewSize(1200, 800))
	h.t.Cleanup(func() {
		h.d.Close()
		h.d.Window().Close()
	})
	return h.d
}

func (h *harness) enqueue(fn func()) {
	h.mu.Lock()
	h.queue = append(h.queue, fn)
	h.mu.Unlock()
}

// drain runs the queued UI work.
func (h *harness) drain() {
	for {
		h.mu.Lock()
		q := h.queue
		h.queue = nil
		h.mu.Unlock()
		if len(q) == 0 {
			return
		}
		for _, fn := range q {
			fn()
		}
	}
}

// waitFor runs UI work until cond holds (10 s at most).
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		h.drain()
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// signIn starts the desktop and signs in through the form as the
// fixture user of role, then syncs once.
func (h *harness) signIn(role app.Role) *Desktop {
	h.t.Helper()
	return h.signInWith(role, Options{})
}

// signInWith is signIn with options.
func (h *harness) signInWith(role app.Role, o Options) *Desktop {
	h.t.Helper()
	d := h.start(o)
	u := h.srv.Users[role]
	f := d.signin
	test.Type(f.email, u.Email)
	test.Type(f.password, u.Password)
	test.Tap(f.button)
	h.waitFor("the workspace", func() bool { return d.sess != nil })
	h.sync()
	return d
}

// sync presses "Sync now" and waits for the sync to finish.
func (h *harness) sync() syncer.State {
	h.t.Helper()
	return h.syncBy(func() { test.Tap(h.d.status.syncNow) })
}

// backgroundSync is a sync the user did not ask for (the periodic one):
// the focus stays where it is.
func (h *harness) backgroundSync() syncer.State {
	h.t.Helper()
	return h.syncBy(h.d.SyncNow)
}

func (h *harness) syncBy(start func()) syncer.State {
	h.t.Helper()
	d := h.d
	before := d.sess.eng.State().LastSync
	started := time.Now()
	start()
	var st syncer.State
	h.waitFor("a sync", func() bool {
		st = d.sess.eng.State()
		return !st.Syncing && (st.LastError != nil && time.Since(started) > 50*time.Millisecond || st.LastSync.After(before))
	})
	// The engine changes its state before it hands the change to the UI.
	h.waitFor("the final state on the status bar", func() bool { return sameState(d.status.state, d.sess.eng.State()) })
	return st
}

// sameState reports whether the status bar, showing shown, shows st.
func sameState(shown, st syncer.State) bool {
	e1, e2 := shown.LastError, st.LastError
	shown.LastError, st.LastError = nil, nil
	return shown == st && (e1 == nil) == (e2 == nil) && (e1 == nil || e1.Error() == e2.Error())
}

// openByName opens the proposal with this name from the list, as a
// click on its row does.
func (h *harness) openByName(name string) *proposalView {
	h.t.Helper()
	d := h.d
	for i, r := range d.list.rows {
		if r.Name == name {
			d.list.list.Select(i)
			h.drain()
			if d.detail.p == nil || d.detail.p.Name != name {
				h.t.Fatalf("opened %v, want %q", d.detail.p, name)
			}
			return d.detail
		}
	}
	h.t.Fatalf("no row named %q in %d rows", name, len(d.list.rows))
	return nil
}

// rowOf is the list row of a proposal as shown.
func (h *harness) rowOf(id int64) *row {
	h.t.Helper()
	d := h.d
	for i, r := range d.list.rows {
		if r.ID == id {
			d.list.list.ScrollTo(i)
			o := newRow().(*row)
			o.show(&d.list.rows[i], r.ID == d.list.selected)
			return o
		}
	}
	h.t.Fatalf("no row for proposal %d", id)
	return nil
}

// findButton finds a button by its text under o.
func findButton(o fyne.CanvasObject, text string) *widget.Button {
	var found *widget.Button
	walk(o, func(x fyne.CanvasObject) {
		if b, ok := x.(*widget.Button); ok && b.Text == text && found == nil {
			found = b
		}
	})
	return found
}

// texts is every label's text under o, joined.
func texts(o fyne.CanvasObject) string {
	var b strings.Builder
	walk(o, func(x fyne.CanvasObject) {
		switch x := x.(type) {
		case *widget.Label:
			fmt.Fprintln(&b, x.Text)
		case *widget.Card:
			fmt.Fprintln(&b, x.Title)
			fmt.Fprintln(&b, x.Subtitle)
		}
	})
	return b.String()
}

// walk visits o and everything inside it (containers, cards, scrolls,
// forms, widgets' rendered children).
func walk(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	if o == nil {
		return
	}
	fn(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(c, fn)
		}
	case *widget.Card:
		walk(x.Content, fn)
	case *widget.Form:
		for _, it := range x.Items {
			walk(it.Widget, fn)
		}
	case *cullBox: // its children, drawn or not (built to be walked)
		for i := range x.objs {
			walk(x.child(i), fn)
		}
	case fyne.Widget:
		if _, ok := x.(*widget.Label); ok {
			return
		}
		if _, ok := x.(*widget.Button); ok {
			return
		}
		if _, ok := x.(*field); ok {
			return
		}
		for _, c := range test.WidgetRenderer(x).Objects() {
			walk(c, fn)
		}
	}
}

var bg = context.Background()

// freePort is a loopback address nothing listens on.
func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// findSelect finds a select by its placeholder under o.
func findSelect(o fyne.CanvasObject, placeholder string) *widget.Select {
	var found *widget.Select
	walk(o, func(x fyne.CanvasObject) {
		s, ok := x.(*widget.Select)
		if ta, yes := x.(*typeAheadSelect); yes {
			s, ok = &ta.Select, true
		}
		if ok && s.PlaceHolder == placeholder && found == nil {
			found = s
		}
	})
	return found
}
