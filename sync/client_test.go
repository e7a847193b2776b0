package syncer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"proposaldesk/app"
	"proposaldesk/app/signing"
)

// Unit tests of the client against small real HTTP servers on loopback.
// The integration tests (*_integration_test.go) use the real apiserver.

const (
	testAppID  = "app-test"
	testSecret = "s3cret/+=ASCII"
	testKey    = "user-key-123"
)

// miniServer is a loopback server that checks signatures and timestamps
// as the contract says, then hands the request to handle. It records
// what it received.
type miniServer struct {
	*httptest.Server
	now    func() time.Time // server clock
	handle func(w http.ResponseWriter, r *http.Request, n int)

	mu       sync.Mutex
	requests []recorded
}

type recorded struct {
	Method, URL, ContentType, Date, UserKey, IdempotencyKey, IfMatch string
	Body                                                             string
}

func newMiniServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, n int)) *miniServer {
	t.Helper()
	s := &miniServer{now: time.Now, handle: handle}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *miniServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	abs := "http://" + r.Host + r.RequestURI
	rec := recorded{Method: r.Method, URL: abs, ContentType: r.Header.Get("Content-Type"),
		Date: r.Header.Get(signing.HeaderDate), UserKey: r.Header.Get(signing.HeaderUserKey),
		IdempotencyKey: r.Header.Get("Idempotency-Key"), IfMatch: r.Header.Get("If-Match"), Body: string(body)}
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	n := len(s.requests)
	s.mu.Unlock()

	w.Header().Set("Date", s.now().UTC().Format(http.TimeFormat))
	msg := signing.Message(r.Method, abs, rec.ContentType, rec.Date, rec.UserKey)
	if r.Header.Get(signing.HeaderAppID) != testAppID || !signing.Valid(testSecret, msg, r.Header.Get(signing.HeaderSignature)) {
		writeError(w, 401, app.KindSignatureInvalid, "You are not authorized. Your request signature (hash) is invalid.")
		return
	}
	ts, err := signing.ParseDate(rec.Date)
	if err != nil || !signing.WithinSkew(ts, s.now()) {
		writeError(w, 401, app.KindTimestampOutOfRange, "timestamp out of range")
		return
	}
	s.handle(w, r, n)
}

func (s *miniServer) recorded() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.requests...)
}

