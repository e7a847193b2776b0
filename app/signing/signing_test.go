package signing_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"strings"
	"testing"
	"time"

	"proposaldesk/app/signing"
)

// hmacBase64 is the spec's signature computed here with the standard
// library alone: HMAC-SHA256 keyed with the secret's raw bytes, Base64.
func hmacBase64(secret, message string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(message))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

const (
	exchangeURL = "https://desk.example.test/authenticate/apikeyexchange?UserName=ada%40dealer.test&Password=p%40ss%20w%2Brd"
	listURL     = "https://desk.example.test/public/proposals?PageSize=5"
	stamp       = "Sun, 22 Nov 2026 06:21:04 GMT"
)

func TestMessage(t *testing.T) {
	for _, tc := range []struct {
		name                                    string
		method, url, contentType, date, userKey string
		want                                    string
	}{
		{"exchange: GET, no content type, empty key", "GET", exchangeURL, "application/json", stamp, "",
			"GET" + exchangeURL + stamp},
		{"GET without a content type", "GET", listURL, "", stamp, "key",
			"GET" + listURL + stamp + "key"},
		{"lower-case get is GET", "get", listURL, "text/plain", stamp, "key",
			"GET" + listURL + stamp + "key"},
		{"POST keeps the content type", "POST", listURL, "application/json", stamp, "key",
			"POST" + listURL + "application/json" + stamp + "key"},
		{"form content type exactly as sent", "POST", listURL, "application/x-www-form-urlencoded; charset=utf-8", stamp, "key",
			"POST" + listURL + "application/x-www-form-urlencoded; charset=utf-8" + stamp + "key"},
		{"PUT keeps it", "PUT", listURL, "application/json", stamp, "",
			"PUT" + listURL + "application/json" + stamp},
		{"DELETE keeps it", "DELETE", listURL, "application/json", stamp, "k",
			"DELETE" + listURL + "application/json" + stamp + "k"},
		{"HEAD is not GET", "HEAD", listURL, "application/json", stamp, "k",
			"HEAD" + listURL + "application/json" + stamp + "k"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := signing.Message(tc.method, tc.url, tc.contentType, tc.date, tc.userKey); got != tc.want {
				t.Errorf("Message =\n %q\nwant\n %q", got, tc.want)
			}
		})
	}
}

// TestSignKnownAnswers: RFC 4231 test case 2, a vector computed with
// openssl (printf … | openssl dgst -sha256 -hmac app-secret -binary |
// base64), and hand-written canonical strings signed here with
// crypto/hmac.
func TestSignKnownAnswers(t *testing.T) {
	rfc, _ := hex.DecodeString("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
	for _, tc := range []struct {
		name, secret, message, want string
	}{
		{"RFC 4231 case 2", "Jefe", "what do ya want for nothing?", base64.StdEncoding.EncodeToString(rfc)},
		{"openssl", "app-secret", "GET" + listURL + stamp + "userkey123", "+u4hQJAB5nC6BJKUaI2D5pX7oq39Z2GV+pwxBCh1USo="},
		{"exchange", "app-secret", "GET" + exchangeURL + stamp, hmacBase64("app-secret", "GET"+exchangeURL+stamp)},
		// The secret is raw bytes even when it looks like Base64.
		{"Base64-looking secret", "c2VjcmV0", "POST" + listURL + "application/json" + stamp + "k",
			hmacBase64("c2VjcmV0", "POST"+listURL+"application/json"+stamp+"k")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := signing.Sign(tc.secret, tc.message); got != tc.want {
				t.Errorf("Sign = %s, want %s", got, tc.want)
			}
			if !signing.Valid(tc.secret, tc.message, tc.want) {
				t.Errorf("Valid rejects the known signature")
			}
		})
	}
	// The exchange signed through Message, as a client does it.
	got := signing.Sign("app-secret", signing.Message("GET", exchangeURL, "application/json", stamp, ""))
	if want := hmacBase64("app-secret", "GET"+exchangeURL+stamp); got != want {
		t.Errorf("exchange signature %s, want %s", got, want)
	}
	if decoded := hmacBase64("secret", "x"); signing.Sign("c2VjcmV0", "x") == decoded {
		t.Error("the secret was Base64-decoded")
	}
}

