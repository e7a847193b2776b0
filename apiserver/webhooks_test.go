package apiserver

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"proposaldesk/apiserver/store"
	"proposaldesk/apiserver/webhook"
	"proposaldesk/app"
)

// verifyStandardWebhook checks a delivery as the Standard Webhooks
// specification tells a receiver to, written from the specification
// and not from the sending code: the three headers, a timestamp within
// five minutes of the receiver's clock, and one of the space-separated
// signatures equal to v1,base64(HMAC-SHA256(secret, id "." ts "." body))
// with the secret's base64 after "whsec_" as the key.
func verifyStandardWebhook(secret string, h http.Header, body []byte, now time.Time) error {
	id, ts, sigs := h.Get("Webhook-Id"), h.Get("Webhook-Timestamp"), h.Get("Webhook-Signature")
	if id == "" || ts == "" || sigs == "" {
		return errors.New("missing webhook-id, webhook-timestamp or webhook-signature")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("timestamp %q: %w", ts, err)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return fmt.Errorf("timestamp %s is %s away", ts, d)
	}
	if !strings.HasPrefix(secret, "whsec_") {
		return fmt.Errorf("secret %q lacks whsec_", secret)
	}
	key, err := base64.StdEncoding.DecodeString(secret[len("whsec_"):])
	if err != nil {
		return err
	}
	mac := hmac.New(sha256.New, key)
	io.WriteString(mac, id+"."+ts+".")
	mac.Write(body)
	want := mac.Sum(nil)
	for _, s := range strings.Fields(sigs) {
		version, sig, _ := strings.Cut(s, ",")
		if version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return fmt.Errorf("no valid v1 signature in %q", sigs)
}

// received is one request a test receiver got.
type received struct {
	id, event string
	proposal  int64
	version   int64
	verifyErr error
	status    int
}

// receiver is a webhook receiver on loopback; answer decides each
// answer (n counts requests from 0): a status, its headers, or hang
// until the sender gives up.
type receiver struct {
	srv    *httptest.Server
	secret atomic.Value // string
	now    func() time.Time
	answer func(n int) (status int, header map[string]string, hang bool)

	mu  sync.Mutex
	got []received
}

func newReceiver(t *testing.T, now func() time.Time) *receiver {
	r := &receiver{now: now, answer: func(int) (int, map[string]string, bool) { return 200, nil, false }}
	r.secret.Store("")
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	var b struct {
		Type app.WebhookEventType
		Data struct{ ID, Version int64 }
	}
	json.Unmarshal(body, &b)
	rec := received{id: req.Header.Get("webhook-id"), event: string(b.Type), proposal: b.Data.ID, version: b.Data.Version,
		verifyErr: verifyStandardWebhook(r.secret.Load().(string), req.Header, body, r.now())}
	r.mu.Lock()
	n := len(r.got)
	status, header, hang := r.answer(n)
	rec.status = status
	if hang {
		rec.status = 0
	}
	r.got = append(r.got, rec)
	r.mu.Unlock()
	if hang {
		<-req.Context().Done()
		return
	}
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(status)
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// offsetClock is the real clock moved forward by the test: the server
// keeps the real time (requests are signed with it) while the worker
// lives hours ahead, without waiting for them.
type offsetClock struct{ offset atomic.Int64 }

func (c *offsetClock) Now() time.Time                         { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *offsetClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (c *offsetClock) Advance(d time.Duration)                { c.offset.Add(int64(d)) }

// hookEnv is a server whose webhooks may reach loopback, with a worker
// on a clock the test moves.
type hookEnv struct {
	*tenv
	clock  *offsetClock
	worker *webhook.Worker
	lookup atomic.Value // map[string]string: host -> address
}

func newHookEnv(t *testing.T, allowPrivate bool) *hookEnv {
	h := &hookEnv{clock: &offsetClock{}}
	h.lookup.Store(map[string]string{})
	lookup := func(ctx context.Context, host string) ([]netip.Addr, error) {
		if a, ok := h.lookup.Load().(map[string]string)[host]; ok {
			return []netip.Addr{netip.MustParseAddr(a)}, nil
		}
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}
	h.tenv = newEnv(t, func(c *Config) {
		c.WebhookAllowPrivate = allowPrivate
		c.WebhookLookup = lookup
	})
	h.worker = webhook.NewWorker(webhook.Config{
		Queue: h.st.(store.Webhooks), StoreID: h.st.StoreID(), Clock: h.clock,
		Guard:   &webhook.Guard{AllowPrivate: allowPrivate, Lookup: lookup},
		Timeout: 500 * time.Millisecond, Jitter: func() float64 { return 0.5 },
	})
	return h
}

// run makes the worker attempt what is due now; it returns how many.
func (h *hookEnv) run() int {
	h.t.Helper()
	n, err := h.worker.RunOnce(bg)
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

func (h *hookEnv) subscribe(u *tuser, url, events string) subscriptionJSON {
	h.t.Helper()
	res := h.postJSON(u, "/public/webhook/subscribe", map[string]any{"Url": url, "Events": events, "Description": "CRM"})
	wantStatus(h.t, res, 200)
	var sub subscriptionJSON
	res.json(h.t, &sub)
	return sub
}

func (h *hookEnv) setDescription(id int64, text string) {
	h.t.Helper()
	wantStatus(h.t, h.postJSON(h.main.admin, pathf("/public/proposals/%d/description", id), map[string]any{"Description": text}), 200)
}

func (h *hookEnv) deliveryLog(subID int64) []store.WebhookAttempt {
	h.t.Helper()
	res := h.get(h.main.admin, pathf("/public/webhook/subscription/%d/deliveries", subID))
	wantStatus(h.t, res, 200)
	var log []store.WebhookAttempt
	res.json(h.t, &log)
	return log
}

func TestWebhookSubscriptionsAPI(t *testing.T) {
	h := newHookEnv(t, true)
	rcv := newReceiver(t, h.clock.Now)

	// Admin only.
	for _, u := range []*tuser{h.main.sales, h.main.viewer} {
		wantError(t, h.postJSON(u, "/public/webhook/subscribe", map[string]any{"Url": rcv.srv.URL, "Events": "proposal.updated"}), 403, app.KindPermissionDenied)
		wantError(t, h.get(u, "/public/webhook/subscriptions"), 403, app.KindPermissionDenied)
	}
	wantError(t, h.postJSON(h.main.admin, "/public/webhook/subscribe", map[string]any{"Url": rcv.srv.URL, "Events": "proposal.deleted"}), 400, app.KindValidationFailed)
	wantError(t, h.postJSON(h.main.admin, "/public/webhook/subscribe", map[string]any{"Events": "proposal.updated"}), 400, app.KindValidationFailed)

	sub := h.subscribe(h.main.admin, rcv.srv.URL, "proposal.updated, proposal.created")
	if !strings.HasPrefix(sub.SecretKey, "whsec_") || !sub.Enabled || sub.Events != "proposal.created, proposal.updated" || sub.Description != "CRM" {
		t.Fatalf("subscribe answered %+v", sub)
	}
	// Form bodies too, as Portal's clients send.
	wantStatus(t, h.postForm(h.main.admin, "/public/webhook/subscribe", "url="+rcv.srv.URL+"&events=proposal.status_changed"), 200)

	res := h.get(h.main.admin, "/public/webhook/subscriptions")
	wantStatus(t, res, 200)
	if strings.Contains(string(res.body), "secretKey") || strings.Contains(string(res.body), sub.SecretKey) {
		t.Errorf("the list shows the secret: %s", res.body)
	}
	var list []subscriptionJSON
	res.json(t, &list)
	if len(list) != 2 || list[0].SubscriptionID != sub.SubscriptionID {
		t.Fatalf("list %+v", list)
	}
	// Another account sees none of them and cannot touch them.
	res = h.get(h.other.admin, "/public/webhook/subscriptions")
	if strings.TrimSpace(string(res.body)) != "[]" {
		t.Errorf("other account lists %s", res.body)
	}
	wantError(t, h.do(treq{method: "DELETE", path: pathf("/public/webhook/unsubscribe/%d", sub.SubscriptionID), as: h.other.admin}), 400, app.KindValidationFailed)

	// Update any of the fields.
	res = h.postJSON(h.main.admin, pathf("/public/webhook/subscription/%d", sub.SubscriptionID), map[string]any{"Enabled": false, "Description": "ERP"})
	wantStatus(t, res, 200)
	var upd subscriptionJSON
	res.json(t, &upd)
	if upd.Enabled || upd.Description != "ERP" || upd.URL != rcv.srv.URL || upd.SecretKey != "" {
		t.Errorf("update answered %+v", upd)
	}

	// Unsubscribe: 204, then 400 (Portal's answer for an unknown ID).
	wantStatus(t, h.do(treq{method: "DELETE", path: pathf("/public/webhook/unsubscribe/%d", sub.SubscriptionID), as: h.main.admin}), 204)
	wantError(t, h.do(treq{method: "DELETE", path: pathf("/public/webhook/unsubscribe/%d", sub.SubscriptionID), as: h.main.admin}), 400, app.KindValidationFailed)
}

// TestWebhookDeliveredAndSigned: a change made through the API reaches a
// receiver on loopback, signed so that an independent implementation
// of the specification verifies it, with the proposal as an Admin
// reads it.
func TestWebhookDeliveredAndSigned(t *testing.T) {
	h := newHookEnv(t, true)
	rcv := newReceiver(t, h.clock.Now)
	sub := h.subscribe(h.main.admin, rcv.srv.URL, "proposal.updated,proposal.created,proposal.status_changed")
	rcv.secret.Store(sub.SecretKey)

	h.setDescription(h.main.draft, "Whole-house audio")
	res := h.postJSON(h.main.sales, "/public/proposals", map[string]any{"SalesPersonId": h.main.sales.rec.ID, "Name": "New"})
	wantStatus(t, res, 200)
	created := detail(t, res)
	wantStatus(t, h.postJSON(h.main.sales, pathf("/public/proposals/%d/status", h.main.draft), map[string]any{"Status": "Submitted"}), 200)
	// A refused write causes nothing.
	wantError(t, h.postJSON(h.main.admin, pathf("/public/proposals/%d/description", h.main.locked), map[string]any{"Description": "x"}), 409, app.KindProposalLocked)
	// Nor does another account's write.
	wantStatus(t, h.postJSON(h.other.admin, pathf("/public/proposals/%d/description", h.other.draft), map[string]any{"Description": "x"}), 200)

	if n := h.run(); n != 3 {
		t.Fatalf("worker attempted %d deliveries, want 3", n)
	}
	got := rcv.requests()
	if len(got) != 3 {
		t.Fatalf("receiver got %d requests: %+v", len(got), got)
	}
	want := map[string]int64{"proposal.updated": h.main.draft, "proposal.created": created.ID, "proposal.status_changed": h.main.draft}
	ids := map[string]bool{}
	for _, r := range got {
		if r.verifyErr != nil {
			t.Errorf("%s: signature: %v", r.event, r.verifyErr)
		}
		if want[r.event] != r.proposal {
			t.Errorf("%s about proposal %d, want %d", r.event, r.proposal, want[r.event])
		}
		ids[r.id] = true
	}
	if len(ids) != 3 {
		t.Errorf("webhook-ids not unique per event: %v", ids)
	}
	if h.run() != 0 {
		t.Error("delivered events were attempted again")
	}
	log := h.deliveryLog(sub.SubscriptionID)
	if len(log) != 3 || log[0].Result != webhook.ResultDelivered || log[0].StatusCode != 200 {
		t.Errorf("log %+v", log)
	}
	// Data is the Admin's view: costs included, even for the salesperson's
	// write (a Viewer's would scrub them).
	body := h.get(h.main.admin, pathf("/public/proposals/%d", h.main.draft))
	if !strings.Contains(string(body.body), `"cost"`) {
		t.Fatalf("detail has no cost field: %s", body.body)
	}
}

// TestWebhookRetriesUntilTheReceiverRecovers: 500, a timeout, a 503
// with Retry-After, then 200, on the schedule (the clock moved, never
// slept on), with one webhook-id throughout.
func TestWebhookRetriesUntilTheReceiverRecovers(t *testing.T) {
	h := newHookEnv(t, true)
	rcv := newReceiver(t, h.clock.Now)
	rcv.answer = func(n int) (int, map[string]string, bool) {
		switch n {
		case 0:
			return 500, nil, false
		case 1:
			return 0, nil, true // times out
		case 2:
			return 503, map[string]string{"Retry-After": "3600"}, false
		}
		return 200, nil, false
	}
	sub := h.subscribe(h.main.admin, rcv.srv.URL, "proposal.updated")
	rcv.secret.Store(sub.SecretKey)
	h.setDescription(h.main.draft, "v2")

	step := func(wait time.Duration, wantRequests int) {
		t.Helper()
		h.clock.Advance(wait - time.Second)
		if n := h.run(); n != 0 {
			t.Fatalf("attempted %d deliveries a second before %s", n, wait)
		}
		h.clock.Advance(time.Second)
		if n := h.run(); n != 1 {
			t.Fatalf("attempted %d deliveries after %s, want 1", n, wait)
		}
		if got := len(rcv.requests()); got != wantRequests {
			t.Fatalf("receiver got %d requests, want %d", got, wantRequests)
		}
	}
	if h.run() != 1 {
		t.Fatal("first attempt not made at once")
	}
	step(5*time.Second, 2) // after the 500
	step(5*time.Minute, 3) // after the timeout
	step(time.Hour, 4)     // Retry-After: 3600 beats the schedule's 30 min
	if h.run() != 0 {
		t.Fatal("a delivered event was attempted again")
	}
	got := rcv.requests()
	for _, r := range got {
		if r.id != got[0].id {
			t.Errorf("webhook-id changed across retries: %s, %s", got[0].id, r.id)
		}
		if r.verifyErr != nil {
			t.Errorf("signature: %v", r.verifyErr)
		}
	}
	log := h.deliveryLog(sub.SubscriptionID)
	var codes []int
	for _, a := range log {
		codes = append(codes, a.StatusCode)
	}
	if fmt.Sprint(codes) != "[200 503 0 500]" {
		t.Errorf("log status codes newest first %v", codes)
	}
	if log[1].NextAttempt.Sub(log[1].At) != time.Hour || log[2].Error == "" {
		t.Errorf("log %+v", log)
	}

	// Redeliver through the API: the same message again.
	wantStatus(t, h.postJSON(h.main.admin, pathf("/public/webhook/subscription/%d/deliveries/%d/redeliver", sub.SubscriptionID, log[0].DeliveryID), nil), 204)
	if h.run() != 1 {
		t.Fatal("redelivery not attempted")
	}
	got = rcv.requests()
	if len(got) != 5 || got[4].id != got[0].id {
		t.Errorf("redelivery %+v", got)
	}
	wantError(t, h.postJSON(h.main.admin, pathf("/public/webhook/subscription/%d/deliveries/%d/redeliver", sub.SubscriptionID, 999999), nil), 404, app.KindNotFound)
}

// TestWebhook410Disables and TestWebhookFailingForDaysDisables: the
// subscription is disabled and says why; enabling it again resumes.
func TestWebhook410Disables(t *testing.T) {
	h := newHookEnv(t, true)
	rcv := newReceiver(t, h.clock.Now)
	rcv.answer = func(int) (int, map[string]string, bool) { return 410, nil, false }
	sub := h.subscribe(h.main.admin, rcv.srv.URL, "proposal.updated")
	h.setDescription(h.main.draft, "v2")
	h.run()
	s := h.subscription(sub.SubscriptionID)
	if s.Enabled || !strings.Contains(s.DisabledReason, "410") || s.DisabledAt == nil {
		t.Fatalf("after 410: %+v", s)
	}
	h.setDescription(h.main.draft, "v3") // no one to send it to
	h.clock.Advance(48 * time.Hour)
	if n := h.run(); n != 0 {
		t.Errorf("a disabled subscription got %d attempts", n)
	}
}

func (h *hookEnv) subscription(id int64) subscriptionJSON {
	h.t.Helper()
	var list []subscriptionJSON
	h.get(h.main.admin, "/public/webhook/subscriptions").json(h.t, &list)
	for _, s := range list {
		if s.SubscriptionID == id {
			return s
		}
	}
	h.t.Fatalf("no subscription %d", id)
	return subscriptionJSON{}
}

func TestWebhookFailingForDaysDisables(t *testing.T) {
	h := newHookEnv(t, true)
	rcv := newReceiver(t, h.clock.Now)
	var failing atomic.Bool
	failing.Store(true)
	rcv.answer = func(int) (int, map[string]string, bool) {
		if failing.Load() {
			return 500, nil, false
		}
		return 200, nil, false
	}
	sub := h.subscribe(h.main.admin, rcv.srv.URL, "proposal.updated")
	h.setDescription(h.main.draft, "v2")
	attempts := h.run()
	for _, wait := range webhook.Schedule {
		h.clock.Advance(wait)
		attempts += h.run()
	}
	if attempts != 10 {
		t.Errorf("%d attempts over the schedule, want 10", attempts)
	}
	s := h.subscription(sub.SubscriptionID)
	if s.Enabled || !strings.Contains(s.DisabledReason, "days") {
		t.Fatalf("after three days of failures: %+v", s)
	}
	// Enabled again: its pending deliveries go out once it recovers.
	failing.Store(false)
	h.setDescription(h.main.draft, "v3")
	wantStatus(t, h.postJSON(h.main.admin, pathf("/public/webhook/subscription/%d", sub.SubscriptionID), map[string]any{"Enabled": true}), 200)
	if s := h.subscription(sub.SubscriptionID); !s.Enabled || s.DisabledReason != "" || s.FailingSince != nil {
		t.Errorf("enabled again: %+v", s)
	}
	h.setDescription(h.main.draft, "v4")
	if n := h.run(); n != 1 {
		t.Errorf("after enabling, %d attempts, want 1 (the change made while enabled)", n)
	}
}

// TestWebhookSSRF: addresses inside the server's networks are refused
// when subscribing and again at delivery, and redirects are not
// followed.
func TestWebhookSSRF(t *testing.T) {
	h := newHookEnv(t, false)
	h.lookup.Store(map[string]string{"internal.example": "10.0.0.1", "hooks.example": "93.184.216.34", "meta.example": "169.254.169.254"})
	for _, u := range []string{
		"https://127.0.0.1/hook", "https://[::1]/hook", "https://localhost/hook", "https://169.254.169.254/latest/meta-data",
		"https://internal.example/hook", "https://meta.example/", "https://10.1.2.3/", "https://192.168.0.10/",
		"http://hooks.example/hook", "ftp://hooks.example/", "hooks.example/hook", "https://user:pw@hooks.example/",
	} {
		res := h.postJSON(h.main.admin, "/public/webhook/subscribe", map[string]any{"Url": u, "Events": "proposal.updated"})
		wantError(t, res, 400, app.KindValidationFailed)
	}
	sub := h.subscribe(h.main.admin, "https://hooks.example:1/hook", "proposal.updated")
	wantError(t, h.postJSON(h.main.admin, pathf("/public/webhook/subscription/%d", sub.SubscriptionID), map[string]any{"Url": "https://internal.example/"}), 400, app.KindValidationFailed)

	// DNS changes after subscribing: hooks.example now points at a
	// listener on loopback. The delivery is refused before connecting.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	wantStatus(t, h.postJSON(h.main.admin, pathf("/public/webhook/subscription/%d", sub.SubscriptionID), map[string]any{"Url": fmt.Sprintf("https://hooks.example:%d/hook", port)}), 200)
	h.lookup.Store(map[string]string{"hooks.example": "127.0.0.1"})
	h.setDescription(h.main.draft, "v2")
	if h.run() != 1 {
		t.Fatal("no attempt")
	}
	log := h.deliveryLog(sub.SubscriptionID)
	if len(log) != 1 || !strings.Contains(log[0].Error, "not a public") || log[0].Result != webhook.ResultRetrying {
		t.Errorf("log %+v", log)
	}
	// The dialer's own check, whatever resolved the name.
	_, err = (&webhook.Guard{}).Client(time.Second).Get(fmt.Sprintf("http://127.0.0.1:%d/", port))
	if !errors.Is(err, webhook.ErrForbiddenAddress) {
		t.Errorf("direct loopback dial: %v", err)
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the loopback listener accepted %d connections", n)
	}
}

func TestWebhookRedirectNotFollowed(t *testing.T) {
	h := newHookEnv(t, true)
	var hit atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit.Add(1) }))
	defer target.Close()
	rcv := newReceiver(t, h.clock.Now)
	rcv.answer = func(int) (int, map[string]string, bool) {
		return 307, map[string]string{"Location": target.URL + "/latest/meta-data"}, false
	}
	sub := h.subscribe(h.main.admin, rcv.srv.URL, "proposal.updated")
	h.setDescription(h.main.draft, "v2")
	h.run()
	if hit.Load() != 0 {
		t.Error("the redirect was followed")
	}
	log := h.deliveryLog(sub.SubscriptionID)
	if len(log) != 1 || log[0].StatusCode != 307 || log[0].Result != webhook.ResultRetrying {
		t.Errorf("log %+v", log)
	}
}

// TestWebhookEventInTheWritesTransaction: an event recorded by a write
// that rolls back is gone with it; one that commits is queued.
func TestWebhookEventInTheWritesTransaction(t *testing.T) {
	h := newHookEnv(t, true)
	rcv := newReceiver(t, h.clock.Now)
	h.subscribe(h.main.admin, rcv.srv.URL, "proposal.updated")
	p := h.load(h.main, h.main.draft)
	boom := errors.New("boom")
	err := h.st.Update(bg, h.main.acct.ID, func(tx store.Tx) error {
		if err := webhook.Record(tx, h.clock.Now(), []app.WebhookEventType{app.EventProposalUpdated}, p); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if n := h.run(); n != 0 {
		t.Fatalf("a rolled-back write's event was delivered (%d)", n)
	}
	if err := h.st.Update(bg, h.main.acct.ID, func(tx store.Tx) error {
		return webhook.Record(tx, h.clock.Now(), []app.WebhookEventType{app.EventProposalUpdated}, p)
	}); err != nil {
		t.Fatal(err)
	}
	if n := h.run(); n != 1 {
		t.Fatalf("a committed write's event: %d attempts", n)
	}
}

func TestZapierTriggers(t *testing.T) {
	h := newHookEnv(t, true)
	h.setDescription(h.main.draft, "v2")
	first := h.get(h.main.sales, "/zapier/trigger/proposal")
	wantStatus(t, first, 200)
	var rows []map[string]any
	first.json(t, &rows)
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	top := rows[0]
	if top["proposalId"] != float64(h.main.draft) {
		t.Fatalf("newest first: top is %v, want proposal %d", top["proposalId"], h.main.draft)
	}
	ids := map[any]bool{}
	for _, r := range rows {
		if ids[r["id"]] {
			t.Errorf("id %v twice", r["id"])
		}
		ids[r["id"]] = true
	}
	h.setDescription(h.main.draft, "v3")
	var again []map[string]any
	h.get(h.main.sales, "/zapier/trigger/proposal").json(t, &again)
	if again[0]["id"] == top["id"] || again[0]["proposalId"] != top["proposalId"] {
		t.Errorf("a new change of the same proposal kept id %v", again[0]["id"])
	}
	res := h.get(h.main.viewer, "/zapier/trigger/proposal")
	wantStatus(t, res, 200)
	if strings.Contains(string(res.body), `"cost":1`) {
		t.Errorf("a Viewer's trigger shows costs")
	}
	res = h.get(h.main.sales, "/zapier/trigger/payment")
	wantStatus(t, res, 200)
	if strings.TrimSpace(string(res.body)) != "[]" {
		t.Errorf("payments %s", res.body)
	}
}

var webhookFixtures sync.Map // *tenv -> subscription ID

// webhookFixture is a subscription of e's main account, for the tests
// that walk every route (a literal public address: nothing resolves or
// connects).
func webhookFixture(e *tenv) int64 {
	if id, ok := webhookFixtures.Load(e); ok {
		return id.(int64)
	}
	sub, err := e.st.(store.Webhooks).CreateSubscription(bg, store.WebhookSubscription{AccountID: e.main.acct.ID,
		URL: "https://93.184.216.34/hook", Events: []app.WebhookEventType{app.EventProposalUpdated}, Enabled: true, Secret: "whsec_AAAA"})
	if err != nil {
		e.t.Fatal(err)
	}
	webhookFixtures.Store(e, sub.ID)
	return sub.ID
}

// TestEventBodyJSON keeps the hand-written body equal to what
// json.Marshal writes for {type, timestamp, data}.
func TestEventBodyJSON(t *testing.T) {
	data := []byte(`{"id":7,"name":"A \"quoted\" name","version":3}`)
	at := time.Date(2026, 5, 1, 12, 30, 15, 123456789, time.FixedZone("X", 3600))
	got := webhook.EventBody(app.EventProposalStatusChanged, at, data)
	want, err := json.Marshal(struct {
		Type      app.WebhookEventType `json:"type"`
		Timestamp time.Time            `json:"timestamp"`
		Data      json.RawMessage      `json:"data"`
	}{app.EventProposalStatusChanged, at.UTC(), data})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestWebhookLogKeepsThirtyDays: attempts older than the retention
// leave the log as new ones are recorded.
func TestWebhookLogKeepsThirtyDays(t *testing.T) {
	h := newHookEnv(t, true)
	rcv := newReceiver(t, h.clock.Now)
	sub := h.subscribe(h.main.admin, rcv.srv.URL, "proposal.updated")
	h.setDescription(h.main.draft, "v2")
	h.run()
	h.setDescription(h.main.draft, "v3")
	h.run()
	if n := len(h.deliveryLog(sub.SubscriptionID)); n != 2 {
		t.Fatalf("log has %d attempts, want 2", n)
	}
	h.clock.Advance(store.WebhookLogRetention + time.Hour)
	h.setDescription(h.main.draft, "v4")
	h.run()
	log := h.deliveryLog(sub.SubscriptionID)
	if len(log) != 1 || log[0].Result != webhook.ResultDelivered {
		t.Fatalf("after %s: log %+v", store.WebhookLogRetention, log)
	}
	// The old deliveries left the queue with their events: they can no
	// longer be sent again; the new one can.
	old := pathf("/public/webhook/subscription/%d/deliveries/%d/redeliver", sub.SubscriptionID, log[0].DeliveryID-1)
	wantError(t, h.postJSON(h.main.admin, old, nil), 404, app.KindNotFound)
	wantStatus(t, h.postJSON(h.main.admin, pathf("/public/webhook/subscription/%d/deliveries/%d/redeliver", sub.SubscriptionID, log[0].DeliveryID), nil), 204)
	if h.run() != 1 || len(rcv.requests()) != 4 {
		t.Errorf("redelivery of the kept one: %d requests", len(rcv.requests()))
	}
}

// TestWebhookSlowReceiverHoldsOneSlot: a receiver that holds its request
// open takes one of the worker's slots; another subscription's delivery,
// queued after it, goes out meanwhile.
func TestWebhookSlowReceiverHoldsOneSlot(t *testing.T) {
	h := newHookEnv(t, true)
	release := make(chan struct{})
	var held atomic.Int32
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		held.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	fast := newReceiver(t, h.clock.Now)
	h.subscribe(h.main.admin, slow.URL, "proposal.updated")
	w := webhook.NewWorker(webhook.Config{Queue: h.st.(store.Webhooks), StoreID: h.st.StoreID(), Clock: h.clock,
		Guard: &webhook.Guard{AllowPrivate: true}, Timeout: time.Minute, Poll: 10 * time.Millisecond})
	ctx, stop := context.WithCancel(bg)
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	defer func() { stop(); <-done }()

	h.setDescription(h.main.draft, "v2")
	w.Wake()
	waitFor(t, func() bool { return held.Load() == 1 })
	h.subscribe(h.main.admin, fast.srv.URL, "proposal.updated")
	h.setDescription(h.main.draft, "v3")
	w.Wake()
	waitFor(t, func() bool { return len(fast.requests()) == 1 })
	if held.Load() == 0 {
		t.Error("the slow receiver's request ended")
	}
}

// waitFor polls cond until it holds (at most 30 s).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond) // polling for a condition
	}
}