func writeError(w http.ResponseWriter, status int, kind app.Kind, msg string, fields ...app.FieldError) {
	type fe struct {
		ErrorCode string `json:"errorCode"`
		FieldName string `json:"fieldName"`
		Message   string `json:"message"`
	}
	errs := []fe{}
	for _, f := range fields {
		errs = append(errs, fe{string(kind), f.Field, f.Message})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"errorCode": kind, "message": msg, "status": status, "stackTrace": "",
		"responseStatus": map[string]any{"errorCode": kind, "message": msg, "errors": errs,
			"meta": map[string]string{"requestId": "req-1"}},
	})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sleeps records the waits between attempts instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func newTestClient(t *testing.T, baseURL string, opts ...Option) *Client {
	t.Helper()
	c, err := NewClient(Connection{BaseURL: baseURL, AppID: testAppID, AppSecret: testSecret},
		append([]Option{WithUserKey(testKey)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSignsTheExactURLAndContentTypeSent(t *testing.T) {
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.URL.Path == "/public/proposals" && r.Method == "GET" {
			writeJSON(w, app.ListResponse{Proposals: []app.ListItem{}, Count: 0})
			return
		}
		writeJSON(w, app.ProposalDetail{})
	})
	c := newTestClient(t, s.URL+"/") // a trailing slash on the base URL is fine
	ctx := context.Background()
	q := ProposalQuery{SearchText: "café & bar + 100% kitchen/den?", Statuses: []app.Status{app.StatusDraft, app.StatusSubmitted},
		SortBy: app.SortName, SortDirection: "Asc", PageNumber: 2, PageSize: 10}
	if _, err := c.ListProposals(ctx, q); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetDescription(ctx, 42, "Ünïcode <b> & \"quotes\"", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	reqs := s.recorded()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	get, post := reqs[0], reqs[1]
	wantQuery := "PageNumber=2&PageSize=10&SearchText=caf%C3%A9+%26+bar+%2B+100%25+kitchen%2Fden%3F&SortBy=Name&SortDirection=Asc&Statuses=Draft&Statuses=Submitted"
	if want := s.URL + "/public/proposals?" + wantQuery; get.URL != want {
		t.Errorf("GET URL\n got %s\nwant %s", get.URL, want)
	}
	if get.ContentType != "" || get.UserKey != testKey {
		t.Errorf("GET content type %q, user key %q", get.ContentType, get.UserKey)
	}
	if post.ContentType != ContentTypeJSON || post.URL != s.URL+"/public/proposals/42/description" {
		t.Errorf("POST %s with %q", post.URL, post.ContentType)
	}
	var body map[string]string
	if err := json.Unmarshal([]byte(post.Body), &body); err != nil || body["Description"] != "Ünïcode <b> & \"quotes\"" {
		t.Errorf("POST body %s (%v)", post.Body, err)
	}
}

func TestExchangeSignsWithAnEmptyKeyAndKeepsTheNewOne(t *testing.T) {
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch r.URL.Path {
		case "/authenticate/apikeyexchange":
			if r.URL.Query().Get("UserName") != "ann+sales@example.com" || r.URL.Query().Get("Password") != "p&ss w=rd" {
				writeError(w, 401, app.KindInvalidCredentials, "wrong")
				return
			}
			w.Write([]byte(`{"userId":17,"userName":"ann+sales@example.com","displayName":"Ann","roles":["Sales"],` +
				`"permissions":["ViewProposals","EditProposals"],"meta":{"apiKey":"NEWKEY"},"responseStatus":{}}`))
		default:
			writeJSON(w, []app.Salesperson{{ID: 17}})
		}
	})
	c := newTestClient(t, s.URL, WithUserKey("old"))
	res, err := c.Exchange(context.Background(), "ann+sales@example.com", "p&ss w=rd")
	if err != nil {
		t.Fatal(err)
	}
	if res.APIKey != "NEWKEY" || res.UserID != "17" || res.DisplayName != "Ann" || len(res.Roles) != 1 || len(res.Permissions) != 2 {
		t.Fatalf("result %+v", res)
	}
	if _, err := c.ListUsers(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := s.recorded()
	if reqs[0].UserKey != "" || reqs[1].UserKey != "NEWKEY" {
		t.Fatalf("user keys sent: %q then %q", reqs[0].UserKey, reqs[1].UserKey)
	}
	if _, err := c.Exchange(context.Background(), "ann+sales@example.com", "wrong"); app.KindOf(err) != app.KindInvalidCredentials {
		t.Fatalf("bad password: %v", err)
	}
}

func TestRetriesServerErrorsWithJitteredBackoff(t *testing.T) {
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		writeJSON(w, []app.Salesperson{})
	})
	var sl sleeps
	c := newTestClient(t, s.URL, WithSleep(sl.sleep), WithRandom(func() float64 { return 0.5 }),
		WithBackoff(100*time.Millisecond, time.Second))
	if _, err := c.ListUsers(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(sl.got()), fmt.Sprint([]time.Duration{50 * time.Millisecond, 100 * time.Millisecond}); got != want {
		t.Fatalf("waits %s, want %s", got, want)
	}
	if len(s.recorded()) != 3 {
		t.Fatalf("%d attempts", len(s.recorded()))
	}
}

func TestGivesUpAfterMaxAttempts(t *testing.T) {
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeError(w, 500, app.KindInternal, "boom")
	})
	var sl sleeps
	c := newTestClient(t, s.URL, WithSleep(sl.sleep), WithMaxAttempts(3))
	_, err := c.ListUsers(context.Background())
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 500 || app.KindOf(err) != app.KindInternal || apiErr.RequestID != "req-1" {
		t.Fatalf("err = %v", err)
	}
	if len(s.recorded()) != 3 || len(sl.got()) != 2 {
		t.Fatalf("%d attempts, %d waits", len(s.recorded()), len(sl.got()))
	}
}

func TestHonoursRetryAfter(t *testing.T) {
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			w.Header().Set("Retry-After", "7")
			writeError(w, 429, app.KindRateLimited, "slow down")
			return
		}
		writeJSON(w, []app.Salesperson{})
	})
	var sl sleeps
	c := newTestClient(t, s.URL, WithSleep(sl.sleep), WithRandom(func() float64 { return 0 }))
	if _, err := c.ListUsers(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := sl.got(); len(got) != 1 || got[0] != 7*time.Second {
		t.Fatalf("waits %v, want [7s]", got)
	}
}