// signedParts is one request's signed parts.
type signedParts struct{ method, url, contentType, date, userKey string }

func (p signedParts) message() string {
	return signing.Message(p.method, p.url, p.contentType, p.date, p.userKey)
}

func TestValidRejectsTampering(t *testing.T) {
	const secret = "app-secret"
	base := signedParts{"POST", "https://desk.example.test/public/proposals/500/area?x=1", "application/json", stamp, "user-key"}
	sig := signing.Sign(secret, base.message())
	if !signing.Valid(secret, base.message(), sig) {
		t.Fatal("Valid rejects an untampered request")
	}
	for _, tc := range []struct {
		name string
		edit func(p *signedParts)
	}{
		{"method", func(p *signedParts) { p.method = "PUT" }},
		{"method GET", func(p *signedParts) { p.method = "GET" }},
		{"host", func(p *signedParts) { p.url = strings.Replace(p.url, "desk.", "evil.", 1) }},
		{"scheme", func(p *signedParts) { p.url = strings.Replace(p.url, "https", "http", 1) }},
		{"path", func(p *signedParts) { p.url = strings.Replace(p.url, "/500/", "/501/", 1) }},
		{"query value", func(p *signedParts) { p.url = strings.Replace(p.url, "x=1", "x=2", 1) }},
		{"query removed", func(p *signedParts) { p.url = strings.TrimSuffix(p.url, "?x=1") }},
		{"query added", func(p *signedParts) { p.url += "&y=2" }},
		{"content type", func(p *signedParts) { p.contentType = "application/x-www-form-urlencoded" }},
		{"content type case", func(p *signedParts) { p.contentType = "Application/JSON" }},
		{"content type dropped", func(p *signedParts) { p.contentType = "" }},
		{"timestamp", func(p *signedParts) { p.date = "Sun, 22 Nov 2026 06:21:05 GMT" }},
		{"user key", func(p *signedParts) { p.userKey = "user-kez" }},
		{"user key dropped", func(p *signedParts) { p.userKey = "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := base
			tc.edit(&p)
			if signing.Valid(secret, p.message(), sig) {
				t.Errorf("tampered request (%+v) accepted", p)
			}
		})
	}
}

func TestValidGETIgnoresContentType(t *testing.T) {
	sig := signing.Sign("s", signing.Message("GET", listURL, "", stamp, "k"))
	if !signing.Valid("s", signing.Message("GET", listURL, "application/json", stamp, "k"), sig) {
		t.Error("a GET's content type changed its signature")
	}
}

// b64Alphabet is standard Base64's; a 32-byte MAC's last character
// carries two padding bits, which are zero in the canonical encoding.
const b64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

func TestValidRejectsBadSignatures(t *testing.T) {
	const secret, message = "app-secret", "GET" + listURL + stamp + "userkey123"
	good := signing.Sign(secret, message)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(message))
	raw := mac.Sum(nil)
	for _, tc := range []struct{ name, secret, sig string }{
		{"wrong secret", "app-secreT", good},
		{"empty secret", "", good},
		{"secret with a trailing space", secret + " ", good},
		{"empty signature", secret, ""},
		{"not Base64", secret, "!!!not base64!!!"},
		{"hex instead of Base64", secret, hex.EncodeToString(raw)},
		{"URL-safe alphabet", secret, base64.URLEncoding.EncodeToString(raw)},
		{"unpadded", secret, base64.RawStdEncoding.EncodeToString(raw)},
		{"truncated", secret, good[:len(good)-4]},
		{"extra bytes", secret, base64.StdEncoding.EncodeToString(append(raw, 0))},
		{"one byte flipped", secret, base64.StdEncoding.EncodeToString(append([]byte{raw[0] ^ 1}, raw[1:]...))},
		{"signature of another message", secret, signing.Sign(secret, message+"x")},
		// Other spellings of the right bytes: one signature per request.
		{"non-zero padding bits", secret, good[:42] + string(b64Alphabet[strings.IndexByte(b64Alphabet, good[42])|1]) + "="},
		{"embedded newline", secret, good[:20] + "\n" + good[20:]},
		{"trailing CRLF", secret, good + "\r\n"},
		{"surrounding spaces", secret, " " + good + " "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.sig == good && tc.secret == secret {
				t.Fatal("case does not tamper")
			}
			if tc.name == "URL-safe alphabet" && tc.sig == good {
				t.Skip("signature has no + or /, so both alphabets agree")
			}
			if signing.Valid(tc.secret, message, tc.sig) {
				t.Errorf("Valid accepted %q", tc.sig)
			}
		})
	}
}

