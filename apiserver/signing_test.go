package apiserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"proposaldesk/apiserver/auth"
	"proposaldesk/app"
	"proposaldesk/app/signing"
)

func TestTamperedSignaturePieces(t *testing.T) {
	e := newEnv(t)
	u := e.main.admin
	get := pathf("/public/proposals?SearchText=job&PageSize=5")
	post := pathf("/public/proposals/%d/description", e.main.draft)
	cases := []struct {
		name string
		r    treq
	}{
		{"method", treq{method: "GET", path: get, sign: func(p *pieces) { p.Method = "POST" }}},
		{"url host", treq{method: "GET", path: get, sign: func(p *pieces) { p.URL = strings.Replace(p.URL, "127.0.0.1", "localhost", 1) }}},
		{"url path", treq{method: "GET", path: get, sign: func(p *pieces) { p.URL = strings.Replace(p.URL, "/proposals", "/proposal", 1) }}},
		{"url scheme", treq{method: "GET", path: get, sign: func(p *pieces) { p.URL = strings.Replace(p.URL, "http://", "https://", 1) }}},
		{"query", treq{method: "GET", path: get, sign: func(p *pieces) { p.URL = strings.Replace(p.URL, "PageSize=5", "PageSize=6", 1) }}},
		{"content type", treq{method: "POST", path: post, body: `{"Description":"x"}`, ct: "application/json", sign: func(p *pieces) { p.ContentType = "application/json; charset=utf-8" }}},
		{"timestamp", treq{method: "GET", path: get, sign: func(p *pieces) {
			ts, _ := signing.ParseDate(p.Timestamp)
			p.Timestamp = signing.FormatDate(ts.Add(time.Second))
		}}},
		{"user key", treq{method: "GET", path: get, sign: func(p *pieces) { p.UserKey = e.main.sales.key }}},
		{"app id", treq{method: "GET", path: get, edit: func(h http.Header) { h.Set(signing.HeaderAppID, e.app2.ID) }}},
		{"secret", treq{method: "GET", path: get, sign: func(p *pieces) { p.Secret = e.app2.Secret }}},
		{"unknown app", treq{method: "GET", path: get, edit: func(h http.Header) { h.Set(signing.HeaderAppID, "app-unknown") }}},
		{"not base64", treq{method: "GET", path: get, edit: func(h http.Header) { h.Set(signing.HeaderSignature, "!!!") }}},
	}
	before := e.load(e.main, e.main.draft).Version
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.r.as = u
			b := wantError(t, e.do(c.r), 401, app.KindSignatureInvalid)
			if b.Message != msgSignatureInvalid {
				t.Fatalf("message %q", b.Message)
			}
		})
	}
	if e.load(e.main, e.main.draft).Version != before {
		t.Fatal("a tampered request changed the proposal")
	}
	// The untampered requests work.
	wantStatus(t, e.do(treq{method: "GET", path: get, as: u}), 200)
	wantStatus(t, e.do(treq{method: "POST", path: post, body: `{"Description":"x"}`, ct: "application/json", as: u}), 200)
}

