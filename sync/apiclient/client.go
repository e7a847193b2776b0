package apiclient

import (
	"context"
	cryptorand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-resty/resty/v2"

	"proposaldesk/app"
	"proposaldesk/app/signing"
)

// ContentTypeJSON is the Content-Type of every write the client sends; it
// is part of the signed message.
const ContentTypeJSON = "application/json"

// maxResponseBytes caps a response body read into memory.
const maxResponseBytes = 64 << 20

// Client is the signed API client. It is safe for concurrent use.
//
// Every request is signed with app/signing over the exact URL and
// Content-Type sent, stamped with local time plus the clock offset
// learned from the server's Date headers. Reads, and writes that carry an
// Idempotency-Key, are retried on network errors, 5xx and 429 with capped
// exponential backoff and full jitter; a 4xx other than 429 never is.
type Client struct {
	conn Connection
	base string
	rc   *resty.Client

	now           func() time.Time
	sleep         func(context.Context, time.Duration) error
	backoff       backoff
	maxAttempts   int
	maxRetryAfter time.Duration
	timeout       time.Duration
	userAgent     string

	clock clockOffset

	mu      sync.RWMutex
	userKey string
	// answered, when set (SetAnswered), is called after every HTTP
	// answer: the server is reachable.
	answered func()
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sends requests through hc (its Transport and TLS
// settings). The client turns off hc's redirect following: a redirected
// request would not match its signature.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		cp := *hc
		c.rc = newResty(&cp)
	}
}

// WithClock replaces the local clock (tests skew it).
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// WithSleep replaces the wait between attempts (tests record it). It must
// return early with ctx.Err() when ctx is done.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = sleep }
}

// WithRandom replaces the jitter source, a function returning [0, 1).
func WithRandom(random func() float64) Option {
	return func(c *Client) { c.backoff.random = random }
}

// WithMaxAttempts sets how many times one call may be sent (default 4;
// 1 turns retries off).
func WithMaxAttempts(n int) Option {
	return func(c *Client) { c.maxAttempts = max(n, 1) }
}

// WithBackoff sets the first retry's maximum wait and the cap.
func WithBackoff(base, ceiling time.Duration) Option {
	return func(c *Client) { c.backoff.base, c.backoff.cap = base, ceiling }
}

// WithMaxRetryAfter sets the longest Retry-After the client waits out
// itself (default 60s); a longer one is returned as an *APIError with
// RetryAfter set, for the caller to schedule.
func WithMaxRetryAfter(d time.Duration) Option { return func(c *Client) { c.maxRetryAfter = d } }

// WithTimeout bounds each attempt: connecting, sending and reading the
// whole answer (default 30s). An attempt that runs out is a network error.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithUserKey starts the client signed in with a stored API key.
func WithUserKey(key string) Option { return func(c *Client) { c.userKey = key } }

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// NewClient returns a client for conn.
func NewClient(conn Connection, opts ...Option) (*Client, error) {
	if err := conn.Validate(); err != nil {
		return nil, fmt.Errorf("connection: %w", err)
	}
	c := &Client{
		conn:          conn,
		base:          conn.base(),
		now:           time.Now,
		sleep:         sleepContext,
		backoff:       backoff{base: DefaultBackoffBase, cap: DefaultBackoffCap, random: rand.Float64},
		maxAttempts:   DefaultMaxAttempts,
		maxRetryAfter: DefaultMaxRetryAfter,
		timeout:       DefaultTimeout,
		userAgent:     "ProposalDesk-Desktop",
	}
	for _, o := range opts {
		o(c)
	}
	if c.rc == nil {
		c.rc = newResty(&http.Client{})
	}
	return c, nil
}

func newResty(hc *http.Client) *resty.Client {
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	hc.Timeout = 0 // each attempt has its own context deadline
	rc := resty.NewWithClient(hc).
		SetRetryCount(0).
		SetLogger(quietLogger{}).
		SetDisableWarn(true).
		SetResponseBodyLimit(maxResponseBytes)
	rc.SetPreRequestHook(checkSignedAsSent)
	return rc
}

// signedKey carries what was signed to the pre-request hook.
type signedKey struct{}

type signedAs struct{ url, contentType string }