func TestWithinSkew(t *testing.T) {
	now := time.Date(2026, 11, 22, 6, 21, 4, 0, time.UTC)
	for _, tc := range []struct {
		offset time.Duration
		ok     bool
	}{
		{0, true},
		{time.Minute, true},
		{-time.Minute, true},
		{15 * time.Minute, true},
		{-15 * time.Minute, true},
		{15*time.Minute + time.Nanosecond, false},
		{-15*time.Minute - time.Nanosecond, false},
		{15*time.Minute + time.Second, false},
		{-15*time.Minute - time.Second, false},
		{24 * time.Hour, false},
		{-24 * time.Hour, false},
	} {
		if got := signing.WithinSkew(now.Add(tc.offset), now); got != tc.ok {
			t.Errorf("timestamp now%+v: WithinSkew = %v, want %v", tc.offset, got, tc.ok)
		}
	}
	// The same instant in another zone is no skew.
	if !signing.WithinSkew(now.In(time.FixedZone("X", 9*3600)), now) {
		t.Error("a zone difference counted as skew")
	}
}

var dateShape = regexp.MustCompile(`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$`)

func TestFormatDate(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC), "Mon, 02 Jan 2006 15:04:05 GMT"},
		{time.Date(2026, 11, 22, 1, 21, 4, 999_999_999, time.FixedZone("EST", -5*3600)), "Sun, 22 Nov 2026 06:21:04 GMT"},
		{time.Date(2024, 2, 29, 23, 59, 59, 0, time.FixedZone("CET", 3600)), "Thu, 29 Feb 2024 22:59:59 GMT"},
		{time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC), "Fri, 31 Dec 1999 00:00:00 GMT"},
	} {
		got := signing.FormatDate(tc.t)
		if got != tc.want {
			t.Errorf("FormatDate(%v) = %q, want %q", tc.t, got, tc.want)
		}
		if !dateShape.MatchString(got) {
			t.Errorf("FormatDate(%v) = %q does not have the header's shape", tc.t, got)
		}
	}
	if signing.DateLayout != "Mon, 02 Jan 2006 15:04:05 GMT" {
		t.Errorf("DateLayout = %q", signing.DateLayout)
	}
}

func TestParseDateRoundTrip(t *testing.T) {
	for _, in := range []time.Time{
		time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC),
		time.Date(2026, 11, 22, 6, 21, 4, 123_456_789, time.UTC),
		time.Date(2030, 7, 4, 0, 0, 0, 0, time.FixedZone("PDT", -7*3600)),
	} {
		s := signing.FormatDate(in)
		got, err := signing.ParseDate(s)
		if err != nil {
			t.Fatalf("ParseDate(%q): %v", s, err)
		}
		if want := in.Truncate(time.Second); !got.Equal(want) {
			t.Errorf("ParseDate(FormatDate(%v)) = %v, want %v", in, got, want)
		}
		// The second read of the same text comes from the kept value.
		if again, err := signing.ParseDate(s); err != nil || again != got {
			t.Errorf("ParseDate(%q) again = %v, %v; first %v", s, again, err, got)
		}
		if _, offset := got.Zone(); offset != 0 {
			t.Errorf("ParseDate(%q) has offset %d, want GMT", s, offset)
		}
		if again := signing.FormatDate(got); again != s {
			t.Errorf("FormatDate(ParseDate(%q)) = %q", s, again)
		}
	}
	got, err := signing.ParseDate("Mon, 02 Jan 2006 15:04:05 GMT")
	if err != nil || !got.Equal(time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)) {
		t.Errorf("ParseDate of the reference date = %v, %v", got, err)
	}
}

