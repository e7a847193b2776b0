// Package signing is the API's request signature: the canonical message,
// the HMAC over it and the timestamp format. The server's verifier and
// the desktop's client both use it, so the two cannot drift apart.
package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"sync/atomic"
	"time"
)

// Header names of a signed request.
const (
	HeaderAppID     = "X-MSS-API-APPID"
	HeaderDate      = "X-MSS-CUSTOM-DATE"
	HeaderSignature = "X-MSS-SIGNATURE"
	HeaderUserKey   = "X-MSS-API-USERKEY"
)

// DateLayout is the X-MSS-CUSTOM-DATE format: HTTP-date style, in GMT
// (the same as net/http's TimeFormat; this package stays free of net/http).
const DateLayout = "Mon, 02 Jan 2006 15:04:05 GMT"

// MaxSkew is how far a request's timestamp may be from the server's clock.
const MaxSkew = 15 * time.Minute

// FormatDate writes t as X-MSS-CUSTOM-DATE expects.
func FormatDate(t time.Time) string { return t.UTC().Format(DateLayout) }

// ParseDate reads an X-MSS-CUSTOM-DATE value. The value last read is
// kept: the clients of a server sign with the current second, so most
// requests in a second carry the same text (parsing it was 2 % of a
// cached signed GET).
func ParseDate(s string) (time.Time, error) {
	if last := lastDate.Load(); last != nil && last.text == s {
		return last.t, nil
	}
	t, err := time.Parse(DateLayout, s)
	if err == nil {
		lastDate.Store(&parsedDate{s, t})
	}
	return t, err
}

type parsedDate struct {
	text string
	t    time.Time
}

var lastDate atomic.Pointer[parsedDate]

// Message is the canonical message: method, absolute URL, the content type
// (left out for GET), timestamp and user key, concatenated with no
// separator.
func Message(method, absoluteURL, contentType, timestamp, userKey string) string {
	method = strings.ToUpper(method)
	if method == "GET" {
		contentType = ""
	}
	return method + absoluteURL + contentType + timestamp + userKey
}

// Sign is the Base64 HMAC-SHA256 of message under secret, the secret taken
// as raw bytes (not Base64-decoded).
func Sign(secret, message string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(message))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// Valid reports whether signature is the signature of message, comparing
// in constant time. Only the canonical Base64 text is accepted: decoding
// first would also accept other spellings of the same bytes (non-zero
// padding bits, embedded newlines), so one request could carry several
// valid signatures.
func Valid(secret, message, signature string) bool {
	return hmac.Equal([]byte(signature), []byte(Sign(secret, message)))
}

// WithinSkew reports whether a request timestamp is inside the window
// around now.
func WithinSkew(ts, now time.Time) bool {
	d := now.Sub(ts)
	return d <= MaxSkew && d >= -MaxSkew
}

// Request is what a client needs to sign one request.
type Request struct {
	Method      string
	URL         string // absolute, query string exactly as sent
	ContentType string
	AppID       string
	Secret      string
	UserKey     string
	Now         time.Time
}

// Headers returns the four signed headers for r.
func (r Request) Headers() map[string]string {
	ts := FormatDate(r.Now)
	return map[string]string{
		HeaderAppID:     r.AppID,
		HeaderDate:      ts,
		HeaderUserKey:   r.UserKey,
		HeaderSignature: Sign(r.Secret, Message(r.Method, r.URL, r.ContentType, ts, r.UserKey)),
	}
}
