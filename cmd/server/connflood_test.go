package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestIdleConnectionFloodFromOneAddress: the server runs with a low
// open-files limit (256, soft and hard); one address opens many times
// more idle keep-alive connections than that, and then a new client from
// the same address makes a signed request and is answered. Without the
// connection caps the server ran out of descriptors ("accept4: too many
// open files") and the new client waited for an idle timeout.
func TestIdleConnectionFloodFromOneAddress(t *testing.T) {
	data := t.TempDir()
	const nofile = 256
	cmd := exec.Command("sh", "-c", fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, nofile),
		serverBin, "serve", "--data", data, "--addr", "127.0.0.1:0", "--log-format", "json", "--demo")
	p := startProc(t, cmd)
	if !strings.Contains(p.logs(), `"open_files":256,"max_conns":192,"max_conns_per_addr":48`) {
		t.Errorf("connection limits not derived from the open-files limit:\n%s", p.logs())
	}
	creds := readDemo(t, data)
	c := login(t, p.baseURL, creds)
	path := "/public/proposals?PageSize=5"
	start := time.Now()
	if _, err := c.call("GET", path, nil, nil); err != nil {
		t.Fatal(err)
	}
	before := time.Since(start)

	host := strings.TrimPrefix(p.baseURL, "http://")
	const flood = 8 * nofile
	var conns []net.Conn
	defer func() {
		for _, fc := range conns {
			fc.Close()
		}
	}()
	answered := 0
	for range flood {
		fc, err := net.DialTimeout("tcp", host, 5*time.Second)
		if err != nil {
			t.Fatalf("dial after %d connections: %v", len(conns), err)
		}
		conns = append(conns, fc)
		if !requestOn(fc) {
			break // the server no longer answers new connections
		}
		answered++
	}
	if answered < flood {
		t.Errorf("only %d of %d flooding connections were answered", answered, flood)
	}

	// A new client (its own connection) from the same address.
	fresh := *c
	fresh.hc = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{}}
	start = time.Now()
	var list struct {
		ProposalCount int `json:"proposalCount"`
	}
	if _, err := fresh.call("GET", path, nil, &list); err != nil || list.ProposalCount == 0 {
		t.Fatalf("new client during the flood: %v", err)
	}
	during := time.Since(start)
	t.Logf("signed list page: %v before the flood, %v after %d idle connections", before, during, answered)
	// Generous against a noisy machine; without the caps it is the full
	// client timeout.
	if during > 3*time.Second {
		t.Errorf("new client answered after %v", during)
	}
	if strings.Contains(p.logs(), "too many open files") {
		t.Errorf("the server ran out of file descriptors:\n%s", p.logs())
	}
}

// requestOn makes one small request on c and reads the answer, leaving
// c open as an idle keep-alive connection. False if no answer came.
func requestOn(c net.Conn) bool {
	c.SetDeadline(time.Now().Add(3 * time.Second))
	defer c.SetDeadline(time.Time{})
	if _, err := io.WriteString(c, "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return false
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return false
	}
	defer res.Body.Close()
	var body struct {
		ErrorCode string `json:"errorCode"`
	}
	return json.NewDecoder(res.Body).Decode(&body) == nil && body.ErrorCode == "NotFound"
}
