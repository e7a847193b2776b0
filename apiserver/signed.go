package apiserver

import (
	"net/http"
	"strings"
	"time"

	"proposaldesk/apiserver/auth"
	"proposaldesk/apiserver/store"
	"proposaldesk/app"
	"proposaldesk/app/signing"
)

// call is one request to a handler, after the signing middleware.
type call struct {
	w     http.ResponseWriter
	r     *http.Request
	op    app.Operation
	now   time.Time
	appID string
	// Set for every route but the key exchange.
	user    store.UserRecord
	account store.Account

	body     []byte
	bodyRead bool
}

// handlerFunc handles one call. It writes its own success response; an
// error it returns is written as the contract's error body.
type handlerFunc func(c *call) error

// signed wraps a handler in the signing middleware: signature, timestamp,
// API key, subscription and permission, in that order.
func (s *Server) signed(rt Route, h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &call{w: w, r: r, op: rt.Operation, now: s.now()}
		if info := infoOf(r); info != nil {
			info.op = rt.Operation
		}
		if err := s.authenticate(c); err != nil {
			s.writeError(w, r, err)
			return
		}
		if err := h(c); err != nil {
			s.writeError(w, r, err)
		}
	})
}

var (
	errCredentialsMissing = app.Errorf(app.KindCredentialsMissing,
		"You are not authorized. Send the signed headers %s, %s, %s and %s, or a valid session cookie.",
		signing.HeaderAppID, signing.HeaderDate, signing.HeaderSignature, signing.HeaderUserKey)
	errSignatureInvalid = &app.Error{Kind: app.KindSignatureInvalid, Message: msgSignatureInvalid}
	errTimestamp        = app.Errorf(app.KindTimestampOutOfRange,
		"You are not authorized. %s must be the current time (within %d minutes of the server's Date header) in the form \"Mon, 02 Jan 2006 15:04:05 GMT\".",
		signing.HeaderDate, int(signing.MaxSkew/time.Minute))
	errKeyRevoked = app.Errorf(app.KindAPIKeyRevoked,
		"You are not authorized. This API key has been revoked; sign in again to get a new one.")
)

// The signed headers' canonical keys: reading them is then one map
// lookup, where Header.Get allocates a canonical copy of a key spelled
// as the specification spells these on every call.
var (
	keyAppID     = http.CanonicalHeaderKey(signing.HeaderAppID)
	keyDate      = http.CanonicalHeaderKey(signing.HeaderDate)
	keySignature = http.CanonicalHeaderKey(signing.HeaderSignature)
	keyUserKey   = http.CanonicalHeaderKey(signing.HeaderUserKey)
)

// headerValue is h.Get(key) for a key already canonical.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// authenticate checks the signed headers and who may make the call.
func (s *Server) authenticate(c *call) error {
	r := c.r
	h := r.Header
	appID := headerValue(h, keyAppID)
	ts := headerValue(h, keyDate)
	sig := headerValue(h, keySignature)
	userKey := headerValue(h, keyUserKey)
	exchange := c.op == app.OpKeyExchange
	if appID == "" || ts == "" || sig == "" || (!exchange && userKey == "") {
		return errCredentialsMissing
	}
	// One read for everything the checks below need; each absence is
	// judged in the order of the checks.
	var keyHash *[32]byte
	if !exchange {
		h := auth.HashAPIKey(userKey)
		keyHash = &h
	}
	cr, err := s.st.Auth().Credentials(r.Context(), appID, keyHash)
	if err != nil {
		return err
	}
	if !cr.AppFound {
		return errSignatureInvalid
	}
	a := cr.App
	if !s.signatureValid(r, a.Secret, ts, userKey, sig) {
		return errSignatureInvalid
	}
	t, err := signing.ParseDate(ts)
	if err != nil || !signing.WithinSkew(t, c.now) {
		return errTimestamp
	}
	c.appID = a.ID
	if exchange {
		// The user is known only once the exchange checks the password;
		// a user key sent here is signed but otherwise ignored.
		return nil
	}
	if !cr.KeyFound {
		return errSignatureInvalid
	}
	key := cr.Key
	if key.Revoked() {
		return errKeyRevoked
	}
	if key.AppID != "" && key.AppID != a.ID {
		return errSignatureInvalid
	}
	if !cr.UserFound || !cr.AccountFound {
		return errSignatureInvalid
	}
	u, acct := cr.User, cr.Account
	c.user, c.account = u, acct
	if cr.Read != nil {
		c.r = c.r.WithContext(store.WithAccountRead(c.r.Context(), cr.Read))
	}
	if info := infoOf(r); info != nil {
		info.accountID, info.userID = acct.ID, u.ID
	}
	if c.op.NeedsSubscription() && !acct.SubscriptionActive(c.now) {
		return app.Errorf(app.KindSubscriptionInactive,
			"An active subscription is required: the dealer subscription of this account is inactive or expired.")
	}
	return app.Require(u.User, c.op.Permission())
}

// signatureValid checks the signature over the absolute URL, and unless
// strict over the URL without its query string.
func (s *Server) signatureValid(r *http.Request, secret, ts, userKey, sig string) bool {
	full := s.absoluteURL(r)
	ct := headerValue(r.Header, "Content-Type")
	if signing.Valid(secret, signing.Message(r.Method, full, ct, ts, userKey), sig) {
		return true
	}
	if s.cfg.StrictSigning {
		return false
	}
	if i := strings.IndexByte(full, '?'); i >= 0 {
		return signing.Valid(secret, signing.Message(r.Method, full[:i], ct, ts, userKey), sig)
	}
	return false
}

// absoluteURL is the URL the client used: the public base URL (or scheme
// and host of the request) and the request URI exactly as sent.
func (s *Server) absoluteURL(r *http.Request) string {
	uri := r.RequestURI
	if uri == "" || uri[0] != '/' {
		// Absolute-form request line, or a request not from a server:
		// take the path and query as parsed.
		uri = r.URL.RequestURI()
	}
	if s.cfg.PublicURL != "" {
		return s.cfg.PublicURL + uri
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if s.cfg.TrustForwarded {
		if p := firstForwarded(r.Header.Get("X-Forwarded-Proto")); p != "" {
			scheme = strings.ToLower(p)
		}
		if fh := firstForwarded(r.Header.Get("X-Forwarded-Host")); fh != "" {
			host = fh
		}
	}
	return scheme + "://" + host + uri
}

func firstForwarded(v string) string {
	if i := strings.IndexByte(v, ','); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}
