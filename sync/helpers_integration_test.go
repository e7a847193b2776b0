package syncer

// The one test helper file of the integration tests: a real apiserver on
// loopback over a temporary bbolt file with a small fixture, and a loopback
// TCP proxy that can drop connections, delay them, or cut a response after
// the server has answered.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"proposaldesk/apiserver"
	"proposaldesk/apiserver/apitest"
	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store/boltstore"
	"proposaldesk/app"
	"proposaldesk/localstore"
)

// realServer is the apiserver shared by the integration tests of one test
// binary: the fixture server of apitest (the same one the desktop's tests
// use). Tests create the proposals they change and never depend on each
// other's writes.
type realServer struct {
	*apitest.Server

	adminOnce sync.Once
	adminC    *Client
}

// admin is a shared client signed in as the fixture's admin (the
// office), for reading what the server holds.
func (s *realServer) admin(t testing.TB) *Client {
	t.Helper()
	s.adminOnce.Do(func() { s.adminC = s.signedIn(t, s.URL, app.RoleAdmin) })
	if s.adminC == nil {
		t.Fatal("no admin client")
	}
	return s.adminC
}

// fixtureUser is a user of the fixture's account.
type fixtureUser struct {
	Email, Password string
	UserID          int64
}

var (
	realOnce sync.Once
	shared   *realServer
	realErr  error
	realStop func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	if realStop != nil {
		realStop()
	}
	os.Exit(code)
}

// startReal returns the shared real server, starting it on first use.
func startReal(t testing.TB) *realServer {
	t.Helper()
	realOnce.Do(func() { shared, realErr = newRealServer() })
	if realErr != nil {
		t.Fatalf("starting the real server: %v", realErr)
	}
	return shared
}

func newRealServer() (*realServer, error) {
	srv, err := apitest.Start()
	if err != nil {
		return nil, err
	}
	realStop = srv.Close
	return &realServer{Server: srv}, nil
}

// user is a fixture user.
func (s *realServer) user(t testing.TB, role app.Role, verified bool) fixtureUser {
	t.Helper()
	u, ok := s.Users[role]
	if !verified {
		u, ok = s.Unverified, role == s.Unverified.Role
	}
	if !ok {
		t.Fatalf("the fixture has no %s user (verified %v)", role, verified)
	}
	return fixtureUser{Email: u.Email, Password: u.Password, UserID: u.ID}
}

// client returns a client for baseURL (the server's or a proxy's), not
// signed in.
func (s *realServer) client(t testing.TB, baseURL string, opts ...Option) *Client {
	t.Helper()
	c, err := NewClient(Connection{BaseURL: baseURL, AppID: s.AppID, AppSecret: s.AppSecret}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// signedIn returns a client signed in as the fixture user of role.
func (s *realServer) signedIn(t testing.TB, baseURL string, role app.Role, opts ...Option) *Client {
	t.Helper()
	u := s.user(t, role, true)
	c := s.client(t, baseURL, opts...)
	if _, err := c.Exchange(context.Background(), u.Email, u.Password); err != nil {
		t.Fatalf("exchange as %s: %v", role, err)
	}
	return c
}

// proxyAction is what the proxy does with one accepted connection.
type proxyAction int

const (
	proxyPass proxyAction = iota
	// proxyDrop closes the connection at once, before reading anything.
	proxyDrop
	// proxyDelay waits, then passes the connection through.
	proxyDelay
	// proxyCut passes the request to the server, waits for its answer to
	// start, forwards at most Keep bytes of it and closes the connection.
	proxyCut
)

type proxyStep struct {
	Action proxyAction
	Delay  time.Duration
	Keep   int
}

// tcpProxy is a loopback TCP proxy in front of an upstream address. Each
// accepted connection takes the next planned step; with none left it
// passes traffic through. Use clients without keep-alive so that one
// request is one connection.
type tcpProxy struct {
	t        testing.TB
	ln       net.Listener
	upstream string

	mu    sync.Mutex
	plan  []proxyStep
	deflt proxyStep // when the plan is used up
	conns int
	cuts  int
	wg    sync.WaitGroup
}

func startProxy(t testing.TB, upstreamURL string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := upstreamURL[len("http://"):]
	p := &tcpProxy{t: t, ln: ln, upstream: u}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.wg.Wait()
	})
	return p
}

// URL is the proxy's base URL.
func (p *tcpProxy) URL() string { return "http://" + p.ln.Addr().String() }

// then plans the next connections.
func (p *tcpProxy) then(steps ...proxyStep) {
	p.mu.Lock()
	p.plan = append(p.plan, steps...)
	p.mu.Unlock()
}

// always sets what connections get once the plan is used up (a pass
// by default).
func (p *tcpProxy) always(step proxyStep) {
	p.mu.Lock()
	p.deflt = step
	p.mu.Unlock()
}

// stats reports connections accepted and responses cut.
func (p *tcpProxy) stats() (conns, cuts int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conns, p.cuts
}

func (p *tcpProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.conns++
		step := p.deflt
		if len(p.plan) > 0 {
			step, p.plan = p.plan[0], p.plan[1:]
		}
		p.mu.Unlock()
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.handle(c, step)
		}()
	}
}

