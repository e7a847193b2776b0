package apiclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	neturl "net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"proposaldesk/app"
)

// Sentinel errors, for errors.Is. Each names a different thing to tell
// the user.
var (
	// ErrUnreachable: the request got no HTTP answer (no network, server
	// down, connection cut, per-request timeout). The edit stays queued.
	ErrUnreachable = errors.New("server unreachable")
	// ErrCertificate: the server's TLS certificate was refused (unknown
	// authority, wrong host name, expired). Never retried: "certificate
	// problem".
	ErrCertificate = errors.New("server certificate problem")
	// ErrClockSkew: the server refused the request's timestamp even after
	// the client corrected its clock offset from the server's Date
	// header: "check your clock".
	ErrClockSkew = errors.New("clock out of range for the server")
)

// APIError is a non-2xx answer of the server. It wraps the server's error
// as an *app.Error, so app.KindOf(err) is the contract's errorCode and
// errors.Is(err, app.ErrNotFound) works; field errors of ValidationFailed
// are in Err.Fields.
type APIError struct {
	Method string
	URL    string
	// Status is the HTTP status code.
	Status int
	// Err is the decoded error body; never nil.
	Err *app.Error
	// RequestID is the server's request ID (responseStatus.meta.requestId)
	// when it sent one, for support.
	RequestID string
	// RetryAfter is the wait the server asked for (429/503), zero if none.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%s %s: %d %v", e.Method, e.URL, e.Status, e.Err)
}

func (e *APIError) Unwrap() error { return e.Err }

// Kind is the error's kind (the body's errorCode).
func (e *APIError) Kind() app.Kind { return e.Err.Kind }

// NetworkError is a request that got no HTTP answer. It matches
// ErrUnreachable with errors.Is, and its cause with errors.As.
type NetworkError struct {
	Method, URL string
	Err         error
}

func (e *NetworkError) Error() string {
	return fmt.Sprintf("%s %s: server unreachable: %v", e.Method, e.URL, e.Err)
}

func (e *NetworkError) Unwrap() []error { return []error{ErrUnreachable, e.Err} }

// CertificateError is a refused TLS certificate. It matches
// ErrCertificate; the x509 error is its cause.
type CertificateError struct {
	URL string
	Err error
}

func (e *CertificateError) Error() string {
	return fmt.Sprintf("%s: the server's certificate was refused: %v", e.URL, e.Err)
}

func (e *CertificateError) Unwrap() []error { return []error{ErrCertificate, e.Err} }

// ClockError is a TimestampOutOfRange answer that persisted after the
// client adopted the server's clock. It matches ErrClockSkew and wraps
// the *APIError.
type ClockError struct {
	// Offset is the client's estimate of server time minus local time.
	Offset time.Duration
	Err    *APIError
}

func (e *ClockError) Error() string {
	return fmt.Sprintf("the server refuses this computer's clock (off by about %s): %v",
		e.Offset.Round(time.Second), e.Err)
}

func (e *ClockError) Unwrap() []error { return []error{ErrClockSkew, e.Err} }

// errorBody is the part of the contract's error body the client reads.
type errorBody struct {
	ErrorCode      string `json:"errorCode"`
	Message        string `json:"message"`
	ResponseStatus struct {
		ErrorCode string `json:"errorCode"`
		Message   string `json:"message"`
		Errors    []struct {
			ErrorCode string `json:"errorCode"`
			FieldName string `json:"fieldName"`
			Message   string `json:"message"`
		} `json:"errors"`
		Meta map[string]string `json:"meta"`
	} `json:"responseStatus"`
}

// decodeAPIError builds the error of a non-2xx response. A body that is
// not the contract's (a proxy's HTML page) still gives an error with a
// kind chosen from the status.
func decodeAPIError(method, url string, status int, header http.Header, body []byte, now time.Time) *APIError {
	url = redactURL(url)
	e := &APIError{Method: method, URL: url, Status: status, RetryAfter: parseRetryAfter(header.Get("Retry-After"), now)}
	var b errorBody
	if json.Unmarshal(body, &b) == nil && (b.ErrorCode != "" || b.ResponseStatus.ErrorCode != "") {
		code := b.ErrorCode
		if code == "" {
			code = b.ResponseStatus.ErrorCode
		}
		msg := b.Message
		if msg == "" {
			msg = b.ResponseStatus.Message
		}
		ae := &app.Error{Kind: app.ParseKind(code), Message: msg}
		for _, f := range b.ResponseStatus.Errors {
			ae.Fields = append(ae.Fields, app.FieldError{Field: f.FieldName, Message: f.Message})
		}
		e.Err = ae
		e.RequestID = b.ResponseStatus.Meta["requestId"]
		return e
	}
	e.Err = &app.Error{Kind: kindForStatus(status), Message: statusMessage(status, body)}
	return e
}

