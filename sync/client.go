package syncer

import (
	"context"
	"net/http"
	"net/url"

	"proposaldesk/sync/apiclient"
)

// Client is the signed API client (sync/apiclient) with the proposal
// writes of mutations.go. The client itself lives in its own package so
// the server's export command can use it without linking the desktop's
// store and keyring; the names below keep this package's API as it was.
type Client struct {
	*apiclient.Client
}

// NewClient returns a client for conn.
func NewClient(conn Connection, opts ...Option) (*Client, error) {
	c, err := apiclient.NewClient(conn, opts...)
	if err != nil {
		return nil, err
	}
	return &Client{c}, nil
}

// The client's types, options and errors, under their old names.
type (
	Connection          = apiclient.Connection
	Option              = apiclient.Option
	WriteOptions        = apiclient.WriteOptions
	ExchangeResult      = apiclient.ExchangeResult
	ProposalQuery       = apiclient.ProposalQuery
	ProposalResponse    = apiclient.ProposalResponse
	ChangeOrderResponse = apiclient.ChangeOrderResponse
	PeopleQuery         = apiclient.PeopleQuery
	PeopleResponse      = apiclient.PeopleResponse
	ChangesResponse     = apiclient.ChangesResponse
	ExportQuery         = apiclient.ExportQuery
	ExportProgress      = apiclient.ExportProgress
	APIError            = apiclient.APIError
	NetworkError        = apiclient.NetworkError
	CertificateError    = apiclient.CertificateError
	ClockError          = apiclient.ClockError
)

// ContentTypeJSON is the Content-Type of every write.
const ContentTypeJSON = apiclient.ContentTypeJSON

// Retry defaults.
const (
	DefaultMaxAttempts   = apiclient.DefaultMaxAttempts
	DefaultBackoffBase   = apiclient.DefaultBackoffBase
	DefaultBackoffCap    = apiclient.DefaultBackoffCap
	DefaultMaxRetryAfter = apiclient.DefaultMaxRetryAfter
	DefaultTimeout       = apiclient.DefaultTimeout
)

var (
	ErrUnreachable      = apiclient.ErrUnreachable
	ErrCertificate      = apiclient.ErrCertificate
	ErrClockSkew        = apiclient.ErrClockSkew
	ErrExportIncomplete = apiclient.ErrExportIncomplete

	LoadConnection    = apiclient.LoadConnection
	NewIdempotencyKey = apiclient.NewIdempotencyKey
	ParseETag         = apiclient.ParseETag
	WithHTTPClient    = apiclient.WithHTTPClient
	WithClock         = apiclient.WithClock
	WithSleep         = apiclient.WithSleep
	WithRandom        = apiclient.WithRandom
	WithMaxAttempts   = apiclient.WithMaxAttempts
	WithBackoff       = apiclient.WithBackoff
	WithMaxRetryAfter = apiclient.WithMaxRetryAfter
	WithTimeout       = apiclient.WithTimeout
	WithUserKey       = apiclient.WithUserKey
	WithUserAgent     = apiclient.WithUserAgent
)

// call, response, send, decode and the paths are the client's, in the
// shape mutations.go writes them.
type call struct {
	method    string
	path      string
	query     url.Values
	body      any
	opts      WriteOptions
	anonymous bool
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (c *Client) send(ctx context.Context, cl call) (*response, error) {
	r, err := c.Send(ctx, apiclient.Call{Method: cl.method, Path: cl.path, Query: cl.query,
		Body: cl.body, Opts: cl.opts, Anonymous: cl.anonymous})
	if err != nil {
		return nil, err
	}
	return &response{status: r.Status, header: r.Header, body: r.Body}, nil
}

func decode[T any](resp *response, what string) (T, error) {
	return apiclient.Decode[T](&apiclient.Response{Status: resp.status, Header: resp.header, Body: resp.body}, what)
}

func personPath(id int64) string { return apiclient.PersonPath(id) }

// setAnswered installs the hook called after every HTTP answer.
func (c *Client) setAnswered(fn func()) { c.SetAnswered(fn) }