// checkSignedAsSent runs on the final *http.Request resty built and
// refuses to send one whose URL or Content-Type differs from what was
// signed. It cannot fire unless resty changes how it builds URLs; it is
// there so such a change fails loudly instead of as SignatureInvalid.
func checkSignedAsSent(_ *resty.Client, r *http.Request) error {
	s, ok := r.Context().Value(signedKey{}).(signedAs)
	if !ok {
		return errors.New("bug: request without a signature record")
	}
	if got := r.URL.String(); got != s.url {
		return fmt.Errorf("bug: signed URL %q but resty sends %q", s.url, got)
	}
	if r.Method != http.MethodGet && r.Header.Get("Content-Type") != s.contentType {
		return fmt.Errorf("bug: signed Content-Type %q but resty sends %q", s.contentType, r.Header.Get("Content-Type"))
	}
	return nil
}

type quietLogger struct{}

func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Warnf(string, ...any)  {}
func (quietLogger) Debugf(string, ...any) {}

// SetUserKey sets the API key later requests are signed with ("" signs
// out).
func (c *Client) SetUserKey(key string) {
	c.mu.Lock()
	c.userKey = key
	c.mu.Unlock()
}

// UserKey is the API key requests are signed with.
func (c *Client) UserKey() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.userKey
}

// SetAnswered installs the hook called after every HTTP answer (the
// sync engine learns from it that the server is reachable).
func (c *Client) SetAnswered(fn func()) {
	c.mu.Lock()
	c.answered = fn
	c.mu.Unlock()
}

func (c *Client) noteAnswer() {
	c.mu.RLock()
	fn := c.answered
	c.mu.RUnlock()
	if fn != nil {
		fn()
	}
}

// Connection is the connection the client was made for.
func (c *Client) Connection() Connection { return c.conn }

// ClockOffset is the estimated server time minus local time.
func (c *Client) ClockOffset() time.Duration { return c.clock.offset() }

// WriteOptions are the extension headers of a write.
type WriteOptions struct {
	// IdempotencyKey is sent as Idempotency-Key. A write with one is
	// retried after a lost answer; the server applies it once.
	IdempotencyKey string
	// IfMatch is the proposal version the write expects (the ETag, with
	// or without its quotes), sent as If-Match: "<version>".
	IfMatch string
}

// NewIdempotencyKey returns a random key for WriteOptions.IdempotencyKey.
func NewIdempotencyKey() string {
	return cryptorand.Text()
}

// quoteETag makes an If-Match value from a version or an ETag.
func quoteETag(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, `"`) || strings.HasPrefix(v, `W/"`) {
		return v
	}
	return `"` + v + `"`
}

