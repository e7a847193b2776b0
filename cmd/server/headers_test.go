package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLargeHeaders: the real server answers a header over the API's
// 64 KiB limit with the contract's JSON 431; only past the listener's
// 256 KiB does net/http answer in plain text (documented in
// DECISIONS.md, "Input fidelity").
func TestLargeHeaders(t *testing.T) {
	p := startServe(t, t.TempDir())
	host := strings.TrimPrefix(p.baseURL, "http://")
	for _, tc := range []struct {
		size int
		json bool
	}{
		{100 << 10, true},
		{300 << 10, false},
	} {
		t.Run(fmt.Sprint(tc.size), func(t *testing.T) {
			c, err := net.Dial("tcp", host)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(20 * time.Second))
			go io.WriteString(c, "GET /public/proposals HTTP/1.1\r\nHost: x\r\nX-Padding: "+strings.Repeat("x", tc.size)+"\r\n\r\n")
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
				t.Fatalf("status %d", res.StatusCode)
			}
			var body struct {
				ErrorCode  string `json:"errorCode"`
				StatusCode string `json:"statusCode"`
			}
			isJSON := json.NewDecoder(res.Body).Decode(&body) == nil && body.ErrorCode == "PayloadTooLarge" &&
				body.StatusCode == "RequestHeaderFieldsTooLarge"
			if isJSON != tc.json {
				t.Fatalf("JSON error body %v, want %v (Content-Type %s)", isJSON, tc.json, res.Header.Get("Content-Type"))
			}
		})
	}
}