func TestRetryAfterBeyondTheLimitIsReturned(t *testing.T) {
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "600")
		writeError(w, 429, app.KindRateLimited, "slow down")
	})
	var sl sleeps
	c := newTestClient(t, s.URL, WithSleep(sl.sleep), WithMaxRetryAfter(time.Minute))
	_, err := c.ListUsers(context.Background())
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.RetryAfter != 10*time.Minute || app.KindOf(err) != app.KindRateLimited {
		t.Fatalf("err = %v", err)
	}
	if len(s.recorded()) != 1 || len(sl.got()) != 0 {
		t.Fatalf("%d attempts, waits %v", len(s.recorded()), sl.got())
	}
}

func TestNeverRetriesAClientError(t *testing.T) {
	cases := []struct {
		status int
		kind   app.Kind
	}{
		{400, app.KindValidationFailed}, {400, app.KindOptionLimitReached}, {401, app.KindSignatureInvalid},
		{402, app.KindSubscriptionInactive}, {403, app.KindPermissionDenied}, {404, app.KindNotFound},
		{409, app.KindProposalLocked}, {412, app.KindPreconditionFailed}, {413, app.KindPayloadTooLarge},
	}
	for _, tc := range cases {
		t.Run(string(tc.kind), func(t *testing.T) {
			s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				writeError(w, tc.status, tc.kind, "no", app.FieldError{Field: "Name", Message: "is required"})
			})
			var sl sleeps
			c := newTestClient(t, s.URL, WithSleep(sl.sleep))
			_, err := c.CreateArea(context.Background(), 5, "Kitchen", WriteOptions{IdempotencyKey: "k1"})
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.Status != tc.status || app.KindOf(err) != tc.kind {
				t.Fatalf("err = %v", err)
			}
			if len(apiErr.Err.Fields) != 1 || apiErr.Err.Fields[0].Field != "Name" {
				t.Fatalf("fields %+v", apiErr.Err.Fields)
			}
			if errors.Is(err, ErrUnreachable) {
				t.Fatal("a 4xx is not unreachable")
			}
			if n := len(s.recorded()); n != 1 {
				t.Fatalf("%d attempts", n)
			}
		})
	}
}

func TestWritesAreRetriedOnlyWithAnIdempotencyKey(t *testing.T) {
	var fail atomic.Bool
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if fail.Load() {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		writeJSON(w, app.ProposalDetail{})
	})
	var sl sleeps
	c := newTestClient(t, s.URL, WithSleep(sl.sleep))

	fail.Store(true)
	_, err := c.SetInternalNotes(context.Background(), 9, "notes", WriteOptions{})
	if app.KindOf(err) != app.KindInternal || len(s.recorded()) != 1 {
		t.Fatalf("without a key: err %v after %d attempts", err, len(s.recorded()))
	}

	_, err = c.SetInternalNotes(context.Background(), 9, "notes", WriteOptions{IdempotencyKey: "idem-1", IfMatch: "3"})
	reqs := s.recorded()[1:]
	if err == nil || len(reqs) != DefaultMaxAttempts {
		t.Fatalf("with a key: err %v after %d attempts", err, len(reqs))
	}
	for _, r := range reqs {
		if r.IdempotencyKey != "idem-1" || r.IfMatch != `"3"` || r.Body != reqs[0].Body {
			t.Fatalf("attempt differs: %+v", r)
		}
	}
	if reqs[0].Date == "" {
		t.Fatal("no timestamp")
	}
}

func TestUnreachableServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var sl sleeps
	c := newTestClient(t, "http://"+addr, WithSleep(sl.sleep), WithMaxAttempts(3))
	_, err = c.GetProposal(context.Background(), 1)
	var netErr *NetworkError
	if !errors.Is(err, ErrUnreachable) || !errors.As(err, &netErr) || errors.Is(err, ErrCertificate) {
		t.Fatalf("err = %v", err)
	}
	if len(sl.got()) != 2 {
		t.Fatalf("waits %v", sl.got())
	}
	// Nothing was sent, so even a write without a key may be tried again.
	sl = sleeps{}
	if _, err := c.CreateArea(context.Background(), 1, "A", WriteOptions{}); !errors.Is(err, ErrUnreachable) || len(sl.got()) != 2 {
		t.Fatalf("write: %v, waits %v", err, sl.got())
	}
}

func TestContextCancellationStopsARequest(t *testing.T) {
	release := make(chan struct{})
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	c := newTestClient(t, s.URL)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.GetProposal(ctx, 1)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
	if len(s.recorded()) != 1 {
		t.Fatalf("%d attempts after cancel", len(s.recorded()))
	}
}

func TestContextCancellationStopsTheBackoffWait(t *testing.T) {
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	c := newTestClient(t, s.URL, WithBackoff(time.Hour, time.Hour), WithRandom(func() float64 { return 0.9 }))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.ListUsers(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("err = %v after %v", err, time.Since(start))
	}
}