func TestParseDateRejects(t *testing.T) {
	for _, s := range []string{
		"",
		"2026-11-22T06:21:04Z",
		"Sun, 22 Nov 2026 06:21:04 UTC",
		"Sun, 22 Nov 2026 06:21:04 +0000",
		"Sun, 22 Nov 2026 06:21:04",
		"22 Nov 2026 06:21:04 GMT",
		"Sunday, 22-Nov-26 06:21:04 GMT",
		"Sun, 22 Nov 2026 25:21:04 GMT",
		"Sun, 31 Nov 2026 06:21:04 GMT",
		"Sun, 22 Nov 2026 06:21:04 GMT extra",
	} {
		// A valid date read just before must not make the next text pass.
		if _, err := signing.ParseDate("Sun, 22 Nov 2026 06:21:04 GMT"); err != nil {
			t.Fatal(err)
		}
		if got, err := signing.ParseDate(s); err == nil {
			t.Errorf("ParseDate(%q) = %v, want an error", s, got)
		}
	}
}

func TestRequestHeaders(t *testing.T) {
	now := time.Date(2026, 11, 22, 6, 21, 4, 500_000_000, time.UTC)
	for _, r := range []signing.Request{
		{Method: "GET", URL: exchangeURL, ContentType: "application/json", AppID: "app-1", Secret: "app-secret", Now: now},
		{Method: "POST", URL: listURL, ContentType: "application/json", AppID: "app-1", Secret: "app-secret", UserKey: "uk", Now: now},
	} {
		h := r.Headers()
		if len(h) != 4 {
			t.Errorf("%d headers, want 4: %v", len(h), h)
		}
		if h["X-MSS-API-APPID"] != "app-1" || h["X-MSS-API-USERKEY"] != r.UserKey || h["X-MSS-CUSTOM-DATE"] != stamp {
			t.Errorf("headers %v", h)
		}
		var want string
		if r.Method == "GET" {
			want = hmacBase64(r.Secret, "GET"+r.URL+stamp+r.UserKey)
		} else {
			want = hmacBase64(r.Secret, r.Method+r.URL+r.ContentType+stamp+r.UserKey)
		}
		if h["X-MSS-SIGNATURE"] != want {
			t.Errorf("%s signature %s, want %s", r.Method, h["X-MSS-SIGNATURE"], want)
		}
	}
}

// FuzzValid: no signature, date or request part makes the package panic,
// a signature Valid accepts is exactly the Base64 HMAC of the message, and a signature
// Sign makes is always Valid. Seeds: testdata/fuzz/FuzzValid.
func FuzzValid(f *testing.F) {
	f.Fuzz(func(t *testing.T, secret, method, url, contentType, date, userKey, signature string) {
		msg := signing.Message(method, url, contentType, date, userKey)
		if signing.Valid(secret, msg, signature) && signature != hmacBase64(secret, msg) {
			t.Fatalf("Valid accepted %q, which is not the message's Base64 HMAC", signature)
		}
		if sig := signing.Sign(secret, msg); !signing.Valid(secret, msg, sig) {
			t.Fatalf("Valid rejects Sign's own signature %q", sig)
		}
		if ts, err := signing.ParseDate(date); err == nil {
			back, err := signing.ParseDate(signing.FormatDate(ts))
			if err != nil || !back.Equal(ts) {
				t.Fatalf("date %q: parsed %v, round trip %v, %v", date, ts, back, err)
			}
			if !signing.WithinSkew(ts, ts) {
				t.Fatalf("a timestamp is outside the skew of itself")
			}
		}
	})
}