func (p *tcpProxy) handle(client net.Conn, step proxyStep) {
	defer client.Close()
	switch step.Action {
	case proxyDrop:
		return
	case proxyDelay:
		time.Sleep(step.Delay)
	}
	up, err := net.Dial("tcp", p.upstream)
	if err != nil {
		return
	}
	defer up.Close()
	go func() {
		_, _ = io.Copy(up, client)
		if tc, ok := up.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}()
	if step.Action != proxyCut {
		_, _ = io.Copy(client, up)
		return
	}
	// Wait until the server has answered (it commits before it writes),
	// then pass on at most Keep bytes and hang up.
	buf := make([]byte, 64<<10)
	_ = up.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := up.Read(buf)
	if err != nil && n == 0 {
		return
	}
	if step.Keep > 0 {
		_, _ = client.Write(buf[:min(n, step.Keep)])
	}
	p.mu.Lock()
	p.cuts++
	p.mu.Unlock()
	if tc, ok := client.(*net.TCPConn); ok {
		_ = tc.SetLinger(0) // a reset, as a dying network gives
	}
}

// noKeepAlive is an HTTP client whose every request opens a connection.
func noKeepAlive() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
}

// appUser is the fixture user of role as app's rules see it (the actor
// of a desktop engine).
func (s *realServer) appUser(t testing.TB, role app.Role) app.User {
	t.Helper()
	u := s.user(t, role, true)
	return app.User{ID: u.UserID, Email: u.Email, FirstName: string(role), LastName: "User", Role: role, EmailVerified: true}
}

// openLocal opens a local store at path (a new temp file when "");
// closed at cleanup unless the test closes it first.
func openLocal(t testing.TB, path string) *localstore.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "desk.db")
	}
	st, err := localstore.OpenWith(path, localstore.Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("open local store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// desk is one desktop: a local store, a client and an engine.
type desk struct {
	st  *localstore.Store
	c   *Client
	eng *Engine
}

// newDesk signs in as role through baseURL and returns a desktop over a
// fresh local store (or st when given).
func (s *realServer) newDesk(t testing.TB, baseURL string, role app.Role, st *localstore.Store, copts []Option, eopts ...EngineOption) *desk {
	t.Helper()
	if st == nil {
		st = openLocal(t, "")
	}
	c := s.signedIn(t, baseURL, role, copts...)
	return &desk{st: st, c: c, eng: NewEngine(st, c, s.appUser(t, role), eopts...)}
}

// sync runs one sync and fails the test on error.
func (d *desk) sync(t testing.TB) {
	t.Helper()
	if err := d.eng.SyncOnce(bg); err != nil {
		t.Fatalf("sync: %v", err)
	}
}

// edit applies a mutation locally and fails the test on error.
func (d *desk) edit(t testing.TB, id int64, m app.Mutation) *app.Proposal {
	t.Helper()
	p, err := d.eng.Edit(bg, id, m)
	if err != nil {
		t.Fatalf("edit %s of %d: %v", m.Kind(), id, err)
	}
	return p
}

// restorable is the real server behind a front that can pretend the
// server's data was replaced: while restored is set, the proposals' and
// the people's changes feeds and the proposals for sync answer with
// another storeId.
type restorable struct {
	URL      string
	restored atomic.Bool
	// midPull makes only the proposals for sync answer with another
	// storeId: a restore between the changes feed and the download.
	midPull atomic.Bool
}

func (s *realServer) restorable(t testing.TB) *restorable {
	t.Helper()
	r := &restorable{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		bulk := strings.EqualFold(req.URL.Path, "/public/sync/proposals")
		feed := strings.EqualFold(req.URL.Path, "/public/changes") || strings.EqualFold(req.URL.Path, "/public/people/changes") || bulk
		if !(r.restored.Load() && feed) && !(r.midPull.Load() && bulk) {
			s.Handler.ServeHTTP(w, req)
			return
		}
		rec := httptest.NewRecorder()
		s.Handler.ServeHTTP(rec, req)
		body := rec.Body.Bytes()
		var ch map[string]any
		if rec.Code == http.StatusOK && json.Unmarshal(body, &ch) == nil {
			ch["storeId"] = fmt.Sprint(ch["storeId"], "-restored")
			body, _ = json.Marshal(ch)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

// demoServer is an apiserver over the demo data grown to a number of
// proposals in the main account, for benchmarks. One per size per test
// binary; it lives until the binary exits.
type demoServer struct {
	URL   string
	Creds demo.Credentials
	Count int
	// Pid is the server's process when it runs in a child
	// (startDemoChild), else 0.
	Pid int
}

var (
	demoMu      sync.Mutex
	demoServers = map[int]*demoServer{}
)

func startDemo(tb testing.TB, proposals int) *demoServer {
	tb.Helper()
	demoMu.Lock()
	defer demoMu.Unlock()
	if d, ok := demoServers[proposals]; ok {
		return d
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "syncer-demo-")
	if err != nil {
		tb.Fatal(err)
	}
	st, err := boltstore.Open(filepath.Join(dir, "server.db"))
	if err != nil {
		tb.Fatal(err)
	}
	creds, err := demo.Seed(ctx, st, demo.Options{GrowTo: proposals})
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(apiserver.New(apiserver.Config{Logger: slog.New(slog.DiscardHandler)}, st))
	d := &demoServer{URL: srv.URL, Creds: creds}
	prev := realStop
	realStop = func() {
		if prev != nil {
			prev()
		}
		srv.Close()
		st.Close()
		os.RemoveAll(dir)
	}
	demoServers[proposals] = d
	return d
}

// signedIn is a client signed in as the main account's user of role.
func (d *demoServer) signedIn(tb testing.TB, role app.Role) (*Client, app.User) {
	tb.Helper()
	u, ok := d.Creds.User(demo.MainAccountName, role, true)
	if !ok {
		tb.Fatalf("no demo %s user", role)
	}
	c, err := NewClient(Connection{BaseURL: d.URL, AppID: d.Creds.AppID, AppSecret: d.Creds.AppSecret})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := c.Exchange(context.Background(), u.Email, u.Password); err != nil {
		tb.Fatal(err)
	}
	return c, app.User{ID: u.UserID, Email: u.Email, Role: role, EmailVerified: true}
}
