package apiclient

import (
	"errors"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"proposaldesk/app"
)

// Case tables for the client's small decisions.
func TestClockOffsetEstimate(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	date := func(t time.Time) string { return t.UTC().Format(http.TimeFormat) }
	var c clockOffset
	if c.offset() != 0 {
		t.Fatal("offset before any response")
	}
	// Server 2h ahead; a 100 ms round trip; the Date header truncated.
	srv := t0.Add(2 * time.Hour)
	c.observe(date(srv.Add(300*time.Millisecond)), t0.Add(200*time.Millisecond), t0.Add(300*time.Millisecond), false)
	if d := c.offset() - 2*time.Hour; d.Abs() > time.Second {
		t.Fatalf("offset %v", c.offset())
	}
	// Many samples at different sub-second phases pin it down closely.
	for i := range 20 {
		sent := t0.Add(time.Duration(i)*time.Second + time.Duration(i*137%1000)*time.Millisecond)
		recv := sent.Add(20 * time.Millisecond)
		c.observe(date(sent.Add(2*time.Hour+10*time.Millisecond)), sent, recv, false)
	}
	if d := c.offset() - 2*time.Hour; d.Abs() > 100*time.Millisecond {
		t.Fatalf("offset after 20 samples %v", c.offset())
	}
	// The local clock jumps: the old intervals no longer fit and the new
	// one replaces them.
	sent := t0.Add(time.Minute)
	c.observe(date(sent.Add(-3*time.Hour)), sent, sent.Add(10*time.Millisecond), false)
	if d := c.offset() + 3*time.Hour; d.Abs() > time.Second {
		t.Fatalf("offset after a jump %v", c.offset())
	}
	// Headers that cannot be read change nothing.
	before := c.offset()
	if c.observe("", sent, sent, false) || c.observe("yesterday", sent, sent, true) || c.offset() != before {
		t.Fatal("an unreadable Date changed the offset")
	}
}