// kindForStatus is the kind of an answer without the contract's body:
// only statuses whose meaning cannot depend on who sent them are mapped.
func kindForStatus(status int) app.Kind {
	switch status {
	case http.StatusTooManyRequests:
		return app.KindRateLimited
	case http.StatusRequestEntityTooLarge:
		return app.KindPayloadTooLarge
	case http.StatusUnsupportedMediaType:
		return app.KindUnsupportedMediaType
	}
	return app.KindInternal
}

func statusMessage(status int, body []byte) string {
	msg := fmt.Sprintf("the server answered %d %s", status, http.StatusText(status))
	if s := strings.TrimSpace(string(body)); s != "" && len(s) <= 200 && !strings.ContainsAny(s, "<>") {
		msg += ": " + s
	}
	return msg
}

// parseRetryAfter reads Retry-After as seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(min(secs, 24*3600)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// classifyTransportError turns an error of the HTTP round trip into a
// *CertificateError or a *NetworkError.
func classifyTransportError(method, url string, err error) error {
	url = redactURL(url)
	// net/http's own error repeats the URL.
	var ue *neturl.Error
	if errors.As(err, &ue) {
		ue.URL = redactURL(ue.URL)
	}
	if isCertificateError(err) {
		return &CertificateError{URL: url, Err: err}
	}
	return &NetworkError{Method: method, URL: url, Err: err}
}

func isCertificateError(err error) bool {
	var (
		verr  *tls.CertificateVerificationError
		uaerr x509.UnknownAuthorityError
		herr  x509.HostnameError
		cierr x509.CertificateInvalidError
		rerr  *tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &verr), errors.As(err, &uaerr), errors.As(err, &herr), errors.As(err, &cierr):
		return true
	case errors.As(err, &rerr):
		// An https client talking to a plain-HTTP port: a TLS problem too.
		return true
	}
	return false
}

// nothingSent reports whether the request certainly never reached the
// server (the connection could not be opened), so even a write without
// an Idempotency-Key may be sent again.
func nothingSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// Explain is a sentence for the person using the app about an error of
// the client. Server errors give the server's message, which is written
// for users.
func Explain(err error) string {
	var apiErr *APIError
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrCertificate):
		return "The server's security certificate was not accepted, so nothing was sent. Ask whoever runs the server to check its certificate."
	case errors.Is(err, ErrClockSkew):
		return "The server refused this computer's clock. Check that the date, time and time zone are set correctly."
	case errors.Is(err, ErrUnreachable):
		return "The server cannot be reached right now. Your changes are kept on this computer and will be sent when it can be reached."
	case errors.Is(err, context.Canceled):
		return "Cancelled."
	case errors.Is(err, context.DeadlineExceeded):
		return "The server took too long to answer. Please try again."
	case errors.As(err, &apiErr) && apiErr.Err.Message != "":
		return apiErr.Err.Message
	}
	return err.Error()
}

// secretParams are the query parameters whose values an error never
// shows: the key exchange sends the password and the device token in
// its query (Portal's route), and errors reach the screen and the logs.
var secretParams = []string{"password", "devicetoken"}

// redactURL is raw with the values of secretParams replaced.
func redactURL(raw string) string {
	u, err := neturl.Parse(raw)
	if err != nil {
		if strings.Contains(strings.ToLower(raw), "password") {
			return "(a URL that cannot be shown)"
		}
		return raw
	}
	q := u.Query()
	changed := false
	for k := range q {
		if slices.Contains(secretParams, strings.ToLower(k)) {
			q[k] = []string{"REDACTED"}
			changed = true
		}
	}
	if !changed {
		return raw
	}
	u.RawQuery = q.Encode()
	return u.String()
}
