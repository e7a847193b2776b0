package connlimit

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

func TestDefaultLimits(t *testing.T) {
	for _, tc := range []struct {
		nofile         uint64
		total, perAddr int
	}{
		{0, 16, 8},
		{20, 16, 8},
		{256, 192, 48},
		{1024, 960, 240},
		{20000, 10000, 2500},
		{1 << 40, 10000, 2500},
	} {
		if got := DefaultLimits(tc.nofile); got.Total != tc.total || got.PerAddr != tc.perAddr {
			t.Errorf("DefaultLimits(%d) = %+v, want %d/%d", tc.nofile, got, tc.total, tc.perAddr)
		}
	}
}

// serve starts an http.Server on loopback behind a Limiter.
func serve(t *testing.T, lim Limits, h http.Handler) (*Limiter, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := New(ln, lim, nil)
	srv := &http.Server{Handler: h, ConnState: l.ConnState, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return l, ln.Addr().String()
}

// idleConn opens a connection, makes one request on it and leaves it
// open and idle (keep-alive).
func idleConn(t *testing.T, addr string) net.Conn {
	t.Helper()
	return idleConnFrom(t, "127.0.0.1", addr)
}

// idleConnFrom is idleConn from a given loopback source address.
func idleConnFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("request on an attacking connection: %v", err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return c
}

// TestIdleFloodFromOneAddress: far more idle keep-alive connections than
// the caps from one address; the limiter keeps within them by closing
// the longest-idle ones, and a new client from the same address is
// answered.
func TestIdleFloodFromOneAddress(t *testing.T) {
	lim := Limits{Total: 40, PerAddr: 10}
	l, addr := serve(t, lim, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	var conns []net.Conn
	for range 400 {
		conns = append(conns, idleConn(t, addr))
		if total, fromAddr := l.Open("127.0.0.1"); total > lim.Total || fromAddr > lim.PerAddr {
			t.Fatalf("open %d, from the address %d: over the caps %+v", total, fromAddr, lim)
		}
	}
	// The oldest connections were closed by the server, the newest not.
	if !closedByServer(conns[0]) {
		t.Error("the longest-idle connection is still open")
	}
	if closedByServer(conns[len(conns)-1]) {
		t.Error("the newest connection was closed")
	}
	res, err := (&http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}).Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("a new client from the flooding address: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	if evicted, refused := l.Stats(); evicted < 390 || refused != 0 {
		t.Fatalf("evicted %d, refused %d", evicted, refused)
	}
}

// TestBusyConnectionsAreNeverClosed: when every connection of the
// address is in a request, a new one is refused and the busy ones finish.
func TestBusyConnectionsAreNeverClosed(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 10)
	lim := Limits{Total: 40, PerAddr: 2}
	l, addr := serve(t, lim, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		<-release
		io.WriteString(w, "done")
	}))
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}
	done := make(chan error, 2)
	for range 2 {
		go func() {
			res, err := client.Get("http://" + addr + "/")
			if err == nil {
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if string(b) != "done" {
					err = io.ErrUnexpectedEOF
				}
			}
			done <- err
		}()
	}
	<-started
	<-started
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !closedByServer(c) {
		t.Fatal("a third connection was admitted while two were busy")
	}
	close(release)
	for range 2 {
		if err := <-done; err != nil {
			t.Fatalf("busy request: %v", err)
		}
	}
	if _, refused := l.Stats(); refused != 1 {
		t.Fatalf("refused %d", refused)
	}
}

// waitIdle waits until l holds n idle connections.
func waitIdle(t *testing.T, l *Limiter, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		l.mu.Lock()
		idle := l.idle.Len()
		l.mu.Unlock()
		if idle == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d idle connections, want %d", idle, n)
		}
	}
}

// closedByServer reports whether the server has closed c (a read sees
// EOF or a reset within a short wait).
func closedByServer(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	_, err := c.Read(make([]byte, 1))
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return err != nil
}

// TestTotalCapClosesTheLongestIdleOfAll: with the total cap reached by
// two addresses, a third address gets in by closing the longest-idle
// connection of all.
func TestTotalCapClosesTheLongestIdleOfAll(t *testing.T) {
	lim := Limits{Total: 20, PerAddr: 10}
	l, addr := serve(t, lim, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	first := idleConnFrom(t, "127.0.0.1", addr)
	// The server marks a connection idle only after writing the response
	// the client has already read: wait for it, or the next connection
	// (idle from its accept) may be first in the idle list.
	waitIdle(t, l, 1)
	for range 9 {
		idleConnFrom(t, "127.0.0.1", addr)
	}
	for range 10 {
		idleConnFrom(t, "127.0.0.2", addr)
	}
	idleConnFrom(t, "127.0.0.3", addr)
	total, one := l.Open("127.0.0.1")
	_, three := l.Open("127.0.0.3")
	if total != 20 || one != 9 || three != 1 {
		t.Fatalf("open %d, from .1 %d, from .3 %d", total, one, three)
	}
	if !closedByServer(first) {
		t.Fatal("the longest-idle connection of all is still open")
	}
}