func TestBackoffIsCappedExponentialWithFullJitter(t *testing.T) {
	for _, c := range []struct {
		retry  int
		random float64
		want   time.Duration
	}{
		{1, 0, 0},
		{1, 0.5, 50 * time.Millisecond},
		{2, 0.5, 100 * time.Millisecond},
		{3, 0.999, 399600 * time.Microsecond},
		{5, 0.5, 800 * time.Millisecond},
		{6, 0.5, time.Second}, // capped at 2s
		{60, 0.5, time.Second},
		{2, 1.5, 0}, // a bad random source waits nothing rather than too long
	} {
		b := backoff{base: 100 * time.Millisecond, cap: 2 * time.Second, random: func() float64 { return c.random }}
		if got := b.wait(c.retry); got != c.want {
			t.Errorf("wait(%d) with random %v = %v, want %v", c.retry, c.random, got, c.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		v    string
		want time.Duration
	}{
		{"", 0}, {"3", 3 * time.Second}, {" 120 ", 2 * time.Minute}, {"-4", 0}, {"soon", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
		{"999999999", 24 * time.Hour},
	} {
		if got := parseRetryAfter(c.v, now); got != c.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", c.v, got, c.want)
		}
	}
}

func TestETags(t *testing.T) {
	for in, want := range map[string]string{"7": `"7"`, `"7"`: `"7"`, ` 12 `: `"12"`, `W/"3"`: `W/"3"`} {
		if got := quoteETag(in); got != want {
			t.Errorf("quoteETag(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]int64{`"7"`: 7, `W/"9"`: 9, "11": 11} {
		if got, ok := ParseETag(in); !ok || got != want {
			t.Errorf("ParseETag(%q) = %d, %v", in, got, ok)
		}
	}
	if _, ok := ParseETag(`"abc"`); ok {
		t.Error("ParseETag of a non-number")
	}
}

func TestDecodeAPIError(t *testing.T) {
	now := time.Now()
	body := `{"errorCode":"ValidationFailed","message":"Name: is required","responseStatus":{"errorCode":"ValidationFailed",` +
		`"message":"Name: is required","errors":[{"errorCode":"ValidationFailed","fieldName":"Name","message":"is required"}],"meta":{"requestId":"r9"}}}`
	e := decodeAPIError("POST", "http://x/a", 400, http.Header{}, []byte(body), now)
	if e.Kind() != app.KindValidationFailed || len(e.Err.Fields) != 1 || e.Err.Fields[0].Field != "Name" || e.RequestID != "r9" {
		t.Fatalf("%+v", e)
	}
	// Only responseStatus carries the code.
	e = decodeAPIError("GET", "http://x/a", 404, http.Header{}, []byte(`{"responseStatus":{"errorCode":"NotFound","message":"gone"}}`), now)
	if e.Kind() != app.KindNotFound || e.Err.Message != "gone" {
		t.Fatalf("%+v", e)
	}
	// A newer server's unknown code is InternalError; a proxy's page too.
	for _, c := range []struct {
		status int
		body   string
		kind   app.Kind
	}{
		{409, `{"errorCode":"SomethingNew"}`, app.KindInternal},
		{502, `<html>Bad gateway</html>`, app.KindInternal},
		{429, ``, app.KindRateLimited},
		{413, `too big`, app.KindPayloadTooLarge},
	} {
		e := decodeAPIError("GET", "http://x/a", c.status, http.Header{"Retry-After": {"2"}}, []byte(c.body), now)
		if e.Kind() != c.kind || e.RetryAfter != 2*time.Second || strings.Contains(e.Error(), "<html>") {
			t.Errorf("%d %q: %v (kind %s)", c.status, c.body, e, e.Kind())
		}
	}
}

func TestLoadConnection(t *testing.T) {
	dir := t.TempDir()
	demo := filepath.Join(dir, "demo.json")
	os.WriteFile(demo, []byte(`{"baseUrl":"http://127.0.0.1:8080","appId":"app-demo","appSecret":"s3",
		"accounts":[{"name":"A","users":[{"email":"a@b.c","password":"x"}]}]}`), 0o600)
	c, err := LoadConnection(demo)
	if err != nil || c != (Connection{BaseURL: "http://127.0.0.1:8080", AppID: "app-demo", AppSecret: "s3"}) {
		t.Fatalf("LoadConnection = %+v, %v", c, err)
	}
	for name, content := range map[string]string{
		"missing-secret": `{"baseUrl":"http://h","appId":"a"}`,
		"ftp":            `{"baseUrl":"ftp://h","appId":"a","appSecret":"s"}`,
		"query":          `{"baseUrl":"http://h/?x=1","appId":"a","appSecret":"s"}`,
		"not-json":       `baseUrl=http://h`,
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o600)
		if _, err := LoadConnection(p); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	if _, err := LoadConnection(filepath.Join(dir, "absent.json")); err == nil {
		t.Error("a missing file loaded")
	}
}

func TestBuildURLKeepsABasePath(t *testing.T) {
	c, err := NewClient(Connection{BaseURL: "https://example.com/pd/", AppID: "a", AppSecret: "s"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.buildURL("/public/proposals", ProposalQuery{SearchText: "a b", PageSize: 5}.Values())
	if err != nil || got != "https://example.com/pd/public/proposals?PageSize=5&SearchText=a+b" {
		t.Fatalf("buildURL = %q, %v", got, err)
	}
	if _, err := NewClient(Connection{BaseURL: "example.com", AppID: "a", AppSecret: "s"}); err == nil {
		t.Fatal("a base URL without a scheme was accepted")
	}
}

// An error never shows the password or device token the key exchange
// sends in its query: errors reach the screen and the logs.
func TestErrorsHideSecretQueryValues(t *testing.T) {
	const u = "http://x/authenticate/apikeyexchange?UserName=a%40b.c&Password=hunter2secret&DeviceToken=tok3n"
	now := time.Now()
	api := decodeAPIError("GET", u, 401, http.Header{}, []byte(`{"responseStatus":{"errorCode":"Unauthorized","message":"no"}}`), now)
	netErr := classifyTransportError("GET", u, &neturl.Error{Op: "Get", URL: u, Err: errors.New("connection refused")})
	for _, err := range []error{api, netErr} {
		msg := err.Error()
		if strings.Contains(msg, "hunter2secret") || strings.Contains(msg, "tok3n") {
			t.Errorf("error shows a secret: %s", msg)
		}
		if !strings.Contains(msg, "UserName=a%40b.c") {
			t.Errorf("error lost the rest of the URL: %s", msg)
		}
	}
}
