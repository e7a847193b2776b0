package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"proposaldesk/apiserver/demo"
	"proposaldesk/apiserver/store/pgstore/pgtest"
	"proposaldesk/app"
	"proposaldesk/app/signing"
	"proposaldesk/cmd/server/internal/load"
)

var serverBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pd-server-bin-")
	if err != nil {
		panic(err)
	}
	serverBin = filepath.Join(dir, "server")
	out, err := exec.Command("go", "build", "-o", serverBin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := pgtest.Run(m) // the replica tests' PostgreSQL
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is a running `server serve` subprocess.
type proc struct {
	cmd     *exec.Cmd
	baseURL string
	mu      sync.Mutex
	log     bytes.Buffer
	done    chan struct{}
	waitErr error
}

func (p *proc) logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// startServe runs serve on a free loopback port and waits for its
// "listening" log line.
func startServe(t *testing.T, data string, extra ...string) *proc {
	t.Helper()
	args := append([]string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--log-format", "json"}, extra...)
	return startProc(t, exec.Command(serverBin, args...))
}

// startProc runs a serve command line (perhaps wrapped, e.g. in a shell
// that sets limits) and waits for its "listening" log line.
func startProc(t *testing.T, cmd *exec.Cmd) *proc {
	t.Helper()
	cmd.Env = os.Environ()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, done: make(chan struct{})}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.log.WriteString(line + "\n")
			p.mu.Unlock()
			var rec struct {
				Msg     string `json:"msg"`
				BaseURL string `json:"baseUrl"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "listening" {
				ready <- rec.BaseURL
			}
		}
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("server log:\n%s", p.logs())
		}
	})
	select {
	case p.baseURL = <-ready:
	case <-p.done:
		t.Fatalf("server exited early: %v\n%s", p.waitErr, p.logs())
	case <-time.After(60 * time.Second):
		t.Fatalf("server did not start\n%s", p.logs())
	}
	return p
}

// wait waits for the process to exit and returns its exit code.
func (p *proc) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(d):
		t.Fatalf("server did not exit within %s\n%s", d, p.logs())
	}
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		return ee.ExitCode()
	}
	if p.waitErr != nil {
		t.Fatalf("wait: %v", p.waitErr)
	}
	return 0
}

func readDemo(t *testing.T, data string) demo.Credentials {
	t.Helper()
	path := filepath.Join(data, "demo.json")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("demo.json mode %v, want 0600", fi.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c demo.Credentials
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// apiClient signs requests as the demo Sales user.
type apiClient struct {
	base, appID, secret, key string
	userID                   int64
	hc                       *http.Client
}

func login(t *testing.T, base string, creds demo.Credentials) *apiClient {
	t.Helper()
	sales, ok := creds.User(demo.MainAccountName, app.RoleSales, true)
	if !ok || sales.Password == "" {
		t.Fatalf("no Sales user with a password in demo.json: %+v", creds.Accounts)
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	key, uid, err := load.Exchange(context.Background(), hc, base, creds.AppID, creds.AppSecret, sales.Email, sales.Password)
	if err != nil {
		t.Fatal(err)
	}
	return &apiClient{base: base, appID: creds.AppID, secret: creds.AppSecret, key: key, userID: uid, hc: hc}
}

func (c *apiClient) request(method, path string, body io.Reader, ct string) *http.Request {
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		panic(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range (signing.Request{Method: method, URL: c.base + path, ContentType: ct, AppID: c.appID,
		Secret: c.secret, UserKey: c.key, Now: time.Now()}).Headers() {
		req.Header.Set(k, v)
	}
	return req
}

// call sends a signed request and decodes a JSON answer into out.
func (c *apiClient) call(method, path string, in, out any) (int, error) {
	var body io.Reader
	ct := ""
	if in != nil {
		b, _ := json.Marshal(in)
		body, ct = bytes.NewReader(b), "application/json"
	}
	resp, err := c.hc.Do(c.request(method, path, body, ct))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode == http.StatusOK && out != nil {
		return resp.StatusCode, json.Unmarshal(b, out)
	}
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, fmt.Errorf("HTTP %d: %s", resp.StatusCode, b)
	}
	return resp.StatusCode, nil
}

type detail struct {
	ID    int64 `json:"id"`
	Areas []struct {
		ID      int64  `json:"id"`
		Name    string `json:"name"`
		Options []struct {
			ID int64 `json:"id"`
		} `json:"options"`
	} `json:"areas"`
}

func (c *apiClient) newProposal(t *testing.T, name string) int64 {
	t.Helper()
	var d detail
	if _, err := c.call("POST", "/public/proposals", map[string]any{"SalesPersonId": c.userID, "Name": name}, &d); err != nil {
		t.Fatal(err)
	}
	return d.ID
}

func TestServeDemoSignedGetAndGracefulShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	data := t.TempDir()
	p := startServe(t, data, "--demo")
	creds := readDemo(t, data)
	if creds.BaseURL != p.baseURL || !strings.HasPrefix(creds.BaseURL, "http://127.0.0.1:") {
		t.Errorf("demo.json baseUrl %q, listening on %q", creds.BaseURL, p.baseURL)
	}
	c := login(t, p.baseURL, creds)
	var list struct {
		Proposals []struct {
			ID int64 `json:"id"`
		} `json:"proposals"`
		ProposalCount int `json:"proposalCount"`
	}
	if _, err := c.call("GET", "/public/proposals?PageSize=5", nil, &list); err != nil {
		t.Fatal(err)
	}
	if list.ProposalCount < 30 || len(list.Proposals) != 5 {
		t.Errorf("list: count %d, page %d", list.ProposalCount, len(list.Proposals))
	}
	var d detail
	if _, err := c.call("GET", "/public/proposals/"+strconv.FormatInt(list.Proposals[0].ID, 10), nil, &d); err != nil || d.ID != list.Proposals[0].ID {
		t.Fatalf("get: %v %+v", err, d)
	}

	// An in-flight request: the body arrives in two parts, with SIGTERM
	// sent in between. The server must finish it, then exit 0.
	id := c.newProposal(t, "Shutdown test")
	pr, pw := io.Pipe()
	path := "/public/proposals/" + strconv.FormatInt(id, 10) + "/area"
	req := c.request("POST", path, pr, "application/json")
	// The server answers "100 Continue" when its handler first reads the
	// body: then the request is in flight inside the server.
	req.Header.Set("Expect", "100-continue")
	reading := make(chan struct{})
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		Got100Continue: func() { close(reading) },
	}))
	type result struct {
		status int
		body   []byte
		err    error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := c.hc.Do(req)
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{resp.StatusCode, b, err}
	}()
	select {
	case <-reading:
	case r := <-got:
		t.Fatalf("the request ended before the server read its body: %d %v %s", r.status, r.err, r.body)
	case <-time.After(25 * time.Second):
		t.Fatal("the server did not start reading the request body")
	}
	if _, err := pw.Write([]byte(`{"Name": "Late`)); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Shutdown has begun once the listener is closed.
	waitUntil(t, "the server to stop accepting connections", 25*time.Second, func() bool {
		conn, err := net.DialTimeout("tcp", strings.TrimPrefix(p.baseURL, "http://"), time.Second)
		if err == nil {
			conn.Close()
		}
		return err != nil
	})
	select {
	case <-p.done:
		t.Fatal("server exited with a request in flight")
	default:
	}
	if _, err := pw.Write([]byte(` Room"}`)); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	r := <-got
	if r.err != nil || r.status != http.StatusOK {
		t.Fatalf("in-flight request: %d %v %s", r.status, r.err, r.body)
	}
	if err := json.Unmarshal(r.body, &d); err != nil || len(d.Areas) != 1 || d.Areas[0].Name != "Late Room" {
		t.Fatalf("in-flight request answer: %v %s", err, r.body)
	}
	if code := p.wait(t, 25*time.Second); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	for _, want := range []string{`"msg":"shutting down`, `"msg":"server stopped"`, `"msg":"database closed"`} {
		if !strings.Contains(p.logs(), want) {
			t.Errorf("log lacks %s", want)
		}
	}
	checkRequestLine(t, p.logs(), "GET", "/public/proposals/"+strconv.FormatInt(list.Proposals[0].ID, 10), string(app.OpGetProposal), c.userID)
	if _, err := os.Stat(filepath.Join(data, "admin.sock")); !os.IsNotExist(err) {
		t.Errorf("admin socket left behind: %v", err)
	}

	// A second start on the same folder seeds nothing new and keeps the
	// passwords in demo.json.
	p2 := startServe(t, data, "--demo")
	creds2 := readDemo(t, data)
	if creds2.AppSecret != creds.AppSecret || creds2.BaseURL != p2.baseURL {
		t.Errorf("second start changed the app or kept an old URL")
	}
	c2 := login(t, p2.baseURL, creds2)
	var list2 struct {
		ProposalCount int `json:"proposalCount"`
	}
	if _, err := c2.call("GET", "/public/proposals", nil, &list2); err != nil || list2.ProposalCount != list.ProposalCount+1 {
		t.Errorf("after restart: %v, count %d, want %d", err, list2.ProposalCount, list.ProposalCount+1)
	}
	p2.cmd.Process.Signal(syscall.SIGINT)
	if code := p2.wait(t, 25*time.Second); code != 0 {
		t.Fatalf("exit code after SIGINT %d", code)
	}
}