func TestUnknownAndRevokedKeys(t *testing.T) {
	e := newEnv(t)
	r := e.do(treq{method: "GET", path: "/public/proposals", as: &tuser{key: "bm90IGEga2V5"}})
	wantError(t, r, 401, app.KindSignatureInvalid)
	// A key issued to another app does not work with this one.
	other := &tuser{key: e.newKey(e.main.admin.rec, e.app2.ID)}
	wantError(t, e.do(treq{method: "GET", path: "/public/proposals", as: other}), 401, app.KindSignatureInvalid)

	if _, err := e.st.Auth().RevokeKeys(bg, e.main.sales.rec.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	wantError(t, e.get(e.main.sales, "/public/proposals"), 401, app.KindAPIKeyRevoked)
	// Missing user key on a public route.
	wantError(t, e.do(treq{method: "GET", path: "/public/proposals"}), 401, app.KindCredentialsMissing)
}

func TestTimestampWindow(t *testing.T) {
	e := newEnv(t)
	u := e.main.admin
	for _, skew := range []time.Duration{-16 * time.Minute, 16 * time.Minute, -24 * time.Hour} {
		r := e.do(treq{method: "GET", path: "/public/proposals", as: u, skew: skew})
		wantError(t, r, 401, app.KindTimestampOutOfRange)
	}
	for _, skew := range []time.Duration{-14 * time.Minute, 14 * time.Minute, 0} {
		wantStatus(t, e.do(treq{method: "GET", path: "/public/proposals", as: u, skew: skew}), 200)
	}
	// A timestamp that does not parse, correctly signed.
	r := e.do(treq{method: "GET", path: "/public/proposals", as: u, sign: func(p *pieces) { p.Timestamp = "yesterday" },
		edit: func(h http.Header) { h.Set(signing.HeaderDate, "yesterday") }})
	wantError(t, r, 401, app.KindTimestampOutOfRange)
	// The exchange obeys the window too.
	r = e.do(treq{method: "GET", path: "/authenticate/apikeyexchange?UserName=x@y.z&Password=p", skew: 20 * time.Minute})
	wantError(t, r, 401, app.KindTimestampOutOfRange)
}

func pathOnly(p *pieces) {
	if i := strings.IndexByte(p.URL, '?'); i >= 0 {
		p.URL = p.URL[:i]
	}
}

func TestPathOnlySignature(t *testing.T) {
	path := "/public/proposals?SearchText=job&SortBy=Name"
	t.Run("compatible", func(t *testing.T) {
		e := newEnv(t)
		wantStatus(t, e.do(treq{method: "GET", path: path, as: e.main.admin, sign: pathOnly}), 200)
	})
	t.Run("strict", func(t *testing.T) {
		e := newEnv(t, func(c *Config) { c.StrictSigning = true })
		wantError(t, e.do(treq{method: "GET", path: path, as: e.main.admin, sign: pathOnly}), 401, app.KindSignatureInvalid)
		wantStatus(t, e.do(treq{method: "GET", path: path, as: e.main.admin}), 200)
		// The exchange too (DECISIONS.md "Strict signing and the exchange"):
		// a Portal-style client that signs it without the query is refused,
		// before the password is looked at.
		ex := exchangePath(e.main.sales.rec.Email, testPassword)
		wantError(t, e.do(treq{method: "GET", path: ex, sign: pathOnly}), 401, app.KindSignatureInvalid)
		wantStatus(t, e.do(treq{method: "GET", path: ex}), 200)
	})
	t.Run("compatible exchange", func(t *testing.T) {
		e := newEnv(t)
		wantStatus(t, e.do(treq{method: "GET", path: exchangePath(e.main.sales.rec.Email, testPassword), sign: pathOnly}), 200)
	})
}

func TestPublicURLAndForwardedHeaders(t *testing.T) {
	const public = "https://proposals.example.com"
	t.Run("PublicURL", func(t *testing.T) {
		e := newEnv(t, func(c *Config) { c.PublicURL = public + "/" })
		sign := func(p *pieces) { p.URL = strings.Replace(p.URL, e.srv.URL, public, 1) }
		wantStatus(t, e.do(treq{method: "GET", path: "/public/users", as: e.main.admin, sign: sign}), 200)
		wantError(t, e.do(treq{method: "GET", path: "/public/users", as: e.main.admin}), 401, app.KindSignatureInvalid)
	})
	fwd := func(h http.Header) {
		h.Set("X-Forwarded-Proto", "https")
		h.Set("X-Forwarded-Host", "proposals.example.com")
	}
	t.Run("untrusted", func(t *testing.T) {
		e := newEnv(t)
		sign := func(p *pieces) { p.URL = strings.Replace(p.URL, e.srv.URL, public, 1) }
		wantError(t, e.do(treq{method: "GET", path: "/public/users", as: e.main.admin, sign: sign, edit: fwd}), 401, app.KindSignatureInvalid)
	})
	t.Run("trusted", func(t *testing.T) {
		e := newEnv(t, func(c *Config) { c.TrustForwarded = true })
		sign := func(p *pieces) { p.URL = strings.Replace(p.URL, e.srv.URL, public, 1) }
		wantStatus(t, e.do(treq{method: "GET", path: "/public/users", as: e.main.admin, sign: sign, edit: fwd}), 200)
	})
}

func exchangePath(name, pw string) string {
	return "/authenticate/apikeyexchange?UserName=" + url.QueryEscape(name) + "&Password=" + url.QueryEscape(pw)
}

func TestKeyExchange(t *testing.T) {
	e := newEnv(t)
	u := e.main.sales
	var keys []string
	for _, name := range []string{u.rec.Email, strings.ToUpper(u.rec.Email)} {
		r := e.do(treq{method: "GET", path: exchangePath(name, testPassword)})
		wantStatus(t, r, 200)
		var m map[string]json.RawMessage
		r.json(t, &m)
		for _, f := range []string{"userId", "sessionId", "userName", "displayName", "referrerUrl", "bearerToken",
			"refreshToken", "refreshTokenExpiry", "profileUrl", "roles", "permissions", "authProvider", "responseStatus", "meta"} {
			if _, ok := m[f]; !ok {
				t.Errorf("exchange response lacks %s", f)
			}
		}
		var resp exchangeResponse
		r.json(t, &resp)
		if resp.Meta["apiKey"] == "" || resp.UserID != app.FormatID(u.rec.ID) || resp.Roles[0] != "Sales" {
			t.Fatalf("%s", r.body)
		}
		keys = append(keys, resp.Meta["apiKey"])
	}
	if keys[0] == keys[1] {
		t.Fatal("two exchanges gave the same key")
	}
	for _, k := range keys {
		wantStatus(t, e.get(&tuser{key: k}, "/public/proposals"), 200)
	}
	// Case-insensitive query names.
	wantStatus(t, e.do(treq{method: "GET", path: "/authenticate/apikeyexchange?username=" + url.QueryEscape(u.rec.Email) + "&PASSWORD=" + url.QueryEscape(testPassword)}), 200)
	// 256 characters is allowed (and unknown), 257 is not.
	wantError(t, e.do(treq{method: "GET", path: exchangePath(strings.Repeat("a", 256), "x")}), 401, app.KindInvalidCredentials)
	wantError(t, e.do(treq{method: "GET", path: exchangePath(strings.Repeat("a", 257), "x")}), 400, app.KindValidationFailed)
	// The log never holds the password or the key.
	logs := e.logs.String()
	if strings.Contains(logs, url.QueryEscape(testPassword)) || strings.Contains(logs, testPassword) || strings.Contains(logs, keys[0]) || strings.Contains(logs, "Password=") {
		t.Fatalf("secrets in the log:\n%s", logs)
	}
}

func TestEveryResponseHasDateAndRequestID(t *testing.T) {
	e := newEnv(t)
	for _, r := range []tres{
		e.do(treq{method: "GET", path: "/public/proposals", unsigned: true}),
		e.get(e.main.admin, "/public/nothing"),
		e.get(e.main.admin, "/public/proposals"),
		e.postJSON(e.main.admin, pathf("/public/proposals/%d/contact/%d", e.main.draft, e.main.contact), ""),
	} {
		if r.header.Get("Date") == "" || r.header.Get("X-Request-ID") == "" {
			t.Errorf("%d: headers %v", r.status, r.header)
		}
	}
}

// Unknown users are answered only after a bcrypt compare at the real
// cost, so timing does not tell them apart from wrong passwords.
func TestDummyHashHasTheRealCost(t *testing.T) {
	s := New(Config{Logger: discardLogger()}, nil)
	cost, err := bcrypt.Cost(s.dummyPasswordHash())
	if err != nil || cost != auth.PasswordCost {
		t.Fatalf("cost %d, %v", cost, err)
	}
}