// ParseETag reads the version out of an ETag header (`"7"` → 7).
func ParseETag(etag string) (int64, bool) {
	v := strings.TrimPrefix(strings.TrimSpace(etag), "W/")
	v = strings.Trim(v, `"`)
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// Call is one API request as the endpoint methods describe it.
type Call struct {
	Method string
	Path   string // escaped, from the root of the API: "/public/proposals/7"
	Query  url.Values
	Body   any // JSON-encoded when non-nil
	Opts   WriteOptions
	// Anonymous signs with an empty user key (the key exchange).
	Anonymous bool
}

// Response is a 2xx answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// buildURL is the absolute URL of a request, exactly as it will be sent
// and signed. The query is url.Values' encoding (sorted keys, spaces as
// '+'); resty is given this string and sends it unchanged, which
// checkSignedAsSent enforces.
func (c *Client) buildURL(path string, query url.Values) (string, error) {
	s := c.base + path
	if len(query) > 0 {
		s += "?" + query.Encode()
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("request URL %q: %w", s, err)
	}
	if u.String() != s {
		return "", fmt.Errorf("request URL %q is not in canonical form (%q)", s, u.String())
	}
	return s, nil
}

// Send performs a call with signing, clock correction and retries, and
// returns its 2xx answer or a classified error. The endpoint methods use
// it; the sync package sends its writes through it.
func (c *Client) Send(ctx context.Context, cl Call) (*Response, error) {
	reqURL, err := c.buildURL(cl.Path, cl.Query)
	if err != nil {
		return nil, err
	}
	var body []byte
	contentType := ""
	if cl.Method != http.MethodGet {
		contentType = ContentTypeJSON
		if cl.Body == nil {
			body = []byte("{}")
		} else if body, err = json.Marshal(cl.Body); err != nil {
			return nil, fmt.Errorf("encode %s %s: %w", cl.Method, cl.Path, err)
		}
	}
	// A write without an Idempotency-Key is sent at most once: if its
	// answer were lost, sending it again could apply it twice.
	retryable := cl.Method == http.MethodGet || cl.Opts.IdempotencyKey != ""
	clockRetried := false
	for attempt := 1; ; attempt++ {
		resp, sent, received, err := c.attempt(ctx, cl, reqURL, contentType, body)
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return nil, fmt.Errorf("%s %s: %w", cl.Method, reqURL, ctxErr)
			}
			var certErr *CertificateError
			if errors.As(err, &certErr) || attempt >= c.maxAttempts {
				return nil, err
			}
			var netErr *NetworkError
			if !retryable && !(errors.As(err, &netErr) && nothingSent(netErr.Err)) {
				return nil, err
			}
			if err := c.sleep(ctx, c.backoff.wait(attempt)); err != nil {
				return nil, fmt.Errorf("%s %s: %w", cl.Method, reqURL, err)
			}
			continue
		}
		c.noteAnswer()
		date := resp.Header().Get("Date")
		status := resp.StatusCode()
		if status >= 200 && status < 300 {
			c.clock.observe(date, sent, received, false)
			return &Response{Status: status, Header: resp.Header(), Body: resp.Body()}, nil
		}
		apiErr := decodeAPIError(cl.Method, reqURL, status, resp.Header(), resp.Body(), received)
		if apiErr.Kind() == app.KindTimestampOutOfRange {
			// Our stamp was refused: adopt the server's clock from this
			// very answer and try once more. The request was not applied,
			// so this is safe for any write.
			c.clock.observe(date, sent, received, true)
			if clockRetried {
				return nil, &ClockError{Offset: c.clock.offset(), Err: apiErr}
			}
			clockRetried = true
			attempt--
			continue
		}
		c.clock.observe(date, sent, received, false)
		if status != http.StatusTooManyRequests && status < 500 {
			return nil, apiErr
		}
		if !retryable || attempt >= c.maxAttempts {
			return nil, apiErr
		}
		wait := c.backoff.wait(attempt)
		if apiErr.RetryAfter > 0 {
			if apiErr.RetryAfter > c.maxRetryAfter {
				return nil, apiErr
			}
			wait = apiErr.RetryAfter
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("%s %s: %w", cl.Method, reqURL, err)
		}
	}
}

// attempt sends the request once, freshly signed.
func (c *Client) attempt(ctx context.Context, cl Call, reqURL, contentType string, body []byte) (*resty.Response, time.Time, time.Time, error) {
	userKey := ""
	if !cl.Anonymous {
		userKey = c.UserKey()
	}
	sent := c.now()
	headers := signing.Request{
		Method:      cl.Method,
		URL:         reqURL,
		ContentType: contentType,
		AppID:       c.conn.AppID,
		Secret:      c.conn.AppSecret,
		UserKey:     userKey,
		Now:         sent.Add(c.clock.offset()),
	}.Headers()

	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	actx = context.WithValue(actx, signedKey{}, signedAs{url: reqURL, contentType: contentType})
	req := c.rc.R().
		SetContext(actx).
		SetHeaders(headers).
		SetHeader("Accept", "application/json").
		SetHeader("User-Agent", c.userAgent)
	if cl.Method != http.MethodGet {
		req.SetHeader("Content-Type", contentType).SetBody(body)
	}
	if cl.Opts.IdempotencyKey != "" {
		req.SetHeader("Idempotency-Key", cl.Opts.IdempotencyKey)
	}
	if cl.Opts.IfMatch != "" {
		req.SetHeader("If-Match", quoteETag(cl.Opts.IfMatch))
	}
	resp, err := req.Execute(cl.Method, reqURL)
	received := c.now()
	if err != nil {
		return nil, sent, received, classifyTransportError(cl.Method, reqURL, err)
	}
	return resp, sent, received, nil
}

// Decode reads a 2xx JSON answer into v.
func Decode[T any](resp *Response, what string) (T, error) {
	var v T
	if err := json.Unmarshal(resp.Body, &v); err != nil {
		return v, fmt.Errorf("decode %s: %w", what, err)
	}
	return v, nil
}
