package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"proposaldesk/apiserver/demo"
	"proposaldesk/app"
	"proposaldesk/cmd/server/internal/load"
)

// hookReceiver answers the first ok requests 200 and holds the rest
// open until release is closed; it records every request.
type hookReceiver struct {
	secret  string
	ok      int
	release chan struct{}

	mu   sync.Mutex
	reqs []hookRequest
}

type hookRequest struct {
	id, event   string
	proposal    int64
	version     int64
	signatureOK bool
	answered    bool
}

// event names one change: its type, proposal and version.
func (r hookRequest) event3() string { return fmt.Sprintf("%s %d v%d", r.event, r.proposal, r.version) }

func (h *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var b struct {
		Type string
		Data struct{ ID, Version int64 }
	}
	json.Unmarshal(body, &b)
	req := hookRequest{id: r.Header.Get("webhook-id"), event: b.Type, proposal: b.Data.ID, version: b.Data.Version}
	// The Standard Webhooks check, from the specification.
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(h.secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	io.WriteString(mac, req.id+"."+r.Header.Get("webhook-timestamp")+".")
	mac.Write(body)
	req.signatureOK = r.Header.Get("webhook-signature") == "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil))
	h.mu.Lock()
	hold := len(h.reqs) >= h.ok
	i := len(h.reqs)
	h.reqs = append(h.reqs, req)
	h.mu.Unlock()
	if hold {
		select {
		case <-h.release:
		case <-r.Context().Done():
			return
		}
	}
	h.mu.Lock()
	h.reqs[i].answered = true
	h.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (h *hookReceiver) snapshot() []hookRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hookRequest(nil), h.reqs...)
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

// TestWebhooksSurviveSIGKILL: the server is killed with deliveries in
// flight (the receiver holds them open); after a restart every event of
// every acknowledged write arrives, each with the webhook-id it had
// before the kill.
func TestWebhooksSurviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	rcv := &hookReceiver{ok: 5, release: make(chan struct{})}
	rs := httptest.NewServer(rcv)
	defer rs.Close()

	data := t.TempDir()
	flags := []string{"--demo", "--webhook-allow-private", "--webhook-timeout", "60s"}
	p := startServe(t, data, flags...)
	creds := readDemo(t, data)
	admin := loginRole(t, p.baseURL, creds, app.RoleAdmin)
	var sub struct{ SecretKey string }
	if _, err := admin.call("POST", "/public/webhook/subscribe", map[string]any{"Url": rs.URL, "Events": "proposal.created,proposal.updated"}, &sub); err != nil {
		t.Fatal(err)
	}
	rcv.secret = sub.SecretKey

	c := login(t, p.baseURL, creds)
	want := map[string]bool{}
	var created struct{ ID, Version int64 }
	if _, err := c.call("POST", "/public/proposals", map[string]any{"SalesPersonId": c.userID, "Name": "Hooked"}, &created); err != nil {
		t.Fatal(err)
	}
	want[fmt.Sprintf("proposal.created %d v%d", created.ID, created.Version)] = true
	for i := range 20 {
		var d struct{ ID, Version int64 }
		if _, err := c.call("POST", "/public/proposals/"+strconv.FormatInt(created.ID, 10)+"/area", map[string]any{"Name": fmt.Sprint("Room ", i)}, &d); err != nil {
			t.Fatal(err)
		}
		want[fmt.Sprintf("proposal.updated %d v%d", d.ID, d.Version)] = true
	}
	// Mid-delivery: some answered, more held open by the receiver.
	waitFor(t, 30*time.Second, "deliveries in flight", func() bool { return len(rcv.snapshot()) >= rcv.ok+3 })
	p.cmd.Process.Kill() // SIGKILL
	<-p.done
	before := rcv.snapshot()
	close(rcv.release)

	startServe(t, data, flags...)
	delivered := func() map[string]bool {
		out := map[string]bool{}
		for _, r := range rcv.snapshot() {
			if r.answered {
				out[r.event3()] = true
			}
		}
		return out
	}
	waitFor(t, 60*time.Second, "every event delivered after the restart", func() bool {
		got := delivered()
		for e := range want {
			if !got[e] {
				return false
			}
		}
		return true
	})
	all := rcv.snapshot()
	ids := map[string]string{}
	for _, r := range all {
		if !r.signatureOK {
			t.Errorf("%s: signature does not verify", r.event3())
		}
		if !want[r.event3()] {
			t.Errorf("unexpected event %s", r.event3())
		}
		if id, ok := ids[r.event3()]; ok && id != r.id {
			t.Errorf("%s: webhook-id %s, earlier %s", r.event3(), r.id, id)
		}
		ids[r.event3()] = r.id
	}
	again := 0
	for _, r := range before {
		if !r.answered {
			again++
		}
	}
	if again == 0 {
		t.Fatal("no delivery was in flight at the kill: the test proved nothing")
	}
	t.Logf("%d requests before the kill (%d held open), %d in all for %d events", len(before), again, len(all), len(want))
}

// loginRole is login as the main account's user of role.
func loginRole(t *testing.T, base string, creds demo.Credentials, role app.Role) *apiClient {
	t.Helper()
	u, ok := creds.User(demo.MainAccountName, role, true)
	if !ok || u.Password == "" {
		t.Fatalf("no %s user with a password in demo.json", role)
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	key, uid, err := load.Exchange(context.Background(), hc, base, creds.AppID, creds.AppSecret, u.Email, u.Password)
	if err != nil {
		t.Fatal(err)
	}
	return &apiClient{base: base, appID: creds.AppID, secret: creds.AppSecret, key: key, userID: uid, hc: hc}
}