func TestPerRequestTimeout(t *testing.T) {
	release := make(chan struct{})
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	var sl sleeps
	c := newTestClient(t, s.URL, WithTimeout(50*time.Millisecond), WithMaxAttempts(2), WithSleep(sl.sleep))
	start := time.Now()
	_, err := c.ListUsers(context.Background())
	if !errors.Is(err, ErrUnreachable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
	if n := len(s.recorded()); n != 2 {
		t.Fatalf("%d attempts", n)
	}
}

func TestCorrectsASkewedClock(t *testing.T) {
	for _, skew := range []time.Duration{2 * time.Hour, -2 * time.Hour} {
		t.Run(skew.String(), func(t *testing.T) {
			s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				writeJSON(w, []app.Salesperson{})
			})
			c := newTestClient(t, s.URL, WithClock(func() time.Time { return time.Now().Add(skew) }))
			for range 3 {
				if _, err := c.ListUsers(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if off := c.ClockOffset(); (off + skew).Abs() > 2*time.Second {
				t.Fatalf("offset %v for a clock %v off", off, skew)
			}
			// One refusal taught the client the offset; later requests pass first time.
			if n := len(s.recorded()); n != 4 {
				t.Fatalf("%d requests for 3 calls", n)
			}
		})
	}
}

func TestAWriteIsResentOnceAfterATimestampRefusal(t *testing.T) {
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, app.ProposalDetail{}) })
	c := newTestClient(t, s.URL, WithClock(func() time.Time { return time.Now().Add(-90 * time.Minute) }))
	if _, err := c.CreateArea(context.Background(), 3, "Den", WriteOptions{}); err != nil {
		t.Fatalf("write without an Idempotency-Key after a timestamp refusal: %v", err)
	}
}

func TestClockErrorWhenTheServerKeepsRefusing(t *testing.T) {
	s := newMiniServer(t, nil)
	s.handle = func(w http.ResponseWriter, r *http.Request, n int) {
		writeError(w, 401, app.KindTimestampOutOfRange, "timestamp out of range")
	}
	var sl sleeps
	c := newTestClient(t, s.URL, WithSleep(sl.sleep))
	_, err := c.ListUsers(context.Background())
	var ce *ClockError
	if !errors.Is(err, ErrClockSkew) || !errors.As(err, &ce) || app.KindOf(err) != app.KindTimestampOutOfRange {
		t.Fatalf("err = %v", err)
	}
	if n := len(s.recorded()); n != 2 {
		t.Fatalf("%d attempts, want 2", n)
	}
}

func TestCertificateProblemIsItsOwnError(t *testing.T) {
	s := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer s.Close()
	var sl sleeps
	c := newTestClient(t, s.URL, WithSleep(sl.sleep))
	_, err := c.ListUsers(context.Background())
	if !errors.Is(err, ErrCertificate) || errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v", err)
	}
	if len(sl.got()) != 0 {
		t.Fatal("a certificate problem was retried")
	}
	// The server's own certificate trusted: works.
	c = newTestClient(t, s.URL, WithHTTPClient(s.Client()))
	if _, err := c.Changes(context.Background(), ""); err == nil || errors.Is(err, ErrCertificate) {
		t.Fatalf("trusted: %v", err)
	}
}

func TestNonContractErrorBody(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte("<html>nginx</html>"))
	}))
	defer s.Close()
	c := newTestClient(t, s.URL)
	_, err := c.GetProposal(context.Background(), 1)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 404 || app.KindOf(err) != app.KindInternal {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "404") {
		t.Fatalf("message %q", err)
	}
}

func TestGetProposalReturnsValidators(t *testing.T) {
	lm := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	s := newMiniServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("ETag", `"12"`)
		w.Header().Set("Last-Modified", lm.Format(http.TimeFormat))
		writeJSON(w, map[string]any{"id": 8, "name": "Den", "version": 12})
	})
	c := newTestClient(t, s.URL)
	res, err := c.GetProposal(context.Background(), 8)
	if err != nil {
		t.Fatal(err)
	}
	if res.Proposal.ID != 8 || res.Proposal.Version != 12 || res.ETag != `"12"` || !res.LastModified.Equal(lm) {
		t.Fatalf("%+v", res)
	}
	if v, ok := ParseETag(res.ETag); !ok || v != 12 {
		t.Fatalf("ParseETag = %d, %v", v, ok)
	}
}
